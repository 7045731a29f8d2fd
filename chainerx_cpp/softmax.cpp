// Softmax and log-softmax along one axis, forward and backward, and the
// fused softmax cross entropy of a (N, C) batch of scores.
//
// An array of shape (..., C, ...) is viewed as (outer, C, inner), with the
// softmax taken along C. The loops below follow the formulas of Chainer's
// NumPy code, y = exp(x - max) / sum and log y = x - (max + log(sum)), so
// that a row whose maximum is infinite or NaN gives NaN as it does there.
// They serve the forward computations (oneDNN's float32 log-softmax is less
// accurate than float32 allows, and its softmax an ulp off NumPy 1's in a
// third of the elements) and the cross entropy; the float32 gradients go
// through oneDNN's softmax primitive.
#include <cmath>
#include <cstring>
#include <limits>

#include "common.hpp"

namespace chainerx_cpp {
namespace {

struct AxisView {
    int64_t outer, classes, inner;
};

AxisView view_along(const array& a, int64_t axis) {
    const int64_t ndim = a.ndim();
    if (axis < 0) axis += ndim;
    if (axis < 0 || axis >= ndim) {
        throw std::invalid_argument("softmax axis out of range");
    }
    AxisView v{1, a.shape(axis), 1};
    for (int64_t i = 0; i < axis; ++i) v.outer *= a.shape(i);
    for (int64_t i = axis + 1; i < ndim; ++i) v.inner *= a.shape(i);
    return v;
}

void require_same(const array& a, const array& b, const char* what) {
    if (!a.dtype().equal(b.dtype()) || shape_of(a) != shape_of(b)) {
        throw std::invalid_argument(
            std::string(what) + " must agree in shape and dtype");
    }
}

// ---- oneDNN (float32) ----------------------------------------------------

dnnl::memory::desc view_desc(const AxisView& v) {
    return {{v.outer, v.classes, v.inner}, dnnl::memory::data_type::f32,
            tag::abc};
}

dnnl::algorithm algorithm_of(bool log) {
    return log ? dnnl::algorithm::softmax_log
               : dnnl::algorithm::softmax_accurate;
}

dnnl::softmax_forward::primitive_desc forward_desc(const AxisView& v,
                                                   bool log) {
    auto desc = view_desc(v);
    return {cpu_engine(), dnnl::prop_kind::forward_training,
            algorithm_of(log), desc, desc, 1, kernel_attr()};
}

std::string key_of(const AxisView& v, bool log) {
    std::string key;
    append_key(key, std::vector<int64_t>{v.outer, v.classes, v.inner, log});
    return key;
}

void onednn_backward(const AxisView& v, bool log, const void* y,
                     const void* gy, void* gx) {
    auto desc = view_desc(v);
    static PrimitiveCache<dnnl::softmax_backward::primitive_desc,
                          dnnl::softmax_backward> cache;
    auto [pd, softmax] = cache.get(key_of(v, log), [&]() {
        return dnnl::softmax_backward::primitive_desc(
            cpu_engine(), algorithm_of(log), desc, desc, desc, 1,
            forward_desc(v, log), kernel_attr());
    });
    dnnl::memory y_mem(desc, cpu_engine(), const_cast<void*>(y));
    dnnl::memory gy_mem(desc, cpu_engine(), const_cast<void*>(gy));
    dnnl::memory gx_mem(desc, cpu_engine(), gx);
    run(softmax, pd.scratchpad_desc(),
        {{DNNL_ARG_DST, y_mem},
         {DNNL_ARG_DIFF_DST, gy_mem},
         {DNNL_ARG_DIFF_SRC, gx_mem}});
}

// ---- loops ----------------------------------------------------------------

// exp(v), written so that the compiler vectorizes loops over it: v is split
// as n ln2 + r with |r| <= ln2 / 2 (ln2 in a high part exact in few bits
// and a low part, so that n ln2 is exact enough), exp(r) is its Taylor
// polynomial (degree 7 in float, 13 in double: the remainder is below half
// an ulp), and 2**n goes into the exponent bits. Results below the
// smallest normal number flush to zero; infinities and NaN come out as
// exp gives them.
inline __attribute__((always_inline)) float exp_approx(float v) {
    const float lo = -87.33654f, hi = 88.37626f;
    float c = v < lo ? lo : v;
    c = c > hi ? hi : c;
    // Adding 1.5 * 2**23 rounds to an integer n held in the low bits.
    const float magic = 12582912.0f;
    float t = c * 1.44269504088896341f + magic;
    const float n = t - magic;
    float r = c - n * 0.693359375f;
    r = r - n * -2.1219444005469058e-4f;
    float p = 1.0f / 5040;
    p = p * r + 1.0f / 720;
    p = p * r + 1.0f / 120;
    p = p * r + 1.0f / 24;
    p = p * r + 1.0f / 6;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    uint32_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits = (bits + 127u) << 23;
    float scale;
    std::memcpy(&scale, &bits, sizeof scale);
    float y = p * scale;
    y = v < lo ? 0.0f : y;
    y = v > hi ? std::numeric_limits<float>::infinity() : y;
    return v != v ? v : y;
}

inline __attribute__((always_inline)) double exp_approx(double v) {
    const double lo = -708.3964185322641, hi = 709.782712893384;
    double c = v < lo ? lo : v;
    c = c > hi ? hi : c;
    const double magic = 6755399441055744.0;  // 1.5 * 2**52
    double t = c * 1.4426950408889634 + magic;
    const double n = t - magic;
    double r = c - n * 0.693145751953125;
    r = r - n * 1.4286068203094172321e-6;
    // Horner's scheme over 1 / k!, k from 13 down to 0.
    constexpr double inv_fact[] = {
        1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
        1.0 / 3628800.0,    1.0 / 362880.0,    1.0 / 40320.0,
        1.0 / 5040.0,       1.0 / 720.0,       1.0 / 120.0,
        1.0 / 24.0,         1.0 / 6.0,         0.5,
        1.0,                1.0};
    double p = inv_fact[0];
    for (int i = 1; i < 14; ++i) p = p * r + inv_fact[i];
    uint64_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits = (bits + 1023u) << 52;
    double scale;
    std::memcpy(&scale, &bits, sizeof scale);
    double y = p * scale;
    y = v < lo ? 0.0 : y;
    y = v > hi ? std::numeric_limits<double>::infinity() : y;
    return v != v ? v : y;
}

// The maximum of x[0:n] (n > 0), in eight running maxima so that the
// compiler vectorizes it. NaN elements are passed over: they make the sum
// of the exponentials NaN, and with it the whole row, as NumPy's NaN
// maximum does.
template <typename T>
inline T row_max(const T* x, int64_t n) {
    T acc[8];
    for (int k = 0; k < 8; ++k) acc[k] = x[0];
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int k = 0; k < 8; ++k) {
            acc[k] = x[i + k] > acc[k] ? x[i + k] : acc[k];
        }
    }
    T m = acc[0];
    for (int k = 1; k < 8; ++k) m = acc[k] > m ? acc[k] : m;
    for (; i < n; ++i) m = x[i] > m ? x[i] : m;
    return m;
}

