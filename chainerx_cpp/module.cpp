// The chainerx_cpp._kernels extension module.
#include <omp.h>

#include <cstdlib>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "common.hpp"

namespace {

// Makes glibc's malloc serve blocks up to `mmap_threshold` bytes from its
// heap and keep up to `trim_threshold` bytes freed at the heap's top,
// instead of mapping each large block fresh and unmapping it when freed:
// every page of a fresh mapping faults on its first touch, which for the
// arrays of a training step costs as much as the arithmetic. Returns
// whether both settings took (false off glibc).
bool keep_freed_memory(int mmap_threshold, int trim_threshold) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 &&
           mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
#else
    (void)mmap_threshold;
    (void)trim_threshold;
    return false;
#endif
}

}  // namespace

PYBIND11_MODULE(_kernels, m) {
    namespace py = pybind11;
    m.doc() = "Compiled CPU kernels of Chainer's hot operations.";

    // oneDNN reports a configuration it has no implementation for (a dtype
    // the CPU lacks, say) as `unimplemented`: the caller falls back to NumPy.
    static py::exception<std::exception> unsupported(m, "Unsupported");
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const dnnl::error& e) {
            if (e.status == dnnl_unimplemented) {
                py::set_error(unsupported, e.what());
            } else {
                PyErr_SetString(PyExc_RuntimeError, e.what());
            }
        } catch (const std::invalid_argument& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });

    m.attr("parallel_grain") = chainerx_cpp::kParallelGrain;
    m.def("num_threads", []() { return omp_get_max_threads(); },
          "The number of OpenMP threads the kernels use.");
    m.def("keep_freed_memory", &keep_freed_memory,
          py::arg("mmap_threshold"), py::arg("trim_threshold"));
    m.def("onednn_version", []() {
        const dnnl_version_t* v = dnnl_version();
        return py::make_tuple(v->major, v->minor, v->patch);
    });

    chainerx_cpp::register_convolution(m);
    chainerx_cpp::register_pooling(m);
    chainerx_cpp::register_softmax(m);
    chainerx_cpp::register_batch_norm(m);
    chainerx_cpp::register_eltwise(m);
    chainerx_cpp::register_lstm(m);
    chainerx_cpp::register_embed(m);
    chainerx_cpp::register_optimizers(m);
    chainerx_cpp::register_linear(m);
    chainerx_cpp::register_layout(m);
    chainerx_cpp::register_array_cache(m);
}
