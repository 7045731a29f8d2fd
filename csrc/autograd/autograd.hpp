// The compiled autograd core (chainer._compiled_autograd): what its parts
// share.
//
// It owns the storage of the hot path: the fields of variables and of
// their nodes are the struct members of VariableObject and NodeObject,
// the C base types of chainer.Variable and chainer.variable.VariableNode
// (fields.cpp); the gradients of a traversal live in its own table
// (grad_table.cpp). Everything else it knows of the Python side is handed
// over once, by chainer/_compiled_core.py calling core_init (module.cpp):
// classes, functions, and the names of FunctionNode's attributes.
#pragma once

#include <Python.h>

#include <vector>

namespace chainer_autograd {

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

// The fields of a variable (chainer.Variable's C base).
struct VariableObject {
    PyObject_HEAD
    PyObject* data;
    PyObject* node;
    PyObject* grad_var;
    PyObject* requires_grad;
    PyObject* loss_scale;
    PyObject* layout;
};

// The fields of a variable node (chainer.variable.VariableNode's C base).
struct NodeObject {
    PyObject_HEAD
    PyObject* variable;  // a weak reference to the variable
    PyObject* creator_node;
    PyObject* data;
    PyObject* rank;
    PyObject* name;
    PyObject* requires_grad;
    PyObject* dtype;
    PyObject* shape;
    PyObject* old_style_grad_generator;
    PyObject* layout;
};

// The fields of a function node (chainer.FunctionNode's C base).
struct FunctionObject {
    PyObject_HEAD
    PyObject* inputs;
    PyObject* outputs;
    PyObject* rank;
    PyObject* stack;
    PyObject* lazy_grad_sum;
    PyObject* input_indexes_to_retain;
    PyObject* output_indexes_to_retain;
    PyObject* retained_output_data;
    PyObject* n_local_function_hooks;
    PyObject* local_function_hooks;
    PyObject* input_layouts;
    PyObject* output_layouts;
};

inline FunctionObject* as_function_object(PyObject* o) {
    return reinterpret_cast<FunctionObject*>(o);
}
inline VariableObject* as_variable_object(PyObject* o) {
    return reinterpret_cast<VariableObject*>(o);
}
inline NodeObject* as_node_object(PyObject* o) {
    return reinterpret_cast<NodeObject*>(o);
}

// A field's value as a new reference, or nullptr with the AttributeError
// Python raises for a field that was deleted.
PyObject* field(PyObject* owner, PyObject* value, const char* name);

// Stores `value` (borrowed) in the field `*slot`.
inline void set_field(PyObject** slot, PyObject* value) {
    PyObject* old = *slot;
    Py_INCREF(value);
    *slot = value;
    Py_XDECREF(old);
}

// The names of the methods of FunctionNode that the core calls or looks
// up; handed over by the Python side (see core_init).
struct FunctionNodeNames {
    PyObject* check_data_type_forward = nullptr;
    PyObject* check_type_forward = nullptr;
    PyObject* check_types_fully = nullptr;
    PyObject* forward = nullptr;
    PyObject* backward = nullptr;
    PyObject* backward_accumulate = nullptr;
    PyObject* add_grad_into = nullptr;
};

// What the Python side hands over once (module.cpp, core_init). Written
// once under the GIL before either entry point can run, read-only after.
struct State {
    PyTypeObject* variable = nullptr;  // chainer.Variable
    PyTypeObject* node = nullptr;      // chainer.variable.VariableNode
    PyTypeObject* function = nullptr;  // chainer.FunctionNode
    PyTypeObject* ndarray = nullptr;
    PyObject* as_variable = nullptr;
    PyObject* as_grad_var = nullptr;
    PyObject* python_apply = nullptr;
    PyObject* python_backprop_to_all = nullptr;
    PyObject* check_forward_outputs = nullptr;
    PyObject* give_output_layouts = nullptr;
    PyObject* layouts_in_use = nullptr;  // a list, empty until one is used
    PyObject* thread_state = nullptr;
    PyObject* global_settings = nullptr;  // a dict
    PyObject* get_function_hooks = nullptr;
    PyObject* run_backward = nullptr;
    PyObject* normalize_grad_inputs = nullptr;
    PyObject* check_grad_type = nullptr;
    PyObject* base_backward_accumulate = nullptr;
    PyObject* no_output_grad_error = nullptr;
    PyObject* sum_grads = nullptr;
    PyObject* check_old_style_gradient = nullptr;
    PyObject* set_grad_var_if_available = nullptr;
    PyObject* base_check_data_type_forward = nullptr;
    PyObject* light_type_info_tuple = nullptr;  // type_check's class
    PyObject* invalid_type = nullptr;           // type_check.InvalidType
    PyObject* argument_checks = nullptr;  // a dict, see type_check.cpp
    PyObject* floating_dtypes = nullptr;  // a tuple of NumPy dtypes
    // The tables of chainer/_constant_operands.py (dicts, see
    // constant_operands.cpp) and chainer.utils.force_array.
    PyObject* kept_constants = nullptr;
    PyObject* constant_forwards = nullptr;
    PyObject* constant_grads_into = nullptr;
    PyObject* force_array = nullptr;
    FunctionNodeNames names;
    // Interned names of public attributes and configuration entries.
    PyObject* s_dtype = nullptr;
    PyObject* s_shape = nullptr;
    PyObject* s_value = nullptr;
    PyObject* s_debug = nullptr;
    PyObject* s_type_check = nullptr;
    PyObject* s_enable_backprop = nullptr;
    PyObject* s_lazy_grad_sum = nullptr;
    PyObject* s_use_compiled_core = nullptr;
    PyObject* s_function_hooks = nullptr;
    PyObject* s_add_to = nullptr;
    PyObject* s_absorb = nullptr;
    PyObject* thread_key = nullptr;  // this module's entry in a thread's dict
};

extern State st;
extern bool initialized;

// The C base types (fields.cpp) and the gradient table type
// (grad_table.cpp), added to the module.
extern PyTypeObject* variable_base_type;
extern PyTypeObject* node_base_type;
extern PyTypeObject* function_base_type;
extern PyTypeObject* grad_table_type;
bool add_field_types(PyObject* module);
bool add_grad_table_type(PyObject* module);

// The current thread's configuration entries and the dict that holds its
// function hooks, as st.thread_state gives them once per thread (kept in
// the thread's dict, PyThreadState_GetDict). `pair` holds both.
struct ThreadState {
    Ref pair;
    PyObject* config = nullptr;
    PyObject* hooks = nullptr;
};
bool thread_state(ThreadState* out);

// The truth of `chainer.config.<key>` in this thread, or -1 with an error;
// `value` (when given) gets the entry itself, as a new reference.
int config_entry(const ThreadState& ts, PyObject* key, Ref* value = nullptr);

// A list (or tuple) of the items of an iterable, as `for x in it` sees it.
PyObject* as_sequence(PyObject* it);

// `x` if it is a Variable, else what the Python function `convert` makes
// of it (a new reference, or nullptr with the error).
PyObject* to_variable(PyObject* x, PyObject* convert);

// A new variable of the array `y` (or None), with its new node, as
// variable._init_variable makes them; `creator` is None or the function.
// `node_out`, if given, gets the node, borrowed (the variable holds it).
PyObject* new_variable(PyObject* y, bool requires_grad, PyObject* creator,
                       PyObject* rank, PyObject** node_out = nullptr);

// The gradient variable of `gx` (_backprop._as_grad_var): `gx` if it is a
// Variable, else a new variable of it that requires a gradient.
PyObject* grad_variable(PyObject* gx);

// The entry of `table` (a dict keyed by functions) for the function of
// `method` where that is a method bound to `self`: borrowed; nullptr where
// there is none, with an error where the lookup failed.
PyObject* method_entry(PyObject* table, PyObject* method, PyObject* self);

// The Python function `python` called with `self` (or nothing) and the
// arguments of a vectorcall.
PyObject* call_python(PyObject* python, PyObject* self, PyObject* const* args,
                      Py_ssize_t nargs, PyObject* kwnames);

// The entry points (apply.cpp, backprop.cpp).
PyObject* apply(PyObject* func, PyObject* const* args, Py_ssize_t nargs,
                PyObject* kwnames);
PyObject* backprop_to_all(PyObject* self, PyObject* const* args,
                          Py_ssize_t nargs, PyObject* kwnames);

// The gradient table of a compiled traversal (grad_table.cpp).
struct GradTableObject;
GradTableObject* new_grad_table(bool into_sums);
PyObject* grad_table_get_as_list(GradTableObject* t, PyObject* node);
PyObject* grad_table_pop(GradTableObject* t, PyObject* node);
bool grad_table_sum_list(GradTableObject* t, PyObject* grads);
bool grad_table_own(GradTableObject* t, PyObject* grad);
int grad_table_owns(GradTableObject* t, PyObject* grad);
bool grad_table_defer(GradTableObject* t, PyObject* total, PyObject* addend);

// The light type check of apply (type_check.cpp), as
// FunctionNode._check_data_type_forward runs it: false with the error.
bool check_input_types(PyObject* func, PyObject* in_data);

// How deeply this thread is in type_check's light mode, kept here for the
// Python side (type_check._use_light_depth) and for check_input_types.
PyObject* light_depth(PyObject* self, PyObject* unused);
PyObject* enter_light(PyObject* self, PyObject* unused);
PyObject* leave_light(PyObject* self, PyObject* unused);

// The methods of constant operands (constant_operands.cpp), computed where
// chainer/_constant_operands.py lists them and their constant is kept: the
// outputs of `method`, func's forward, for the arrays `in_data`, or the
// new gradient of the input that `method`, func's _add_grad_into, gives
// for `grad_outputs` (a tuple of variables). nullptr with an error where
// the computation failed, without one where it is left to the method.
PyObject* constant_forward(PyObject* func, PyObject* method,
                           PyObject* in_data);
PyObject* constant_grad(PyObject* func, PyObject* method,
                        PyObject* grad_outputs);

}  // namespace chainer_autograd