// The sum of x[0:n], in eight partial sums.
template <typename T>
inline T row_sum(const T* x, int64_t n) {
    T acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int k = 0; k < 8; ++k) acc[k] += x[i + k];
    }
    T s = 0;
    for (; i < n; ++i) s += x[i];
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) +
           ((acc[4] + acc[5]) + (acc[6] + acc[7])) + s;
}

// y[i] = exp(x[i] - m); returns the sum of y, in eight partial sums.
template <typename T>
inline T exp_shifted_row(const T* __restrict x, T m, T* __restrict y,
                         int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = exp_approx(x[i] - m);
    return row_sum(y, n);
}

CHAINERX_CPP_CLONES float row_max_f(const float* x, int64_t n) {
    return row_max(x, n);
}
CHAINERX_CPP_CLONES double row_max_d(const double* x, int64_t n) {
    return row_max(x, n);
}
inline float max_of(const float* x, int64_t n) { return row_max_f(x, n); }
inline double max_of(const double* x, int64_t n) { return row_max_d(x, n); }

CHAINERX_CPP_CLONES float exp_row_f(const float* x, float m, float* y,
                                    int64_t n) {
    return exp_shifted_row(x, m, y, n);
}
CHAINERX_CPP_CLONES double exp_row_d(const double* x, double m, double* y,
                                     int64_t n) {
    return exp_shifted_row(x, m, y, n);
}
inline float exp_row(const float* x, float m, float* y, int64_t n) {
    return exp_row_f(x, m, y, n);
}
inline double exp_row(const double* x, double m, double* y, int64_t n) {
    return exp_row_d(x, m, y, n);
}

