#pragma once
// Large output buffers: memory hints, uninitialised vectors, arrays grown in place.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace pyd2ke {

// Asks the kernel to back [data, data + bytes) with transparent huge pages
// where it can (Linux with THP in "madvise" mode; elsewhere nothing happens).
// A buffer of hundreds of MB is then first touched in 2 MiB pages rather
// than 4 KiB ones: a few hundred page faults instead of a hundred thousand.
// Only whole 2 MiB pages inside the range are advised.
inline void advise_huge_pages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
    const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // a hint: errors ignored
#else
    (void)data;
    (void)bytes;
#endif
}

// An allocator that leaves resize()d elements uninitialised (value-initialised
// only when a value is given): a large output that threads fill in parallel
// is then not first zeroed by one thread, which would be a serial pass over
// the whole buffer and would first-touch every page from that thread.
template <class T>
struct DefaultInitAllocator {
    using value_type = T;
    DefaultInitAllocator() = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return std::allocator<T>{}.allocate(n); }
    void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>{}.deallocate(p, n); }
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible<U>::value) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    template <class U>
    bool operator==(const DefaultInitAllocator<U>&) const noexcept { return true; }
    template <class U>
    bool operator!=(const DefaultInitAllocator<U>&) const noexcept { return false; }
};

// A vector whose resize() does not write the new elements.
template <class T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

// An array of trivially copyable T that grows in place, its capacity at
// least doubled each time. A large one (an output of hundreds of MB built
// chunk by chunk) is, on Linux, one anonymous mapping advised whole for
// huge pages and grown by mremap, which moves the pages and copies nothing:
// each chunk's values are written once, straight into place. (Huge-page
// advice on part of a malloc'ed block would split its mapping, and mremap
// cannot move a range of several mappings: realloc then copied the whole
// array at every step.) Below kMapBytes, and elsewhere, it lives on the
// heap and grows by realloc: a mapping for a few values cost a fresh
// zeroed huge page each (0.5 ms for the CSR of one string, against 20 us).
// kMapBytes is one huge page: the move from the heap to a mapping copies
// the values once, on one thread; at 8 MB that copy (labels and counts of
// ESP sketches) was 7 ms of a 0.35 s transform, 2 % of it serial.
template <class T>
class GrowableArray {
    static_assert(std::is_trivially_copyable<T>::value, "GrowableArray holds trivially copyable values");

public:
    GrowableArray() = default;
    GrowableArray(const GrowableArray&) = delete;
    GrowableArray& operator=(const GrowableArray&) = delete;
    GrowableArray(GrowableArray&& other) noexcept { swap(other); }
    GrowableArray& operator=(GrowableArray&& other) noexcept {
        swap(other);
        return *this;
    }
    ~GrowableArray() { free_buffer(); }

    using value_type = T;

    // New elements are left unwritten; a smaller size keeps the memory.
    void resize(std::size_t n) {
        if (n * sizeof(T) > capacity_) grow(std::max(n * sizeof(T), 2 * capacity_));
        size_ = n;
    }
    void push_back(T value) {
        if ((size_ + 1) * sizeof(T) > capacity_) grow(std::max((size_ + 1) * sizeof(T), 2 * capacity_));
        data_[size_++] = value;
    }
    // The capacity cut to the size: a finished array need not hold the
    // rest of its last doubling.
    void shrink_to_fit() {
        if (data_ == nullptr || size_ == 0) return;
        const std::size_t bytes = size_ * sizeof(T);
#if defined(__linux__)
        if (mapped_) {
            const std::size_t kept = round_up(bytes, kPageBytes);
            if (kept < capacity_ && munmap(reinterpret_cast<char*>(data_) + kept, capacity_ - kept) == 0)
                capacity_ = kept;
            return;
        }
#endif
        if (void* p = std::realloc(data_, bytes)) {
            data_ = static_cast<T*>(p);
            capacity_ = bytes;
        }
    }
    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    T& operator[](std::size_t i) noexcept { return data_[i]; }
    const T& operator[](std::size_t i) const noexcept { return data_[i]; }

private:
    static constexpr std::size_t kPageBytes = std::size_t{1} << 12;
    static constexpr std::size_t kHugePageBytes = std::size_t{1} << 21;
    static constexpr std::size_t kMapBytes = std::size_t{2} << 20;
    static std::size_t round_up(std::size_t bytes, std::size_t unit) { return (bytes + unit - 1) & ~(unit - 1); }

    void swap(GrowableArray& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
        std::swap(mapped_, other.mapped_);
    }

    void grow(std::size_t bytes) {
#if defined(__linux__)
        if (bytes >= kMapBytes) {
            bytes = round_up(bytes, kHugePageBytes);
            void* p;
            if (mapped_) {
                p = mremap(data_, capacity_, bytes, MREMAP_MAYMOVE);
            } else {  // from the heap to a mapping: at most kMapBytes copied, once
                p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p != MAP_FAILED && data_ != nullptr) std::memcpy(p, data_, size_ * sizeof(T));
            }
            if (p == MAP_FAILED) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
            madvise(p, bytes, MADV_HUGEPAGE);  // the whole mapping: a hint, errors ignored
#endif
            if (!mapped_) std::free(data_);
            data_ = static_cast<T*>(p);
            capacity_ = bytes;
            mapped_ = true;
            return;
        }
#endif
        void* p = std::realloc(data_, bytes);
        if (p == nullptr) throw std::bad_alloc();
        data_ = static_cast<T*>(p);
        capacity_ = bytes;
    }

    void free_buffer() noexcept {
#if defined(__linux__)
        if (mapped_) {
            munmap(data_, capacity_);
            return;
        }
#endif
        std::free(data_);
    }

    T* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;  // bytes
    bool mapped_ = false;       // an mmap'ed mapping (Linux, large), else the heap
};

}  // namespace pyd2ke
