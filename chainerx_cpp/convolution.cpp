// Convolution forward, backward-data and backward-weights through oneDNN.
//
// Weights are C-contiguous (O, C/groups, kernel...); activations x (N, C,
// spatial...) and y (N, O, out...) C-contiguous or channels-last. The
// caller gives the output shape and both paddings, so the cover_all rule of
// Chainer lives in one place (Python). A deconvolution is the same three
// operations with the roles exchanged.
//
// 2-D convolutions without groups run channels-last (see
// Geometry::channels_last) and return their activations so, which saves
// the reorders between convolutions: each of the following ones (and batch
// normalization, the element-wise kernels) takes them as they are.
#include <algorithm>
#include <string>
#include <unordered_map>

#include "common.hpp"

namespace chainerx_cpp {
namespace {

using dnnl::algorithm;
using dnnl::prop_kind;

// The plain format of Chainer's weights, (O, C, k...), or of their grouped
// view, (g, O/g, C/g, k...).
tag weight_tag(int spatial, bool grouped) {
    switch (spatial) {
        case 1: return grouped ? tag::goiw : tag::oiw;
        case 2: return grouped ? tag::goihw : tag::oihw;
        default: return grouped ? tag::goidhw : tag::oidhw;
    }
}

// The primitives choose their own memory formats (oneDNN's blocked layouts
// run several times faster than plain NCHW on wide layers); arrays are
// reordered in and out when the choice differs from the plain layout.
dnnl::memory::desc any_like(const dnnl::memory::desc& plain) {
    return {plain.get_dims(), plain.get_data_type(), tag::any};
}

// The channel block of oneDNN's blocked layouts on this CPU.
int64_t channel_block() {
    const auto isa = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
    const auto avx512 = static_cast<unsigned>(dnnl_cpu_isa_avx512_core);
    return (isa & avx512) == avx512 ? 16 : 8;
}

// Whether a 2-D convolution runs faster channels-last (NHWC) than in the
// blocked layouts: the blocked ones pad the channels to whole blocks, so
// that with 20 input and 50 output channels half of their arithmetic is on
// padding. Measured on AVX-512 (forward and both gradients together):
// NHWC wins by 10-40 % where the padding is a sixth or more of the work
// and both channel counts are 10 or more, and loses below (few input
// channels, which the blocked kernels take unpadded, or whole blocks).
bool prefers_channels_last(int64_t in_channels, int64_t out_channels) {
    if (std::min(in_channels, out_channels) < 10) return false;
    static const int64_t block = channel_block();
    auto padded = [](int64_t c) { return (c + block - 1) / block * block; };
    const double useful = static_cast<double>(in_channels * out_channels) /
                          static_cast<double>(padded(in_channels) *
                                              padded(out_channels));
    return useful <= 0.85;
}

// `user` seen in the format `want`: itself, or a reordered copy.
dnnl::memory in_format(const dnnl::memory& user,
                       const dnnl::memory::desc& want) {
    if (user.get_desc() == want) return user;
    dnnl::memory m(want, cpu_engine());
    dnnl::memory source = user;
    reorder_into(source, m);
    return m;
}

// Memory for a result in the format `want`; finish() copies it into
// `user` when the formats differ.
struct Output {
    dnnl::memory user, mem;

    Output(const dnnl::memory& user_mem, const dnnl::memory::desc& want)
        : user(user_mem),
          mem(user_mem.get_desc() == want
                  ? user_mem : dnnl::memory(want, cpu_engine())) {}

    void finish() {
        if (mem != user) reorder_into(mem, user);
    }
};

// The geometry shared by the three primitives of one convolution.
struct Geometry {
    dims x_shape, w_shape, y_shape, strides, dilates, pad_l, pad_r;
    int64_t groups;

    int spatial() const { return static_cast<int>(x_shape.size()) - 2; }

