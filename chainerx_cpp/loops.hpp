// Shared pieces of the hand-written loop kernels (element-wise
// activations, the LSTM cell, the embedding gradient, optimizer updates):
// typed access to NumPy buffers, argument checks, the float32/float64
// dispatch and vectorisable tanh.
//
// On x86-64 with glibc 2.35 or later, the loops are compiled several
// times (AVX-512, AVX2 and the baseline), the best one for the running CPU
// being chosen at load time, and tanh and expm1 inside a `#pragma omp simd`
// loop are computed by the vector functions of libmvec (which libm pulls
// in), so that the transcendental loops vectorise like the arithmetic ones.
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

#if defined(__GLIBC__) && defined(__x86_64__) && defined(_OPENMP)
#if __GLIBC_PREREQ(2, 35)
#define CHAINERX_CPP_VECTOR_MATH 1
#endif
#endif

#if defined(CHAINERX_CPP_VECTOR_MATH)
extern "C" {
#pragma omp declare simd notinbranch
float tanhf(float) noexcept;
#pragma omp declare simd notinbranch
double expm1(double) noexcept;
}
#define CHAINERX_CPP_CLONES \
    __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CHAINERX_CPP_CLONES
#endif

namespace chainerx_cpp {
namespace loops {

// Loops over fewer elements than this run on one thread. One thread does
// such a memory-bound loop in well under a millisecond, while waking the
// sleeping threads of the OpenMP team can cost about as much on a busy
// machine (measured: 0.5 ms on two shared cores).
constexpr int64_t kParallelGrain = 1 << 20;

// The same for loops that compute several transcendentals an element.
constexpr int64_t kParallelGrainHeavy = 1 << 17;

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
