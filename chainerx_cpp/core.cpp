// The bookkeeping of the autograd core: FunctionNode.apply and the backward
// traversal of Variable.backward, in C.
//
// Both are the Python code of chainer/function_node.py and
// chainer/_backprop.py, which stay the reference: what is not the common
// case here (function hooks, debug mode, CuPy or ChainerX arrays, nodes
// that accumulate their gradients themselves, lazy gradient sums) is
// handed to that Python code, and every error message comes from it. The
// ops themselves (check_type_forward, forward, backward, _add_grad_into)
// are the nodes' own Python methods, called as they are.
//
// What the Python side hands over, and what of its objects this file
// reads and writes, is listed in chainer/_compiled_core.py: that module
// is the one interface between the two.
#include <Python.h>
#include <structmember.h>

#include <algorithm>
#include <new>
#include <queue>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common.hpp"

namespace chainerx_cpp {
namespace {

// An owned reference.
class Ref {
public:
    Ref() = default;
    explicit Ref(PyObject* p) : p_(p) {}
    Ref(const Ref&) = delete;
    Ref& operator=(const Ref&) = delete;
    Ref(Ref&& o) noexcept : p_(o.release()) {}
    Ref& operator=(Ref&& o) noexcept {
        reset(o.release());
        return *this;
    }
    ~Ref() { Py_XDECREF(p_); }
    static Ref borrow(PyObject* p) {
        Py_XINCREF(p);
        return Ref(p);
    }
    PyObject* get() const { return p_; }
    PyObject* release() {
        PyObject* p = p_;
        p_ = nullptr;
        return p;
    }
    void reset(PyObject* p = nullptr) {
        PyObject* old = p_;
        p_ = p;
        Py_XDECREF(old);
    }
    explicit operator bool() const { return p_ != nullptr; }

private:
    PyObject* p_ = nullptr;
};

// A __slots__ field of the Python classes Variable and VariableNode, read
// and written at its offset on instances of the class and of subclasses
// that keep it (one that names the field again, as a property or a slot
// of its own, does not), by name on anything else.
struct Field {
    PyTypeObject* type = nullptr;
    PyObject* name = nullptr;
    PyObject* descr = nullptr;  // the member descriptor on `type`
    Py_ssize_t offset = 0;
    // Subclasses seen, and whether the field is still this slot there.
    mutable std::vector<std::pair<PyTypeObject*, bool>> subclasses;

    PyObject** at(PyObject* o) const {
        return reinterpret_cast<PyObject**>(reinterpret_cast<char*>(o) +
                                            offset);
    }
    bool direct(PyObject* o) const {
        PyTypeObject* t = Py_TYPE(o);
        if (t == type) return true;
        if (!PyType_IsSubtype(t, type)) return false;
        for (const auto& seen : subclasses) {
            if (seen.first == t) return seen.second;
        }
        PyObject* d = PyObject_GetAttr(reinterpret_cast<PyObject*>(t), name);
        const bool same = d == descr;
        Py_XDECREF(d);
        PyErr_Clear();
        Py_INCREF(t);  // kept, so that its address names it for good
        subclasses.emplace_back(t, same);
        return same;
    }
    // A new reference, or nullptr with the AttributeError of Python.
    PyObject* get(PyObject* o) const {
        if (direct(o)) {
            PyObject* v = *at(o);
            if (v != nullptr) {
                Py_INCREF(v);
                return v;
            }
        }
        return PyObject_GetAttr(o, name);
    }
    int set(PyObject* o, PyObject* v) const {
        if (direct(o)) {
            PyObject** p = at(o);
            PyObject* old = *p;
            Py_INCREF(v);
            *p = v;
            Py_XDECREF(old);
            return 0;
        }
        return PyObject_SetAttr(o, name, v);
    }
    // Fills the field of an object just allocated (the slot is empty);
    // steals `v`.
    void init(PyObject* o, PyObject* v) const { *at(o) = v; }
};

// What the Python side hands over once (see init): its classes, helpers,
// configuration tables, and the names read on every call.
struct State {
    PyTypeObject* variable = nullptr;
    PyTypeObject* node = nullptr;
    PyTypeObject* ndarray = nullptr;
    PyObject* as_variable = nullptr;
    PyObject* python_apply = nullptr;
    PyObject* check_forward_outputs = nullptr;
    PyObject* config_local = nullptr;
    PyObject* global_settings = nullptr;
    PyObject* hooks_local = nullptr;
    PyObject* config = nullptr;
    PyObject* get_function_hooks = nullptr;
    PyObject* python_backprop_to_all = nullptr;
    PyObject* grad_table = nullptr;
    PyObject* run_backward = nullptr;
    PyObject* normalize_grad_inputs = nullptr;
    PyObject* as_grad_var = nullptr;
    PyObject* check_grad_type = nullptr;
    PyObject* base_backward_accumulate = nullptr;
    PyObject* no_output_grad_error = nullptr;
    // Memory layouts: a list, empty until the first non-standard layout,
    // and the Python function that gives outputs their layouts.
    PyObject* layouts_in_use = nullptr;
    PyObject* give_output_layouts = nullptr;

