// Max and average pooling over 1 to 3 spatial axes, forward and backward.
//
// Hand-written loops, parallel over the (n, c) planes, in Chainer's exact
// semantics: windows start at -pad and are stride apart; a max pooling
// keeps for each output the flat index (C order of the kernel) of the first
// maximum of its window, padding counting as -inf, and NaN wins as NumPy's
// max lets it; an average divides each window's sum by a given divisor.
// Arrays of fewer than three spatial axes are seen with leading axes of 1.
// Arrays are C-contiguous, or channels-last (as the convolutions return
// them): then the loops run over the images' positions with the channels
// innermost, and the outputs (the indexes too) are channels-last.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
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
    const bool many = rows * out_w * 4 >= kParallelGrainHeavy;
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
    const bool many = planes * in_h * in_w >= kParallelGrainHeavy;
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
    const bool many = w.planes * w.in_size() >= kParallelGrainHeavy;
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


// ---- channels-last: (N, spatial..., C) in memory -----------------------

// Calls f(tap, input position) for each tap of the window at output
// (od, oh, ow) inside the image, the taps in C order of the kernel.
template <typename F>
inline void for_each_tap_inside(const Window& w, int64_t od, int64_t oh,
                                int64_t ow, F f) {
    for (int64_t kd = 0; kd < w.k[0]; ++kd) {
        const int64_t d = od * w.s[0] - w.p[0] + kd;
        if (d < 0 || d >= w.in[0]) continue;
        for (int64_t kh = 0; kh < w.k[1]; ++kh) {
            const int64_t h = oh * w.s[1] - w.p[1] + kh;
            if (h < 0 || h >= w.in[1]) continue;
            for (int64_t kw = 0; kw < w.k[2]; ++kw) {
                const int64_t c = ow * w.s[2] - w.p[2] + kw;
                if (c < 0 || c >= w.in[2]) continue;
                f((kd * w.k[1] + kh) * w.k[2] + kw,
                  (d * w.in[1] + h) * w.in[2] + c);
            }
        }
    }
}

int64_t taps_of(const Window& w) { return w.k[0] * w.k[1] * w.k[2]; }

// The input position of each tap, or -1 where the tap of the window at
// output (od, oh, ow) falls outside the image: taps in C order.
void tap_positions(const Window& w, int64_t od, int64_t oh, int64_t ow,
                   int64_t* pos) {
    std::fill(pos, pos + taps_of(w), -1);
    for_each_tap_inside(w, od, oh, ow,
                        [&](int64_t tap, int64_t at) { pos[tap] = at; });
}

// Calls f(image, output position, tap positions) for every output
// position of every image, parallel over the images' output positions.
template <typename F>
void for_each_position(const Window& w, int64_t images, int64_t channels,
                       F f) {
    const int64_t outs = w.out_size();
    const bool many = images * outs * channels * taps_of(w) >=
                      kParallelGrainHeavy;
#pragma omp parallel if (many)
    {
        std::vector<int64_t> pos(taps_of(w));
#pragma omp for schedule(static)
        for (int64_t i = 0; i < images * outs; ++i) {
            const int64_t o = i % outs;
            tap_positions(w, o / (w.out[1] * w.out[2]),
                          o / w.out[2] % w.out[1], o % w.out[2], pos.data());
            f(i / outs, o, pos.data());
        }
    }
}

// Calls f(image, output position, tap positions) for every output
// position, the images in parallel (the windows of one image overlap,
// those of two do not): for the scatters of the gradients.
template <typename F>
void for_each_position_by_image(const Window& w, int64_t images,
                                int64_t channels, F f) {
    const bool many = images * w.in_size() * channels >=
                      kParallelGrainHeavy;
#pragma omp parallel if (many)
    {
        std::vector<int64_t> pos(taps_of(w));
#pragma omp for schedule(static)
        for (int64_t b = 0; b < images; ++b) {
            for (int64_t o = 0; o < w.out_size(); ++o) {
                tap_positions(w, o / (w.out[1] * w.out[2]),
                              o / w.out[2] % w.out[1], o % w.out[2],
                              pos.data());
                f(b, o, pos.data());
            }
        }
    }
}

