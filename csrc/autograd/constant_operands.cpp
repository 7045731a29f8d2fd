// The constant operands of x + 1.5, x * 1.5, 1.5 - x: the methods that
// chainer/functions/math/basic_math.py makes with _constant_forward and
// _constant_grad_into (listed in chainer/_constant_operands.py), computed
// here as basic_math._with_constant computes them where it takes its kept
// constant. Every other case is left to the Python method.
#include "autograd.hpp"

namespace chainer_autograd {
namespace {

// _with_constant(op, x, node.value) where its constant is kept (a NumPy
// array x, a Python float or int): the array, or nullptr, with an error
// where the computation failed, without one where the Python code is left
// to compute it.
PyObject* with_kept_constant(PyObject* op, PyObject* x, PyObject* node) {
    if (x == nullptr || Py_TYPE(x) != st.ndarray) return nullptr;
    Ref value(PyObject_GetAttr(node, st.s_value));
    if (!value) {
        PyErr_Clear();  // the Python method raises what it raises
        return nullptr;
    }
    if (!PyFloat_CheckExact(value.get()) && !PyLong_CheckExact(value.get()))
        return nullptr;
    Ref dtype(PyObject_GetAttr(x, st.s_dtype));
    if (!dtype) return nullptr;
    Ref key(PyTuple_Pack(2, value.get(), dtype.get()));
    if (!key) return nullptr;
    Ref constant =
        Ref::borrow(PyDict_GetItemWithError(st.kept_constants, key.get()));
    if (!constant) return nullptr;
    PyObject* args[] = {constant.get(), x};
    Ref y(PyObject_Vectorcall(op, args, 2, nullptr));
    if (!y || Py_TYPE(y.get()) == st.ndarray) return y.release();
    // A NumPy scalar, of a 0-d x.
    return PyObject_CallOneArg(st.force_array, y.get());
}

}  // namespace

PyObject* constant_forward(PyObject* func, PyObject* method,
                           PyObject* in_data) {
    PyObject* op = method_entry(st.constant_forwards, method, func);
    if (op == nullptr || PyTuple_GET_SIZE(in_data) != 1) return nullptr;
    Ref y(with_kept_constant(op, PyTuple_GET_ITEM(in_data, 0), func));
    if (!y) return nullptr;
    return PyTuple_Pack(1, y.get());
}

PyObject* constant_grad(PyObject* func, PyObject* method,
                        PyObject* grad_outputs) {
    PyObject* op = method_entry(st.constant_grads_into, method, func);
    if (op == nullptr || !PyTuple_Check(grad_outputs) ||
        PyTuple_GET_SIZE(grad_outputs) == 0)
        return nullptr;
    // basic_math._plain_grad: a gradient, where it and the node's inputs
    // have the standard memory layout.
    PyObject* gy = PyTuple_GET_ITEM(grad_outputs, 0);
    if (!PyObject_TypeCheck(gy, st.variable)) return nullptr;
    PyObject* layout = as_variable_object(gy)->layout;
    PyObject* in_layouts = as_function_object(func)->input_layouts;
    if ((layout != nullptr && layout != Py_None) ||
        (in_layouts != nullptr && in_layouts != Py_None))
        return nullptr;
    // Held while NumPy computes (another thread may set the variable's
    // array meanwhile).
    Ref data = Ref::borrow(as_variable_object(gy)->data);
    return with_kept_constant(op, data.get(), func);
}

}  // namespace chainer_autograd
