// The lane kernels of one instruction set, compiled once per ISA by
// core/simd_dispatch.hpp (see levenshtein_lanes_impl.hpp). No include guard
// on purpose.

#if PYD2KE_SIMD_VECTOR_BYTES
// Replaces every lane of a vector by its number of set bits (at most 64, so
// it fits the lane's low byte): bit counts of pairs, nibbles, then bytes,
// then the bytes of a lane added into its low byte. In-out reference: a
// vector passed by value would change the ABI with the target.
template <class V, class Lane>
PYD2KE_ALWAYS_INLINE void lane_popcount(V& x) {
    const auto splat = [](unsigned char byte) {
        std::uint64_t pattern = 0x0101010101010101ull * byte;
        Lane lane;
        std::memcpy(&lane, &pattern, sizeof(Lane));
        return lane;
    };
    x = x - ((x >> 1) & splat(0x55));
    x = (x & splat(0x33)) + ((x >> 2) & splat(0x33));
    x = (x + (x >> 4)) & splat(0x0f);
    for (std::size_t shift = 8; shift < 8 * sizeof(Lane); shift *= 2) x = x + (x >> shift);
    x &= static_cast<Lane>(0xff);
}

// One lane group as kRegistersPerGroup registers of the ISA's native width
// (one vector type wider than the ISA's would make GCC spill it to the
// stack).
template <class Lane, std::size_t VecBytes>
PYD2KE_ALWAYS_INLINE void myers_lanes_vector(const unsigned char* peq, const unsigned char* masks,
                                             const std::uint32_t* ids, std::size_t n, std::uint32_t* dist) {
    typedef Lane V __attribute__((vector_size(VecBytes)));
    constexpr std::size_t k_regs = kRegistersPerGroup;
    constexpr std::size_t group_bytes = VecBytes * k_regs;
    V pv[k_regs], mv[k_regs];
    for (std::size_t k = 0; k < k_regs; ++k) {
        pv[k] = ~V{};
        mv[k] = V{};
    }
    for (std::size_t t = 0; t < n; ++t) {
        const unsigned char* row = peq + static_cast<std::size_t>(ids[t]) * group_bytes;
        for (std::size_t k = 0; k < k_regs; ++k) {
            V eq;
            std::memcpy(&eq, row + k * VecBytes, VecBytes);
            // The Myers step with the horizontal +1 deltas kept complemented
            // (not_hp = ~hp): 13 operations instead of 16, because x86 has
            // and-not but no or-not. Since (~hp << 1) == ~((hp << 1) | 1),
            // the shifted complement also brings in the +1 of DP row 0.
            const V x = eq | mv[k];
            const V d0 = (((x & pv[k]) + pv[k]) ^ pv[k]) | x;
            V not_hp = (d0 | pv[k]) & ~mv[k];
            V hn = pv[k] & d0;
            not_hp = not_hp + not_hp;  // shift left by one (x86 has no 8-bit lane shift)
            hn = hn + hn;
            pv[k] = hn | (~d0 & not_hp);
            mv[k] = d0 & ~not_hp;
        }
    }
    // The distances, n + popcount(Pv) - popcount(Mv) over each pattern's
    // bits, counted in the vectors: a scalar loop over up to 256 lanes
    // would cost more than the whole Myers pass over a short text.
    constexpr std::size_t lanes_per_register = VecBytes / sizeof(Lane);
    alignas(64) Lane plus[group_bytes / sizeof(Lane)];
    alignas(64) Lane minus[group_bytes / sizeof(Lane)];
    for (std::size_t k = 0; k < k_regs; ++k) {
        V mask;
        std::memcpy(&mask, masks + k * VecBytes, VecBytes);
        V p = pv[k] & mask, m = mv[k] & mask;
        lane_popcount<V, Lane>(p);
        lane_popcount<V, Lane>(m);
        std::memcpy(plus + k * lanes_per_register, &p, VecBytes);
        std::memcpy(minus + k * lanes_per_register, &m, VecBytes);
    }
    const auto base = static_cast<std::uint32_t>(n);
    for (std::size_t l = 0; l < group_bytes / sizeof(Lane); ++l)
        dist[l] = base + static_cast<std::uint32_t>(plus[l]) - static_cast<std::uint32_t>(minus[l]);
}

