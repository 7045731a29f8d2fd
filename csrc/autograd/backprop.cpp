// The backward traversal of Variable.backward in C: the common case of
// chainer._backprop.backprop_to_all (the reference), with the steps of
// _backprop._run_backward and _backprop_step for a plain node. Debug mode,
// function hooks and the compiled core switched off go to the reference;
// so does each node that is not plain (hooks of its own, a stack recorded
// in debug mode, its own backward_accumulate, lazy sums, gradients other
// than NumPy arrays), with this traversal's table.
#include <algorithm>
#include <queue>
#include <unordered_set>
#include <utility>
#include <vector>

#include "autograd.hpp"

namespace chainer_autograd {
namespace {

// The function nodes to visit, highest rank first, then in the order they
// were pushed (as _backprop._FunctionHeap), each once. It holds a
// reference to each node it was given.
class FunctionHeap {
public:
    ~FunctionHeap() {
        for (PyObject* f : seen_) Py_DECREF(f);
    }
    bool push(PyObject* func) {
        if (seen_.count(func)) return true;
        if (!PyObject_TypeCheck(func, function_base_type)) {
            PyErr_Format(PyExc_TypeError,
                         "the creator of a variable node must be a "
                         "FunctionNode, not %.100s", Py_TYPE(func)->tp_name);
            return false;
        }
        Ref r(field(func, as_function_object(func)->rank, "rank"));
        if (!r) return false;
        long rank = PyLong_AsLong(r.get());
        if (rank == -1 && PyErr_Occurred()) return false;
        seen_.insert(Py_NewRef(func));
        heap_.push(Entry{rank, static_cast<long>(seen_.size()), func});
        return true;
    }
    PyObject* pop() {  // a new reference
        PyObject* f = heap_.top().func;
        heap_.pop();
        return Py_NewRef(f);
    }
    bool empty() const { return heap_.empty(); }

private:
    struct Entry {
        long rank;
        long order;
        PyObject* func;
        bool operator<(const Entry& o) const {  // lower priority
            if (rank != o.rank) return rank < o.rank;
            return order > o.order;
        }
    };
    std::priority_queue<Entry> heap_;
    std::unordered_set<PyObject*> seen_;
};

// The gradient lists of a node's target inputs, in the order of the
// targets, each input once (the `in_grads` dict of _backprop._run_backward).
using InGrads = std::vector<std::pair<Ref, Ref>>;

bool in_grads_from_dict(PyObject* dict, InGrads* in_grads) {
    PyObject* key;
    PyObject* value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        in_grads->emplace_back(Ref::borrow(key), Ref::borrow(value));
    }
    return true;
}

PyObject* data_of(PyObject* var) {
    return field(var, as_variable_object(var)->data, "_data");
}

// Whether the NumPy array `gx` fits the node (the common case of
// variable._check_grad_type, which says what is wrong otherwise).
int grad_fits(PyObject* node, PyObject* gx) {
    if (Py_TYPE(gx) != st.ndarray) return 0;
    NodeObject* n = as_node_object(node);
    if (n->data != nullptr && n->data != Py_None &&
        Py_TYPE(n->data) != Py_TYPE(gx))
        return 0;
    Ref dtype = Ref::borrow(n->dtype);
    if (dtype && dtype.get() != Py_None) {
        Ref g(PyObject_GetAttr(gx, st.s_dtype));
        if (!g) return -1;
        if (g.get() != dtype.get()) {
            int eq = PyObject_RichCompareBool(g.get(), dtype.get(), Py_EQ);
            if (eq <= 0) return eq;
        }
    }
    Ref shape = Ref::borrow(n->shape);
    if (shape && shape.get() != Py_None) {
        Ref g(PyObject_GetAttr(gx, st.s_shape));
        if (!g) return -1;
        return PyObject_RichCompareBool(g.get(), shape.get(), Py_EQ);
    }
    return 1;
}

bool check_grads(PyObject* func, const InGrads& in_grads) {
    for (const auto& entry : in_grads) {
        PyObject* list = entry.second.get();
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(list); ++k) {
            Ref data(data_of(PyList_GET_ITEM(list, k)));
            if (!data) return false;
            int fits = grad_fits(entry.first.get(), data.get());
            if (fits < 0) return false;
            if (fits) continue;
            Ref r(PyObject_CallFunctionObjArgs(st.check_grad_type, func,
                                               entry.first.get(), Py_True,
                                               data.get(), nullptr));
            if (!r) return false;
        }
    }
    return true;
}

