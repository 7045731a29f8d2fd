// The type check of apply's inputs in type_check's light mode, the common
// case of FunctionNode._check_data_type_forward (chainer/function_node.py):
// check_type_forward on the raw arrays, then, where they fail it, the
// check on expressions (FunctionNode._check_types_fully) for the message.
#include "autograd.hpp"

namespace chainer_autograd {
namespace {

// The light mode's depth in this thread (type_check.in_light_mode).
thread_local long depth = 0;

// Whether the class of `func` keeps FunctionNode's _check_data_type_forward
// (-1 on error).
int checks_as_base(PyObject* func) {
    Ref method(PyObject_GetAttr(reinterpret_cast<PyObject*>(Py_TYPE(func)),
                                st.names.check_data_type_forward));
    if (!method) return -1;
    return method.get() == st.base_check_data_type_forward;
}

// Whether the arrays pass `method`, func's check_type_forward, where that
// is one of type_check._argument_check's (st.argument_checks gives its
// number of inputs and whether the first must be floating): 1 where they
// do, 0 where the check is another or they may not (the first's dtype is
// not one of st.floating_dtypes, NumPy's native floating ones), which
// leaves it to the call; -1 on error.
int passes_argument_check(PyObject* func, PyObject* method,
                          PyObject* in_data) {
    PyObject* spec = method_entry(st.argument_checks, method, func);
    if (spec == nullptr) return PyErr_Occurred() ? -1 : 0;
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 2) return 0;
    const Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 0));
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n != PyTuple_GET_SIZE(in_data)) return 0;
    if (PyTuple_GET_ITEM(spec, 1) != Py_True) return 1;
    if (n == 0) return 0;
    Ref dtype(PyObject_GetAttr(PyTuple_GET_ITEM(in_data, 0), st.s_dtype));
    if (!dtype) {
        PyErr_Clear();  // the Python check raises what it raises
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(st.floating_dtypes); ++i)
        if (PyTuple_GET_ITEM(st.floating_dtypes, i) == dtype.get()) return 1;
    return 0;
}

}  // namespace

PyObject* light_depth(PyObject*, PyObject*) { return PyLong_FromLong(depth); }

PyObject* enter_light(PyObject*, PyObject*) {
    ++depth;
    Py_RETURN_NONE;
}

PyObject* leave_light(PyObject*, PyObject*) {
    --depth;
    Py_RETURN_NONE;
}

bool check_input_types(PyObject* func, PyObject* in_data) {
    const FunctionNodeNames& names = st.names;
    PyObject* layouts = as_function_object(func)->input_layouts;
    int base = layouts == nullptr || layouts == Py_None ? checks_as_base(func)
                                                        : 0;
    if (base < 0) return false;
    if (!base) {
        Ref r(PyObject_CallMethodOneArg(func, names.check_data_type_forward,
                                        in_data));
        return static_cast<bool>(r);
    }
    // Looked up once: decided here, or called on the raw arrays.
    Ref check(PyObject_GetAttr(func, names.check_type_forward));
    if (!check) return false;
    const int passes = passes_argument_check(func, check.get(), in_data);
    if (passes) return passes > 0;
    Ref types(PyObject_CallOneArg(st.light_type_info_tuple, in_data));
    if (!types) return false;
    ++depth;
    Ref r(PyObject_CallOneArg(check.get(), types.get()));
    --depth;
    if (r) return true;
    if (!PyErr_ExceptionMatches(st.invalid_type)) return false;
    PyErr_Clear();
    // The check on expressions, which raises the full message.
    r.reset(PyObject_CallMethodOneArg(func, names.check_types_fully, in_data));
    return static_cast<bool>(r);
}

}  // namespace chainer_autograd
