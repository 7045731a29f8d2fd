#include "common.hpp"

namespace chainerx_cpp {

dnnl::engine& cpu_engine() {
    static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return engine;
}

dnnl::stream& cpu_stream() {
    static dnnl::stream stream(cpu_engine());
    return stream;
}

dnnl::memory::data_type data_type_of(const array& a) {
    auto kind = a.dtype().kind();
    auto size = a.dtype().itemsize();
    if (kind == 'f' && size == 4) return dnnl::memory::data_type::f32;
    if (kind == 'f' && size == 2) return dnnl::memory::data_type::f16;
    throw std::invalid_argument(
        "oneDNN kernels take float32 or float16 arrays");
}

void require_contiguous(const array& a, const char* name, int ndim) {
    if (ndim >= 0 && a.ndim() != ndim) {
        throw std::invalid_argument(
            std::string(name) + " must have " + std::to_string(ndim) +
            " dimensions");
    }
    if (!(a.flags() & py::array::c_style)) {
        throw std::invalid_argument(
            std::string(name) + " must be C-contiguous");
    }
}

dnnl::memory wrap(const array& a, tag format) {
    dnnl::memory::desc desc(shape_of(a), data_type_of(a), format);
    return dnnl::memory(desc, cpu_engine(), const_cast<void*>(a.data()));
}

array empty_like_dtype(const array& like, const dims& shape) {
    std::vector<py::ssize_t> py_shape(shape.begin(), shape.end());
    return array(like.dtype(), py_shape);
}

void reorder_into(dnnl::memory& from, dnnl::memory& to) {
    dnnl::reorder(from, to).execute(cpu_stream(), from, to);
}

}  // namespace chainerx_cpp
