// Copies of activations (N, C, spatial...) between their two layouts:
// C-contiguous and channels-last, through oneDNN's reorder.
#include "common.hpp"

namespace chainerx_cpp {
namespace {

// `a` (C-contiguous or channels-last, float32 or float16) copied into a
// new array of the layout `channels_last` selects.
array relayout(const array& a, bool channels_last) {
    if (a.ndim() < 3 || a.ndim() > 5) {
        throw std::invalid_argument("a must have 1 to 3 spatial axes");
    }
    require_plain(a, "a", -1);
    const auto dt = data_type_of(a);
    const dims shape = shape_of(a);
    array out = channels_last ? empty_channels_last(a.dtype(), shape)
                              : empty_like_dtype(a, shape);
    {
        py::gil_scoped_release release;
        SerialScope serial(size_of(shape) < kParallelGrainRows);
        dnnl::memory from = wrap_activation(a, dt);
        dnnl::memory to = wrap_activation(out, dt);
        reorder_into(from, to);
    }
    return out;
}

}  // namespace

void register_layout(py::module_& m) {
    m.def("relayout", &relayout, py::arg("a"), py::arg("channels_last"),
          "A copy of the activation a, C-contiguous or channels-last.");
}

}  // namespace chainerx_cpp