// exp_row with each float32 exponential computed in double and rounded
// once: the correctly rounded exp of glibc's expf, which NumPy 1 (and so
// the original Chainer) used, where oneDNN's and NumPy 2's own float32
// exponentials are an ulp off in about a third of the cases. The softmax
// outputs are the probabilities users print and compare.
CHAINERX_CPP_CLONES float exp_row_rounded_f(const float* __restrict x,
                                            float m, float* __restrict y,
                                            int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        y[i] = static_cast<float>(exp_approx(static_cast<double>(x[i] - m)));
    }
    return row_sum(y, n);
}
inline float exp_row_rounded(const float* x, float m, float* y, int64_t n) {
    return exp_row_rounded_f(x, m, y, n);
}
inline double exp_row_rounded(const double* x, double m, double* y,
                              int64_t n) {
    return exp_row_d(x, m, y, n);
}

// y[i] /= s, or y[i] = x[i] - s with `subtract`.
template <typename T>
inline void finish_row(const T* __restrict x, T s, T* __restrict y,
                       int64_t n, bool subtract) {
    if (subtract) {
        for (int64_t i = 0; i < n; ++i) y[i] = x[i] - s;
    } else {
        for (int64_t i = 0; i < n; ++i) y[i] /= s;
    }
}

CHAINERX_CPP_CLONES void finish_row_f(const float* x, float s, float* y,
                                      int64_t n, bool subtract) {
    finish_row(x, s, y, n, subtract);
}
CHAINERX_CPP_CLONES void finish_row_d(const double* x, double s, double* y,
                                      int64_t n, bool subtract) {
    finish_row(x, s, y, n, subtract);
}
inline void finish(const float* x, float s, float* y, int64_t n, bool sub) {
    finish_row_f(x, s, y, n, sub);
}
inline void finish(const double* x, double s, double* y, int64_t n,
                   bool sub) {
    finish_row_d(x, s, y, n, sub);
}

// One row (inner == 1): y = softmax or log-softmax of x.
template <typename T>
void row_forward(const T* x, T* y, int64_t classes, bool log) {
    const T m = max_of(x, classes);
    const T s = log ? exp_row(x, m, y, classes)
                    : exp_row_rounded(x, m, y, classes);
    finish(x, log ? std::log(s) + m : s, y, classes, log);
}

// One (classes, inner) slab, reduced along classes; `m` and `s` are
// scratch rows of length inner.
template <typename T>
void slab_forward(const T* x, T* y, int64_t classes, int64_t inner, bool log,
                  T* m, T* s) {
    for (int64_t j = 0; j < inner; ++j) m[j] = x[j];
    for (int64_t c = 1; c < classes; ++c) {
        const T* xc = x + c * inner;
        for (int64_t j = 0; j < inner; ++j) {
            // NaN propagates as in NumPy's max.
            if (xc[j] > m[j] || xc[j] != xc[j]) m[j] = xc[j];
        }
    }
    for (int64_t j = 0; j < inner; ++j) s[j] = 0;
    for (int64_t c = 0; c < classes; ++c) {
        const T* xc = x + c * inner;
        T* yc = y + c * inner;
        for (int64_t j = 0; j < inner; ++j) yc[j] = xc[j] - m[j];
        if (log) {
            exp_row(yc, T(0), yc, inner);
        } else {
            exp_row_rounded(yc, T(0), yc, inner);
        }
        for (int64_t j = 0; j < inner; ++j) s[j] += yc[j];
    }
    if (log) {
        for (int64_t j = 0; j < inner; ++j) s[j] = std::log(s[j]) + m[j];
    }
    for (int64_t c = 0; c < classes; ++c) {
        const T* xc = x + c * inner;
        T* yc = y + c * inner;
        for (int64_t j = 0; j < inner; ++j) {
            yc[j] = log ? xc[j] - s[j] : yc[j] / s[j];
        }
    }
}