// Whether the node's backward can run here: no hooks of its own, no stack
// recorded in debug mode, the default backward_accumulate, no lazy sums,
// and NumPy gradients.
int plain_backward(PyObject* func, PyObject* grad_outputs) {
    FunctionObject* f = as_function_object(func);
    if (f->stack != nullptr && f->stack != Py_None) return 0;
    for (PyObject* flag : {f->n_local_function_hooks, f->lazy_grad_sum}) {
        int v = flag == nullptr ? 0 : PyObject_IsTrue(flag);
        if (v != 0) return v < 0 ? -1 : 0;
    }
    Ref accumulate(PyObject_GetAttr(reinterpret_cast<PyObject*>(Py_TYPE(func)),
                                    st.names.backward_accumulate));
    if (!accumulate) return -1;
    if (accumulate.get() != st.base_backward_accumulate) return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(grad_outputs); ++i) {
        PyObject* g = PyTuple_GET_ITEM(grad_outputs, i);
        if (g == Py_None) continue;
        Ref data(data_of(g));
        if (!data) return -1;
        return PyObject_TypeCheck(data.get(), st.ndarray) ? 1 : 0;
    }
    return 1;
}

// _backprop._add_into_sums: lets `func` add the gradients of the targets
// into the table's own sums (the protocol of FunctionNode._add_grad_into).
// `targets` and `target_lists` keep the targets still to be computed by
// backward.
bool add_into_sums(PyObject* func, PyObject* add_grad_into,
                   PyObject* grad_outputs, GradTableObject* table,
                   Ref* targets, std::vector<PyObject*>* target_lists) {
    std::vector<Py_ssize_t> left;
    const Py_ssize_t n_targets = PyTuple_GET_SIZE(targets->get());
    for (Py_ssize_t k = 0; k < n_targets; ++k) {
        PyObject* index = PyTuple_GET_ITEM(targets->get(), k);
        PyObject* list = (*target_lists)[k];
        const Py_ssize_t n = PyList_GET_SIZE(list);
        if (n == 0) {
            Ref gx(constant_grad(func, add_grad_into, grad_outputs));
            if (!gx && !PyErr_Occurred())
                gx.reset(PyObject_CallFunctionObjArgs(
                    add_grad_into, index, grad_outputs, Py_None, nullptr));
            if (!gx) return false;
            if (gx.get() != Py_False && gx.get() != Py_None) {
                Ref var(grad_variable(gx.get()));
                if (!var || !grad_table_own(table, var.get()) ||
                    PyList_Append(list, var.get()) < 0)
                    return false;
                continue;
            }
        } else if (n == 1) {
            Ref total = Ref::borrow(PyList_GET_ITEM(list, 0));
            if (grad_table_owns(table, total.get())) {
                Ref data(data_of(total.get()));
                if (!data) return false;
                Ref done(PyObject_CallFunctionObjArgs(
                    add_grad_into, index, grad_outputs, data.get(), nullptr));
                if (!done) return false;
                int truth = PyObject_IsTrue(done.get());
                if (truth < 0) return false;
                if (truth) {
                    if (done.get() != Py_True &&
                        !grad_table_defer(table, total.get(), done.get()))
                        return false;
                    continue;
                }
            }
        }
        left.push_back(k);
    }
    if (static_cast<Py_ssize_t>(left.size()) == n_targets) return true;
    Ref kept(PyTuple_New(left.size()));
    if (!kept) return false;
    std::vector<PyObject*> kept_lists;
    for (size_t j = 0; j < left.size(); ++j) {
        PyObject* index = PyTuple_GET_ITEM(targets->get(), left[j]);
        PyTuple_SET_ITEM(kept.get(), j, Py_NewRef(index));
        kept_lists.push_back((*target_lists)[left[j]]);
    }
    *targets = std::move(kept);
    *target_lists = std::move(kept_lists);
    return true;
}

