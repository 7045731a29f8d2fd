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
    Ref types(PyObject_CallOneArg(st.light_type_info_tuple, in_data));
    if (!types) return false;
    ++depth;
    Ref r(PyObject_CallMethodOneArg(func, names.check_type_forward,
                                    types.get()));
    --depth;
    if (r) return true;
    if (!PyErr_ExceptionMatches(st.invalid_type)) return false;
    PyErr_Clear();
    // The check on expressions, which raises the full message.
    r.reset(PyObject_CallMethodOneArg(func, names.check_types_fully, in_data));
    return static_cast<bool>(r);
}

}  // namespace chainer_autograd