// The integer type of the width of T: the tap of each channel's maximum
// is kept in it, so that the loop over the channels vectorizes with the
// comparisons' masks.
template <typename T>
using TapOf = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;

// One tap of a window of max_forward_cl: the input values v of all
// channels against the maxima so far; the first NaN tap of each channel
// goes to nan_tap (filled with `taps`, none yet, at the window's first).
template <typename T>
inline void max_tap_cl(int64_t c, int64_t taps, TapOf<T> tap,
                       const T* __restrict v, T* __restrict best,
                       TapOf<T>* __restrict best_tap,
                       TapOf<T>* __restrict nan_tap, bool* any_nan) {
    using I = TapOf<T>;
    I nan = 0;
#pragma omp simd reduction(| : nan)
    for (int64_t ch = 0; ch < c; ++ch) {
        // Masks, not branches (the leftover channels run scalar, and the
        // comparisons of random data mispredict).
        const I greater = -static_cast<I>(v[ch] > best[ch]);
        best_tap[ch] = (best_tap[ch] & ~greater) | (tap & greater);
        best[ch] = std::max(best[ch], v[ch]);
        nan |= static_cast<I>(v[ch] != v[ch]);
    }
    if (!nan) return;
    if (!*any_nan) std::fill(nan_tap, nan_tap + c, static_cast<I>(taps));
    *any_nan = true;
    for (int64_t ch = 0; ch < c; ++ch) {
        if (v[ch] != v[ch] && nan_tap[ch] == taps) nan_tap[ch] = tap;
    }
}

// One output row (image, od, oh) of max_forward_cl: y and index of its
// out[2] windows, each all channels wide.
template <typename T>
CHAINERX_CPP_CLONES void max_row_cl(const Window& w, int64_t c,
                                    const T* xb, int64_t od, int64_t oh,
                                    T* y, int64_t* index,
                                    TapOf<T>* best_tap, TapOf<T>* nan_tap) {
    using I = TapOf<T>;
    const int64_t taps = taps_of(w);
    for (int64_t ow = 0; ow < w.out[2]; ++ow) {
        T* __restrict best = y + ow * c;
        std::fill(best, best + c, -std::numeric_limits<T>::infinity());
        std::fill(best_tap, best_tap + c, I(0));
        bool any_nan = false;
        for_each_tap_inside(w, od, oh, ow, [&](int64_t tap, int64_t at) {
            max_tap_cl(c, taps, static_cast<I>(tap), xb + at * c, best,
                       best_tap, nan_tap, &any_nan);
        });
        if (any_nan) {
            for (int64_t ch = 0; ch < c; ++ch) {
                if (nan_tap[ch] < taps) {
                    // As in max_forward_planes.
                    best[ch] = std::numeric_limits<T>::quiet_NaN();
                    best_tap[ch] = taps <= 16 ? 0 : nan_tap[ch];
                }
            }
        }
        int64_t* __restrict out = index + ow * c;
        for (int64_t ch = 0; ch < c; ++ch) out[ch] = best_tap[ch];
    }
}

// max_row_cl for tiles_2x2: the four taps of each window in one pass over
// the channels, branch-free, with the maxima, indexes and NaN rule of
// max_forward_2x2.
template <typename T>
CHAINERX_CPP_CLONES void max_row_2x2_cl(const Window& w, int64_t c,
                                        const T* xb, int64_t oh, T* y,
                                        int64_t* index) {
    const int64_t row = w.in[2] * c;
    for (int64_t ow = 0; ow < w.out[2]; ++ow) {
        const T* __restrict a = xb + (2 * oh * w.in[2] + 2 * ow) * c;
        const T* __restrict b = a + c;
        const T* __restrict cc = a + row;
        const T* __restrict d = cc + c;
        T* __restrict yp = y + ow * c;
        int64_t* __restrict ip = index + ow * c;
#pragma omp simd
        for (int64_t ch = 0; ch < c; ++ch) {
            T best = a[ch];
            int64_t tap = 0;
            tap = b[ch] > best ? 1 : tap;
            best = b[ch] > best ? b[ch] : best;
            tap = cc[ch] > best ? 2 : tap;
            best = cc[ch] > best ? cc[ch] : best;
            tap = d[ch] > best ? 3 : tap;
            best = d[ch] > best ? d[ch] : best;
            const bool nan = (a[ch] != a[ch]) | (b[ch] != b[ch]) |
                             (cc[ch] != cc[ch]) | (d[ch] != d[ch]);
            yp[ch] = nan ? std::numeric_limits<T>::quiet_NaN() : best;
            ip[ch] = nan ? 0 : tap;
        }
    }
}