// gx = y * gy - y * sum(y * gy), or for the log-softmax
// gx = gy - exp(y) * sum(gy), along classes.
template <typename T>
void slab_backward(const T* y, const T* gy, T* gx, int64_t classes,
                   int64_t inner, bool log, T* s) {
    for (int64_t j = 0; j < inner; ++j) s[j] = 0;
    for (int64_t c = 0; c < classes; ++c) {
        const int64_t o = c * inner;
        for (int64_t j = 0; j < inner; ++j) {
            s[j] += log ? gy[o + j] : y[o + j] * gy[o + j];
        }
    }
    for (int64_t c = 0; c < classes; ++c) {
        const int64_t o = c * inner;
        if (log) {
            exp_row(y + o, T(0), gx + o, inner);
            for (int64_t j = 0; j < inner; ++j) {
                gx[o + j] = gy[o + j] - gx[o + j] * s[j];
            }
        } else {
            for (int64_t j = 0; j < inner; ++j) {
                gx[o + j] = y[o + j] * gy[o + j] - y[o + j] * s[j];
            }
        }
    }
}

template <typename T>
void loop_forward(const AxisView& v, bool log, const T* x, T* y) {
    const int64_t slab = v.classes * v.inner;
    if (v.inner == 1) {
#pragma omp parallel for if (v.outer * slab >= kParallelGrainRows)
        for (int64_t o = 0; o < v.outer; ++o) {
            row_forward(x + o * slab, y + o * slab, v.classes, log);
        }
        return;
    }
#pragma omp parallel if (v.outer * slab >= kParallelGrainRows)
    {
        std::vector<T> m(v.inner), s(v.inner);
#pragma omp for
        for (int64_t o = 0; o < v.outer; ++o) {
            slab_forward(x + o * slab, y + o * slab, v.classes, v.inner, log,
                         m.data(), s.data());
        }
    }
}

// One row (inner == 1) of slab_backward.
template <typename T>
void row_backward(const T* y, const T* gy, T* gx, int64_t n, bool log) {
    T acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int k = 0; k < 8; ++k) {
            acc[k] += log ? gy[i + k] : y[i + k] * gy[i + k];
        }
    }
    T s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) +
          ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    for (; i < n; ++i) s += log ? gy[i] : y[i] * gy[i];
    if (log) {
        exp_row(y, T(0), gx, n);
        for (i = 0; i < n; ++i) gx[i] = gy[i] - gx[i] * s;
    } else {
        for (i = 0; i < n; ++i) gx[i] = y[i] * gy[i] - y[i] * s;
    }
}

template <typename T>
void loop_backward(const AxisView& v, bool log, const T* y, const T* gy,
                   T* gx) {
    const int64_t slab = v.classes * v.inner;
    if (v.inner == 1) {
#pragma omp parallel for if (v.outer * slab >= kParallelGrainRows)
        for (int64_t o = 0; o < v.outer; ++o) {
            row_backward(y + o * slab, gy + o * slab, gx + o * slab,
                         v.classes, log);
        }
        return;
    }
#pragma omp parallel if (v.outer * slab >= kParallelGrainRows)
    {
        std::vector<T> s(v.inner);
#pragma omp for
        for (int64_t o = 0; o < v.outer; ++o) {
            slab_backward(y + o * slab, gy + o * slab, gx + o * slab,
                          v.classes, v.inner, log, s.data());
        }
    }
}

// ---- bindings --------------------------------------------------------------

