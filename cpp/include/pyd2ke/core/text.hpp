#pragma once
// TextView: a non-owning string of 1-, 2- or 4-byte code units. It lets one
// call take byte strings, UCS-2 and UTF-32 text (Python's three str layouts)
// without copying or converting them first.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pyd2ke {

struct TextView {
    const void* data = nullptr;
    std::size_t size = 0;        // number of code units
    unsigned char unit_bytes = 1;  // 1, 2 or 4

    TextView() = default;
    TextView(const void* data_, std::size_t size_, unsigned char unit_bytes_)
        : data(data_), size(size_), unit_bytes(unit_bytes_) {
        if (unit_bytes_ != 1 && unit_bytes_ != 2 && unit_bytes_ != 4)
            throw std::invalid_argument("TextView: unit_bytes must be 1, 2 or 4");
    }
    TextView(std::string_view s) : data(s.data()), size(s.size()), unit_bytes(1) {}
    TextView(std::u16string_view s) : data(s.data()), size(s.size()), unit_bytes(2) {}
    TextView(std::u32string_view s) : data(s.data()), size(s.size()), unit_bytes(4) {}
    // String literals and C strings (without these, "abc" was ambiguous
    // between the string_view and std::string constructors).
    TextView(const char* s) : TextView(std::string_view(s)) {}
    TextView(const char16_t* s) : TextView(std::u16string_view(s)) {}
    TextView(const char32_t* s) : TextView(std::u32string_view(s)) {}
    TextView(const std::string& s) : TextView(std::string_view(s)) {}
    TextView(const std::u16string& s) : TextView(std::u16string_view(s)) {}
    TextView(const std::u32string& s) : TextView(std::u32string_view(s)) {}
    TextView(const std::vector<std::uint32_t>& s) : data(s.data()), size(s.size()), unit_bytes(4) {}
};

// Calls f(pointer, size) with the pointer typed by the code unit width.
// Bytes are read as unsigned, so byte values 128..255 are symbols like any other.
template <class F>
decltype(auto) visit_text(const TextView& t, F&& f) {
    switch (t.unit_bytes) {
        case 1: return f(static_cast<const std::uint8_t*>(t.data), t.size);
        case 2: return f(static_cast<const std::uint16_t*>(t.data), t.size);
        default: return f(static_cast<const std::uint32_t*>(t.data), t.size);
    }
}

// The code points of a text, widened to 32 bits.
inline std::vector<std::uint32_t> to_code_points(const TextView& t) {
    return visit_text(t, [](auto p, std::size_t n) { return std::vector<std::uint32_t>(p, p + n); });
}

}  // namespace pyd2ke