    Field var_data, var_node, var_grad_var, var_requires_grad, var_loss_scale;
    Field node_variable, node_creator, node_data, node_rank, node_name,
        node_requires_grad, node_dtype, node_shape, node_old_style,
        node_layout;
};

State st;
bool initialized = false;

PyObject* s_dict;
PyObject* s_function_hooks;
PyObject* s_n_local_hooks;
PyObject* s_debug;
PyObject* s_type_check;
PyObject* s_enable_backprop;
PyObject* s_lazy_grad_sum;
PyObject* s_check_data_type_forward;
PyObject* s_forward;
PyObject* s_backward;
PyObject* s_in_retain;
PyObject* s_out_retain;
PyObject* s_retained_output_data;
PyObject* s_rank;
PyObject* s_inputs;
PyObject* s_outputs;
PyObject* s_dtype;
PyObject* s_shape;
PyObject* s_stack;
PyObject* s_add_grad_into;
PyObject* s_backward_accumulate;
PyObject* s_grads;
PyObject* s_sums;
PyObject* s_pending;
PyObject* s_pop;
PyObject* s_sum_list;
PyObject* s_defer;
PyObject* s_set_grad_var_if_available;
PyObject* s_check_old_style_gradient;
PyObject* s_grad_var;
PyObject* s_loss_scale;
PyObject* s_layout;
PyObject* s_output_layouts;

bool intern_names() {
    struct Name {
        PyObject** target;
        const char* text;
    };
    const Name names[] = {
        {&s_dict, "__dict__"},
        {&s_function_hooks, "function_hooks"},
        {&s_n_local_hooks, "_n_local_function_hooks"},
        {&s_debug, "debug"},
        {&s_type_check, "type_check"},
        {&s_enable_backprop, "enable_backprop"},
        {&s_lazy_grad_sum, "lazy_grad_sum"},
        {&s_check_data_type_forward, "_check_data_type_forward"},
        {&s_forward, "forward"},
        {&s_backward, "backward"},
        {&s_in_retain, "_input_indexes_to_retain"},
        {&s_out_retain, "_output_indexes_to_retain"},
        {&s_retained_output_data, "_retained_output_data"},
        {&s_rank, "rank"},
        {&s_inputs, "inputs"},
        {&s_outputs, "outputs"},
        {&s_dtype, "dtype"},
        {&s_shape, "shape"},
        {&s_stack, "stack"},
        {&s_add_grad_into, "_add_grad_into"},
        {&s_backward_accumulate, "backward_accumulate"},
        {&s_grads, "grads"},
        {&s_sums, "sums"},
        {&s_pending, "pending"},
        {&s_pop, "pop"},
        {&s_sum_list, "sum_list"},
        {&s_defer, "defer"},
        {&s_set_grad_var_if_available, "_set_grad_var_if_available"},
        {&s_check_old_style_gradient, "_check_old_style_gradient"},
        {&s_grad_var, "_grad_var"},
        {&s_loss_scale, "_loss_scale"},
        {&s_layout, "_layout"},
        {&s_output_layouts, "_output_layouts"},
    };
    for (const Name& n : names) {
        *n.target = PyUnicode_InternFromString(n.text);
        if (*n.target == nullptr) return false;
    }
    return true;
}

// The slot `name` of the class `type`: its member descriptor's offset.
bool find_field(PyTypeObject* type, const char* name, Field* field) {
    Ref descr(PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), name));
    if (!descr) return false;
    if (Py_TYPE(descr.get()) != &PyMemberDescr_Type) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not a __slots__ field",
                     type->tp_name, name);
        return false;
    }
    PyMemberDef* member =
        reinterpret_cast<PyMemberDescrObject*>(descr.get())->d_member;
    if (member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not an object slot",
                     type->tp_name, name);
        return false;
    }
    field->type = type;
    field->name = PyUnicode_InternFromString(name);
    field->descr = descr.release();  // kept for the life of the process
    field->offset = member->offset;
    return field->name != nullptr;
}

// The truth of `chainer.config.<key>` in this thread, or -1 with an error;
// `value` (when given) gets the entry itself, borrowed.
int config_entry(PyObject* local, PyObject* key, PyObject** value = nullptr) {
    PyObject* v = PyDict_GetItemWithError(local, key);
    if (v == nullptr) {
        if (PyErr_Occurred()) return -1;
        v = PyDict_GetItemWithError(st.global_settings, key);
        if (v == nullptr) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, key);
            return -1;
        }
    }
    if (value != nullptr) *value = v;
    return PyObject_IsTrue(v);
}

// Whether the attribute `name` of `o` is true (-1 on error).
int attr_true(PyObject* o, PyObject* name) {
    Ref v(PyObject_GetAttr(o, name));
    if (!v) return -1;
    return PyObject_IsTrue(v.get());
}

// Whether the attribute `name` of `o` is something other than None.
int attr_not_none(PyObject* o, PyObject* name) {
    Ref v(PyObject_GetAttr(o, name));
    if (!v) return -1;
    return v.get() != Py_None;
}

// A list (or tuple) of the items of an iterable, as `for x in it` sees it.
PyObject* as_sequence(PyObject* it) {
    if (PyTuple_CheckExact(it) || PyList_CheckExact(it)) {
        Py_INCREF(it);
        return it;
    }
    return PySequence_List(it);
}

// `x` if it is a Variable, else what the Python function `convert` makes
// of it (a new reference, or nullptr with the error).
PyObject* to_variable(PyObject* x, PyObject* convert) {
    if (PyObject_TypeCheck(x, st.variable)) return Py_NewRef(x);
    return PyObject_CallOneArg(convert, x);
}

// A new bare instance of `type`, as object.__new__(type) makes it.
PyObject* new_object(PyTypeObject* type) { return type->tp_alloc(type, 0); }

