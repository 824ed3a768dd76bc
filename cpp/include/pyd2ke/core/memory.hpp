#pragma once
// Memory hints for large, freshly allocated output buffers.

#include <cstddef>
#include <cstdint>
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

}  // namespace pyd2ke