// max_forward_planes for channels-last arrays of `c` channels.
template <typename T>
void max_forward_cl(const Window& w, int64_t c, const T* x, T* y,
                    int64_t* index) {
    using I = TapOf<T>;
    const int64_t images = w.planes / std::max<int64_t>(c, 1);
    const int64_t rows = images * w.out[0] * w.out[1];
    const bool many = rows * w.out[2] * c * taps_of(w) >=
                      kParallelGrainHeavy;
#pragma omp parallel if (many)
    {
        std::vector<I> best_tap(c), nan_tap(c);
#pragma omp for schedule(static)
        for (int64_t row = 0; row < rows; ++row) {
            const int64_t oh = row % w.out[1];
            const int64_t od = row / w.out[1] % w.out[0];
            const int64_t b = row / (w.out[1] * w.out[0]);
            const int64_t at = row * w.out[2] * c;
            const T* xb = x + b * w.in_size() * c;
            if (tiles_2x2(w)) {
                max_row_2x2_cl(w, c, xb + od * w.in[1] * w.in[2] * c, oh,
                               y + at, index + at);
            } else {
                max_row_cl(w, c, xb, od, oh, y + at, index + at,
                           best_tap.data(), nan_tap.data());
            }
        }
    }
}

// max_backward_2x2 for channels-last arrays: each output row owns its two
// input rows, which get the gradient at the tap of the index and zero
// elsewhere, branch-free.
template <typename T>
CHAINERX_CPP_CLONES void max_backward_2x2_cl(const Window& w, int64_t c,
                                             const T* gy,
                                             const int64_t* index, T* gx) {
    const int64_t images = w.planes / std::max<int64_t>(c, 1);
    const int64_t out_h = w.out[1], out_w = w.out[2];
    const int64_t row = w.in[2] * c;
    const int64_t rows = images * w.in[0] * out_h;
    const bool many = rows * 2 * row >= kParallelGrainHeavy;
#pragma omp parallel for schedule(static) if (many)
    for (int64_t r = 0; r < rows; ++r) {
        // Image plane (image, depth) and output row oh; the rows of the
        // image below the last window stay zero.
        const int64_t plane = r / out_h, oh = r % out_h;
        T* top = gx + (plane * w.in[1] + 2 * oh) * row;
        std::fill(top, top + 2 * row, T(0));
        if (oh == out_h - 1) {
            T* end = gx + (plane + 1) * w.in[1] * row;
            std::fill(top + 2 * row, end, T(0));
        }
        const T* g = gy + r * out_w * c;
        const int64_t* ip = index + r * out_w * c;
        for (int64_t ow = 0; ow < out_w; ++ow) {
            T* __restrict a = top + 2 * ow * c;
            T* __restrict b = a + c;
            T* __restrict cc = a + row;
            T* __restrict d = cc + c;
            const T* __restrict gp = g + ow * c;
            const int64_t* __restrict tp = ip + ow * c;
#pragma omp simd
            for (int64_t ch = 0; ch < c; ++ch) {
                const int64_t tap = tp[ch];
                a[ch] = tap == 0 ? gp[ch] : T(0);
                b[ch] = tap == 1 ? gp[ch] : T(0);
                cc[ch] = tap == 2 ? gp[ch] : T(0);
                d[ch] = tap == 3 ? gp[ch] : T(0);
            }
        }
    }
}

