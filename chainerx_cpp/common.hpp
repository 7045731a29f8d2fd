// Shared pieces of the kernels: the oneDNN engine and streams, the cache
// of primitives and their execution, and the conversions between NumPy
// arrays and oneDNN memory objects.
//
// The kernels run with the GIL released, so several Python threads may
// run them at once, on the same primitives. They are safe to: each thread
// has its own stream, and every primitive is made with a scratchpad that
// the caller provides (run() gives each thread its own), where oneDNN's
// default would share one scratchpad between all the threads.
#pragma once

#include <omp.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "tuning.hpp"

namespace chainerx_cpp {

namespace py = pybind11;

using dims = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;

// The one CPU engine, and the calling thread's stream on it.
dnnl::engine& cpu_engine();
dnnl::stream& cpu_stream();

// The attributes every primitive is made with: a scratchpad given by the
// caller at each execution (see run()).
dnnl::primitive_attr kernel_attr();

// Runs `primitive` (made with kernel_attr()) on the calling thread's
// stream with `args` and a scratchpad of the calling thread, described by
// `scratchpad` (the primitive descriptor's scratchpad_desc()), and waits
// for it to finish.
void run(const dnnl::primitive& primitive,
         const dnnl::memory::desc& scratchpad,
         std::unordered_map<int, dnnl::memory> args);

// Primitive descriptors with their primitives, by a key that names
// everything the descriptor depends on: choosing the memory formats and
// the implementation costs up to a few hundred microseconds a call, more
// than a small kernel itself. Safe to share between threads; bounded, and
// cleared when full. A primitive divides its work (and sizes its
// scratchpad) for the number of OpenMP threads it is made under, so that
// number is part of the key.
template <typename PD, typename P>
class PrimitiveCache {
public:
    std::pair<PD, P> get(std::string key, const std::function<PD()>& make) {
        key += 't';
        key += std::to_string(omp_get_max_threads());
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto it = entries_.find(key);
            if (it != entries_.end()) return it->second;
        }
        PD pd = make();
        P primitive(pd);
        std::lock_guard<std::mutex> lock(mutex_);
        if (entries_.size() >= kCapacity) entries_.clear();
        entries_.emplace(key, std::make_pair(pd, primitive));
        return {pd, primitive};
    }

private:
    static constexpr size_t kCapacity = 256;
    std::mutex mutex_;
    std::unordered_map<std::string, std::pair<PD, P>> entries_;
};

// Appends the values of `values` to a cache key, each followed by a comma
// and the whole by a semicolon.
template <typename Values>
void append_key(std::string& key, const Values& values) {
    for (auto v : values) {
        key += std::to_string(v);
        key += ',';
    }
    key += ';';
}

// A C-contiguous NumPy array of any dtype, as the kernels receive it.
using array = py::array;

inline dims shape_of(const array& a) {
    return dims(a.shape(), a.shape() + a.ndim());
}

// The oneDNN data type of a NumPy array; throws for dtypes oneDNN lacks.
dnnl::memory::data_type data_type_of(const array& a);

// Checks that `a` is C-contiguous with the expected number of dimensions.
void require_contiguous(const array& a, const char* name, int ndim);

// Whether `a` (N, C, spatial...) is laid out channels-last: a C-contiguous
// (N, spatial..., C) buffer seen with its channel axis moved to 1, as the
// convolutions return their outputs (and as NumPy's convolution does).
bool is_channels_last(const array& a);

// Whether `a` is channels-last and not C-contiguous (with one channel, or
// one spatial element, both hold: the C-contiguous loops then take it).
bool is_strictly_channels_last(const array& a);

// Checks that `a` is C-contiguous or channels-last, with `ndim` axes.
void require_plain(const array& a, const char* name, int ndim);

// While it lives, NumPy arrays the calling thread allocates of `nbytes`
// bytes or more come from the kernels' array cache (array_cache.cpp); the
// kernels make their output arrays in one. Smaller arrays come from
// NumPy's own allocator.
class ArrayCacheScope {
public:
    explicit ArrayCacheScope(size_t nbytes);
    ~ArrayCacheScope();
    ArrayCacheScope(const ArrayCacheScope&) = delete;
    ArrayCacheScope& operator=(const ArrayCacheScope&) = delete;

private:
    PyObject* previous_ = nullptr;
};

// The size in bytes of an array of `dtype` and `shape`.
size_t nbytes_of(const py::dtype& dtype, const dims& shape);

// A new uninitialised C-contiguous array, from the array cache.
array empty_array(const py::dtype& dtype, const dims& shape);

// A new uninitialised channels-last array, from the array cache.
array empty_channels_last(const py::dtype& dtype, const dims& shape);

// A new uninitialised array in the layout of `like` (C-contiguous or
// channels-last), of its dtype and shape.
array empty_in_layout(const array& like);

// The oneDNN format of activations with 1 to 3 spatial axes, C-contiguous
// (ncw, nchw, ncdhw) or channels-last (nwc, nhwc, ndhwc).
tag activation_tag(int spatial, bool channels_last);

// Wraps the buffer of the activation `a` (no copy), C-contiguous or
// channels-last, as oneDNN memory of data type `dt`.
dnnl::memory wrap_activation(const array& a, dnnl::memory::data_type dt);

// Wraps the buffer of `a` (no copy) as oneDNN memory of the given format.
dnnl::memory wrap(const array& a, tag format);

// A new uninitialised C-contiguous array of the dtype of `like`.
array empty_like_dtype(const array& like, const dims& shape);

// Copies `from` into `to` when oneDNN chose a different memory format.
void reorder_into(dnnl::memory& from, dnnl::memory& to);

// Within its scope, oneDNN primitives and OpenMP loops run on the calling
// thread alone if `serial`: for work too small to pay for waking the other
// threads. The thread count is restored on exit.
class SerialScope {
public:
    explicit SerialScope(bool serial)
        : saved_(serial ? omp_get_max_threads() : 0) {
        if (serial) omp_set_num_threads(1);
    }
    ~SerialScope() {
        if (saved_ > 0) omp_set_num_threads(saved_);
    }
    SerialScope(const SerialScope&) = delete;
    SerialScope& operator=(const SerialScope&) = delete;

private:
    int saved_;
};

// Whether `a` holds native float32 (size 4) or float64 (size 8) values.
inline bool is_float(const array& a, py::ssize_t size) {
    return a.dtype().equal(size == 4 ? py::dtype::of<float>()
                                     : py::dtype::of<double>());
}

// Checks that `a` is a float32 or float64 array.
inline void require_float_dtype(const array& a, const char* name) {
    if (!is_float(a, 4) && !is_float(a, 8)) {
        throw std::invalid_argument(
            std::string(name) + " must be a float32 or float64 array");
    }
}

// Checks that `a` is a C-contiguous float32 or float64 array.
inline void require_float(const array& a, const char* name) {
    require_contiguous(a, name, -1);
    require_float_dtype(a, name);
}

// The number of elements of a shape.
inline int64_t size_of(const dims& shape) {
    int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

// Adds the kernels of one family to the module.
void register_convolution(py::module_& m);
void register_pooling(py::module_& m);
void register_softmax(py::module_& m);
void register_batch_norm(py::module_& m);
void register_eltwise(py::module_& m);
void register_lstm(py::module_& m);
void register_embed(py::module_& m);
void register_optimizers(py::module_& m);
void register_linear(py::module_& m);
void register_layout(py::module_& m);
void register_array_cache(py::module_& m);

}  // namespace chainerx_cpp
