// FunctionNode.apply, in C: the common case of the Python reference
// (chainer/function_node.py), which takes every other case (function
// hooks, debug mode, arrays other than NumPy's, non-standard memory
// layouts, the compiled core switched off) and raises every error.
#include <algorithm>

#include "autograd.hpp"

namespace chainer_autograd {
namespace {

// A new bare instance of `type`, as object.__new__(type) makes it.
PyObject* new_object(PyTypeObject* type) { return type->tp_alloc(type, 0); }

// Keeps the retained inputs and outputs on their nodes (FunctionNode._link).
bool retain(PyObject* func, PyObject* input_vars, PyObject* input_nodes,
            PyObject* ret, PyObject* outputs) {
    FunctionObject* f = as_function_object(func);
    Ref indexes(field(func, f->input_indexes_to_retain,
                      "_input_indexes_to_retain"));
    if (!indexes) return false;
    if (indexes.get() != Py_None) {
        Ref seq(as_sequence(indexes.get()));
        if (!seq) return false;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
        for (Py_ssize_t k = 0; k < n; ++k) {
            PyObject* index = PySequence_Fast_GET_ITEM(seq.get(), k);
            Ref node(PyObject_GetItem(input_nodes, index));
            if (!node) return false;
            Ref var(PyObject_GetItem(input_vars, index));
            if (!var) return false;
            Ref data(field(var.get(), as_variable_object(var.get())->data,
                           "_data"));
            if (!data) return false;
            set_field(&as_node_object(node.get())->data, data.get());
        }
    }
    indexes.reset(field(func, f->output_indexes_to_retain,
                        "_output_indexes_to_retain"));
    if (!indexes) return false;
    if (indexes.get() != Py_None) {
        Ref seq(as_sequence(indexes.get()));
        if (!seq) return false;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
        Ref data(PyTuple_New(n));
        if (!data) return false;
        for (Py_ssize_t k = 0; k < n; ++k) {
            PyObject* index = PySequence_Fast_GET_ITEM(seq.get(), k);
            Ref var(PyObject_GetItem(ret, index));
            if (!var) return false;
            PyObject* node = as_variable_object(var.get())->node;
            Ref y(PyObject_GetItem(outputs, index));
            if (!y) return false;
            set_field(&as_node_object(node)->data, y.get());
            PyTuple_SET_ITEM(data.get(), k, y.release());
        }
        set_field(&f->retained_output_data, data.get());
    }
    return true;
}

// Whether every output of forward is a NumPy array or None; anything else
// goes to the Python check, which raises what FunctionNode.apply raises.
bool check_outputs(PyObject* func, PyObject* outputs) {
    if (PyTuple_CheckExact(outputs)) {
        bool plain = true;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(outputs); ++i) {
            PyObject* y = PyTuple_GET_ITEM(outputs, i);
            if (y != Py_None && Py_TYPE(y) != st.ndarray) {
                plain = false;
                break;
            }
        }
        if (plain) return true;
    }
    Ref r(PyObject_CallFunctionObjArgs(st.check_forward_outputs, func, outputs,
                                       nullptr));
    return static_cast<bool>(r);
}

// Whether the Python reference must run this call: the compiled core
// switched off, debug mode, function hooks (of the thread or the node), or
// a first input that is not a NumPy array (-1 on error).
int observed_or_foreign(PyObject* func, const ThreadState& ts,
                        PyObject* in_data) {
    if (PyTuple_GET_SIZE(in_data) > 0) {
        PyObject* x0 = PyTuple_GET_ITEM(in_data, 0);
        if (x0 != Py_None && !PyObject_TypeCheck(x0, st.ndarray)) return 1;
    }
    int on = config_entry(ts, st.s_use_compiled_core);
    if (on <= 0) return on < 0 ? -1 : 1;
    int debug = config_entry(ts, st.s_debug);
    if (debug != 0) return debug;
    PyObject* n_hooks = as_function_object(func)->n_local_function_hooks;
    int local_hooks = n_hooks == nullptr ? 0 : PyObject_IsTrue(n_hooks);
    if (local_hooks != 0) return local_hooks;
    PyObject* hooks = PyDict_GetItemWithError(ts.hooks, st.s_function_hooks);
    if (hooks == nullptr) return PyErr_Occurred() ? -1 : 0;
    if (hooks == Py_None) return 0;
    return PyObject_IsTrue(hooks);
}

// Sets the field `*slot` to None.
void clear_field(PyObject** slot) {
    if (*slot != Py_None) set_field(slot, Py_None);
}

// The graph half of apply (FunctionNode._link): rank, inputs, outputs,
// retained arrays, lazy_grad_sum.
bool link(PyObject* func, const ThreadState& ts, PyObject* input_vars,
          PyObject* input_nodes, long rank, PyObject* ret, PyObject* refs,
          PyObject* outputs) {
    FunctionObject* f = as_function_object(func);
    Ref rank_obj(PyLong_FromLong(rank));
    if (!rank_obj) return false;
    set_field(&f->rank, rank_obj.get());
    set_field(&f->inputs, input_nodes);
    set_field(&f->outputs, refs);
    if (!retain(func, input_vars, input_nodes, ret, outputs)) return false;
    Ref lazy;
    if (config_entry(ts, st.s_lazy_grad_sum, &lazy) < 0) return false;
    set_field(&f->lazy_grad_sum, lazy.get());
    return true;
}

}  // namespace