// _backprop._run_backward and _backprop_step of a plain node; the node's
// gradients are added into the table's sums where it offers to and the
// table allows (no backprop through the traversal).
bool run_plain_backward(PyObject* func, PyObject* inputs, PyObject* targets,
                        PyObject* grad_outputs, GradTableObject* table,
                        bool into_sums, InGrads* in_grads) {
    Py_ssize_t n_targets = PyTuple_GET_SIZE(targets);
    // The lists are held by the table's dict and by `in_grads`.
    std::vector<PyObject*> target_lists(n_targets);
    for (Py_ssize_t k = 0; k < n_targets; ++k) {
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(targets, k));
        PyObject* node = PySequence_Fast_GET_ITEM(inputs, i);
        PyObject* list = nullptr;
        for (const auto& entry : *in_grads) {
            if (entry.first.get() == node) list = entry.second.get();
        }
        if (list == nullptr) {
            list = grad_table_get_as_list(table, node);
            if (list == nullptr) return false;
            in_grads->emplace_back(Ref::borrow(node), Ref::borrow(list));
        }
        target_lists[k] = list;
    }

    Ref left = Ref::borrow(targets);
    if (into_sums) {
        Ref add_grad_into(PyObject_GetAttr(func, st.names.add_grad_into));
        if (!add_grad_into) return false;
        if (add_grad_into.get() != Py_None) {
            if (!add_into_sums(func, add_grad_into.get(), grad_outputs, table,
                               &left, &target_lists))
                return false;
            n_targets = PyTuple_GET_SIZE(left.get());
            if (n_targets == 0) return check_grads(func, *in_grads);
        }
    }
    targets = left.get();
    Ref gxs(PyObject_CallMethodObjArgs(func, st.names.backward, targets,
                                       grad_outputs, nullptr));
    if (!gxs) return false;
    Py_ssize_t n_grads = PyObject_Length(gxs.get());
    if (n_grads < 0) return false;
    if (n_grads != n_targets) {
        gxs.reset(PyObject_CallFunctionObjArgs(st.normalize_grad_inputs, func,
                                               targets, gxs.get(), nullptr));
        if (!gxs) return false;
    }
    Ref seq(as_sequence(gxs.get()));
    if (!seq) return false;
    Py_ssize_t n = std::min(n_targets, PySequence_Fast_GET_SIZE(seq.get()));
    for (Py_ssize_t k = 0; k < n; ++k) {
        PyObject* gx = PySequence_Fast_GET_ITEM(seq.get(), k);
        if (gx == Py_None) continue;
        Ref var(grad_variable(gx));
        if (!var) return false;
        Ref data(data_of(var.get()));
        if (!data) return false;
        if (data.get() == Py_None) continue;
        if (PyList_Append(target_lists[k], var.get()) < 0) return false;
    }
    for (const auto& entry : *in_grads) {
        if (PyList_GET_SIZE(entry.second.get()) > 1 &&
            !grad_table_sum_list(table, entry.second.get()))
            return false;
    }
    return check_grads(func, *in_grads);
}

// Raises the TypeError of a node that failed without any output gradient,
// from the error that is set.
void no_output_grad_error(PyObject* func, PyObject* grad_outputs) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(grad_outputs); ++i) {
        if (PyTuple_GET_ITEM(grad_outputs, i) != Py_None) return;
    }
#if PY_VERSION_HEX >= 0x030C0000
    Ref error(PyErr_GetRaisedException());
#else
    PyObject* type;
    PyObject* value;
    PyObject* tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != nullptr) PyException_SetTraceback(value, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    Ref error(value);
#endif
    Ref r(PyObject_CallFunctionObjArgs(st.no_output_grad_error, func,
                                       error.get(), nullptr));
}

