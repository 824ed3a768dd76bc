// The vector of doubles of the instruction set being compiled, with its
// unaligned load and store (one double in the portable build), for the
// kernel bodies (detail/*_simd.inl) that compute in double. Each body
// includes it inside its ISA's namespace; one guard per vector width, i.e.
// per ISA, defines it once per namespace however many bodies a translation
// unit compiles. No include guard on purpose.

#if PYD2KE_SIMD_VECTOR_BYTES == 0 && !defined(PYD2KE_DOUBLE_VEC_0)
#define PYD2KE_DOUBLE_VEC_0
#define PYD2KE_DOUBLE_VEC_DEFINE
#elif PYD2KE_SIMD_VECTOR_BYTES == 16 && !defined(PYD2KE_DOUBLE_VEC_16)
#define PYD2KE_DOUBLE_VEC_16
#define PYD2KE_DOUBLE_VEC_DEFINE
#elif PYD2KE_SIMD_VECTOR_BYTES == 32 && !defined(PYD2KE_DOUBLE_VEC_32)
#define PYD2KE_DOUBLE_VEC_32
#define PYD2KE_DOUBLE_VEC_DEFINE
#elif PYD2KE_SIMD_VECTOR_BYTES == 64 && !defined(PYD2KE_DOUBLE_VEC_64)
#define PYD2KE_DOUBLE_VEC_64
#define PYD2KE_DOUBLE_VEC_DEFINE
#endif

#ifdef PYD2KE_DOUBLE_VEC_DEFINE
#undef PYD2KE_DOUBLE_VEC_DEFINE
struct DoubleVec {
#if PYD2KE_SIMD_VECTOR_BYTES
    static constexpr std::size_t lanes = PYD2KE_SIMD_VECTOR_BYTES / 8;
    typedef double V __attribute__((vector_size(PYD2KE_SIMD_VECTOR_BYTES)));
#else
    static constexpr std::size_t lanes = 1;
    typedef double V;
#endif
    static PYD2KE_ALWAYS_INLINE V load(const double* p) {
        V v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    static PYD2KE_ALWAYS_INLINE void store(double* p, V v) { std::memcpy(p, &v, sizeof v); }
};
#endif
