#include "common.hpp"

namespace chainerx_cpp {

dnnl::engine& cpu_engine() {
    static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return engine;
}

dnnl::stream& cpu_stream() {
    thread_local dnnl::stream stream(cpu_engine());
    return stream;
}

dnnl::primitive_attr kernel_attr() {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return attr;
}

namespace {

// The calling thread's scratchpad: one buffer, grown to the largest a
// primitive has asked for on this thread. The primitives of one thread run
// one after the other (run() waits), so they can all use it.
void* thread_scratchpad(size_t bytes) {
    constexpr size_t kAlign = 64;
    thread_local std::vector<char> buffer;
    if (buffer.size() < bytes + kAlign) buffer.resize(bytes + kAlign);
    auto p = reinterpret_cast<uintptr_t>(buffer.data());
    return reinterpret_cast<void*>((p + kAlign - 1) / kAlign * kAlign);
}

}  // namespace

void run(const dnnl::primitive& primitive,
         const dnnl::memory::desc& scratchpad,
         std::unordered_map<int, dnnl::memory> args) {
    const size_t bytes = scratchpad.get_size();
    if (bytes > 0) {
        args[DNNL_ARG_SCRATCHPAD] = dnnl::memory(
            scratchpad, cpu_engine(), thread_scratchpad(bytes));
    }
    primitive.execute(cpu_stream(), args);
    cpu_stream().wait();
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

bool is_channels_last(const array& a) {
    const auto nd = a.ndim();
    if (nd < 3) return false;
    // The axes from the innermost out: C, then the spatial ones, then N.
    py::ssize_t expected = a.itemsize();
    auto check = [&](py::ssize_t axis) {
        const bool ok = a.shape(axis) == 1 || a.strides(axis) == expected;
        expected *= a.shape(axis);
        return ok;
    };
    if (!check(1)) return false;
    for (py::ssize_t axis = nd - 1; axis >= 2; --axis) {
        if (!check(axis)) return false;
    }
    return check(0);
}

bool is_strictly_channels_last(const array& a) {
    return !(a.flags() & py::array::c_style) && is_channels_last(a);
}

void require_plain(const array& a, const char* name, int ndim) {
    if (is_channels_last(a) && (ndim < 0 || a.ndim() == ndim)) return;
    require_contiguous(a, name, ndim);
}

array empty_channels_last(const py::dtype& dtype, const dims& shape) {
    ArrayCacheScope scope(nbytes_of(dtype, shape));
    const auto nd = shape.size();
    std::vector<py::ssize_t> py_shape(shape.begin(), shape.end());
    std::vector<py::ssize_t> strides(nd);
    py::ssize_t stride = dtype.itemsize();
    strides[1] = stride;
    stride *= shape[1];
    for (size_t axis = nd - 1; axis >= 2; --axis) {
        strides[axis] = stride;
        stride *= shape[axis];
    }
    strides[0] = stride;
    return array(dtype, py_shape, strides);
}

array empty_in_layout(const array& like) {
    if (is_strictly_channels_last(like)) {
        return empty_channels_last(like.dtype(), shape_of(like));
    }
    return empty_like_dtype(like, shape_of(like));
}

tag activation_tag(int spatial, bool channels_last) {
    switch (spatial) {
        case 1: return channels_last ? tag::nwc : tag::ncw;
        case 2: return channels_last ? tag::nhwc : tag::nchw;
        case 3: return channels_last ? tag::ndhwc : tag::ncdhw;
    }
    throw std::invalid_argument("activations have 1 to 3 spatial axes");
}

dnnl::memory wrap_activation(const array& a, dnnl::memory::data_type dt) {
    const int spatial = static_cast<int>(a.ndim()) - 2;
    dnnl::memory::desc desc(shape_of(a), dt,
                            activation_tag(spatial, is_channels_last(a)));
    return dnnl::memory(desc, cpu_engine(), const_cast<void*>(a.data()));
}

dnnl::memory wrap(const array& a, tag format) {
    dnnl::memory::desc desc(shape_of(a), data_type_of(a), format);
    return dnnl::memory(desc, cpu_engine(), const_cast<void*>(a.data()));
}

array empty_array(const py::dtype& dtype, const dims& shape) {
    ArrayCacheScope scope(nbytes_of(dtype, shape));
    std::vector<py::ssize_t> py_shape(shape.begin(), shape.end());
    return array(dtype, py_shape);
}

array empty_like_dtype(const array& like, const dims& shape) {
    return empty_array(like.dtype(), shape);
}

void reorder_into(dnnl::memory& from, dnnl::memory& to) {
    dnnl::reorder::primitive_desc pd(from, to, kernel_attr());
    run(dnnl::reorder(pd), pd.scratchpad_desc(),
        {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
}

}  // namespace chainerx_cpp