array forward(const array& x, int64_t axis, bool log) {
    require_contiguous(x, "x", -1);
    const AxisView v = view_along(x, axis);
    array y = empty_like_dtype(x, shape_of(x));
    if (x.size() == 0) return y;
    const bool f32 = is_float(x, 4);
    if (!f32 && !is_float(x, 8)) {
        throw std::invalid_argument("softmax takes float32 or float64");
    }
    py::gil_scoped_release release;
    if (f32) {
        loop_forward(v, log, static_cast<const float*>(x.data()),
                     static_cast<float*>(y.mutable_data()));
    } else {
        loop_forward(v, log, static_cast<const double*>(x.data()),
                     static_cast<double*>(y.mutable_data()));
    }
    return y;
}

array backward(const array& y, const array& gy, int64_t axis, bool log) {
    require_contiguous(y, "y", -1);
    require_contiguous(gy, "gy", -1);
    require_same(y, gy, "y and gy");
    const AxisView v = view_along(y, axis);
    array gx = empty_like_dtype(y, shape_of(y));
    if (y.size() == 0) return gx;
    const bool f32 = is_float(y, 4);
    if (!f32 && !is_float(y, 8)) {
        throw std::invalid_argument("softmax takes float32 or float64");
    }
    py::gil_scoped_release release;
    if (f32) {
        SerialScope serial(y.size() < kParallelGrainRows);
        onednn_backward(v, log, y.data(), gy.data(), gx.mutable_data());
    } else {
        loop_backward(v, log, static_cast<const double*>(y.data()),
                      static_cast<const double*>(gy.data()),
                      static_cast<double*>(gx.mutable_data()));
    }
    return gx;
}

// ---- softmax cross entropy ------------------------------------------------

// The labels of the rows, with ignored ones replaced by class 0 as Chainer's
// NumPy code does; throws for a label outside the classes.
void check_labels(const int32_t* t, int64_t n, int64_t classes,
                  int64_t ignore_label) {
    for (int64_t i = 0; i < n; ++i) {
        if (t[i] != ignore_label && (t[i] < 0 || t[i] >= classes)) {
            throw std::invalid_argument(
                "each label must be a class of x or ignore_label");
        }
    }
}

// Per row i of x (n, classes): log_p[i] = valid * (x[i, t] - log_z[i]),
// with log_z = max + log(sum(exp(x - max))); also the flat index of the
// label and the valid flag (the state the NumPy backward reads), and, when
// `e` is given, exp(x - max) and its sum.
template <typename T>
double sce_forward_loop(const T* x, const int32_t* t, int64_t n,
                        int64_t classes, int64_t ignore_label, T* loss_no,
                        int64_t* index, bool* weight, T* e, T* sum_e,
                        int64_t* count) {
    double total = 0;
    int64_t valid_count = 0;
#pragma omp parallel reduction(+ : total, valid_count) \
    if (n * classes >= kParallelGrainRows)
    {
        std::vector<T> scratch(e == nullptr ? classes : 0);
#pragma omp for
        for (int64_t i = 0; i < n; ++i) {
            const T* xi = x + i * classes;
            const T m = max_of(xi, classes);
            T* ei = e == nullptr ? scratch.data() : e + i * classes;
            const T s = exp_row(xi, m, ei, classes);
            if (sum_e != nullptr) sum_e[i] = s;
            const T log_z = std::log(s) + m;
            const bool valid = t[i] != ignore_label;
            const int64_t ti = valid ? t[i] : 0;
            index[i] = i * classes + ti;
            weight[i] = valid;
            const T log_p = (xi[ti] - log_z) * static_cast<T>(valid);
            if (loss_no != nullptr) loss_no[i] = -log_p;
            total += log_p;
            valid_count += valid;
        }
    }
    *count = valid_count;
    return total;
}