    // Whether the primitives compute channels-last, which is also the
    // layout of the activations they return. On AVX-512, oneDNN's NHWC
    // kernels (brgconv) match its blocked ones within a few percent on
    // ResNet's and LeNet's geometries and beat them by up to 35 % where
    // the blocks pad the channels, while a blocked activation costs a
    // reorder in and out of each convolution, a fifth of its time (64
    // channels at 56x56); elsewhere, only where the padding is large.
    bool channels_last() const {
        static const bool avx512 = channel_block() == 16;
        return spatial() == 2 && groups == 1 &&
               (avx512 || prefers_channels_last(x_shape[1], y_shape[1]));
    }

    std::string key(dnnl::memory::data_type dt, bool with_bias) const {
        std::string k = std::to_string(static_cast<int>(dt)) +
                        (with_bias ? "b" : "n") + std::to_string(groups) +
                        ":";
        for (const dims* d : {&x_shape, &w_shape, &y_shape, &strides,
                              &dilates, &pad_l, &pad_r}) {
            append_key(k, *d);
        }
        return k;
    }

    // A new activation array in the layout the primitives compute in,
    // or C-contiguous.
    array new_activation(const array& like, const dims& shape) const {
        return channels_last() ? empty_channels_last(like.dtype(), shape)
                               : empty_like_dtype(like, shape);
    }

    // The format the primitives get for an activation of `shape`.
    dnnl::memory::desc data_choice(const dims& shape,
                                   dnnl::memory::data_type dt) const {
        if (channels_last()) {
            return {shape, dt, activation_tag(spatial(), true)};
        }
        return {shape, dt, tag::any};
    }

    // Chainer's (O, C/g, k...) weights viewed as oneDNN's (g, O/g, C/g, k...),
    // or as they are without groups: oneDNN picks other kernels for the
    // grouped view of one group (brgconv rather than its direct JIT kernel
    // for one input channel, twice as slow on LeNet's first convolution).
    dnnl::memory::desc weight_desc(dnnl::memory::data_type dt) const {
        if (groups == 1) return {w_shape, dt, weight_tag(spatial(), false)};
        dims g_shape{groups, w_shape[0] / groups};
        g_shape.insert(g_shape.end(), w_shape.begin() + 1, w_shape.end());
        return {g_shape, dt, weight_tag(spatial(), true)};
    }