// max_backward_planes for channels-last arrays of `c` channels.
template <typename T>
void max_backward_cl(const Window& w, int64_t c, const T* gy,
                     const int64_t* index, T* gx) {
    if (tiles_2x2(w)) {
        max_backward_2x2_cl(w, c, gy, index, gx);
        return;
    }
    const int64_t taps = taps_of(w);
    const int64_t images = w.planes / std::max<int64_t>(c, 1);
    std::fill(gx, gx + images * w.in_size() * c, T(0));
    for_each_position_by_image(w, images, c, [&](int64_t b, int64_t o,
                                                 const int64_t* pos) {
        const int64_t at = (b * w.out_size() + o) * c;
        T* gxb = gx + b * w.in_size() * c;
        for (int64_t ch = 0; ch < c; ++ch) {
            const int64_t tap = index[at + ch];
            if (tap < 0 || tap >= taps || pos[tap] < 0) continue;
            gxb[pos[tap] * c + ch] += gy[at + ch];
        }
    });
}

// average_forward_planes for channels-last arrays: the taps summed in the
// same order, channel by channel.
template <typename T>
void average_forward_cl(const Window& w, int64_t c, const T* x,
                        const T* divisor, T* y) {
    const int64_t taps = taps_of(w);
    const int64_t images = w.planes / std::max<int64_t>(c, 1);
    for_each_position(w, images, c, [&](int64_t b, int64_t o,
                                        const int64_t* pos) {
        const T* xb = x + b * w.in_size() * c;
        T* __restrict total = y + (b * w.out_size() + o) * c;
        std::fill(total, total + c, T(0));
        for (int64_t tap = 0; tap < taps; ++tap) {
            if (pos[tap] < 0) continue;
            const T* __restrict v = xb + pos[tap] * c;
#pragma omp simd
            for (int64_t ch = 0; ch < c; ++ch) total[ch] += v[ch];
        }
        const T d = divisor[o];
#pragma omp simd
        for (int64_t ch = 0; ch < c; ++ch) total[ch] /= d;
    });
}

template <typename T>
void average_backward_cl(const Window& w, int64_t c, const T* gy,
                         const T* divisor, T* gx) {
    const int64_t taps = taps_of(w);
    const int64_t images = w.planes / std::max<int64_t>(c, 1);
    std::fill(gx, gx + images * w.in_size() * c, T(0));
    for_each_position_by_image(w, images, c, [&](int64_t b, int64_t o,
                                                 const int64_t* pos) {
        const T* g = gy + (b * w.out_size() + o) * c;
        const T d = divisor[o];
        T* gxb = gx + b * w.in_size() * c;
        for (int64_t tap = 0; tap < taps; ++tap) {
            if (pos[tap] < 0) continue;
            T* __restrict out = gxb + pos[tap] * c;
#pragma omp simd
            for (int64_t ch = 0; ch < c; ++ch) out[ch] += g[ch] / d;
        }
    });
}

py::tuple max_forward(const array& x, const std::vector<int64_t>& out,
                      const std::vector<int64_t>& ksize,
                      const std::vector<int64_t>& stride,
                      const std::vector<int64_t>& pad) {
    require_plain(x, "x", -1);
    require_float_dtype(x, "x");
    auto w = make_window(shape_of(x), out, ksize, stride, pad);
    auto y_shape = output_shape(shape_of(x), out);
    const bool cl = is_strictly_channels_last(x);
    const int64_t c = x.shape(1);
    array y = cl ? empty_channels_last(x.dtype(), y_shape)
                 : empty_like_dtype(x, y_shape);
    const auto int64 = py::dtype::of<int64_t>();
    array index = cl ? empty_channels_last(int64, y_shape)
                     : empty_array(int64, y_shape);
    int64_t* pindex = static_cast<int64_t*>(index.mutable_data());
    loops::with_float(x, [&](auto zero) {
        using T = decltype(zero);
        py::gil_scoped_release release;
        if (cl) {
            max_forward_cl(w, c, loops::in<T>(x), loops::out<T>(y), pindex);
        } else if (tiles_2x2(w)) {
            max_forward_2x2(w, loops::in<T>(x), loops::out<T>(y), pindex);
        } else {
            max_forward_planes(w, loops::in<T>(x), loops::out<T>(y),
                               pindex);
        }
    });
    return py::make_tuple(y, index);
}

