#pragma once
// Compiler portability macros shared by the whole core.

#if defined(__GNUC__) || defined(__clang__)
#define PYD2KE_HAS_VECTOR_EXTENSIONS 1
#define PYD2KE_ALWAYS_INLINE inline __attribute__((always_inline))
#define PYD2KE_RESTRICT __restrict__
#else
#define PYD2KE_HAS_VECTOR_EXTENSIONS 0
#define PYD2KE_ALWAYS_INLINE inline
#define PYD2KE_RESTRICT
#endif

#if PYD2KE_HAS_VECTOR_EXTENSIONS && (defined(__x86_64__) || defined(__i386__))
#define PYD2KE_X86_DISPATCH 1
#else
#define PYD2KE_X86_DISPATCH 0
#endif