template <typename T>
py::tuple sce_forward_typed(const array& x, const array& t,
                            int64_t ignore_label, bool reduce_mean,
                            bool normalize, bool cache_score) {
    const int64_t n = x.shape(0), classes = x.shape(1);
    const int32_t* tp = static_cast<const int32_t*>(t.data());
    check_labels(tp, n, classes, ignore_label);
    array index(py::dtype::of<int64_t>(), std::vector<py::ssize_t>{n});
    array weight(py::dtype::of<bool>(), std::vector<py::ssize_t>{n});
    array loss = reduce_mean ? array(x.dtype(), std::vector<py::ssize_t>{})
                             : array(x.dtype(), std::vector<py::ssize_t>{n});
    py::object e_obj = py::none(), s_obj = py::none();
    T* e = nullptr;
    T* s = nullptr;
    if (cache_score) {
        array e_arr = empty_like_dtype(x, shape_of(x));
        array s_arr(x.dtype(), std::vector<py::ssize_t>{n, 1});
        e = static_cast<T*>(e_arr.mutable_data());
        s = static_cast<T*>(s_arr.mutable_data());
        e_obj = e_arr;
        s_obj = s_arr;
    }
    double coeff = 0;
    {
        py::gil_scoped_release release;
        int64_t count = 0;
        const double total = sce_forward_loop<T>(
            static_cast<const T*>(x.data()), tp, n, classes, ignore_label,
            reduce_mean ? nullptr : static_cast<T*>(loss.mutable_data()),
            static_cast<int64_t*>(index.mutable_data()),
            static_cast<bool*>(weight.mutable_data()), e, s, &count);
        if (reduce_mean) {
            const int64_t divisor = normalize ? count : n;
            coeff = 1.0 / static_cast<double>(std::max<int64_t>(divisor, 1));
            *static_cast<T*>(loss.mutable_data()) =
                static_cast<T>(total * -coeff);
        }
    }
    return py::make_tuple(loss, e_obj, s_obj, index, weight,
                          reduce_mean ? py::object(py::float_(coeff))
                                      : py::object(py::none()));
}

py::tuple sce_forward(const array& x, const array& t, int64_t ignore_label,
                      bool reduce_mean, bool normalize, bool cache_score) {
    require_contiguous(x, "x", 2);
    require_contiguous(t, "t", 1);
    if (t.dtype().kind() != 'i' || t.dtype().itemsize() != 4) {
        throw std::invalid_argument("t must be int32");
    }
    if (t.shape(0) != x.shape(0)) {
        throw std::invalid_argument("x and t disagree in length");
    }
    if (x.shape(1) == 0) {
        throw std::invalid_argument("x must have at least one class");
    }
    if (is_float(x, 4)) {
        return sce_forward_typed<float>(x, t, ignore_label, reduce_mean,
                                        normalize, cache_score);
    }
    if (is_float(x, 8)) {
        return sce_forward_typed<double>(x, t, ignore_label, reduce_mean,
                                         normalize, cache_score);
    }
    throw std::invalid_argument("x must be float32 or float64");
}

// gx = exp(x - max) * (r / sum) - onehot(t) * r, r = weight * gloss (* coeff)
template <typename T>
void sce_backward_loop(const T* x, const int64_t* index, const bool* weight,
                       const T* gloss, bool scalar_gloss, T coeff,
                       const T* e, const T* sum_e, int64_t n,
                       int64_t classes, T* gx) {
#pragma omp parallel for if (n * classes >= kParallelGrainRows)
    for (int64_t i = 0; i < n; ++i) {
        const T g = scalar_gloss ? gloss[0] * coeff : gloss[i];
        const T r = static_cast<T>(weight[i]) * g;
        T* gxi = gx + i * classes;
        if (e != nullptr) {
            const T scale = r / sum_e[i];
            const T* ei = e + i * classes;
            for (int64_t c = 0; c < classes; ++c) gxi[c] = ei[c] * scale;
        } else {
            const T* xi = x + i * classes;
            const T s = exp_row(xi, max_of(xi, classes), gxi, classes);
            const T scale = r / s;
            for (int64_t c = 0; c < classes; ++c) gxi[c] *= scale;
        }
        gx[index[i]] -= r;
    }
}