array max_backward(const array& gy, const array& index,
                   const std::vector<int64_t>& x_shape,
                   const std::vector<int64_t>& ksize,
                   const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& pad) {
    require_plain(gy, "gy", -1);
    require_float_dtype(gy, "gy");
    const bool cl = is_strictly_channels_last(gy);
    require_plain(index, "indexes", gy.ndim());
    if (!index.dtype().equal(py::dtype::of<int64_t>()) ||
        shape_of(index) != shape_of(gy) ||
        is_strictly_channels_last(index) != cl) {
        throw std::invalid_argument(
            "indexes must be int64, of the shape and layout of gy");
    }
    dims xs(x_shape.begin(), x_shape.end());
    std::vector<int64_t> out(gy.shape() + 2, gy.shape() + gy.ndim());
    auto w = make_window(xs, out, ksize, stride, pad);
    const int64_t c = gy.shape(1);
    array gx = cl ? empty_channels_last(gy.dtype(), xs)
                  : empty_like_dtype(gy, xs);
    const int64_t* pindex = static_cast<const int64_t*>(index.data());
    loops::with_float(gy, [&](auto zero) {
        using T = decltype(zero);
        py::gil_scoped_release release;
        if (cl) {
            max_backward_cl(w, c, loops::in<T>(gy), pindex,
                            loops::out<T>(gx));
        } else if (tiles_2x2(w)) {
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
    require_plain(x, "x", -1);
    require_float_dtype(x, "x");
    auto w = make_window(shape_of(x), out, ksize, stride, pad);
    require_divisor(divisor, x, w.out_size());
    const bool cl = is_strictly_channels_last(x);
    const int64_t c = x.shape(1);
    const dims y_shape = output_shape(shape_of(x), out);
    array y = cl ? empty_channels_last(x.dtype(), y_shape)
                 : empty_like_dtype(x, y_shape);
    loops::with_float(x, [&](auto zero) {
        using T = decltype(zero);
        py::gil_scoped_release release;
        if (cl) {
            average_forward_cl(w, c, loops::in<T>(x), loops::in<T>(divisor),
                               loops::out<T>(y));
        } else {
            average_forward_planes(w, loops::in<T>(x),
                                   loops::in<T>(divisor), loops::out<T>(y));
        }
    });
    return y;
}

array average_backward(const array& gy, const array& divisor,
                       const std::vector<int64_t>& x_shape,
                       const std::vector<int64_t>& ksize,
                       const std::vector<int64_t>& stride,
                       const std::vector<int64_t>& pad) {
    require_plain(gy, "gy", -1);
    require_float_dtype(gy, "gy");
    dims xs(x_shape.begin(), x_shape.end());
    std::vector<int64_t> out(gy.shape() + 2, gy.shape() + gy.ndim());
    auto w = make_window(xs, out, ksize, stride, pad);
    require_divisor(divisor, gy, w.out_size());
    const bool cl = is_strictly_channels_last(gy);
    const int64_t c = gy.shape(1);
    array gx = cl ? empty_channels_last(gy.dtype(), xs)
                  : empty_like_dtype(gy, xs);
    loops::with_float(gy, [&](auto zero) {
        using T = decltype(zero);
        py::gil_scoped_release release;
        if (cl) {
            average_backward_cl(w, c, loops::in<T>(gy),
                                loops::in<T>(divisor), loops::out<T>(gx));
        } else {
            average_backward_planes(w, loops::in<T>(gy),
                                    loops::in<T>(divisor),
                                    loops::out<T>(gx));
        }
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