PyObject* new_variable(PyObject* y, bool requires_grad, PyObject* creator,
                       PyObject* rank, PyObject** node_out) {
    Ref var(new_object(st.variable));
    if (!var) return nullptr;
    Ref node(new_object(st.node));
    if (!node) return nullptr;
    VariableObject* v = as_variable_object(var.get());
    NodeObject* n = as_node_object(node.get());
    PyObject* rg = requires_grad ? Py_True : Py_False;
    v->data = Py_NewRef(y);
    v->requires_grad = Py_NewRef(rg);
    v->loss_scale = Py_NewRef(Py_None);
    v->grad_var = Py_NewRef(Py_None);
    v->layout = Py_NewRef(Py_None);

    n->variable = PyWeakref_NewRef(var.get(), nullptr);
    if (n->variable == nullptr) return nullptr;
    n->creator_node = Py_NewRef(creator);
    n->data = Py_NewRef(Py_None);
    n->rank = Py_NewRef(rank);
    n->name = Py_NewRef(Py_None);
    n->requires_grad = Py_NewRef(rg);
    n->old_style_grad_generator = Py_NewRef(Py_None);
    n->layout = Py_NewRef(Py_None);
    if (y == Py_None) {
        n->dtype = Py_NewRef(Py_None);
        n->shape = Py_NewRef(Py_None);
    } else {
        n->dtype = PyObject_GetAttr(y, st.s_dtype);
        if (n->dtype == nullptr) return nullptr;
        n->shape = PyObject_GetAttr(y, st.s_shape);
        if (n->shape == nullptr) return nullptr;
    }
    if (node_out != nullptr) *node_out = node.get();
    v->node = node.release();
    return var.release();
}

