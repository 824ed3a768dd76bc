#pragma once
// Memory hints for large, freshly allocated output buffers.

#include <cstddef>
#include <cstdint>

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

}  // namespace pyd2ke
