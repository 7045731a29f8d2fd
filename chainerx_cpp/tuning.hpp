// The tuning of the kernels in one place: when a loop or a oneDNN
// primitive runs on several threads, and which instruction sets the loops
// are compiled for.
#pragma once

#include <cstdint>

// On x86-64 with glibc 2.35 or later, the loops marked CHAINERX_CPP_CLONES
// are compiled several times (AVX-512, AVX2 and the baseline), the best one
// for the running CPU being chosen at load time, and tanh and expm1 inside
// a `#pragma omp simd` loop are computed by the vector functions of libmvec
// (see loops.hpp).
#if defined(__GLIBC__) && defined(__x86_64__) && defined(_OPENMP)
#if __GLIBC_PREREQ(2, 35)
#define CHAINERX_CPP_VECTOR_MATH 1
#endif
#endif

#if defined(CHAINERX_CPP_VECTOR_MATH)
#define CHAINERX_CPP_CLONES \
    __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CHAINERX_CPP_CLONES
#endif

namespace chainerx_cpp {

// Work below these sizes runs on the calling thread alone. Above them two
// threads win even when the OpenMP team sleeps and must be woken: on two
// cores of a Xeon, ReLU over 2^16 float32 elements took 11 us on
// one thread and 7 us on two called back to back, 38 and 31 us after a
// 2 ms pause; over 2^19, 173 and 71 us. (On cores shared with other
// work, waking the team can cost more.)

// Elements of a memory-bound element-wise loop (activations, optimizer
// updates, the embedding gradient).
constexpr int64_t kParallelGrain = 1 << 16;

// Elements of a loop that computes several transcendentals an element, or
// reads each element several times (the LSTM cell, pooling): half as many.
constexpr int64_t kParallelGrainHeavy = 1 << 15;

// Elements of a kernel that sweeps rows or channels more than once
// (softmax, batch normalization, layout copies).
constexpr int64_t kParallelGrainRows = 1 << 16;

// Multiply-adds of a matrix product.
constexpr int64_t kParallelMultiplyAdds = 1 << 17;

}  // namespace chainerx_cpp
