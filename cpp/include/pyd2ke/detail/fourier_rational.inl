// Rational approximations of the hashed Fourier weights, for double and for
// the vector types of one instruction set: included at detail scope by
// hashed_fourier_impl.hpp and again inside each ISA namespace by
// hashed_fourier_simd.inl, where the target pragma of that ISA covers them
// (clang refuses a vector argument to a function compiled without the ISA,
// and GCC warns of its ABI in the caller's file). No include guard on purpose.

// The inverse normal CDF for kAcklamLow <= u <= 1 - kAcklamLow (Acklam's
// central region).
template <class V>
PYD2KE_ALWAYS_INLINE V inverse_normal_centre(V u) {
    const V q = u - 0.5;
    const V r = q * q;
    const V num = (((((kAcklamA[0] * r + kAcklamA[1]) * r + kAcklamA[2]) * r + kAcklamA[3]) * r + kAcklamA[4]) * r +
                   kAcklamA[5]) *
                  q;
    const V den = ((((kAcklamB[0] * r + kAcklamB[1]) * r + kAcklamB[2]) * r + kAcklamB[3]) * r + kAcklamB[4]) * r + 1.0;
    return num / den;
}

// tan(x) = num / den for 0 <= x <= pi/4: Cephes' rational approximation,
// x + x z P(z) / Q(z) with z = x^2, as one fraction so that a caller wanting
// cot(x) divides the other way round (one division either way).
template <class V>
PYD2KE_ALWAYS_INLINE void tan_fraction(V x, V& num, V& den) {
    const V z = x * x;
    const V p = (-1.30936939181383777646e4 * z + 1.15351664838587416140e6) * z - 1.79565251976484877988e7;
    den = (((z + 1.36812963470692954678e4) * z - 1.32089234440210967447e6) * z + 2.50083801823357915839e7) * z -
          5.38695755929454629881e7;
    num = x * den + x * z * p;
}
