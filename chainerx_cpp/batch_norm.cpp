// Batch normalization of float32 arrays through oneDNN, per channel of
// x (N, C, spatial...) or x (N, C): forward with the statistics of the
// batch or with given ones, and the gradients (gx, ggamma, gbeta).
//
// Chainer keeps the inverse standard deviation 1 / sqrt(var + eps) for the
// backward pass; it reaches oneDNN as the variance 1 / inv_std**2 with an
// epsilon of zero, which gives back the same inverse standard deviation.
#include <cmath>

#include "common.hpp"

namespace chainerx_cpp {
namespace {

using dnnl::normalization_flags;
using dnnl::prop_kind;

tag data_tag(int ndim) {
    switch (ndim) {
        case 2: return tag::nc;
        case 3: return tag::ncw;
        case 4: return tag::nchw;
        case 5: return tag::ncdhw;
    }
    throw std::invalid_argument("batch normalization takes 2 to 5 axes");
}

void require_f32(const array& a, const char* name) {
    if (a.dtype().kind() != 'f' || a.dtype().itemsize() != 4) {
        throw std::invalid_argument(std::string(name) + " must be float32");
    }
}

// Checks x (N, C, ...) and the per-channel arrays, all float32.
int64_t channels_of(const array& x, std::initializer_list<const array*> per,
                    std::initializer_list<const char*> names) {
    require_contiguous(x, "x", -1);
    require_f32(x, "x");
    data_tag(static_cast<int>(x.ndim()));
    const int64_t c = x.shape(1);
    auto name = names.begin();
    for (const array* a : per) {
        require_contiguous(*a, *name, 1);
        require_f32(*a, *name);
        if (a->shape(0) != c) {
            throw std::invalid_argument(
                std::string(*name) + " must have one entry per channel");
        }
        ++name;
    }
    return c;
}

dnnl::memory::desc data_desc(const array& x) {
    return {shape_of(x), dnnl::memory::data_type::f32,
            data_tag(static_cast<int>(x.ndim()))};
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

array channel_array(const array& like, int64_t c) {
    return empty_like_dtype(like, {c});
}

// y, mean and the biased variance of x per channel.
py::tuple forward(const array& x, const array& gamma, const array& beta,
                  double eps) {
    const int64_t c = channels_of(x, {&gamma, &beta}, {"gamma", "beta"});
    array y = empty_like_dtype(x, shape_of(x));
    array mean = channel_array(x, c), var = channel_array(x, c);
    {
        py::gil_scoped_release release;
        auto d = data_desc(x);
        auto cd = channel_desc(c);
        dnnl::batch_normalization_forward::primitive_desc pd(
            cpu_engine(), prop_kind::forward_training, d, d,
            static_cast<float>(eps), affine(false));
        dnnl::batch_normalization_forward(pd).execute(
            cpu_stream(), {{DNNL_ARG_SRC, mem(d, x.data())},
                           {DNNL_ARG_DST, mem(d, y.mutable_data())},
                           {DNNL_ARG_SCALE, mem(cd, gamma.data())},
                           {DNNL_ARG_SHIFT, mem(cd, beta.data())},
                           {DNNL_ARG_MEAN, mem(cd, mean.mutable_data())},
                           {DNNL_ARG_VARIANCE, mem(cd, var.mutable_data())}});
        cpu_stream().wait();
    }
    return py::make_tuple(y, mean, var);
}

// y = gamma * (x - mean) / sqrt(var + eps) + beta for the given statistics.
array forward_fixed(const array& x, const array& gamma, const array& beta,
                    const array& mean, const array& var, double eps) {
    const int64_t c = channels_of(x, {&gamma, &beta, &mean, &var},
                                  {"gamma", "beta", "mean", "var"});
    array y = empty_like_dtype(x, shape_of(x));
    py::gil_scoped_release release;
    auto d = data_desc(x);
    auto cd = channel_desc(c);
    dnnl::batch_normalization_forward::primitive_desc pd(
        cpu_engine(), prop_kind::forward_inference, d, d,
        static_cast<float>(eps), affine(true));
    dnnl::batch_normalization_forward(pd).execute(
        cpu_stream(), {{DNNL_ARG_SRC, mem(d, x.data())},
                       {DNNL_ARG_DST, mem(d, y.mutable_data())},
                       {DNNL_ARG_SCALE, mem(cd, gamma.data())},
                       {DNNL_ARG_SHIFT, mem(cd, beta.data())},
                       {DNNL_ARG_MEAN, mem(cd, mean.data())},
                       {DNNL_ARG_VARIANCE, mem(cd, var.data())}});
    cpu_stream().wait();
    return y;
}

void compute_backward(const array& x, const array& gamma, const array& mean,
                      const array& inv_std, const array& gy,
                      bool global_stats, array& gx, array& ggamma,
                      array& gbeta);

// (gx, ggamma, gbeta) for the statistics mean and inv_std; with
// global_stats the statistics are constants (the fixed mode: gx is
// gamma * inv_std * gy), else those of the batch x.
py::tuple backward(const array& x, const array& gamma, const array& mean,
                   const array& inv_std, const array& gy, bool global_stats) {
    const int64_t c = channels_of(x, {&gamma, &mean, &inv_std},
                                  {"gamma", "mean", "inv_std"});
    require_contiguous(gy, "gy", -1);
    require_f32(gy, "gy");
    if (shape_of(gy) != shape_of(x)) {
        throw std::invalid_argument("gy must have the shape of x");
    }
    array gx = empty_like_dtype(x, shape_of(x));
    array ggamma = channel_array(x, c), gbeta = channel_array(x, c);
    {
        py::gil_scoped_release release;
        compute_backward(x, gamma, mean, inv_std, gy, global_stats, gx,
                         ggamma, gbeta);
    }
    return py::make_tuple(gx, ggamma, gbeta);
}

void compute_backward(const array& x, const array& gamma, const array& mean,
                      const array& inv_std, const array& gy,
                      bool global_stats, array& gx, array& ggamma,
                      array& gbeta) {
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
    dnnl::batch_normalization_forward::primitive_desc hint(
        cpu_engine(), prop_kind::forward_training, d, d, 0.f, flags);
    dnnl::batch_normalization_backward::primitive_desc pd(
        cpu_engine(), prop_kind::backward, d, d, d, 0.f, flags, hint);
    dnnl::batch_normalization_backward(pd).execute(
        cpu_stream(), {{DNNL_ARG_SRC, mem(d, x.data())},
                       {DNNL_ARG_DIFF_DST, mem(d, gy.data())},
                       {DNNL_ARG_MEAN, mem(cd, mean.data())},
                       {DNNL_ARG_VARIANCE, mem(cd, var.data())},
                       {DNNL_ARG_SCALE, mem(cd, gamma.data())},
                       {DNNL_ARG_DIFF_SRC, mem(d, gx.mutable_data())},
                       {DNNL_ARG_DIFF_SCALE, mem(cd, ggamma.mutable_data())},
                       {DNNL_ARG_DIFF_SHIFT, mem(cd, gbeta.mutable_data())}});
    cpu_stream().wait();
}

}  // namespace

void register_batch_norm(py::module_& m) {
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