    dnnl::convolution_forward::primitive_desc forward_desc(
            dnnl::memory::data_type dt, bool with_bias) const {
        auto bias = with_bias
            ? dnnl::memory::desc({w_shape[0]}, dt, tag::a)
            : dnnl::memory::desc();
        return {cpu_engine(), prop_kind::forward_training,
                algorithm::convolution_direct,
                data_choice(x_shape, dt), any_like(weight_desc(dt)),
                bias, data_choice(y_shape, dt), strides, dilates,
                pad_l, pad_r, kernel_attr()};
    }
};

dims to_dims(const std::vector<int64_t>& v) { return dims(v.begin(), v.end()); }

// oneDNN counts dilation from zero (0 is a dense kernel); Chainer from one.
dims onednn_dilation(const std::vector<int64_t>& dilate) {
    dims d;
    for (auto v : dilate) d.push_back(v - 1);
    return d;
}

Geometry make_geometry(const dims& x_shape, const dims& w_shape,
                       const dims& y_shape,
                       const std::vector<int64_t>& stride,
                       const std::vector<int64_t>& pad_l,
                       const std::vector<int64_t>& pad_r,
                       const std::vector<int64_t>& dilate, int64_t groups) {
    const size_t spatial = x_shape.size() - 2;
    if (w_shape.size() != x_shape.size() || y_shape.size() != x_shape.size() ||
        stride.size() != spatial || pad_l.size() != spatial ||
        pad_r.size() != spatial || dilate.size() != spatial) {
        throw std::invalid_argument("convolution arguments disagree in rank");
    }
    return {x_shape, w_shape, y_shape, to_dims(stride),
            onednn_dilation(dilate), to_dims(pad_l), to_dims(pad_r), groups};
}

array forward(const array& x, const array& w, py::object b,
              const std::vector<int64_t>& y_shape,
              const std::vector<int64_t>& stride,
              const std::vector<int64_t>& pad_l,
              const std::vector<int64_t>& pad_r,
              const std::vector<int64_t>& dilate, int64_t groups) {
    require_plain(x, "x", -1);
    require_contiguous(w, "W", x.ndim());
    auto g = make_geometry(shape_of(x), shape_of(w), to_dims(y_shape),
                           stride, pad_l, pad_r, dilate, groups);
    auto dt = data_type_of(x);
    const bool with_bias = !b.is_none();
    array bias;
    if (with_bias) {
        bias = b.cast<array>();
        require_contiguous(bias, "b", 1);
    }
    array y = g.new_activation(x, g.y_shape);
    {
        py::gil_scoped_release release;
        static PrimitiveCache<dnnl::convolution_forward::primitive_desc,
                              dnnl::convolution_forward> cache;
        auto [pd, conv] = cache.get(g.key(dt, with_bias), [&]() {
            return g.forward_desc(dt, with_bias);
        });
        dnnl::memory x_mem = wrap_activation(x, dt);
        dnnl::memory w_mem(g.weight_desc(dt), cpu_engine(),
                           const_cast<void*>(w.data()));
        Output y_out(wrap_activation(y, dt), pd.dst_desc());
        std::unordered_map<int, dnnl::memory> args{
            {DNNL_ARG_SRC, in_format(x_mem, pd.src_desc())},
            {DNNL_ARG_WEIGHTS, in_format(w_mem, pd.weights_desc())},
            {DNNL_ARG_DST, y_out.mem}};
        if (with_bias) {
            args[DNNL_ARG_BIAS] = dnnl::memory(
                pd.bias_desc(), cpu_engine(), const_cast<void*>(bias.data()));
        }
        run(conv, pd.scratchpad_desc(), std::move(args));
        y_out.finish();
    }
    return y;
}

array backward_data(const array& gy, const array& w,
                    const std::vector<int64_t>& x_shape,
                    const std::vector<int64_t>& stride,
                    const std::vector<int64_t>& pad_l,
                    const std::vector<int64_t>& pad_r,
                    const std::vector<int64_t>& dilate, int64_t groups) {
    require_plain(gy, "gy", -1);
    require_contiguous(w, "W", gy.ndim());
    auto g = make_geometry(to_dims(x_shape), shape_of(w), shape_of(gy),
                           stride, pad_l, pad_r, dilate, groups);
    auto dt = data_type_of(gy);
    array gx = g.new_activation(gy, g.x_shape);
    {
        py::gil_scoped_release release;
        static PrimitiveCache<
            dnnl::convolution_backward_data::primitive_desc,
            dnnl::convolution_backward_data> cache;
        auto [pd, conv] = cache.get(g.key(dt, false), [&]() {
            auto hint = g.forward_desc(dt, false);
            return dnnl::convolution_backward_data::primitive_desc(
                cpu_engine(), algorithm::convolution_direct,
                g.data_choice(g.x_shape, dt), any_like(g.weight_desc(dt)),
                g.data_choice(g.y_shape, dt), g.strides, g.dilates,
                g.pad_l, g.pad_r, hint, kernel_attr());
        });
        dnnl::memory gy_mem = wrap_activation(gy, dt);
        dnnl::memory w_mem(g.weight_desc(dt), cpu_engine(),
                           const_cast<void*>(w.data()));
        Output gx_out(wrap_activation(gx, dt), pd.diff_src_desc());
        run(conv, pd.scratchpad_desc(),
            {{DNNL_ARG_DIFF_DST, in_format(gy_mem, pd.diff_dst_desc())},
             {DNNL_ARG_WEIGHTS, in_format(w_mem, pd.weights_desc())},
             {DNNL_ARG_DIFF_SRC, gx_out.mem}});
        gx_out.finish();
    }
    return gx;
}

py::tuple backward_weights(const array& x, const array& gy,
                           const std::vector<int64_t>& w_shape,
                           bool with_bias,
                           const std::vector<int64_t>& stride,
                           const std::vector<int64_t>& pad_l,
                           const std::vector<int64_t>& pad_r,
                           const std::vector<int64_t>& dilate,
                           int64_t groups) {
    require_plain(x, "x", -1);
    require_plain(gy, "gy", x.ndim());
    auto g = make_geometry(shape_of(x), to_dims(w_shape), shape_of(gy),
                           stride, pad_l, pad_r, dilate, groups);
    auto dt = data_type_of(x);
    array gw = empty_like_dtype(x, g.w_shape);
    py::object gb = py::none();
    array gb_array;
    if (with_bias) {
        gb_array = empty_like_dtype(x, {g.w_shape[0]});
        gb = gb_array;
    }
    {
        py::gil_scoped_release release;
        static PrimitiveCache<
            dnnl::convolution_backward_weights::primitive_desc,
            dnnl::convolution_backward_weights> cache;
        auto [pd, conv] = cache.get(g.key(dt, with_bias), [&]() {
            auto hint = g.forward_desc(dt, with_bias);
            auto bias = with_bias
                ? dnnl::memory::desc({g.w_shape[0]}, dt, tag::a)
                : dnnl::memory::desc();
            return dnnl::convolution_backward_weights::primitive_desc(
                cpu_engine(), algorithm::convolution_direct,
                g.data_choice(g.x_shape, dt), any_like(g.weight_desc(dt)),
                bias, g.data_choice(g.y_shape, dt), g.strides, g.dilates,
                g.pad_l, g.pad_r, hint, kernel_attr());
        });
        dnnl::memory x_mem = wrap_activation(x, dt);
        dnnl::memory gy_mem = wrap_activation(gy, dt);
        Output gw_out(dnnl::memory(g.weight_desc(dt), cpu_engine(),
                                   gw.mutable_data()),
                      pd.diff_weights_desc());
        std::unordered_map<int, dnnl::memory> args{
            {DNNL_ARG_SRC, in_format(x_mem, pd.src_desc())},
            {DNNL_ARG_DIFF_DST, in_format(gy_mem, pd.diff_dst_desc())},
            {DNNL_ARG_DIFF_WEIGHTS, gw_out.mem}};
        if (with_bias) {
            args[DNNL_ARG_DIFF_BIAS] = dnnl::memory(
                pd.diff_bias_desc(), cpu_engine(), gb_array.mutable_data());
        }
        run(conv, pd.scratchpad_desc(), std::move(args));
        gw_out.finish();
    }
    return py::make_tuple(gw, gb);
}

}  // namespace

void register_convolution(py::module_& m) {
    m.def("convolution_forward", &forward, py::arg("x"), py::arg("W"),
          py::arg("b"), py::arg("y_shape"), py::arg("stride"),
          py::arg("pad_l"), py::arg("pad_r"), py::arg("dilate"),
          py::arg("groups"));
    m.def("convolution_backward_data", &backward_data, py::arg("gy"),
          py::arg("W"), py::arg("x_shape"), py::arg("stride"),
          py::arg("pad_l"), py::arg("pad_r"), py::arg("dilate"),
          py::arg("groups"));
    m.def("convolution_backward_weights", &backward_weights, py::arg("x"),
          py::arg("gy"), py::arg("W_shape"), py::arg("with_bias"),
          py::arg("stride"), py::arg("pad_l"), py::arg("pad_r"),
          py::arg("dilate"), py::arg("groups"));
}

}  // namespace chainerx_cpp