// The output variable of an array `y` (or None), with its new node, as
// variable._init_variable makes it; `creator` is None or the function.
// `node_out` gets the node, borrowed (the variable holds it).
PyObject* new_output(PyObject* y, bool requires_grad, PyObject* creator,
                     PyObject* rank, PyObject** node_out) {
    Ref var(new_object(st.variable));
    if (!var) return nullptr;
    Ref node(new_object(st.node));
    if (!node) return nullptr;
    PyObject* v = var.get();
    PyObject* n = node.get();
    PyObject* rg = requires_grad ? Py_True : Py_False;
    st.var_data.init(v, Py_NewRef(y));
    st.var_requires_grad.init(v, Py_NewRef(rg));
    st.var_loss_scale.init(v, Py_NewRef(Py_None));
    st.var_grad_var.init(v, Py_NewRef(Py_None));

    PyObject* ref = PyWeakref_NewRef(v, nullptr);
    if (ref == nullptr) return nullptr;
    st.node_variable.init(n, ref);
    st.node_creator.init(n, Py_NewRef(creator));
    st.node_data.init(n, Py_NewRef(Py_None));
    st.node_rank.init(n, Py_NewRef(rank));
    st.node_name.init(n, Py_NewRef(Py_None));
    st.node_requires_grad.init(n, Py_NewRef(rg));
    st.node_old_style.init(n, Py_NewRef(Py_None));
    st.node_layout.init(n, Py_NewRef(Py_None));
    if (y == Py_None) {
        st.node_dtype.init(n, Py_NewRef(Py_None));
        st.node_shape.init(n, Py_NewRef(Py_None));
    } else {
        PyObject* dtype = PyObject_GetAttr(y, s_dtype);
        if (dtype == nullptr) return nullptr;
        st.node_dtype.init(n, dtype);
        PyObject* shape = PyObject_GetAttr(y, s_shape);
        if (shape == nullptr) return nullptr;
        st.node_shape.init(n, shape);
    }
    *node_out = n;
    st.var_node.init(v, node.release());
    return var.release();
}

// Keeps the retained inputs and outputs on their nodes (FunctionNode._link).
bool retain(PyObject* func, PyObject* input_vars, PyObject* input_nodes,
            PyObject* ret, PyObject* outputs) {
    Ref indexes(PyObject_GetAttr(func, s_in_retain));
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
            Ref data(st.var_data.get(var.get()));
            if (!data || st.node_data.set(node.get(), data.get()) < 0)
                return false;
        }
    }
    indexes.reset(PyObject_GetAttr(func, s_out_retain));
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
            Ref node(st.var_node.get(var.get()));
            if (!node) return false;
            Ref y(PyObject_GetItem(outputs, index));
            if (!y || st.node_data.set(node.get(), y.get()) < 0) return false;
            PyTuple_SET_ITEM(data.get(), k, y.release());
        }
        if (PyObject_SetAttr(func, s_retained_output_data, data.get()) < 0)
            return false;
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

// The Python function `python` called with `self` and the arguments of a
// vectorcall: for calls with keywords or a wrong number of arguments, which
// get Python's own handling and errors.
PyObject* call_python(PyObject* python, PyObject* self, PyObject* const* args,
                      Py_ssize_t nargs, PyObject* kwnames) {
    const Py_ssize_t n_kw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
    std::vector<PyObject*> all;
    if (self != nullptr) all.push_back(self);
    all.insert(all.end(), args, args + nargs + n_kw);
    return PyObject_Vectorcall(python, all.data(),
                               static_cast<Py_ssize_t>(all.size()) - n_kw,
                               kwnames);
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
        if (layouts && !nonstandard) {
            Ref layout(PyObject_GetAttr(var.get(), s_layout));
            if (!layout) return nullptr;
            nonstandard = layout.get() != Py_None;
        }
        PyObject* data = st.var_data.get(var.get());
        if (data == nullptr) return nullptr;
        PyTuple_SET_ITEM(in_data.get(), i, data);
        Ref rg(st.var_requires_grad.get(var.get()));
        if (!rg) return nullptr;
        int truth = PyObject_IsTrue(rg.get());
        if (truth < 0) return nullptr;
        requires_grad = requires_grad || truth;
        PyTuple_SET_ITEM(input_vars.get(), i, var.release());
    }

    // Hooks, debug mode and arrays other than NumPy's: the Python code.
    Ref local(PyObject_GetAttr(st.config_local, s_dict));
    if (!local) return nullptr;
    bool python = nonstandard;
    if (!python && n > 0) {
        PyObject* x0 = PyTuple_GET_ITEM(in_data.get(), 0);
        python = x0 != Py_None && !PyObject_TypeCheck(x0, st.ndarray);
    }
    if (!python) {
        int debug = config_entry(local.get(), s_debug);
        if (debug < 0) return nullptr;
        int local_hooks = attr_true(func, s_n_local_hooks);
        if (local_hooks < 0) return nullptr;
        python = debug || local_hooks;
    }
    if (!python) {
        Ref hooks_dict(PyObject_GetAttr(st.hooks_local, s_dict));
        if (!hooks_dict) return nullptr;
        PyObject* hooks = PyDict_GetItemWithError(hooks_dict.get(),
                                                  s_function_hooks);
        if (hooks == nullptr && PyErr_Occurred()) return nullptr;
        if (hooks != nullptr && hooks != Py_None) {
            int truth = PyObject_IsTrue(hooks);
            if (truth < 0) return nullptr;
            python = truth;
        }
    }
    if (python) {
        return PyObject_CallFunctionObjArgs(st.python_apply, func,
                                            input_vars.get(), nullptr);
    }

    int type_check = config_entry(local.get(), s_type_check);
    if (type_check < 0) return nullptr;
    if (type_check) {
        Ref r(PyObject_CallMethodOneArg(func, s_check_data_type_forward,
                                        in_data.get()));
        if (!r) return nullptr;
    }
    int set = attr_not_none(func, s_in_retain);
    if (set < 0 || (set && PyObject_SetAttr(func, s_in_retain, Py_None) < 0))
        return nullptr;
    set = attr_not_none(func, s_out_retain);
    if (set < 0 || (set && PyObject_SetAttr(func, s_out_retain, Py_None) < 0))
        return nullptr;

    Ref outputs(PyObject_CallMethodOneArg(func, s_forward, in_data.get()));
    if (!outputs || !check_outputs(func, outputs.get())) return nullptr;

    int backprop = config_entry(local.get(), s_enable_backprop);
    if (backprop < 0) return nullptr;
    Ref input_nodes;
    Ref creator = Ref::borrow(Py_None);
    Ref out_rank(PyLong_FromLong(0));
    if (!out_rank) return nullptr;
    long rank = 0;
    if (backprop) {
        input_nodes.reset(PyTuple_New(n));
        if (!input_nodes) return nullptr;
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject* node =
                st.var_node.get(PyTuple_GET_ITEM(input_vars.get(), i));
            if (node == nullptr) return nullptr;
            PyTuple_SET_ITEM(input_nodes.get(), i, node);
            Ref r(st.node_rank.get(node));
            if (!r) return nullptr;
            long value = PyLong_AsLong(r.get());
            if (value == -1 && PyErr_Occurred()) return nullptr;
            rank = std::max(rank, value);
        }
        creator = Ref::borrow(func);
        out_rank.reset(PyLong_FromLong(rank + 1));
        if (!out_rank) return nullptr;
    }

    Py_ssize_t m = PyTuple_GET_SIZE(outputs.get());
    Ref ret(PyTuple_New(m));
    Ref refs(backprop ? PyTuple_New(m) : nullptr);
    if (!ret || (backprop && !refs)) return nullptr;
    for (Py_ssize_t i = 0; i < m; ++i) {
        PyObject* node;
        PyObject* var = new_output(PyTuple_GET_ITEM(outputs.get(), i),
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
        int declared = attr_not_none(func, s_output_layouts);
        if (declared < 0) return nullptr;
        if (declared) {
            Ref r(PyObject_CallFunctionObjArgs(st.give_output_layouts, func,
                                               ret.get(), nullptr));
            if (!r) return nullptr;
        }
    }
    if (!backprop) return ret.release();

    Ref rank_obj(PyLong_FromLong(rank));
    if (!rank_obj) return nullptr;
    if (PyObject_SetAttr(func, s_rank, rank_obj.get()) < 0 ||
        PyObject_SetAttr(func, s_inputs, input_nodes.get()) < 0 ||
        PyObject_SetAttr(func, s_outputs, refs.get()) < 0)
        return nullptr;
    if (!retain(func, input_vars.get(), input_nodes.get(), ret.get(),
                outputs.get()))
        return nullptr;
    PyObject* lazy = nullptr;
    if (config_entry(local.get(), s_lazy_grad_sum, &lazy) < 0 ||
        PyObject_SetAttr(func, s_lazy_grad_sum, lazy) < 0)
        return nullptr;
    return ret.release();
}