template <class Lane>
inline void myers_lanes(const unsigned char* peq, const unsigned char* masks, const std::uint32_t* ids,
                        std::size_t n, std::uint32_t* dist) {
    myers_lanes_vector<Lane, Isa::vector_bytes>(peq, masks, ids, n, dist);
}

// A word group: one register of 64-bit lanes per word, the horizontal delta
// carried from word to word as two bit vectors (hp: +1, hn: -1), without a
// branch (levenshtein_myers_impl.hpp).
inline void myers_words(const std::uint64_t* peq, const std::uint64_t* masks, std::size_t words,
                        const std::uint32_t* ids, std::size_t n, std::uint32_t* dist) {
    constexpr std::size_t vec_bytes = Isa::vector_bytes;
    constexpr std::size_t lanes = vec_bytes / sizeof(std::uint64_t);
    typedef std::uint64_t V __attribute__((vector_size(vec_bytes)));
    WordLaneState<lanes> state(words);
    std::uint64_t* pv_lanes = state.data();
    std::uint64_t* mv_lanes = pv_lanes + words * lanes;
    const V ones = ~V{}, zero = V{};
    for (std::size_t w = 0; w < words; ++w) {
        std::memcpy(pv_lanes + w * lanes, &ones, vec_bytes);
        std::memcpy(mv_lanes + w * lanes, &zero, vec_bytes);
    }
    const V one = zero + 1;
    for (std::size_t t = 0; t < n; ++t) {
        const std::uint64_t* row = peq + static_cast<std::size_t>(ids[t]) * words * lanes;
        V hp = one, hn = zero;  // row 0 of the DP grows by one per text symbol
        for (std::size_t w = 0; w < words; ++w) {
            V eq, p, q;
            std::memcpy(&eq, row + w * lanes, vec_bytes);
            std::memcpy(&p, pv_lanes + w * lanes, vec_bytes);
            std::memcpy(&q, mv_lanes + w * lanes, vec_bytes);
            const V xv = eq | q;
            eq |= hn;
            const V xh = (((eq & p) + p) ^ p) | eq;
            V ph = q | ~(xh | p);
            V mh = p & xh;
            const V hp_out = ph >> 63, hn_out = mh >> 63;
            ph = (ph << 1) | hp;
            mh = (mh << 1) | hn;
            p = mh | ~(xv | ph);
            q = ph & xv;
            std::memcpy(pv_lanes + w * lanes, &p, vec_bytes);
            std::memcpy(mv_lanes + w * lanes, &q, vec_bytes);
            hp = hp_out;
            hn = hn_out;
        }
    }
    word_lane_distances<lanes>(pv_lanes, mv_lanes, masks, words, n, dist);
}

inline LanesKernels kernel_table(SimdTableTag<LanesKernels>, Isa) {
    return {{myers_lanes<std::uint8_t>, myers_lanes<std::uint16_t>, myers_lanes<std::uint32_t>,
             myers_lanes<std::uint64_t>},
            Isa::vector_bytes * kRegistersPerGroup,
            myers_words,
            Isa::vector_bytes / sizeof(std::uint64_t)};
}
#else
inline LanesKernels kernel_table(SimdTableTag<LanesKernels>, Isa) {
    return {{myers_lanes_portable<std::uint8_t>, myers_lanes_portable<std::uint16_t>,
             myers_lanes_portable<std::uint32_t>, myers_lanes_portable<std::uint64_t>},
            kPortableGroupBytes,
            myers_words_portable,
            kPortableWordLanes};
}
#endif
