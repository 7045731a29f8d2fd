// Element-wise activations and their gradients (ReLU, sigmoid and tanh),
// and the sum, difference and product of two arrays.
//
// Each kernel is one pass over C-contiguous float32 or float64 arrays with
// the formulas of Chainer's NumPy code: relu(x) = max(x, 0) (NaN kept),
// its gradient gy * (y > 0) from the output y, the sigmoid as
// tanh(x / 2) / 2 + 1 / 2 with gradient gy * y * (1 - y), and tanh with
// gradient gy * (1 - y * y). a + b, a - b and a * b are NumPy's, each
// rounded once; they run on two threads on large arrays, where NumPy's run
// on one.
#include "loops.hpp"

namespace chainerx_cpp {
namespace {

using loops::in;
using loops::out;

struct Relu {
    template <typename T>
    static T f(T x) {
        return ((x > 0) | (x != x)) ? x : T(0);
    }
};

struct ReluGrad {
    template <typename T>
    static T f(T y, T gy) {
        return gy * (y > 0 ? T(1) : T(0));
    }
};

struct Sigmoid {
    template <typename T>
    static T f(T x) {
        return loops::sigmoid_of(x);
    }
};

struct SigmoidGrad {
    template <typename T>
    static T f(T y, T gy) {
        return gy * y * (T(1) - y);
    }
};

struct Tanh {
    template <typename T>
    static T f(T x) {
        return loops::tanh_of(x);
    }
};

struct TanhGrad {
    template <typename T>
    static T f(T y, T gy) {
        return (T(1) - y * y) * gy;
    }
};

struct Sum {
    template <typename T>
    static T f(T a, T b) {
        return a + b;
    }
};

struct Difference {
    template <typename T>
    static T f(T a, T b) {
        return a - b;
    }
};

struct Product {
    template <typename T>
    static T f(T a, T b) {
        return a * b;
    }
};

template <typename Op, typename T>
CHAINERX_CPP_CLONES void unary_loop(const T* x, T* y, int64_t n) {
#pragma omp parallel for simd schedule(static) \
    if (parallel : n >= kParallelGrain)
    for (int64_t k = 0; k < n; ++k) y[k] = Op::f(x[k]);
}

template <typename Op, typename T>
CHAINERX_CPP_CLONES void binary_loop(const T* a, const T* b, T* y,
                                     int64_t n) {
#pragma omp parallel for simd schedule(static) \
    if (parallel : n >= kParallelGrain)
    for (int64_t k = 0; k < n; ++k) y[k] = Op::f(a[k], b[k]);
}

// y = Op(x), a new array.
template <typename Op>
array unary(const array& x) {
    require_float(x, "x");
    array y = empty_like_dtype(x, shape_of(x));
    loops::with_float(x, [&](auto zero) {
        using T = decltype(zero);
        const T* px = in<T>(x);
        T* py = out<T>(y);
        const int64_t n = x.size();
        py::gil_scoped_release release;
        unary_loop<Op>(px, py, n);
    });
    return y;
}

// Op(a, b), a new array: a sum, difference or product, or a gradient
// computed from the output a = y and b = gy.
template <typename Op>
array binary(const array& a, const array& b) {
    require_float(a, "first operand");
    loops::require_like(a, b, "second operand");
    array result = empty_like_dtype(b, shape_of(b));
    loops::with_float(a, [&](auto zero) {
        using T = decltype(zero);
        const T* pa = in<T>(a);
        const T* pb = in<T>(b);
        T* pr = out<T>(result);
        const int64_t n = a.size();
        py::gil_scoped_release release;
        binary_loop<Op>(pa, pb, pr, n);
    });
    return result;
}

}  // namespace

void register_eltwise(py::module_& m) {
    m.def("relu_forward", &unary<Relu>, py::arg("x"),
          "max(x, 0) element-wise, NaN kept.");
    m.def("relu_backward", &binary<ReluGrad>, py::arg("y"),
          py::arg("gy"), "gy * (y > 0), from the output y of ReLU.");
    m.def("sigmoid_forward", &unary<Sigmoid>, py::arg("x"),
          "The logistic sigmoid, as tanh(x / 2) / 2 + 1 / 2.");
    m.def("sigmoid_backward", &binary<SigmoidGrad>, py::arg("y"),
          py::arg("gy"), "gy * y * (1 - y), from the output y.");
    m.def("tanh_forward", &unary<Tanh>, py::arg("x"), "tanh(x).");
    m.def("tanh_backward", &binary<TanhGrad>, py::arg("y"),
          py::arg("gy"), "gy * (1 - y * y), from the output y.");
    m.def("add", &binary<Sum>, py::arg("a"), py::arg("b"),
          "a + b element-wise, for arrays of one shape and dtype.");
    m.def("subtract", &binary<Difference>, py::arg("a"), py::arg("b"),
          "a - b element-wise, for arrays of one shape and dtype.");
    m.def("multiply", &binary<Product>, py::arg("a"), py::arg("b"),
          "a * b element-wise, for arrays of one shape and dtype.");
}

}  // namespace chainerx_cpp