// ---------------------------------------------------------------------------
// Backward: _backprop.backprop_to_all.

// The function nodes to visit, highest rank first, then in the order they
// were pushed (as _backprop._FunctionHeap), each once.
class FunctionHeap {
public:
    ~FunctionHeap() {
        for (PyObject* f : seen_) Py_DECREF(f);
    }
    bool push(PyObject* func) {
        if (seen_.count(func)) return true;
        Ref r(PyObject_GetAttr(func, s_rank));
        if (!r) return false;
        long rank = PyLong_AsLong(r.get());
        if (rank == -1 && PyErr_Occurred()) return false;
        Py_INCREF(func);
        seen_.insert(func);
        heap_.push(Entry{rank, static_cast<long>(seen_.size()), func});
        return true;
    }
    PyObject* pop() {  // borrowed: `seen_` holds it
        PyObject* f = heap_.top().func;
        heap_.pop();
        return f;
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

// The _GradTable of a traversal: its three dicts (grads, sums, pending)
// read and written as the Python class does, its methods called for what
// is rare (sums of several gradients, addends kept for later).
class GradTable {
public:
    bool create() {
        table_.reset(PyObject_CallOneArg(st.grad_table, Py_True));
        if (!table_) return false;
        grads_.reset(PyObject_GetAttr(table_.get(), s_grads));
        sums_.reset(PyObject_GetAttr(table_.get(), s_sums));
        pending_.reset(PyObject_GetAttr(table_.get(), s_pending));
        return grads_ && sums_ && pending_ && PyDict_Check(grads_.get()) &&
               PyDict_Check(sums_.get()) && PyDict_Check(pending_.get());
    }
    PyObject* table() const { return table_.get(); }

    // _GradTable.get_as_list: the gradient list of `node` (borrowed),
    // starting from a leaf's own gradient.
    PyObject* get_as_list(PyObject* node) {
        PyObject* grads = PyDict_GetItemWithError(grads_.get(), node);
        if (grads != nullptr || PyErr_Occurred()) return grads;
        Ref list(PyList_New(0));
        if (!list) return nullptr;
        Ref creator(st.node_creator.get(node));
        if (!creator) return nullptr;
        if (creator.get() == Py_None) {
            Ref old(st.node_old_style.get(node));
            if (!old) return nullptr;
            if (old.get() != Py_None) {
                Ref r(PyObject_CallMethodNoArgs(node,
                                                s_check_old_style_gradient));
                if (!r) return nullptr;
            }
            Ref wref(st.node_variable.get(node));
            if (!wref) return nullptr;
            Ref var(PyObject_CallNoArgs(wref.get()));
            if (!var) return nullptr;
            if (var.get() != Py_None) {
                Ref grad_var(PyObject_GetAttr(var.get(), s_grad_var));
                if (!grad_var) return nullptr;
                if (grad_var.get() != Py_None &&
                    PyList_Append(list.get(), grad_var.get()) < 0)
                    return nullptr;
            }
        }
        if (PyDict_SetItem(grads_.get(), node, list.get()) < 0) return nullptr;
        return list.get();
    }

    // _GradTable.pop: the summed gradient of `node` (new reference); for
    // a node not met, its variable's own gradient, which it drops
    // (_backprop._take_grad).
    PyObject* pop(PyObject* node) {
        PyObject* grads = PyDict_GetItemWithError(grads_.get(), node);
        if (grads == nullptr) {
            if (PyErr_Occurred()) return nullptr;
            return take_grad(node);
        }
        Py_ssize_t n = PyList_Check(grads) ? PyList_GET_SIZE(grads) : -1;
        if (n == 0 || n == 1) {
            Ref grad = n == 0 ? Ref::borrow(Py_None)
                              : Ref::borrow(PyList_GET_ITEM(grads, 0));
            if (n == 1 && (PyDict_GET_SIZE(pending_.get()) != 0 ||
                           PyDict_GET_SIZE(sums_.get()) != 0)) {
                Ref key(PyLong_FromVoidPtr(grad.get()));
                if (!key) return nullptr;
                int kept = PyDict_Contains(pending_.get(), key.get());
                if (kept < 0) return nullptr;
                if (kept) {
                    return PyObject_CallMethodOneArg(table_.get(), s_pop,
                                                     node);
                }
                if (!release(key.get(), grad.get())) return nullptr;
            }
            if (PyDict_DelItem(grads_.get(), node) < 0) return nullptr;
            return grad.release();
        }
        return PyObject_CallMethodOneArg(table_.get(), s_pop, node);
    }

    // Whether `grad` is a sum the table owns (-1 on error); `key` gets its
    // id.
    int owns(PyObject* grad, Ref* key) {
        key->reset(PyLong_FromVoidPtr(grad));
        if (!*key) return -1;
        PyObject* sum = PyDict_GetItemWithError(sums_.get(), key->get());
        if (sum == nullptr) return PyErr_Occurred() ? -1 : 0;
        return sum == grad;
    }

    // _GradTable.own: `grad`, which nothing else holds, becomes a sum of
    // the table (the traversal runs without backprop enabled).
    bool own(PyObject* grad) {
        Ref key(PyLong_FromVoidPtr(grad));
        return key && PyDict_SetItem(sums_.get(), key.get(), grad) == 0;
    }

    // _GradTable.defer.
    bool defer(PyObject* total, PyObject* addend) {
        Ref r(PyObject_CallMethodObjArgs(table_.get(), s_defer, total, addend,
                                         nullptr));
        return static_cast<bool>(r);
    }

    // _GradTable.sum_list.
    bool sum_list(PyObject* grads) {
        Ref r(PyObject_CallMethodOneArg(table_.get(), s_sum_list, grads));
        return static_cast<bool>(r);
    }

private:
    // _GradTable.release: `grad` (whose id is `key`) leaves the sums.
    bool release(PyObject* key, PyObject* grad) {
        PyObject* sum = PyDict_GetItemWithError(sums_.get(), key);
        if (sum == nullptr) return !PyErr_Occurred();
        return sum != grad || PyDict_DelItem(sums_.get(), key) == 0;
    }

    static PyObject* take_grad(PyObject* node) {
        Ref wref(st.node_variable.get(node));
        if (!wref) return nullptr;
        Ref var(PyObject_CallNoArgs(wref.get()));
        if (!var) return nullptr;
        if (var.get() == Py_None) Py_RETURN_NONE;
        Ref grad(PyObject_GetAttr(var.get(), s_grad_var));
        if (!grad) return nullptr;
        if (grad.get() != Py_None &&
            PyObject_SetAttr(var.get(), s_grad_var, Py_None) < 0)
            return nullptr;
        return grad.release();
    }

    Ref table_, grads_, sums_, pending_;
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

// Whether the NumPy array `gx` fits the node (the common case of
// variable._check_grad_type, which says what is wrong otherwise).
int grad_fits(PyObject* node, PyObject* gx) {
    if (Py_TYPE(gx) != st.ndarray) return 0;
    Ref data(st.node_data.get(node));
    if (!data) return -1;
    if (data.get() != Py_None && Py_TYPE(data.get()) != Py_TYPE(gx)) return 0;
    Ref dtype(st.node_dtype.get(node));
    if (!dtype) return -1;
    if (dtype.get() != Py_None) {
        Ref g(PyObject_GetAttr(gx, s_dtype));
        if (!g) return -1;
        if (g.get() != dtype.get()) {
            int eq = PyObject_RichCompareBool(g.get(), dtype.get(), Py_EQ);
            if (eq <= 0) return eq;
        }
    }
    Ref shape(st.node_shape.get(node));
    if (!shape) return -1;
    if (shape.get() != Py_None) {
        Ref g(PyObject_GetAttr(gx, s_shape));
        if (!g) return -1;
        return PyObject_RichCompareBool(g.get(), shape.get(), Py_EQ);
    }
    return 1;
}

bool check_grads(PyObject* func, const InGrads& in_grads) {
    for (const auto& entry : in_grads) {
        PyObject* list = entry.second.get();
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(list); ++k) {
            Ref data(st.var_data.get(PyList_GET_ITEM(list, k)));
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
    int v = attr_true(func, s_n_local_hooks);
    if (v != 0) return v < 0 ? -1 : 0;
    v = attr_not_none(func, s_stack);
    if (v != 0) return v < 0 ? -1 : 0;
    v = attr_true(func, s_lazy_grad_sum);
    if (v != 0) return v < 0 ? -1 : 0;
    Ref accumulate(PyObject_GetAttr(reinterpret_cast<PyObject*>(Py_TYPE(func)),
                                    s_backward_accumulate));
    if (!accumulate) return -1;
    if (accumulate.get() != st.base_backward_accumulate) return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(grad_outputs); ++i) {
        PyObject* g = PyTuple_GET_ITEM(grad_outputs, i);
        if (g == Py_None) continue;
        Ref data(st.var_data.get(g));
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
                   PyObject* grad_outputs, GradTable* table, Ref* targets,
                   std::vector<PyObject*>* target_lists) {
    std::vector<Py_ssize_t> left;
    const Py_ssize_t n_targets = PyTuple_GET_SIZE(targets->get());
    for (Py_ssize_t k = 0; k < n_targets; ++k) {
        PyObject* index = PyTuple_GET_ITEM(targets->get(), k);
        PyObject* list = (*target_lists)[k];
        const Py_ssize_t n = PyList_GET_SIZE(list);
        if (n == 0) {
            Ref gx(PyObject_CallFunctionObjArgs(add_grad_into, index,
                                                grad_outputs, Py_None,
                                                nullptr));
            if (!gx) return false;
            if (gx.get() != Py_False && gx.get() != Py_None) {
                Ref var(to_variable(gx.get(), st.as_grad_var));
                if (!var || !table->own(var.get()) ||
                    PyList_Append(list, var.get()) < 0)
                    return false;
                continue;
            }
        } else if (n == 1) {
            PyObject* total = PyList_GET_ITEM(list, 0);
            Ref key;
            int owned = table->owns(total, &key);
            if (owned < 0) return false;
            if (owned) {
                Ref data(st.var_data.get(total));
                if (!data) return false;
                Ref done(PyObject_CallFunctionObjArgs(
                    add_grad_into, index, grad_outputs, data.get(), nullptr));
                if (!done) return false;
                int truth = PyObject_IsTrue(done.get());
                if (truth < 0) return false;
                if (truth) {
                    if (done.get() != Py_True &&
                        !table->defer(total, done.get()))
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
        Py_INCREF(index);
        PyTuple_SET_ITEM(kept.get(), j, index);
        kept_lists.push_back((*target_lists)[left[j]]);
    }
    *targets = std::move(kept);
    *target_lists = std::move(kept_lists);
    return true;
}

// _backprop._run_backward and _backprop_step of a plain node; the node's
// gradients are added into the table's sums where it offers to and
// `into_sums` allows (no backprop through the traversal).
bool run_plain_backward(PyObject* func, PyObject* inputs, PyObject* targets,
                        PyObject* grad_outputs, GradTable* table,
                        bool into_sums, InGrads* in_grads) {
    Py_ssize_t n_targets = PyTuple_GET_SIZE(targets);
    std::vector<PyObject*> target_lists(n_targets);
    for (Py_ssize_t k = 0; k < n_targets; ++k) {
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(targets, k));
        PyObject* node = PySequence_Fast_GET_ITEM(inputs, i);
        PyObject* list = nullptr;
        for (const auto& entry : *in_grads) {
            if (entry.first.get() == node) list = entry.second.get();
        }
        if (list == nullptr) {
            list = table->get_as_list(node);
            if (list == nullptr) return false;
            in_grads->emplace_back(Ref::borrow(node), Ref::borrow(list));
        }
        target_lists[k] = list;
    }

    Ref left = Ref::borrow(targets);
    if (into_sums) {
        Ref add_grad_into(PyObject_GetAttr(func, s_add_grad_into));
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
    Ref gxs(PyObject_CallMethodObjArgs(func, s_backward, targets,
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
        Ref var(to_variable(gx, st.as_grad_var));
        if (!var) return false;
        Ref data(st.var_data.get(var.get()));
        if (!data) return false;
        if (data.get() == Py_None) continue;
        if (PyList_Append(target_lists[k], var.get()) < 0) return false;
    }
    for (const auto& entry : *in_grads) {
        if (PyList_GET_SIZE(entry.second.get()) > 1 &&
            !table->sum_list(entry.second.get()))
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
    PyObject* type;
    PyObject* value;
    PyObject* tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != nullptr) PyException_SetTraceback(value, tb);
    Ref r(PyObject_CallFunctionObjArgs(st.no_output_grad_error, func, value,
                                       nullptr));
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}

bool backprop_loop(PyObject* outputs, bool retain_grad, PyObject* loss_scale,
                   PyObject* hooks) {
    GradTable table;
    if (!table.create()) return false;
    // Gradients are added into the table's sums in place only when the
    // traversal builds no graph of its own (no double backprop).
    Ref local(PyObject_GetAttr(st.config_local, s_dict));
    if (!local) return false;
    const int backprop = config_entry(local.get(), s_enable_backprop);
    if (backprop < 0) return false;
    FunctionHeap funcs;
    Ref leaf_nodes(PyDict_New());
    if (!leaf_nodes) return false;

    auto reached = [&](PyObject* node) -> bool {
        Ref creator(st.node_creator.get(node));
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
        PyObject* node = PyTuple_GET_ITEM(pair, 0);
        PyObject* grad = PyTuple_GET_ITEM(pair, 1);
        if (grad != Py_None) {
            PyObject* list = table.get_as_list(node);
            if (list == nullptr || PyList_Append(list, grad) < 0) return false;
        }
        if (!reached(node)) return false;
    }

    while (!funcs.empty()) {
        PyObject* func = funcs.pop();
        Ref refs(PyObject_GetAttr(func, s_outputs));
        if (!refs) return false;
        Ref ref_seq(as_sequence(refs.get()));
        if (!ref_seq) return false;
        Py_ssize_t n_out = PySequence_Fast_GET_SIZE(ref_seq.get());
        Ref grad_outputs(PyTuple_New(n_out));
        if (!grad_outputs) return false;
        std::vector<Ref> output_nodes;
        output_nodes.reserve(n_out);
        for (Py_ssize_t k = 0; k < n_out; ++k) {
            Ref y(PyObject_CallNoArgs(PySequence_Fast_GET_ITEM(ref_seq.get(),
                                                               k)));
            if (!y) return false;
            Ref gy = Ref::borrow(Py_None);
            if (y.get() != Py_None) {
                Ref creator(st.node_creator.get(y.get()));
                if (!creator) return false;
                if (creator.get() != Py_None) {
                    gy.reset(table.pop(y.get()));
                    if (!gy) return false;
                }
            }
            PyTuple_SET_ITEM(grad_outputs.get(), k, gy.release());
            output_nodes.push_back(std::move(y));
        }
        if (retain_grad) {
            for (Py_ssize_t k = 0; k < n_out; ++k) {
                PyObject* y = output_nodes[k].get();
                if (y == Py_None) continue;
                Ref r(PyObject_CallMethodOneArg(
                    y, s_set_grad_var_if_available,
                    PyTuple_GET_ITEM(grad_outputs.get(), k)));
                if (!r) return false;
            }
        }
        output_nodes.clear();

        Ref inputs_attr(PyObject_GetAttr(func, s_inputs));
        if (!inputs_attr) return false;
        Ref inputs(as_sequence(inputs_attr.get()));
        if (!inputs) return false;
        Py_ssize_t n_in = PySequence_Fast_GET_SIZE(inputs.get());
        std::vector<Py_ssize_t> target_indexes;
        for (Py_ssize_t i = 0; i < n_in; ++i) {
            Ref rg(st.node_requires_grad.get(
                PySequence_Fast_GET_ITEM(inputs.get(), i)));
            if (!rg) return false;
            int truth = PyObject_IsTrue(rg.get());
            if (truth < 0) return false;
            if (truth) target_indexes.push_back(i);
        }
        if (target_indexes.empty()) continue;
        Ref targets(PyTuple_New(target_indexes.size()));
        if (!targets) return false;
        for (size_t k = 0; k < target_indexes.size(); ++k) {
            PyObject* i = PyLong_FromSsize_t(target_indexes[k]);
            if (i == nullptr) return false;
            PyTuple_SET_ITEM(targets.get(), k, i);
        }

        InGrads in_grads;
        int plain = plain_backward(func, grad_outputs.get());
        bool ok;
        if (plain < 0) {
            ok = false;
        } else if (plain) {
            ok = run_plain_backward(func, inputs.get(), targets.get(),
                                    grad_outputs.get(), &table, !backprop,
                                    &in_grads);
        } else {
            Ref dict(PyObject_CallFunctionObjArgs(
                st.run_backward, func, targets.get(), grad_outputs.get(),
                table.table(), Py_False, hooks, nullptr));
            ok = dict && in_grads_from_dict(dict.get(), &in_grads);
        }
        if (!ok) {
            no_output_grad_error(func, grad_outputs.get());
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
        Ref grad(table.pop(node));
        if (!grad) return false;
        Ref wref(st.node_variable.get(node));
        if (!wref) return false;
        Ref var(PyObject_CallNoArgs(wref.get()));
        if (!var) return false;
        if (var.get() == Py_None) continue;
        if (PyObject_SetAttr(var.get(), s_grad_var, grad.get()) < 0 ||
            PyObject_SetAttr(var.get(), s_loss_scale, loss_scale) < 0)
            return false;
    }
    return true;
}

// Whether `outputs` is a list or tuple of (node, gradient) tuples, the
// form the callers of backprop_to_all give.
bool plain_pairs(PyObject* outputs) {
    if (!PyList_CheckExact(outputs) && !PyTuple_CheckExact(outputs))
        return false;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(outputs); ++k) {
        PyObject* pair = PySequence_Fast_GET_ITEM(outputs, k);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2)
            return false;
    }
    return true;
}

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
    int debug = attr_true(st.config, s_debug);
    if (debug < 0) return nullptr;
    Ref hooks(PyObject_CallNoArgs(st.get_function_hooks));
    if (!hooks) return nullptr;
    int has_hooks = PyObject_IsTrue(hooks.get());
    if (has_hooks < 0) return nullptr;
    if (debug || has_hooks || !plain_pairs(args[0])) {
        return call_python(st.python_backprop_to_all, nullptr, args, nargs,
                           nullptr);
    }
    int retain_grad = PyObject_IsTrue(args[1]);
    if (retain_grad < 0) return nullptr;
    if (!backprop_loop(args[0], retain_grad, args[2], hooks.get()))
        return nullptr;
    Py_RETURN_NONE;
}

PyObject* require(PyObject* names, const char* key) {
    PyObject* v = PyDict_GetItemString(names, key);
    if (v == nullptr) {
        PyErr_Format(PyExc_KeyError, "core_init: %s missing", key);
        return nullptr;
    }
    Py_INCREF(v);
    return v;
}

PyTypeObject* require_type(PyObject* names, const char* key) {
    PyObject* v = require(names, key);
    if (v != nullptr && !PyType_Check(v)) {
        Py_DECREF(v);
        PyErr_Format(PyExc_TypeError, "core_init: %s is not a class", key);
        return nullptr;
    }
    return reinterpret_cast<PyTypeObject*>(v);
}

// core_init(names): takes the classes and helpers of the Python core.
PyObject* core_init(PyObject*, PyObject* names) {
    if (!PyDict_Check(names)) {
        PyErr_SetString(PyExc_TypeError, "core_init takes a dict");
        return nullptr;
    }
    if (!intern_names()) return nullptr;
    State s;
    struct Entry {
        PyObject** target;
        const char* key;
    };
    const Entry entries[] = {
        {&s.as_variable, "as_variable"},
        {&s.python_apply, "python_apply"},
        {&s.check_forward_outputs, "check_forward_outputs"},
        {&s.config_local, "config_local"},
        {&s.global_settings, "global_settings"},
        {&s.hooks_local, "hooks_local"},
        {&s.config, "config"},
        {&s.get_function_hooks, "get_function_hooks"},
        {&s.python_backprop_to_all, "python_backprop_to_all"},
        {&s.grad_table, "grad_table"},
        {&s.run_backward, "run_backward"},
        {&s.normalize_grad_inputs, "normalize_grad_inputs"},
        {&s.as_grad_var, "as_grad_var"},
        {&s.check_grad_type, "check_grad_type"},
        {&s.base_backward_accumulate, "base_backward_accumulate"},
        {&s.no_output_grad_error, "no_output_grad_error"},
        {&s.layouts_in_use, "layouts_in_use"},
        {&s.give_output_layouts, "give_output_layouts"},
    };
    for (const Entry& e : entries) {
        *e.target = require(names, e.key);
        if (*e.target == nullptr) return nullptr;
    }
    if (!PyDict_Check(s.global_settings)) {
        PyErr_SetString(PyExc_TypeError,
                        "core_init: global_settings must be a dict");
        return nullptr;
    }
    if (!PyList_Check(s.layouts_in_use)) {
        PyErr_SetString(PyExc_TypeError,
                        "core_init: layouts_in_use must be a list");
        return nullptr;
    }
    s.variable = require_type(names, "variable");
    s.node = require_type(names, "variable_node");
    s.ndarray = require_type(names, "ndarray");
    if (!s.variable || !s.node || !s.ndarray) return nullptr;
    struct FieldEntry {
        Field* field;
        PyTypeObject* type;
        const char* name;
    };
    const FieldEntry fields[] = {
        {&s.var_data, s.variable, "_data"},
        {&s.var_node, s.variable, "_node"},
        {&s.var_grad_var, s.variable, "_grad_var"},
        {&s.var_requires_grad, s.variable, "_requires_grad"},
        {&s.var_loss_scale, s.variable, "_loss_scale"},
        {&s.node_variable, s.node, "_variable"},
        {&s.node_creator, s.node, "_creator_node"},
        {&s.node_data, s.node, "_data"},
        {&s.node_rank, s.node, "_rank"},
        {&s.node_name, s.node, "name"},
        {&s.node_requires_grad, s.node, "_requires_grad"},
        {&s.node_dtype, s.node, "dtype"},
        {&s.node_shape, s.node, "shape"},
        {&s.node_old_style, s.node, "_old_style_grad_generator"},
        {&s.node_layout, s.node, "_layout"},
    };
    for (const FieldEntry& f : fields) {
        if (!find_field(f.type, f.name, f.field)) return nullptr;
    }
    // Kept for the life of the process, as the classes themselves are.
    st = s;
    initialized = true;
    Py_RETURN_NONE;
}

// A vectorcall entry point `f` that reports a failed allocation of the C++
// containers as MemoryError instead of letting the exception cross Python.
template <PyObject* (*f)(PyObject*, PyObject* const*, Py_ssize_t,
                         PyObject*)>
PyObject* entry(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                PyObject* kwnames) {
    try {
        return f(self, args, nargs, kwnames);
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
}

PyCFunction as_cfunction(PyObject* (*f)(PyObject*, PyObject* const*,
                                        Py_ssize_t, PyObject*)) {
    return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
}

PyMethodDef apply_def = {
    "apply", as_cfunction(entry<apply>),
    METH_FASTCALL | METH_KEYWORDS,
    "apply($self, inputs)\n--\n\n"
    "Computes the outputs and links the node into the graph."};

// apply_method(cls): FunctionNode.apply as a method of the class `cls`.
PyObject* apply_method(PyObject*, PyObject* cls) {
    if (!initialized) {
        PyErr_SetString(PyExc_RuntimeError, "core_init has not run");
        return nullptr;
    }
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "apply_method takes a class");
        return nullptr;
    }
    // The docstring of the Python apply, under the signature.
    static std::string doc;
    Ref text(PyObject_GetAttrString(st.python_apply, "__doc__"));
    if (!text) return nullptr;
    if (PyUnicode_Check(text.get())) {
        const char* utf8 = PyUnicode_AsUTF8(text.get());
        if (utf8 == nullptr) return nullptr;
        doc = std::string("apply($self, inputs)\n--\n\n") + utf8;
        apply_def.ml_doc = doc.c_str();
    }
    return PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls), &apply_def);
}

PyMethodDef core_methods[] = {
    {"core_init", core_init, METH_O,
     "Takes the classes and helpers of the Python autograd core."},
    {"apply_method", apply_method, METH_O,
     "FunctionNode.apply of the compiled core, as a method of the class."},
    {"backprop_to_all",
     as_cfunction(entry<backprop_to_all>),
     METH_FASTCALL | METH_KEYWORDS,
     "backprop_to_all(outputs, retain_grad, loss_scale) of the compiled "
     "core."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void register_core(py::module_& m) {
    if (PyModule_AddFunctions(m.ptr(), core_methods) < 0) {
        throw py::error_already_set();
    }
}

}  // namespace chainerx_cpp