// The output nodes of `func` and their gradients, popped from the table
// (_GradTable.pop_outputs); gives each its gradient under retain_grad.
PyObject* pop_outputs(PyObject* func, GradTableObject* table,
                      bool retain_grad) {
    Ref refs(field(func, as_function_object(func)->outputs, "outputs"));
    if (!refs) return nullptr;
    Ref ref_seq(as_sequence(refs.get()));
    if (!ref_seq) return nullptr;
    Py_ssize_t n_out = PySequence_Fast_GET_SIZE(ref_seq.get());
    Ref grad_outputs(PyTuple_New(n_out));
    if (!grad_outputs) return nullptr;
    std::vector<Ref> output_nodes;
    output_nodes.reserve(n_out);
    for (Py_ssize_t k = 0; k < n_out; ++k) {
        Ref y(PyObject_CallNoArgs(PySequence_Fast_GET_ITEM(ref_seq.get(), k)));
        if (!y) return nullptr;
        Ref gy = Ref::borrow(Py_None);
        if (y.get() != Py_None) {
            PyObject* creator = as_node_object(y.get())->creator_node;
            if (creator != nullptr && creator != Py_None) {
                gy.reset(grad_table_pop(table, y.get()));
                if (!gy) return nullptr;
            }
        }
        PyTuple_SET_ITEM(grad_outputs.get(), k, gy.release());
        output_nodes.push_back(std::move(y));
    }
    if (retain_grad) {
        for (Py_ssize_t k = 0; k < n_out; ++k) {
            PyObject* y = output_nodes[k].get();
            if (y == Py_None) continue;
            Ref r(PyObject_CallFunctionObjArgs(
                st.set_grad_var_if_available, y,
                PyTuple_GET_ITEM(grad_outputs.get(), k), nullptr));
            if (!r) return nullptr;
        }
    }
    return grad_outputs.release();
}

// The indexes of the inputs of `func` that require a gradient, as a tuple
// (empty when none does).
PyObject* target_indexes(PyObject* inputs) {
    Py_ssize_t n_in = PySequence_Fast_GET_SIZE(inputs);
    std::vector<Py_ssize_t> found;
    for (Py_ssize_t i = 0; i < n_in; ++i) {
        PyObject* node = PySequence_Fast_GET_ITEM(inputs, i);
        Ref rg(field(node, as_node_object(node)->requires_grad,
                     "_requires_grad"));
        if (!rg) return nullptr;
        int truth = PyObject_IsTrue(rg.get());
        if (truth < 0) return nullptr;
        if (truth) found.push_back(i);
    }
    Ref targets(PyTuple_New(found.size()));
    if (!targets) return nullptr;
    for (size_t k = 0; k < found.size(); ++k) {
        PyObject* i = PyLong_FromSsize_t(found[k]);
        if (i == nullptr) return nullptr;
        PyTuple_SET_ITEM(targets.get(), k, i);
    }
    return targets.release();
}