template <typename T>
array sce_backward_typed(const array& x, const array& index,
                         const array& weight, const array& gloss,
                         py::object coeff, py::object e_obj,
                         py::object s_obj) {
    const int64_t n = x.shape(0), classes = x.shape(1);
    // With coeff, the loss was the mean: gloss holds one value.
    const bool scalar = !coeff.is_none();
    if (gloss.size() != (scalar ? 1 : n)) {
        throw std::invalid_argument(
            "gloss must be one value with coeff, or one value per row");
    }
    const T c = scalar ? static_cast<T>(coeff.cast<double>()) : T(1);
    array e, s;
    if (!e_obj.is_none()) {
        e = e_obj.cast<array>();
        s = s_obj.cast<array>();
        require_contiguous(e, "exp_x", 2);
        require_contiguous(s, "sum_exp", 2);
        require_same(e, x, "exp_x and x");
        if (!s.dtype().equal(x.dtype()) || s.size() != n) {
            throw std::invalid_argument("sum_exp must be (N, 1) of x's dtype");
        }
    }
    const int64_t* ip = static_cast<const int64_t*>(index.data());
    for (int64_t i = 0; i < n; ++i) {
        if (ip[i] < i * classes || ip[i] >= (i + 1) * classes) {
            throw std::invalid_argument("index out of its row");
        }
    }
    array gx = empty_like_dtype(x, shape_of(x));
    py::gil_scoped_release release;
    sce_backward_loop<T>(
        static_cast<const T*>(x.data()), ip,
        static_cast<const bool*>(weight.data()),
        static_cast<const T*>(gloss.data()), scalar, c,
        e_obj.is_none() ? nullptr : static_cast<const T*>(e.data()),
        e_obj.is_none() ? nullptr : static_cast<const T*>(s.data()), n,
        classes, static_cast<T*>(gx.mutable_data()));
    return gx;
}

array sce_backward(const array& x, const array& index, const array& weight,
                   const array& gloss, py::object coeff, py::object exp_x,
                   py::object sum_exp) {
    require_contiguous(x, "x", 2);
    require_contiguous(index, "index", 1);
    require_contiguous(weight, "weight", 1);
    require_contiguous(gloss, "gloss", -1);
    const int64_t n = x.shape(0);
    if (!index.dtype().equal(py::dtype::of<int64_t>()) || index.size() != n ||
        !weight.dtype().equal(py::dtype::of<bool>()) || weight.size() != n) {
        throw std::invalid_argument(
            "index (int64) and weight (bool) must have one entry per row");
    }
    if (!gloss.dtype().equal(x.dtype())) {
        throw std::invalid_argument("gloss must have x's dtype");
    }
    if (is_float(x, 4)) {
        return sce_backward_typed<float>(x, index, weight, gloss, coeff,
                                         exp_x, sum_exp);
    }
    if (is_float(x, 8)) {
        return sce_backward_typed<double>(x, index, weight, gloss, coeff,
                                          exp_x, sum_exp);
    }
    throw std::invalid_argument("x must be float32 or float64");
}

}  // namespace

void register_softmax(py::module_& m) {
    m.def("softmax_forward", &forward, py::arg("x"), py::arg("axis"),
          py::arg("log"),
          "Softmax (or log-softmax with log=True) of x along axis.");
    m.def("softmax_backward", &backward, py::arg("y"), py::arg("gy"),
          py::arg("axis"), py::arg("log"),
          "Gradient of the softmax (or log-softmax) from its output y.");
    m.def("softmax_cross_entropy_forward", &sce_forward, py::arg("x"),
          py::arg("t"), py::arg("ignore_label"), py::arg("reduce_mean"),
          py::arg("normalize"), py::arg("cache_score"),
          "Softmax cross entropy of x (N, C) and int32 labels t: returns "
          "(loss, exp_x, sum_exp, index, weight, coeff).");
    m.def("softmax_cross_entropy_backward", &sce_backward, py::arg("x"),
          py::arg("index"), py::arg("weight"), py::arg("gloss"),
          py::arg("coeff"), py::arg("exp_x"), py::arg("sum_exp"),
          "Gradient of the softmax cross entropy with respect to x.");
}

}  // namespace chainerx_cpp
