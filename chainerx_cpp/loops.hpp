// Shared pieces of the hand-written loop kernels (element-wise
// activations, the LSTM cell, the embedding gradient, optimizer updates):
// typed access to NumPy buffers, argument checks, the float32/float64
// dispatch and vectorisable tanh.
//
// Where tuning.hpp enables CHAINERX_CPP_VECTOR_MATH, tanh and expm1 inside
// a `#pragma omp simd` loop are computed by the vector functions of libmvec
// (which libm pulls in), so that the transcendental loops vectorise like
// the arithmetic ones.
//
// setup.py compiles them with -fno-math-errno (std::sqrt vectorises),
// -fno-trapping-math (the selects of ReLU's gradient vectorise) and
// -ffp-contract=off (no fused multiply-adds: each operation rounds as in
// NumPy, so that the optimizer updates equal NumPy's bit for bit).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"

#if defined(CHAINERX_CPP_VECTOR_MATH)
extern "C" {
#pragma omp declare simd notinbranch
float tanhf(float) noexcept;
#pragma omp declare simd notinbranch
double expm1(double) noexcept;
}
#endif

namespace chainerx_cpp {
namespace loops {

inline float tanh_of(float x) { return ::tanhf(x); }

// The vector tanh of libmvec is slower in float64 than this form through
// expm1, which is as accurate (a few ulp) and cannot overflow.
inline double tanh_of(double x) {
    const double t = ::expm1(-2 * std::fabs(x));
    return std::copysign(-t / (t + 2), x);
}

// The logistic sigmoid as tanh(x / 2) / 2 + 1 / 2, Chainer's stable form.
template <typename T>
inline T sigmoid_of(T x) {
    const T half = T(0.5);
    return tanh_of(x * half) * half + half;
}

template <typename T>
const T* in(const array& a) {
    return static_cast<const T*>(a.data());
}

template <typename T>
T* out(array& a) {
    return static_cast<T*>(a.mutable_data());
}

// Checks that `b` is a C-contiguous array of the dtype and shape of `a`.
inline void require_like(const array& a, const array& b, const char* name) {
    require_contiguous(b, name, -1);
    if (!b.dtype().equal(a.dtype())) {
        throw std::invalid_argument(
            std::string(name) + " has a different dtype");
    }
    if (shape_of(b) != shape_of(a)) {
        throw std::invalid_argument(
            std::string(name) + " has a different shape");
    }
}

// Calls f(T{}) with T the element type of the float array `a`.
template <typename F>
decltype(auto) with_float(const array& a, F&& f) {
    if (is_float(a, 4)) return f(float{});
    if (is_float(a, 8)) return f(double{});
    throw std::invalid_argument("the kernel takes float32 or float64 arrays");
}

}  // namespace loops
}  // namespace chainerx_cpp
