// Batch normalization per channel of x (N, C) or x (N, C, spatial...):
// forward with the statistics of the batch or with given ones, and the
// gradients (gx, ggamma, gbeta). x is C-contiguous or channels-last (as
// the convolutions return it); y and gx have its layout, gy must too.
//
// (N, C) float32 arrays go through oneDNN's batch normalization primitive.
// With spatial axes oneDNN runs a slow generic loop on plain arrays (its
// JIT kernels want a channel-blocked layout, and the reorders cost more
// than they save), so those, in float32 or float64, go through the loops
// below, which follow Chainer's NumPy formulas: the variance from the
// centred values, inv_std = 1 / sqrt(var + eps) in the dtype of x.
//
// Chainer keeps inv_std for the backward pass; it reaches oneDNN as the
// variance 1 / inv_std**2 with an epsilon of zero, which gives back the
// same inverse standard deviation.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common.hpp"

namespace chainerx_cpp {
namespace {

using dnnl::normalization_flags;
using dnnl::prop_kind;

// Checks x (N, C, ...) and the per-channel arrays, all of one dtype:
// float32, or float64 where x has spatial axes.
int64_t channels_of(const array& x, std::initializer_list<const array*> per,
                    std::initializer_list<const char*> names) {
    require_plain(x, "x", -1);
    if (x.ndim() < 2) {
        throw std::invalid_argument("x must have at least two axes");
    }
    if (!is_float(x, 4) && !(x.ndim() > 2 && is_float(x, 8))) {
        throw std::invalid_argument(
            "x must be float32, or float64 with spatial axes");
    }
    const int64_t c = x.shape(1);
    auto name = names.begin();
    for (const array* a : per) {
        require_contiguous(*a, *name, 1);
        if (!a->dtype().equal(x.dtype()) || a->shape(0) != c) {
            throw std::invalid_argument(
                std::string(*name) +
                " must have x's dtype and one entry per channel");
        }
        ++name;
    }
    return c;
}

// ---- loops (x with spatial axes, viewed as (N, C, S)) --------------------

struct Planes {
    int64_t n, c, s;
};

Planes planes_of(const array& x) {
    return {x.shape(0), x.shape(1), x.size() / (x.shape(0) * x.shape(1))};
}

constexpr int kLanes = 16;

// The sums over the planes of channel ch of f(i) and g(i), i the flat
// index: sixteen partial sums in T per plane (which the compiler
// vectorizes), added up in double.
template <typename T, typename F, typename G>
void channel_sums(const Planes& p, int64_t ch, F f, G g, double* sf,
                  double* sg) {
    double total_f = 0, total_g = 0;
    for (int64_t b = 0; b < p.n; ++b) {
        const int64_t o = (b * p.c + ch) * p.s;
        T af[kLanes] = {}, ag[kLanes] = {};
        int64_t i = 0;
        for (; i + kLanes <= p.s; i += kLanes) {
            for (int k = 0; k < kLanes; ++k) {
                af[k] += f(o + i + k);
                ag[k] += g(o + i + k);
            }
        }
        for (; i < p.s; ++i) {
            af[0] += f(o + i);
            ag[0] += g(o + i);
        }
        for (int k = 0; k < kLanes; ++k) {
            total_f += af[k];
            total_g += ag[k];
        }
    }
    *sf = total_f;
    *sg = total_g;
}

template <typename T>
T inv_std_of(T var, double eps) {
    const T v = var + static_cast<T>(eps);
    return T(1) / std::sqrt(v);
}

// y = (x - mean) * (gamma * inv_std) + beta per channel; with `batch` the
// mean and the biased variance of x are computed first and written to
// mean and var, else they are the given statistics.
template <typename T>
void loop_forward(const Planes& p, const T* x, const T* gamma,
                  const T* beta, T* mean, T* var, double eps, bool batch,
                  T* y) {
    const double m = static_cast<double>(p.n * p.s);
#pragma omp parallel for if (p.n * p.c * p.s >= kParallelGrainRows)
    for (int64_t ch = 0; ch < p.c; ++ch) {
        if (batch) {
            const auto zero = [](int64_t) { return T(0); };
            double sum, sq, unused;
            channel_sums<T>(p, ch, [&](int64_t i) { return x[i]; }, zero,
                            &sum, &unused);
            const T mu = static_cast<T>(sum / std::max(m, 1.0));
            channel_sums<T>(p, ch, [&](int64_t i) {
                const T d = x[i] - mu;
                return d * d;
            }, zero, &sq, &unused);
            mean[ch] = mu;
            var[ch] = static_cast<T>(sq / std::max(m, 1.0));
        }
        const T mu = mean[ch];
        const T scale = gamma[ch] * inv_std_of(var[ch], eps);
        const T shift = beta[ch];
        for (int64_t b = 0; b < p.n; ++b) {
            const int64_t o = (b * p.c + ch) * p.s;
            for (int64_t i = 0; i < p.s; ++i) {
                y[o + i] = (x[o + i] - mu) * scale + shift;
            }
        }
    }
}

// gbeta = sum(gy), ggamma = sum(gy * x_hat) with x_hat = (x - mean) *
// inv_std; gx = gamma * inv_std * gy with constant statistics, else
// gamma * inv_std * (gy - (x_hat * ggamma + gbeta) / m).
template <typename T>
void loop_backward(const Planes& p, const T* x, const T* gamma,
                   const T* mean, const T* inv_std, const T* gy,
                   bool global_stats, T* gx, T* ggamma, T* gbeta) {
    const T inv_m = static_cast<T>(1.0 / std::max<double>(p.n * p.s, 1));
#pragma omp parallel for if (p.n * p.c * p.s >= kParallelGrainRows)
    for (int64_t ch = 0; ch < p.c; ++ch) {
        const T mu = mean[ch], is = inv_std[ch];
        double sum_gy, sum_gy_x_hat;
        channel_sums<T>(p, ch, [&](int64_t i) { return gy[i]; },
                        [&](int64_t i) { return gy[i] * ((x[i] - mu) * is); },
                        &sum_gy, &sum_gy_x_hat);
        const T gb = static_cast<T>(sum_gy), gg = static_cast<T>(sum_gy_x_hat);
        gbeta[ch] = gb;
        ggamma[ch] = gg;
        const T coeff = gamma[ch] * is;
        const T a = gg * inv_m, c0 = gb * inv_m;
        for (int64_t b = 0; b < p.n; ++b) {
            const int64_t o = (b * p.c + ch) * p.s;
            if (global_stats) {
                for (int64_t i = 0; i < p.s; ++i) gx[o + i] = gy[o + i] * coeff;
            } else {
                for (int64_t i = 0; i < p.s; ++i) {
                    const T x_hat = (x[o + i] - mu) * is;
                    gx[o + i] = (gy[o + i] - (x_hat * a + c0)) * coeff;
                }
            }
        }
    }
}

// ---- loops (channels-last x, viewed as (R, C) rows) ------------------------

struct Rows {
    int64_t r, c;
};

Rows rows_of(const array& x) { return {x.size() / x.shape(1), x.shape(1)}; }

// Rows summed in T before their sums join the totals in double (about
// as many terms as a lane of channel_sums takes from a 56x56 plane).
constexpr int64_t kRowBlock = 256;

// The sums per channel over all rows of f(i, ch) and g(i, ch), i the flat
// index: each block of rows summed in T (vectorized across the channels),
// the blocks' sums added up in double in block order, so that the result
// does not depend on the number of threads.
template <typename T, typename F, typename G>
void row_sums(const Rows& p, F f, G g, double* sf, double* sg) {
    const int64_t blocks = (p.r + kRowBlock - 1) / kRowBlock;
    std::vector<double> part(static_cast<size_t>(2 * p.c * blocks));
#pragma omp parallel if (p.r * p.c >= kParallelGrainRows)
    {
        std::vector<T> af(p.c), ag(p.c);
#pragma omp for schedule(static)
        for (int64_t b = 0; b < blocks; ++b) {
            std::fill(af.begin(), af.end(), T(0));
            std::fill(ag.begin(), ag.end(), T(0));
            const int64_t end = std::min(p.r, (b + 1) * kRowBlock);
            for (int64_t row = b * kRowBlock; row < end; ++row) {
                const int64_t o = row * p.c;
#pragma omp simd
                for (int64_t ch = 0; ch < p.c; ++ch) {
                    af[ch] += f(o + ch, ch);
                    ag[ch] += g(o + ch, ch);
                }
            }
            double* df = &part[static_cast<size_t>(2 * p.c * b)];
            for (int64_t ch = 0; ch < p.c; ++ch) {
                df[ch] = af[ch];
                df[p.c + ch] = ag[ch];
            }
        }
    }
    for (int64_t ch = 0; ch < p.c; ++ch) {
        double tf = 0, tg = 0;
        for (int64_t b = 0; b < blocks; ++b) {
            tf += part[static_cast<size_t>(2 * p.c * b + ch)];
            tg += part[static_cast<size_t>(2 * p.c * b + p.c + ch)];
        }
        sf[ch] = tf;
        sg[ch] = tg;
    }
}

// Each element f(i, ch) written to out[i], parallel over the rows.
template <typename T, typename F>
void row_map(const Rows& p, F f, T* out) {
#pragma omp parallel for schedule(static) if (p.r * p.c >= kParallelGrainRows)
    for (int64_t row = 0; row < p.r; ++row) {
        const int64_t o = row * p.c;
#pragma omp simd
        for (int64_t ch = 0; ch < p.c; ++ch) out[o + ch] = f(o + ch, ch);
    }
}

// loop_forward for rows.
template <typename T>
void rows_forward(const Rows& p, const T* x, const T* gamma, const T* beta,
                  T* mean, T* var, double eps, bool batch, T* y) {
    std::vector<double> s(p.c), unused(p.c);
    const auto zero = [](int64_t, int64_t) { return T(0); };
    if (batch) {
        const double m = std::max(static_cast<double>(p.r), 1.0);
        row_sums<T>(p, [&](int64_t i, int64_t) { return x[i]; }, zero,
                    s.data(), unused.data());
        for (int64_t ch = 0; ch < p.c; ++ch) {
            mean[ch] = static_cast<T>(s[ch] / m);
        }
        row_sums<T>(p, [&](int64_t i, int64_t ch) {
            const T d = x[i] - mean[ch];
            return d * d;
        }, zero, s.data(), unused.data());
        for (int64_t ch = 0; ch < p.c; ++ch) {
            var[ch] = static_cast<T>(s[ch] / m);
        }
    }
    std::vector<T> scale(p.c);
    for (int64_t ch = 0; ch < p.c; ++ch) {
        scale[ch] = gamma[ch] * inv_std_of(var[ch], eps);
    }
    const T* sc = scale.data();
    row_map(p, [&](int64_t i, int64_t ch) {
        return (x[i] - mean[ch]) * sc[ch] + beta[ch];
    }, y);
}

// loop_backward for rows.
template <typename T>
void rows_backward(const Rows& p, const T* x, const T* gamma, const T* mean,
                   const T* inv_std, const T* gy, bool global_stats, T* gx,
                   T* ggamma, T* gbeta) {
    const T inv_m = static_cast<T>(1.0 / std::max<double>(p.r, 1));
    std::vector<double> sum_gy(p.c), sum_gy_x_hat(p.c);
    row_sums<T>(p, [&](int64_t i, int64_t) { return gy[i]; },
                [&](int64_t i, int64_t ch) {
                    return gy[i] * ((x[i] - mean[ch]) * inv_std[ch]);
                }, sum_gy.data(), sum_gy_x_hat.data());
    std::vector<T> coeff(p.c), a(p.c), c0(p.c);
    for (int64_t ch = 0; ch < p.c; ++ch) {
        gbeta[ch] = static_cast<T>(sum_gy[ch]);
        ggamma[ch] = static_cast<T>(sum_gy_x_hat[ch]);
        coeff[ch] = gamma[ch] * inv_std[ch];
        a[ch] = ggamma[ch] * inv_m;
        c0[ch] = gbeta[ch] * inv_m;
    }
    const T *pc = coeff.data(), *pa = a.data(), *p0 = c0.data();
    if (global_stats) {
        row_map(p, [&](int64_t i, int64_t ch) { return gy[i] * pc[ch]; }, gx);
        return;
    }
    row_map(p, [&](int64_t i, int64_t ch) {
        const T x_hat = (x[i] - mean[ch]) * inv_std[ch];
        return (gy[i] - (x_hat * pa[ch] + p0[ch])) * pc[ch];
    }, gx);
}

// ---- oneDNN ((N, C) float32) ------------------------------------------------

dnnl::memory::desc data_desc(const array& x) {
    return {shape_of(x), dnnl::memory::data_type::f32, tag::nc};
}

dnnl::memory::desc channel_desc(int64_t c) {
    return {{c}, dnnl::memory::data_type::f32, tag::a};
}

dnnl::memory mem(const dnnl::memory::desc& d, const void* p) {
    return dnnl::memory(d, cpu_engine(), const_cast<void*>(p));
}

normalization_flags affine(bool global_stats) {
    auto f = normalization_flags::use_scale | normalization_flags::use_shift;
    return global_stats ? f | normalization_flags::use_global_stats : f;
}

// The cache key of a primitive on x with the (float32) epsilon eps.
std::string key_of(const array& x, double eps, bool flag) {
    const float eps32 = static_cast<float>(eps);
    uint32_t eps_bits;
    std::memcpy(&eps_bits, &eps32, sizeof eps_bits);
    std::string key;
    append_key(key, std::vector<int64_t>{x.shape(0), x.shape(1), flag,
                                         eps_bits});
    return key;
}

// The forward primitive, with the batch's statistics or given ones.
void onednn_forward(const array& x, const void* gamma, const void* beta,
                    void* mean, void* var, double eps, bool batch, void* y) {
    auto d = data_desc(x);
    auto cd = channel_desc(x.shape(1));
    static PrimitiveCache<dnnl::batch_normalization_forward::primitive_desc,
                          dnnl::batch_normalization_forward> cache;
    auto [pd, bn] = cache.get(key_of(x, eps, batch), [&]() {
        return dnnl::batch_normalization_forward::primitive_desc(
            cpu_engine(),
            batch ? prop_kind::forward_training
                  : prop_kind::forward_inference,
            d, d, static_cast<float>(eps), affine(!batch), kernel_attr());
    });
    run(bn, pd.scratchpad_desc(),
        {{DNNL_ARG_SRC, mem(d, x.data())},
         {DNNL_ARG_DST, mem(d, y)},
         {DNNL_ARG_SCALE, mem(cd, gamma)},
         {DNNL_ARG_SHIFT, mem(cd, beta)},
         {DNNL_ARG_MEAN, mem(cd, mean)},
         {DNNL_ARG_VARIANCE, mem(cd, var)}});
}

void onednn_backward(const array& x, const array& gamma, const array& mean,
                     const array& inv_std, const array& gy,
                     bool global_stats, void* gx, void* ggamma,
                     void* gbeta) {
    const int64_t c = x.shape(1);
    std::vector<float> var(c);
    const float* s = static_cast<const float*>(inv_std.data());
    for (int64_t i = 0; i < c; ++i) {
        const double si = s[i];
        var[i] = static_cast<float>(1.0 / (si * si));
    }
    auto d = data_desc(x);
    auto cd = channel_desc(c);
    const auto flags = affine(global_stats);
    static PrimitiveCache<dnnl::batch_normalization_backward::primitive_desc,
                          dnnl::batch_normalization_backward> cache;
    auto [pd, bn] = cache.get(key_of(x, 0.0, global_stats), [&]() {
        dnnl::batch_normalization_forward::primitive_desc hint(
            cpu_engine(), prop_kind::forward_training, d, d, 0.f, flags,
            kernel_attr());
        return dnnl::batch_normalization_backward::primitive_desc(
            cpu_engine(), prop_kind::backward, d, d, d, 0.f, flags, hint,
            kernel_attr());
    });
    run(bn, pd.scratchpad_desc(),
        {{DNNL_ARG_SRC, mem(d, x.data())},
         {DNNL_ARG_DIFF_DST, mem(d, gy.data())},
         {DNNL_ARG_MEAN, mem(cd, mean.data())},
         {DNNL_ARG_VARIANCE, mem(cd, var.data())},
         {DNNL_ARG_SCALE, mem(cd, gamma.data())},
         {DNNL_ARG_DIFF_SRC, mem(d, gx)},
         {DNNL_ARG_DIFF_SCALE, mem(cd, ggamma)},
         {DNNL_ARG_DIFF_SHIFT, mem(cd, gbeta)}});
}

// ---- bindings --------------------------------------------------------------

template <typename T>
const T* ptr(const array& a) {
    return static_cast<const T*>(a.data());
}

template <typename T>
T* mut(array& a) {
    return static_cast<T*>(a.mutable_data());
}

// The statistics are written with `batch`, else only read.
void run_forward(const array& x, const array& gamma, const array& beta,
                 const array& mean, const array& var, double eps, bool batch,
                 array& y) {
    void* m = const_cast<void*>(mean.data());
    void* v = const_cast<void*>(var.data());
    const bool f32 = is_float(x, 4);  // dtype() needs the GIL
    const bool rows = is_strictly_channels_last(x);
    py::gil_scoped_release release;
    if (x.ndim() == 2) {
        SerialScope serial(x.size() < kParallelGrainRows);
        onednn_forward(x, gamma.data(), beta.data(), m, v, eps, batch,
                       y.mutable_data());
    } else if (rows && f32) {
        rows_forward(rows_of(x), ptr<float>(x), ptr<float>(gamma),
                     ptr<float>(beta), static_cast<float*>(m),
                     static_cast<float*>(v), eps, batch, mut<float>(y));
    } else if (rows) {
        rows_forward(rows_of(x), ptr<double>(x), ptr<double>(gamma),
                     ptr<double>(beta), static_cast<double*>(m),
                     static_cast<double*>(v), eps, batch, mut<double>(y));
    } else if (f32) {
        loop_forward(planes_of(x), ptr<float>(x), ptr<float>(gamma),
                     ptr<float>(beta), static_cast<float*>(m),
                     static_cast<float*>(v), eps, batch, mut<float>(y));
    } else {
        loop_forward(planes_of(x), ptr<double>(x), ptr<double>(gamma),
                     ptr<double>(beta), static_cast<double*>(m),
                     static_cast<double*>(v), eps, batch, mut<double>(y));
    }
}

// y, mean and the biased variance of x per channel.
py::tuple forward(const array& x, const array& gamma, const array& beta,
                  double eps) {
    const int64_t c = channels_of(x, {&gamma, &beta}, {"gamma", "beta"});
    array y = empty_in_layout(x);
    array mean = empty_like_dtype(x, {c}), var = empty_like_dtype(x, {c});
    run_forward(x, gamma, beta, mean, var, eps, true, y);
    return py::make_tuple(y, mean, var);
}

// y = gamma * (x - mean) / sqrt(var + eps) + beta for the given statistics.
array forward_fixed(const array& x, const array& gamma, const array& beta,
                    const array& mean, const array& var, double eps) {
    channels_of(x, {&gamma, &beta, &mean, &var},
                {"gamma", "beta", "mean", "var"});
    array y = empty_in_layout(x);
    run_forward(x, gamma, beta, mean, var, eps, false, y);
    return y;
}

// (gx, ggamma, gbeta) for the statistics mean and inv_std; with
// global_stats the statistics are constants (the fixed mode: gx is
// gamma * inv_std * gy), else those of the batch x.
py::tuple backward(const array& x, const array& gamma, const array& mean,
                   const array& inv_std, const array& gy, bool global_stats) {
    const int64_t c = channels_of(x, {&gamma, &mean, &inv_std},
                                  {"gamma", "mean", "inv_std"});
    const bool rows = is_strictly_channels_last(x);
    if (!gy.dtype().equal(x.dtype()) || shape_of(gy) != shape_of(x) ||
        (rows ? !is_channels_last(gy)
              : !(gy.flags() & py::array::c_style))) {
        throw std::invalid_argument(
            "gy must have the shape, dtype and layout of x");
    }
    array gx = empty_in_layout(x);
    array ggamma = empty_like_dtype(x, {c}), gbeta = empty_like_dtype(x, {c});
    const bool f32 = is_float(x, 4);  // dtype() needs the GIL
    {
        py::gil_scoped_release release;
        if (x.ndim() == 2) {
            SerialScope serial(x.size() < kParallelGrainRows);
            onednn_backward(x, gamma, mean, inv_std, gy, global_stats,
                            gx.mutable_data(), ggamma.mutable_data(),
                            gbeta.mutable_data());
        } else if (rows && f32) {
            rows_backward(rows_of(x), ptr<float>(x), ptr<float>(gamma),
                          ptr<float>(mean), ptr<float>(inv_std),
                          ptr<float>(gy), global_stats, mut<float>(gx),
                          mut<float>(ggamma), mut<float>(gbeta));
        } else if (rows) {
            rows_backward(rows_of(x), ptr<double>(x), ptr<double>(gamma),
                          ptr<double>(mean), ptr<double>(inv_std),
                          ptr<double>(gy), global_stats, mut<double>(gx),
                          mut<double>(ggamma), mut<double>(gbeta));
        } else if (f32) {
            loop_backward(planes_of(x), ptr<float>(x), ptr<float>(gamma),
                          ptr<float>(mean), ptr<float>(inv_std),
                          ptr<float>(gy), global_stats, mut<float>(gx),
                          mut<float>(ggamma), mut<float>(gbeta));
        } else {
            loop_backward(planes_of(x), ptr<double>(x), ptr<double>(gamma),
                          ptr<double>(mean), ptr<double>(inv_std),
                          ptr<double>(gy), global_stats, mut<double>(gx),
                          mut<double>(ggamma), mut<double>(gbeta));
        }
    }
    return py::make_tuple(gx, ggamma, gbeta);
}

// The sum per channel of x (N, C, spatial...) over all other axes, in the
// summation order of the statistics above.
template <typename T>
void sum_channels(const array& x, T* out) {
    const T* px = ptr<T>(x);
    const auto zero = [](int64_t, int64_t) { return T(0); };
    const bool rows = is_strictly_channels_last(x);
    const Planes p = planes_of(x);
    std::vector<double> s(p.c), unused(p.c);
    py::gil_scoped_release release;
    if (rows) {
        row_sums<T>(rows_of(x), [&](int64_t i, int64_t) { return px[i]; },
                    zero, s.data(), unused.data());
    } else {
#pragma omp parallel for if (x.size() >= kParallelGrainRows)
        for (int64_t ch = 0; ch < p.c; ++ch) {
            double u;
            channel_sums<T>(p, ch, [&](int64_t i) { return px[i]; },
                            [](int64_t) { return T(0); }, &s[ch], &u);
        }
    }
    for (int64_t ch = 0; ch < p.c; ++ch) out[ch] = static_cast<T>(s[ch]);
}

array channel_sum(const array& x) {
    require_plain(x, "x", -1);
    if (x.ndim() < 3 || (!is_float(x, 4) && !is_float(x, 8))) {
        throw std::invalid_argument(
            "x must be a float32 or float64 array with spatial axes");
    }
    array out = empty_like_dtype(x, {x.shape(1)});
    if (is_float(x, 4)) {
        sum_channels(x, mut<float>(out));
    } else {
        sum_channels(x, mut<double>(out));
    }
    return out;
}

}  // namespace

void register_batch_norm(py::module_& m) {
    m.def("channel_sum", &channel_sum, py::arg("x"),
          "The sums of x (N, C, spatial...) per channel (axis 1).");
    m.def("batch_normalization_forward", &forward, py::arg("x"),
          py::arg("gamma"), py::arg("beta"), py::arg("eps"),
          "Returns (y, mean, var) with the batch's biased variance.");
    m.def("fixed_batch_normalization_forward", &forward_fixed, py::arg("x"),
          py::arg("gamma"), py::arg("beta"), py::arg("mean"), py::arg("var"),
          py::arg("eps"));
    m.def("batch_normalization_backward", &backward, py::arg("x"),
          py::arg("gamma"), py::arg("mean"), py::arg("inv_std"),
          py::arg("gy"), py::arg("global_stats"),
          "Returns (gx, ggamma, gbeta).");
}

}  // namespace chainerx_cpp