bool backprop_loop(PyObject* outputs, bool retain_grad, PyObject* loss_scale,
                   PyObject* hooks, bool backprop) {
    // Gradients are added into the table's sums in place only when the
    // traversal builds no graph of its own (no double backprop).
    Ref table_obj(reinterpret_cast<PyObject*>(new_grad_table(!backprop)));
    if (!table_obj) return false;
    GradTableObject* table =
        reinterpret_cast<GradTableObject*>(table_obj.get());
    FunctionHeap funcs;
    Ref leaf_nodes(PyDict_New());
    if (!leaf_nodes) return false;

    auto reached = [&](PyObject* node) -> bool {
        Ref creator(field(node, as_node_object(node)->creator_node,
                          "_creator_node"));
        if (!creator) return false;
        if (creator.get() == Py_None) {
            return PyDict_SetItem(leaf_nodes.get(), node, Py_None) == 0;
        }
        return funcs.push(creator.get());
    };

    Ref pairs(as_sequence(outputs));
    if (!pairs) return false;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(pairs.get()); ++k) {
        PyObject* pair = PySequence_Fast_GET_ITEM(pairs.get(), k);
        Ref node = Ref::borrow(PyTuple_GET_ITEM(pair, 0));
        PyObject* grad = PyTuple_GET_ITEM(pair, 1);
        if (grad != Py_None) {
            PyObject* list = grad_table_get_as_list(table, node.get());
            if (list == nullptr || PyList_Append(list, grad) < 0) return false;
        }
        if (!reached(node.get())) return false;
    }

    while (!funcs.empty()) {
        Ref func(funcs.pop());
        Ref grad_outputs(pop_outputs(func.get(), table, retain_grad));
        if (!grad_outputs) return false;
        FunctionObject* f = as_function_object(func.get());
        Ref inputs_attr(field(func.get(), f->inputs, "inputs"));
        if (!inputs_attr) return false;
        Ref inputs(as_sequence(inputs_attr.get()));
        if (!inputs) return false;
        Ref targets(target_indexes(inputs.get()));
        if (!targets) return false;
        if (PyTuple_GET_SIZE(targets.get()) == 0) continue;

        InGrads in_grads;
        int plain = plain_backward(func.get(), grad_outputs.get());
        bool ok;
        if (plain < 0) {
            ok = false;
        } else if (plain) {
            ok = run_plain_backward(func.get(), inputs.get(), targets.get(),
                                    grad_outputs.get(), table, !backprop,
                                    &in_grads);
        } else {
            Ref dict(PyObject_CallFunctionObjArgs(
                st.run_backward, func.get(), targets.get(), grad_outputs.get(),
                table_obj.get(), Py_False, hooks, nullptr));
            ok = dict && in_grads_from_dict(dict.get(), &in_grads);
        }
        if (!ok) {
            no_output_grad_error(func.get(), grad_outputs.get());
            return false;
        }
        grad_outputs.reset();
        for (const auto& entry : in_grads) {
            if (PyList_GET_SIZE(entry.second.get()) == 0) continue;
            if (!reached(entry.first.get())) return false;
        }
    }

    PyObject* node;
    PyObject* value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(leaf_nodes.get(), &pos, &node, &value)) {
        Ref held = Ref::borrow(node);
        Ref grad(grad_table_pop(table, node));
        if (!grad) return false;
        Ref ref(field(node, as_node_object(node)->variable, "_variable"));
        if (!ref) return false;
        Ref var(PyObject_CallNoArgs(ref.get()));
        if (!var) return false;
        if (var.get() == Py_None) continue;
        VariableObject* v = as_variable_object(var.get());
        set_field(&v->grad_var, grad.get());
        set_field(&v->loss_scale, loss_scale);
    }
    return true;
}

// Whether `outputs` is a list or tuple of (variable node, gradient) tuples,
// the form the callers of backprop_to_all give.
bool plain_pairs(PyObject* outputs) {
    if (!PyList_CheckExact(outputs) && !PyTuple_CheckExact(outputs))
        return false;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(outputs); ++k) {
        PyObject* pair = PySequence_Fast_GET_ITEM(outputs, k);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 ||
            !PyObject_TypeCheck(PyTuple_GET_ITEM(pair, 0), st.node))
            return false;
    }
    return true;
}

}  // namespace

// _backprop.backprop_to_all(outputs, retain_grad, loss_scale).
PyObject* backprop_to_all(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) {
    if (!initialized) {
        PyErr_SetString(PyExc_RuntimeError, "core_init has not run");
        return nullptr;
    }
    if (nargs != 3 || kwnames != nullptr) {
        return call_python(st.python_backprop_to_all, nullptr, args, nargs,
                           kwnames);
    }
    ThreadState ts;
    if (!thread_state(&ts)) return nullptr;
    int on = config_entry(ts, st.s_use_compiled_core);
    if (on < 0) return nullptr;
    int debug = config_entry(ts, st.s_debug);
    if (debug < 0) return nullptr;
    Ref hooks(PyObject_CallNoArgs(st.get_function_hooks));
    if (!hooks) return nullptr;
    int has_hooks = PyObject_IsTrue(hooks.get());
    if (has_hooks < 0) return nullptr;
    if (!on || debug || has_hooks || !plain_pairs(args[0])) {
        return call_python(st.python_backprop_to_all, nullptr, args, nargs,
                           nullptr);
    }
    int retain_grad = PyObject_IsTrue(args[1]);
    if (retain_grad < 0) return nullptr;
    int backprop = config_entry(ts, st.s_enable_backprop);
    if (backprop < 0) return nullptr;
    if (!backprop_loop(args[0], retain_grad, args[2], hooks.get(), backprop))
        return nullptr;
    Py_RETURN_NONE;
}

}  // namespace chainer_autograd