// FunctionNode.apply(self, inputs).
PyObject* apply(PyObject* func, PyObject* const* args, Py_ssize_t nargs,
                PyObject* kwnames) {
    if (nargs != 1 || kwnames != nullptr) {
        return call_python(st.python_apply, func, args, nargs, kwnames);
    }
    Ref seq(as_sequence(args[0]));
    if (!seq) return nullptr;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
    Ref input_vars(PyTuple_New(n));
    Ref in_data(PyTuple_New(n));
    if (!input_vars || !in_data) return nullptr;
    bool requires_grad = false;
    // An input of a non-standard memory layout: the Python code.
    const bool layouts = PyList_GET_SIZE(st.layouts_in_use) > 0;
    bool nonstandard = false;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* x = PySequence_Fast_GET_ITEM(seq.get(), i);
        Ref var(to_variable(x, st.as_variable));
        if (!var) return nullptr;
        VariableObject* v = as_variable_object(var.get());
        if (layouts && v->layout != nullptr && v->layout != Py_None)
            nonstandard = true;
        PyObject* data = field(var.get(), v->data, "_data");
        if (data == nullptr) return nullptr;
        PyTuple_SET_ITEM(in_data.get(), i, data);
        if (!requires_grad) {
            Ref rg(field(var.get(), v->requires_grad, "_requires_grad"));
            if (!rg) return nullptr;
            int truth = PyObject_IsTrue(rg.get());
            if (truth < 0) return nullptr;
            requires_grad = truth;
        }
        PyTuple_SET_ITEM(input_vars.get(), i, var.release());
    }

    ThreadState ts;
    if (!thread_state(&ts)) return nullptr;
    int python = nonstandard;
    if (!python) python = observed_or_foreign(func, ts, in_data.get());
    if (python < 0) return nullptr;
    if (python) {
        return PyObject_CallFunctionObjArgs(st.python_apply, func,
                                            input_vars.get(), nullptr);
    }

    const FunctionNodeNames& names = st.names;
    int type_check = config_entry(ts, st.s_type_check);
    if (type_check < 0) return nullptr;
    if (type_check && !check_input_types(func, in_data.get())) return nullptr;
    FunctionObject* f = as_function_object(func);
    clear_field(&f->input_indexes_to_retain);
    clear_field(&f->output_indexes_to_retain);

    Ref forward(PyObject_GetAttr(func, names.forward));
    if (!forward) return nullptr;
    Ref outputs(constant_forward(func, forward.get(), in_data.get()));
    if (!outputs && !PyErr_Occurred())
        outputs.reset(PyObject_CallOneArg(forward.get(), in_data.get()));
    if (!outputs || !check_outputs(func, outputs.get())) return nullptr;

    int backprop = config_entry(ts, st.s_enable_backprop);
    if (backprop < 0) return nullptr;
    Ref input_nodes;
    Ref creator = Ref::borrow(Py_None);
    long rank = 0;
    if (backprop) {
        input_nodes.reset(PyTuple_New(n));
        if (!input_nodes) return nullptr;
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject* var = PyTuple_GET_ITEM(input_vars.get(), i);
            PyObject* node =
                field(var, as_variable_object(var)->node, "_node");
            if (node == nullptr) return nullptr;
            PyTuple_SET_ITEM(input_nodes.get(), i, node);
            Ref r(field(node, as_node_object(node)->rank, "_rank"));
            if (!r) return nullptr;
            long value = PyLong_AsLong(r.get());
            if (value == -1 && PyErr_Occurred()) return nullptr;
            rank = std::max(rank, value);
        }
        creator = Ref::borrow(func);
    }
    Ref out_rank(PyLong_FromLong(backprop ? rank + 1 : 0));
    if (!out_rank) return nullptr;

    Py_ssize_t m = PyTuple_GET_SIZE(outputs.get());
    Ref ret(PyTuple_New(m));
    Ref refs(backprop ? PyTuple_New(m) : nullptr);
    if (!ret || (backprop && !refs)) return nullptr;
    for (Py_ssize_t i = 0; i < m; ++i) {
        PyObject* node;
        PyObject* var = new_variable(PyTuple_GET_ITEM(outputs.get(), i),
                                     requires_grad, creator.get(),
                                     out_rank.get(), &node);
        if (var == nullptr) return nullptr;
        PyTuple_SET_ITEM(ret.get(), i, var);
        if (backprop) {
            PyObject* ref = PyWeakref_NewRef(node, nullptr);
            if (ref == nullptr) return nullptr;
            PyTuple_SET_ITEM(refs.get(), i, ref);
        }
    }
    // Output layouts that forward declared (FunctionNode.output_layouts).
    if (PyList_GET_SIZE(st.layouts_in_use) > 0) {
        if (f->output_layouts != nullptr && f->output_layouts != Py_None) {
            Ref r(PyObject_CallFunctionObjArgs(st.give_output_layouts, func,
                                               ret.get(), nullptr));
            if (!r) return nullptr;
        }
    }
    if (backprop &&
        !link(func, ts, input_vars.get(), input_nodes.get(), rank, ret.get(),
              refs.get(), outputs.get()))
        return nullptr;
    return ret.release();
}

}  // namespace chainer_autograd
