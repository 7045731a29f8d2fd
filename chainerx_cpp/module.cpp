// The chainerx_cpp._kernels extension module.
#include <omp.h>

#include "common.hpp"

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

    m.def("num_threads", []() { return omp_get_max_threads(); },
          "The number of OpenMP threads the kernels use.");
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
}
