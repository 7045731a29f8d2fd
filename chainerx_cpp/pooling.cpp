// Max and average pooling over 1 to 3 spatial axes, forward and backward.
//
// Hand-written loops, parallel over the (n, c) planes, in Chainer's exact
// semantics: windows start at -pad and are stride apart; a max pooling
// keeps for each output the flat index (C order of the kernel) of the first
// maximum of its window, padding counting as -inf, and NaN wins as NumPy's
// max lets it; an average divides each window's sum by a given divisor.
// Arrays of fewer than three spatial axes are seen with leading axes of 1.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common.hpp"
#include "loops.hpp"

namespace chainerx_cpp {
namespace {

// A pooling geometry with exactly three spatial axes.
struct Window {
    int64_t planes;
    int64_t in[3], k[3], s[3], p[3], out[3];

    int64_t in_size() const { return in[0] * in[1] * in[2]; }
    int64_t out_size() const { return out[0] * out[1] * out[2]; }
};

Window make_window(const dims& x_shape, const std::vector<int64_t>& out,
                   const std::vector<int64_t>& ksize,
                   const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& pad) {
    const size_t nd = x_shape.size() - 2;
    if (x_shape.size() < 3 || nd > 3 || out.size() != nd ||
        ksize.size() != nd || stride.size() != nd || pad.size() != nd) {
        throw std::invalid_argument("pooling takes 1 to 3 spatial axes");
    }
    Window w{x_shape[0] * x_shape[1], {1, 1, 1}, {1, 1, 1}, {1, 1, 1},
             {0, 0, 0}, {1, 1, 1}};
    for (size_t i = 0; i < nd; ++i) {
        const size_t j = 3 - nd + i;
        w.in[j] = x_shape[2 + i];
        w.k[j] = ksize[i];
        w.s[j] = stride[i];
        w.p[j] = pad[i];
        w.out[j] = out[i];
    }
    return w;
}

dims output_shape(const dims& x_shape, const std::vector<int64_t>& out) {
    dims shape(x_shape.begin(), x_shape.begin() + 2);
    shape.insert(shape.end(), out.begin(), out.end());
    return shape;
}

// The part of one window inside the image, along one axis: the taps
// [k0, k1) of the window start at input position `first`.
struct Span {
    int64_t first, k0, k1;
};

inline Span clip(int64_t o, int64_t s, int64_t p, int64_t k, int64_t in) {
    const int64_t start = o * s - p;
    const int64_t k0 = start < 0 ? -start : 0;
    const int64_t k1 = std::min(k, in - start);
    return {start + k0, k0, std::max(k0, k1)};
}

// Calls f(output offset, span of each axis) for every output of a plane.
template <typename F>
inline void for_each_window(const Window& w, F f) {
    int64_t o = 0;
    for (int64_t od = 0; od < w.out[0]; ++od) {
        const Span d = clip(od, w.s[0], w.p[0], w.k[0], w.in[0]);
        for (int64_t oh = 0; oh < w.out[1]; ++oh) {
            const Span h = clip(oh, w.s[1], w.p[1], w.k[1], w.in[1]);
            for (int64_t ow = 0; ow < w.out[2]; ++ow, ++o) {
                f(o, d, h, clip(ow, w.s[2], w.p[2], w.k[2], w.in[2]));
            }
        }
    }
}

// The outputs [lo, hi) of an axis whose window tap `k` falls inside the
// image, for windows starting at o * s - p.
inline void tap_range(int64_t k, const Window& w, int axis, int64_t* lo,
                      int64_t* hi) {
    const int64_t s = w.s[axis], off = k - w.p[axis];
    // o * s + off >= 0 and o * s + off < in.
    *lo = off >= 0 ? 0 : (-off + s - 1) / s;
    const int64_t last = w.in[axis] - 1 - off;
    *hi = last < 0 ? 0 : std::min(w.out[axis], last / s + 1);
    if (*hi < *lo) *hi = *lo;
}

template <typename T>
void max_forward_planes(const Window& w, const T* x, T* y, int64_t* index) {
    const int64_t taps = w.k[0] * w.k[1] * w.k[2];
    const int64_t ow_n = w.out[2];
    const T lowest = -std::numeric_limits<T>::infinity();
#pragma omp parallel
    {
        // One output row at a time: every tap sweeps the row, so the inner
        // loop is long, branch-free and the same for every tap.
        std::vector<T> best(ow_n);
        std::vector<int64_t> best_tap(ow_n);
        std::vector<int64_t> nan_tap(ow_n);
#pragma omp for schedule(static)
        for (int64_t plane = 0; plane < w.planes; ++plane) {
            const T* xp = x + plane * w.in_size();
            for (int64_t od = 0; od < w.out[0]; ++od)
            for (int64_t oh = 0; oh < w.out[1]; ++oh) {
                std::fill(best.begin(), best.end(), lowest);
                std::fill(best_tap.begin(), best_tap.end(), 0);
                std::fill(nan_tap.begin(), nan_tap.end(), taps);
                for (int64_t kd = 0; kd < w.k[0]; ++kd) {
                    const int64_t d = od * w.s[0] - w.p[0] + kd;
                    if (d < 0 || d >= w.in[0]) continue;
                    for (int64_t kh = 0; kh < w.k[1]; ++kh) {
                        const int64_t h = oh * w.s[1] - w.p[1] + kh;
                        if (h < 0 || h >= w.in[1]) continue;
                        const T* row = xp + (d * w.in[1] + h) * w.in[2];
                        for (int64_t kw = 0; kw < w.k[2]; ++kw) {
                            const int64_t tap = (kd * w.k[1] + kh) * w.k[2] +
                                                kw;
                            int64_t lo, hi;
                            tap_range(kw, w, 2, &lo, &hi);
                            const T* __restrict r = row + kw - w.p[2];
                            T* __restrict b = best.data();
                            int64_t* __restrict t = best_tap.data();
                            const int64_t s = w.s[2];
                            int nan_seen = 0;
                            for (int64_t o = lo; o < hi; ++o) {
                                const T v = r[o * s];
                                // Masks, not branches: the comparisons of
                                // random data mispredict.
                                const int64_t greater = -int64_t(v > b[o]);
                                t[o] = (t[o] & ~greater) | (tap & greater);
                                b[o] = std::max(b[o], v);
                                nan_seen |= v != v;
                            }
                            if (nan_seen) {
                                for (int64_t o = lo; o < hi; ++o) {
                                    if (r[o * s] != r[o * s] &&
                                        nan_tap[o] == taps) {
                                        nan_tap[o] = tap;
                                    }
                                }
                            }
                        }
                    }
                }
                const int64_t base = (od * w.out[1] + oh) * ow_n;
                T* yp = y + plane * w.out_size() + base;
                int64_t* ip = index + plane * w.out_size() + base;
                for (int64_t o = 0; o < ow_n; ++o) {
                    if (nan_tap[o] < taps) {
                        // NumPy's max is NaN; Chainer's index search finds
                        // no equal element in short windows and the first
                        // NaN in long ones.
                        yp[o] = std::numeric_limits<T>::quiet_NaN();
                        ip[o] = taps <= 16 ? 0 : nan_tap[o];
                    } else {
                        yp[o] = best[o];
                        ip[o] = best_tap[o];
                    }
                }
            }
        }
    }
}

// Whether the windows are 2x2, two apart and inside the image: the tiling
// of 2-D max pooling with ksize 2 (LeNet's, VGG's), which the loops below
// run with the taps unrolled.
bool tiles_2x2(const Window& w) {
    return w.k[0] == 1 && w.s[0] == 1 && w.p[0] == 0 && w.out[0] == w.in[0] &&
           w.k[1] == 2 && w.k[2] == 2 && w.s[1] == 2 && w.s[2] == 2 &&
           w.p[1] == 0 && w.p[2] == 0 && 2 * w.out[1] <= w.in[1] &&
           2 * w.out[2] <= w.in[2];
}

// max_forward_planes for tiles_2x2: the same maxima, indexes and NaN rule
// (a window with a NaN gives NaN and index 0), branch-free so that the
// loop over a row vectorizes.
template <typename T>
void max_forward_2x2(const Window& w, const T* x, T* y, int64_t* index) {
    const int64_t in_w = w.in[2], out_h = w.out[1], out_w = w.out[2];
    const int64_t rows = w.planes * w.in[0] * out_h;
    const bool many = rows * out_w * 4 >= loops::kParallelGrainHeavy;
#pragma omp parallel for schedule(static) if (many)
    for (int64_t row = 0; row < rows; ++row) {
        const int64_t oh = row % out_h;
        const T* __restrict top = x + (row / out_h * w.in[1] + 2 * oh) * in_w;
        const T* __restrict bottom = top + in_w;
        T* __restrict yp = y + row * out_w;
        int64_t* __restrict ip = index + row * out_w;
        for (int64_t ow = 0; ow < out_w; ++ow) {
            const T a = top[2 * ow], b = top[2 * ow + 1];
            const T c = bottom[2 * ow], d = bottom[2 * ow + 1];
            // The first maximum: a later tap wins only when greater.
            T best = a;
            int64_t tap = 0;
            tap = b > best ? 1 : tap;
            best = b > best ? b : best;
            tap = c > best ? 2 : tap;
            best = c > best ? c : best;
            tap = d > best ? 3 : tap;
            best = d > best ? d : best;
            const bool nan = (a != a) | (b != b) | (c != c) | (d != d);
            yp[ow] = nan ? std::numeric_limits<T>::quiet_NaN() : best;
            ip[ow] = nan ? 0 : tap;
        }
    }
}

// max_backward_planes for tiles_2x2: the gradient of each output goes to
// the input its index names, stored without a branch on the index.
template <typename T>
void max_backward_2x2(const Window& w, const T* gy, const int64_t* index,
                      T* gx) {
    const int64_t in_h = w.in[1], in_w = w.in[2];
    const int64_t out_h = w.out[1], out_w = w.out[2];
    const int64_t planes = w.planes * w.in[0];
    const bool many = planes * in_h * in_w >= loops::kParallelGrainHeavy;
#pragma omp parallel for schedule(static) if (many)
    for (int64_t plane = 0; plane < planes; ++plane) {
        T* gxp = gx + plane * in_h * in_w;
        std::fill(gxp, gxp + in_h * in_w, T(0));
        const T* g = gy + plane * out_h * out_w;
        const int64_t* ip = index + plane * out_h * out_w;
        for (int64_t oh = 0; oh < out_h; ++oh) {
            T* top = gxp + 2 * oh * in_w;
            for (int64_t ow = 0; ow < out_w; ++ow, ++g, ++ip) {
                const uint64_t tap = static_cast<uint64_t>(*ip);
                if (tap >= 4) continue;  // not an index of the forward
                top[(tap >> 1) * in_w + 2 * ow + (tap & 1)] = *g;
            }
        }
    }
}

template <typename T>
void max_backward_planes(const Window& w, const T* gy, const int64_t* index,
                         T* gx) {
    // The offsets of each tap along the three axes, looked up instead of
    // divided out of the flat index for every output.
    const int64_t taps = w.k[0] * w.k[1] * w.k[2];
    std::vector<int64_t> tap_d(taps), tap_h(taps), tap_w(taps);
    for (int64_t t = 0; t < taps; ++t) {
        tap_d[t] = t / (w.k[1] * w.k[2]);
        tap_h[t] = t / w.k[2] % w.k[1];
        tap_w[t] = t % w.k[2];
    }
    const bool many = w.planes * w.in_size() >= loops::kParallelGrainHeavy;
#pragma omp parallel for schedule(static) if (many)
    for (int64_t plane = 0; plane < w.planes; ++plane) {
        const T* gyp = gy + plane * w.out_size();
        const int64_t* ip = index + plane * w.out_size();
        T* gxp = gx + plane * w.in_size();
        std::fill(gxp, gxp + w.in_size(), T(0));
        int64_t o = 0;
        for (int64_t od = 0; od < w.out[0]; ++od)
        for (int64_t oh = 0; oh < w.out[1]; ++oh) {
            const int64_t d0 = od * w.s[0] - w.p[0];
            const int64_t h0 = oh * w.s[1] - w.p[1];
            for (int64_t ow = 0; ow < w.out[2]; ++ow, ++o) {
                const int64_t tap = ip[o];
                if (tap < 0 || tap >= taps) continue;
                const int64_t d = d0 + tap_d[tap];
                const int64_t h = h0 + tap_h[tap];
                const int64_t c = ow * w.s[2] - w.p[2] + tap_w[tap];
                if (d >= 0 && d < w.in[0] && h >= 0 && h < w.in[1] &&
                    c >= 0 && c < w.in[2]) {
                    gxp[(d * w.in[1] + h) * w.in[2] + c] += gyp[o];
                }
            }
        }
    }
}

// divisor: one value per output position (shape out), shared by planes.
template <typename T>
void average_forward_planes(const Window& w, const T* x, const T* divisor,
                            T* y) {
#pragma omp parallel for schedule(static)
    for (int64_t plane = 0; plane < w.planes; ++plane) {
        const T* xp = x + plane * w.in_size();
        T* yp = y + plane * w.out_size();
        for_each_window(w, [&](int64_t o, Span d, Span h, Span c) {
            T total = 0;
            for (int64_t i = d.first; i < d.first + d.k1 - d.k0; ++i) {
                for (int64_t j = h.first; j < h.first + h.k1 - h.k0; ++j) {
                    const T* row = xp + (i * w.in[1] + j) * w.in[2];
                    for (int64_t l = c.first; l < c.first + c.k1 - c.k0; ++l)
                        total += row[l];
                }
            }
            yp[o] = total / divisor[o];
        });
    }
}

template <typename T>
void average_backward_planes(const Window& w, const T* gy, const T* divisor,
                             T* gx) {
#pragma omp parallel for schedule(static)
    for (int64_t plane = 0; plane < w.planes; ++plane) {
        const T* gyp = gy + plane * w.out_size();
        T* gxp = gx + plane * w.in_size();
        std::fill(gxp, gxp + w.in_size(), T(0));
        for_each_window(w, [&](int64_t o, Span d, Span h, Span c) {
            const T g = gyp[o] / divisor[o];
            for (int64_t i = d.first; i < d.first + d.k1 - d.k0; ++i) {
                for (int64_t j = h.first; j < h.first + h.k1 - h.k0; ++j) {
                    T* row = gxp + (i * w.in[1] + j) * w.in[2];
                    for (int64_t l = c.first; l < c.first + c.k1 - c.k0; ++l)
                        row[l] += g;
                }
            }
        });
    }
}

py::tuple max_forward(const array& x, const std::vector<int64_t>& out,
                      const std::vector<int64_t>& ksize,
                      const std::vector<int64_t>& stride,
                      const std::vector<int64_t>& pad) {
    require_contiguous(x, "x", -1);
    require_float(x, "x");
    auto w = make_window(shape_of(x), out, ksize, stride, pad);
    auto y_shape = output_shape(shape_of(x), out);
    array y = empty_like_dtype(x, y_shape);
    py::array_t<int64_t> index(std::vector<py::ssize_t>(
        y_shape.begin(), y_shape.end()));
    int64_t* pindex = index.mutable_data();
    loops::with_float(x, [&](auto zero) {
        using T = decltype(zero);
        py::gil_scoped_release release;
        if (tiles_2x2(w)) {
            max_forward_2x2(w, loops::in<T>(x), loops::out<T>(y), pindex);
        } else {
            max_forward_planes(w, loops::in<T>(x), loops::out<T>(y),
                               pindex);
        }
    });
    return py::make_tuple(y, index);
}

array max_backward(const array& gy, const py::array_t<int64_t>& index,
                   const std::vector<int64_t>& x_shape,
                   const std::vector<int64_t>& ksize,
                   const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& pad) {
    require_contiguous(gy, "gy", -1);
    require_contiguous(index, "indexes", gy.ndim());
    require_float(gy, "gy");
    dims xs(x_shape.begin(), x_shape.end());
    std::vector<int64_t> out(gy.shape() + 2, gy.shape() + gy.ndim());
    auto w = make_window(xs, out, ksize, stride, pad);
    array gx = empty_like_dtype(gy, xs);
    const int64_t* pindex = index.data();
    loops::with_float(gy, [&](auto zero) {
        using T = decltype(zero);
        py::gil_scoped_release release;
        if (tiles_2x2(w)) {
            max_backward_2x2(w, loops::in<T>(gy), pindex, loops::out<T>(gx));
        } else {
            max_backward_planes(w, loops::in<T>(gy), pindex,
                                loops::out<T>(gx));
        }
    });
    return gx;
}

void require_divisor(const array& divisor, const array& like,
                     int64_t out_size) {
    require_contiguous(divisor, "divisor", -1);
    if (divisor.dtype().not_equal(like.dtype()) ||
        divisor.size() != out_size) {
        throw std::invalid_argument(
            "divisor must hold one value of the input dtype per output "
            "position");
    }
}

array average_forward(const array& x, const array& divisor,
                      const std::vector<int64_t>& out,
                      const std::vector<int64_t>& ksize,
                      const std::vector<int64_t>& stride,
                      const std::vector<int64_t>& pad) {
    require_contiguous(x, "x", -1);
    require_float(x, "x");
    auto w = make_window(shape_of(x), out, ksize, stride, pad);
    require_divisor(divisor, x, w.out_size());
    array y = empty_like_dtype(x, output_shape(shape_of(x), out));
    loops::with_float(x, [&](auto zero) {
        using T = decltype(zero);
        py::gil_scoped_release release;
        average_forward_planes(w, loops::in<T>(x), loops::in<T>(divisor),
                               loops::out<T>(y));
    });
    return y;
}

array average_backward(const array& gy, const array& divisor,
                       const std::vector<int64_t>& x_shape,
                       const std::vector<int64_t>& ksize,
                       const std::vector<int64_t>& stride,
                       const std::vector<int64_t>& pad) {
    require_contiguous(gy, "gy", -1);
    require_float(gy, "gy");
    dims xs(x_shape.begin(), x_shape.end());
    std::vector<int64_t> out(gy.shape() + 2, gy.shape() + gy.ndim());
    auto w = make_window(xs, out, ksize, stride, pad);
    require_divisor(divisor, gy, w.out_size());
    array gx = empty_like_dtype(gy, xs);
    loops::with_float(gy, [&](auto zero) {
        using T = decltype(zero);
        py::gil_scoped_release release;
        average_backward_planes(w, loops::in<T>(gy),
                                loops::in<T>(divisor), loops::out<T>(gx));
    });
    return gx;
}

}  // namespace

void register_pooling(py::module_& m) {
    m.def("max_pooling_forward", &max_forward, py::arg("x"),
          py::arg("out_shape"), py::arg("ksize"), py::arg("stride"),
          py::arg("pad"));
    m.def("max_pooling_backward", &max_backward, py::arg("gy"),
          py::arg("indexes"), py::arg("x_shape"), py::arg("ksize"),
          py::arg("stride"), py::arg("pad"));
    m.def("average_pooling_forward", &average_forward, py::arg("x"),
          py::arg("divisor"), py::arg("out_shape"), py::arg("ksize"),
          py::arg("stride"), py::arg("pad"));
    m.def("average_pooling_backward", &average_backward, py::arg("gy"),
          py::arg("divisor"), py::arg("x_shape"), py::arg("ksize"),
          py::arg("stride"), py::arg("pad"));
}

}  // namespace chainerx_cpp
