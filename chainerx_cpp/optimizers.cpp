// In-place optimizer updates of chainer.optimizers, one pass over each
// parameter: SGD, MomentumSGD and Adam (with its AdamW, AMSGrad, AdaBound
// and AMSBound options).
//
// The parameter, its gradient and its state arrays are C-contiguous float32
// or float64 arrays of one shape and dtype. The hyperparameters arrive as
// Python floats and are rounded to the dtype of the parameter before use,
// and the arithmetic follows the order of Chainer's NumPy update, so that
// both give the same numbers.
#include "loops.hpp"

namespace chainerx_cpp {
namespace {

using loops::in;
using loops::out;

template <typename T>
CHAINERX_CPP_CLONES void sgd_loop(T* p, const T* g, int64_t n, T lr) {
#pragma omp parallel for simd schedule(static) \
    if (parallel : n >= kParallelGrain)
    for (int64_t k = 0; k < n; ++k) p[k] -= g[k] * lr;
}

template <typename T>
CHAINERX_CPP_CLONES void momentum_loop(T* p, const T* g, T* v, int64_t n,
                                       T lr, T momentum) {
#pragma omp parallel for simd schedule(static) \
    if (parallel : n >= kParallelGrain)
    for (int64_t k = 0; k < n; ++k) {
        const T vk = v[k] * momentum - g[k] * lr;
        v[k] = vk;
        p[k] += vk;
    }
}

// The hyperparameters of one Adam step, in the dtype of the parameter.
template <typename T>
struct AdamStep {
    T one_minus_beta1, one_minus_beta2, eps, alpha_t, lower, upper, eta,
        decay;
};

template <bool kAmsgrad, bool kBounded, typename T>
CHAINERX_CPP_CLONES void adam_loop(T* p, const T* g, T* m, T* v, T* vhat,
                                   int64_t n, AdamStep<T> s) {
#pragma omp parallel for simd schedule(static) \
    if (parallel : n >= kParallelGrain)
    for (int64_t k = 0; k < n; ++k) {
        const T gk = g[k];
        const T mk = m[k] + (gk - m[k]) * s.one_minus_beta1;
        const T vk = v[k] + (gk * gk - v[k]) * s.one_minus_beta2;
        m[k] = mk;
        v[k] = vk;
        T vh = vk;
        if (kAmsgrad) {
            // max(vhat, v) with NaN propagated, as numpy.maximum.
            vh = vhat[k];
            if (vh < vk || vk != vk) vh = vk;
            vhat[k] = vh;
        }
        T step = s.alpha_t / (std::sqrt(vh) + s.eps);
        if (kBounded) {
            // numpy.clip: NaN stays NaN.
            if (step < s.lower) step = s.lower;
            if (step > s.upper) step = s.upper;
        }
        p[k] = p[k] * s.decay - step * mk * s.eta;
    }
}

void sgd(array param, const array& grad, double lr) {
    require_float(param, "param");
    loops::require_like(param, grad, "grad");
    loops::with_float(param, [&](auto zero) {
        using T = decltype(zero);
        T* p = out<T>(param);
        const T* g = in<T>(grad);
        const int64_t n = param.size();
        py::gil_scoped_release release;
        sgd_loop(p, g, n, static_cast<T>(lr));
    });
}

void momentum_sgd(array param, const array& grad, array v, double lr,
                  double momentum) {
    require_float(param, "param");
    loops::require_like(param, grad, "grad");
    loops::require_like(param, v, "v");
    loops::with_float(param, [&](auto zero) {
        using T = decltype(zero);
        T* p = out<T>(param);
        const T* g = in<T>(grad);
        T* pv = out<T>(v);
        const int64_t n = param.size();
        py::gil_scoped_release release;
        momentum_loop(p, g, pv, n, static_cast<T>(lr),
                      static_cast<T>(momentum));
    });
}

// vhat is None without AMSGrad; bounds is None without AdaBound, else the
// (lower, upper) clip of the step. decay is 1 - eta * weight_decay_rate.
void adam(array param, const array& grad, array m, array v, py::object vhat,
          double alpha_t, double beta1, double beta2, double eps, double eta,
          double decay, std::optional<std::pair<double, double>> bounds) {
    require_float(param, "param");
    loops::require_like(param, grad, "grad");
    loops::require_like(param, m, "m");
    loops::require_like(param, v, "v");
    const bool amsgrad = !vhat.is_none();
    array vh;
    if (amsgrad) {
        vh = vhat.cast<array>();
        loops::require_like(param, vh, "vhat");
    }
    loops::with_float(param, [&](auto zero) {
        using T = decltype(zero);
        const auto bound = bounds.value_or(std::make_pair(0.0, 0.0));
        const AdamStep<T> s{
            static_cast<T>(1.0 - beta1), static_cast<T>(1.0 - beta2),
            static_cast<T>(eps), static_cast<T>(alpha_t),
            static_cast<T>(bound.first), static_cast<T>(bound.second),
            static_cast<T>(eta), static_cast<T>(decay)};
        T* p = out<T>(param);
        const T* g = in<T>(grad);
        T* pm = out<T>(m);
        T* pv = out<T>(v);
        T* pvh = amsgrad ? out<T>(vh) : nullptr;
        const int64_t n = param.size();
        const bool bounded = bounds.has_value();
        py::gil_scoped_release release;
        if (amsgrad && bounded) {
            adam_loop<true, true>(p, g, pm, pv, pvh, n, s);
        } else if (amsgrad) {
            adam_loop<true, false>(p, g, pm, pv, pvh, n, s);
        } else if (bounded) {
            adam_loop<false, true>(p, g, pm, pv, pvh, n, s);
        } else {
            adam_loop<false, false>(p, g, pm, pv, pvh, n, s);
        }
    });
}

}  // namespace

void register_optimizers(py::module_& m) {
    m.def("sgd_update", &sgd, py::arg("param"), py::arg("grad"),
          py::arg("lr"), "param -= lr * grad, in place.");
    m.def("momentum_sgd_update", &momentum_sgd, py::arg("param"),
          py::arg("grad"), py::arg("v"), py::arg("lr"), py::arg("momentum"),
          "v = momentum * v - lr * grad; param += v, in place.");
    m.def("adam_update", &adam, py::arg("param"), py::arg("grad"),
          py::arg("m"), py::arg("v"), py::arg("vhat"), py::arg("alpha_t"),
          py::arg("beta1"), py::arg("beta2"), py::arg("eps"), py::arg("eta"),
          py::arg("decay"), py::arg("bounds"),
          "One Adam step of param and its state m, v (and vhat), in place.");
}

}  // namespace chainerx_cpp
