// The LSTM cell of chainer.functions.lstm, forward and backward.
//
// c_prev is (B0, U, rest...) and x is (B, 4U, rest...) with B <= B0; the
// four gates of unit u are interleaved in x as rows 4u .. 4u + 3 of its
// second axis, in the order a (tanh), i, f, o (sigmoids). With R the size
// of the trailing axes, x is read as (B, U, 4, R) and c as (B0, U, R).
// Rows of c_prev past B pass through unchanged, as in Chainer.
#include "loops.hpp"

namespace chainerx_cpp {
namespace {

using loops::in;
using loops::out;
using loops::sigmoid_of;
using loops::tanh_of;

struct Layout {
    int64_t batch;       // B, the rows of x
    int64_t cell_batch;  // B0, the rows of c_prev
    int64_t units;       // U
    int64_t rest;        // R

    int64_t cells() const { return batch * units * rest; }
};

Layout layout_of(const array& c_prev, const array& x) {
    require_float(c_prev, "c_prev");
    require_contiguous(x, "x", c_prev.ndim());
    if (!x.dtype().equal(c_prev.dtype())) {
        throw std::invalid_argument("x and c_prev differ in dtype");
    }
    if (c_prev.ndim() < 2) {
        throw std::invalid_argument("c_prev must have two or more axes");
    }
    Layout l{x.shape(0), c_prev.shape(0), c_prev.shape(1), 1};
    for (py::ssize_t k = 2; k < c_prev.ndim(); ++k) {
        if (x.shape(k) != c_prev.shape(k)) {
            throw std::invalid_argument("x and c_prev differ in shape");
        }
        l.rest *= c_prev.shape(k);
    }
    if (x.shape(1) != 4 * l.units || l.batch > l.cell_batch) {
        throw std::invalid_argument("x and c_prev differ in shape");
    }
    return l;
}

// Cell index j = (b * U + u) * R + r has its gates at x + 4 * (j - r) + r
// + k * R; with R == 1 this is x + 4 * j + k, which vectorises better.
template <bool kFlat>
inline int64_t gate_base(int64_t j, int64_t rest) {
    if (kFlat) return 4 * j;
    const int64_t r = j % rest;
    return 4 * (j - r) + r;
}

template <bool kFlat, typename T>
CHAINERX_CPP_CLONES void forward_loop(const T* c_prev, const T* x, T* c,
                                      T* h, int64_t n, int64_t rest) {
    const int64_t stride = kFlat ? 1 : rest;
#pragma omp parallel for simd schedule(static) \
    if (parallel : n >= kParallelGrainHeavy)
    for (int64_t j = 0; j < n; ++j) {
        const T* g = x + gate_base<kFlat>(j, rest);
        const T a = tanh_of(g[0]);
        const T i = sigmoid_of(g[stride]);
        const T f = sigmoid_of(g[2 * stride]);
        const T o = sigmoid_of(g[3 * stride]);
        const T cj = a * i + f * c_prev[j];
        c[j] = cj;
        h[j] = tanh_of(cj) * o;
    }
}

// kGc and kGh say whether gc and gh are given (else they count as zero).
template <bool kFlat, bool kGc, bool kGh, typename T>
CHAINERX_CPP_CLONES void backward_loop(const T* c_prev, const T* x,
                                       const T* c, const T* gc, const T* gh,
                                       T* gc_prev, T* gx, int64_t n,
                                       int64_t rest) {
    const int64_t stride = kFlat ? 1 : rest;
#pragma omp parallel for simd schedule(static) \
    if (parallel : n >= kParallelGrainHeavy)
    for (int64_t j = 0; j < n; ++j) {
        const int64_t base = gate_base<kFlat>(j, rest);
        const T* g = x + base;
        const T a = tanh_of(g[0]);
        const T i = sigmoid_of(g[stride]);
        const T f = sigmoid_of(g[2 * stride]);
        const T o = sigmoid_of(g[3 * stride]);
        const T co = tanh_of(c[j]);
        // The gradient reaching the new cell state.
        T total = kGh ? o * gh[j] * (T(1) - co * co) : T(0);
        if (kGc) total += gc[j];
        gc_prev[j] = total * f;
        T* gg = gx + base;
        gg[0] = total * (i * (T(1) - a * a));
        gg[stride] = total * (a * i * (T(1) - i));
        gg[2 * stride] = total * (c_prev[j] * f * (T(1) - f));
        gg[3 * stride] = kGh ? gh[j] * (co * o * (T(1) - o)) : T(0);
    }
}

py::tuple forward(const array& c_prev, const array& x) {
    const Layout l = layout_of(c_prev, x);
    array c_next = empty_like_dtype(c_prev, shape_of(c_prev));
    dims h_shape = shape_of(c_prev);
    h_shape[0] = l.batch;
    array h = empty_like_dtype(c_prev, h_shape);
    loops::with_float(x, [&](auto zero) {
        using T = decltype(zero);
        const T* pc = in<T>(c_prev);
        const T* px = in<T>(x);
        T* pcn = out<T>(c_next);
        T* ph = out<T>(h);
        const int64_t n = l.cells();
        const int64_t tail = (l.cell_batch - l.batch) * l.units * l.rest;
        py::gil_scoped_release release;
        if (l.rest == 1) {
            forward_loop<true>(pc, px, pcn, ph, n, l.rest);
        } else {
            forward_loop<false>(pc, px, pcn, ph, n, l.rest);
        }
        if (tail) std::memcpy(pcn + n, pc + n, tail * sizeof(T));
    });
    return py::make_tuple(c_next, h);
}

// gc (shaped like c_prev) and gh (shaped like h) may be None: no gradient.
py::tuple backward(const array& c_prev, const array& x, const array& c_next,
                   py::object gc_obj, py::object gh_obj) {
    const Layout l = layout_of(c_prev, x);
    loops::require_like(c_prev, c_next, "c_next");
    array gc, gh;
    if (!gc_obj.is_none()) {
        gc = gc_obj.cast<array>();
        loops::require_like(c_prev, gc, "gc");
    }
    if (!gh_obj.is_none()) {
        gh = gh_obj.cast<array>();
        require_contiguous(gh, "gh", c_prev.ndim());
        dims h_shape = shape_of(c_prev);
        h_shape[0] = l.batch;
        if (!gh.dtype().equal(c_prev.dtype()) || shape_of(gh) != h_shape) {
            throw std::invalid_argument("gh differs from h in dtype or shape");
        }
    }
    array gc_prev = empty_like_dtype(c_prev, shape_of(c_prev));
    array gx = empty_like_dtype(x, shape_of(x));
    loops::with_float(x, [&](auto zero) {
        using T = decltype(zero);
        const T* pc = in<T>(c_prev);
        const T* px = in<T>(x);
        const T* pcn = in<T>(c_next);
        const T* pgc = gc_obj.is_none() ? nullptr : in<T>(gc);
        const T* pgh = gh_obj.is_none() ? nullptr : in<T>(gh);
        T* pgcp = out<T>(gc_prev);
        T* pgx = out<T>(gx);
        const int64_t n = l.cells();
        const int64_t tail = (l.cell_batch - l.batch) * l.units * l.rest;
        py::gil_scoped_release release;
        const auto run = [&](auto flat, auto has_gc, auto has_gh) {
            backward_loop<decltype(flat)::value, decltype(has_gc)::value,
                          decltype(has_gh)::value>(
                pc, px, pcn, pgc, pgh, pgcp, pgx, n, l.rest);
        };
        const auto with_gh = [&](auto flat, auto has_gc) {
            if (pgh) {
                run(flat, has_gc, std::true_type{});
            } else {
                run(flat, has_gc, std::false_type{});
            }
        };
        const auto with_gc = [&](auto flat) {
            if (pgc) {
                with_gh(flat, std::true_type{});
            } else {
                with_gh(flat, std::false_type{});
            }
        };
        if (l.rest == 1) {
            with_gc(std::true_type{});
        } else {
            with_gc(std::false_type{});
        }
        if (tail) {
            if (pgc) {
                std::memcpy(pgcp + n, pgc + n, tail * sizeof(T));
            } else {
                std::memset(pgcp + n, 0, tail * sizeof(T));
            }
        }
    });
    return py::make_tuple(gc_prev, gx);
}

}  // namespace

void register_lstm(py::module_& m) {
    m.def("lstm_forward", &forward, py::arg("c_prev"), py::arg("x"),
          "The LSTM cell: returns (c_next, h).");
    m.def("lstm_backward", &backward, py::arg("c_prev"), py::arg("x"),
          py::arg("c_next"), py::arg("gc"), py::arg("gh"),
          "Gradient of the LSTM cell: returns (gc_prev, gx).");
}

}  // namespace chainerx_cpp
