// The module chainer._compiled_autograd: its types, the hand-over of the
// Python side (core_init) and the helpers its parts share.
#include <new>
#include <string>

#include "autograd.hpp"

namespace chainer_autograd {

State st;
bool initialized = false;

bool thread_state(ThreadState* out) {
    PyObject* dict = PyThreadState_GetDict();
    if (dict == nullptr) {
        PyErr_SetString(PyExc_RuntimeError, "no thread state");
        return false;
    }
    PyObject* pair = PyDict_GetItemWithError(dict, st.thread_key);
    if (pair == nullptr) {
        if (PyErr_Occurred()) return false;
        Ref fresh(PyObject_CallNoArgs(st.thread_state));
        if (!fresh) return false;
        if (!PyTuple_CheckExact(fresh.get()) ||
            PyTuple_GET_SIZE(fresh.get()) != 2 ||
            !PyDict_Check(PyTuple_GET_ITEM(fresh.get(), 0)) ||
            !PyDict_Check(PyTuple_GET_ITEM(fresh.get(), 1))) {
            PyErr_SetString(PyExc_TypeError,
                            "thread_state() must return two dicts");
            return false;
        }
        if (PyDict_SetItem(dict, st.thread_key, fresh.get()) < 0) return false;
        pair = fresh.get();
    }
    out->pair = Ref::borrow(pair);
    out->config = PyTuple_GET_ITEM(pair, 0);
    out->hooks = PyTuple_GET_ITEM(pair, 1);
    return true;
}

int config_entry(const ThreadState& ts, PyObject* key, Ref* value) {
    // A thread that has set no entry (the common case) reads the global
    // ones.
    PyObject* v = PyDict_GET_SIZE(ts.config) == 0
                      ? nullptr
                      : PyDict_GetItemWithError(ts.config, key);
    if (v == nullptr) {
        if (PyErr_Occurred()) return -1;
        v = PyDict_GetItemWithError(st.global_settings, key);
        if (v == nullptr) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, key);
            return -1;
        }
    }
    Ref held = Ref::borrow(v);
    int truth = PyObject_IsTrue(v);
    if (value != nullptr) *value = std::move(held);
    return truth;
}

PyObject* as_sequence(PyObject* it) {
    if (PyTuple_CheckExact(it) || PyList_CheckExact(it)) return Py_NewRef(it);
    return PySequence_List(it);
}

PyObject* to_variable(PyObject* x, PyObject* convert) {
    if (PyObject_TypeCheck(x, st.variable)) return Py_NewRef(x);
    return PyObject_CallOneArg(convert, x);
}

PyObject* grad_variable(PyObject* gx) {
    // A NumPy array is wrapped here, as Variable(gx) would wrap it.
    if (Py_TYPE(gx) == st.ndarray) {
        Ref zero(PyLong_FromLong(0));
        if (!zero) return nullptr;
        return new_variable(gx, true, Py_None, zero.get());
    }
    return to_variable(gx, st.as_grad_var);
}

PyObject* method_entry(PyObject* table, PyObject* method, PyObject* self) {
    if (!PyMethod_Check(method) || PyMethod_GET_SELF(method) != self)
        return nullptr;
    return PyDict_GetItemWithError(table, PyMethod_GET_FUNCTION(method));
}

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

namespace {

// parts[key], a new reference, or nullptr with a KeyError.
PyObject* require(PyObject* parts, const char* key) {
    PyObject* v = PyDict_GetItemString(parts, key);
    if (v == nullptr) {
        PyErr_Format(PyExc_KeyError, "core_init: %s missing", key);
        return nullptr;
    }
    return Py_NewRef(v);
}

// parts[key], which must be a subclass of `base` (when given).
PyTypeObject* require_type(PyObject* parts, const char* key,
                           PyTypeObject* base) {
    PyObject* v = require(parts, key);
    if (v == nullptr) return nullptr;
    if (!PyType_Check(v) ||
        (base != nullptr &&
         !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(v), base))) {
        Py_DECREF(v);
        PyErr_Format(PyExc_TypeError, "core_init: %s is not a class%s", key,
                     base != nullptr ? " on the compiled core's fields" : "");
        return nullptr;
    }
    return reinterpret_cast<PyTypeObject*>(v);
}

PyObject* intern(const char* text) { return PyUnicode_InternFromString(text); }

// The interned attribute name names[key], which must be a str.
bool require_name(PyObject* names, const char* key, PyObject** target) {
    PyObject* v = require(names, key);
    if (v == nullptr) return false;
    if (!PyUnicode_CheckExact(v)) {
        Py_DECREF(v);
        PyErr_Format(PyExc_TypeError, "core_init: the name %s is not a str",
                     key);
        return false;
    }
    PyUnicode_InternInPlace(&v);
    *target = v;
    return true;
}

// Fills `s` from `parts`; `held` gets a reference to each object taken.
bool fill_state(PyObject* parts, State& s, std::vector<Ref>* held) {
    // `held` takes the new reference `o`; `s` borrows it until it is kept.
    auto keep = [held](PyObject* o) {
        held->emplace_back(o);
        return o != nullptr;
    };
    struct Entry {
        PyObject** target;
        const char* key;
    };
    const Entry entries[] = {
        {&s.as_variable, "as_variable"},
        {&s.as_grad_var, "as_grad_var"},
        {&s.python_apply, "python_apply"},
        {&s.python_backprop_to_all, "python_backprop_to_all"},
        {&s.check_forward_outputs, "check_forward_outputs"},
        {&s.give_output_layouts, "give_output_layouts"},
        {&s.layouts_in_use, "layouts_in_use"},
        {&s.thread_state, "thread_state"},
        {&s.global_settings, "global_settings"},
        {&s.get_function_hooks, "get_function_hooks"},
        {&s.run_backward, "run_backward"},
        {&s.normalize_grad_inputs, "normalize_grad_inputs"},
        {&s.check_grad_type, "check_grad_type"},
        {&s.base_backward_accumulate, "base_backward_accumulate"},
        {&s.no_output_grad_error, "no_output_grad_error"},
        {&s.sum_grads, "sum_grads"},
        {&s.check_old_style_gradient, "check_old_style_gradient"},
        {&s.set_grad_var_if_available, "set_grad_var_if_available"},
        {&s.base_check_data_type_forward, "base_check_data_type_forward"},
        {&s.light_type_info_tuple, "light_type_info_tuple"},
        {&s.invalid_type, "invalid_type"},
        {&s.argument_checks, "argument_checks"},
        {&s.floating_dtypes, "floating_dtypes"},
        {&s.kept_constants, "kept_constants"},
        {&s.constant_forwards, "constant_forwards"},
        {&s.constant_grads_into, "constant_grads_into"},
        {&s.force_array, "force_array"},
    };
    for (const Entry& e : entries) {
        *e.target = require(parts, e.key);
        if (!keep(*e.target)) return false;
    }
    if (!PyDict_Check(s.global_settings) ||
        !PyList_Check(s.layouts_in_use) ||
        !PyDict_Check(s.argument_checks) ||
        !PyTuple_Check(s.floating_dtypes) ||
        !PyDict_Check(s.kept_constants) ||
        !PyDict_Check(s.constant_forwards) ||
        !PyDict_Check(s.constant_grads_into)) {
        PyErr_SetString(PyExc_TypeError,
                        "core_init: global_settings, argument_checks, "
                        "kept_constants, constant_forwards and "
                        "constant_grads_into must be dicts, layouts_in_use "
                        "a list and floating_dtypes a tuple");
        return false;
    }
    s.variable = require_type(parts, "variable", variable_base_type);
    if (!keep(reinterpret_cast<PyObject*>(s.variable))) return false;
    s.node = require_type(parts, "variable_node", node_base_type);
    if (!keep(reinterpret_cast<PyObject*>(s.node))) return false;
    s.function = require_type(parts, "function_node", function_base_type);
    if (!keep(reinterpret_cast<PyObject*>(s.function))) return false;
    s.ndarray = require_type(parts, "ndarray", nullptr);
    if (!keep(reinterpret_cast<PyObject*>(s.ndarray))) return false;

    Ref names(require(parts, "function_node_names"));
    if (!names) return false;
    if (!PyDict_Check(names.get())) {
        PyErr_SetString(PyExc_TypeError,
                        "core_init: function_node_names must be a dict");
        return false;
    }
    FunctionNodeNames& n = s.names;
    const Entry name_entries[] = {
        {&n.check_data_type_forward, "check_data_type_forward"},
        {&n.check_type_forward, "check_type_forward"},
        {&n.check_types_fully, "check_types_fully"},
        {&n.forward, "forward"},
        {&n.backward, "backward"},
        {&n.backward_accumulate, "backward_accumulate"},
        {&n.add_grad_into, "add_grad_into"},
    };
    for (const Entry& e : name_entries) {
        if (!require_name(names.get(), e.key, e.target) ||
            !keep(*e.target))
            return false;
    }

    const Entry interned[] = {
        {&s.s_dtype, "dtype"},
        {&s.s_shape, "shape"},
        {&s.s_value, "value"},
        {&s.s_debug, "debug"},
        {&s.s_type_check, "type_check"},
        {&s.s_enable_backprop, "enable_backprop"},
        {&s.s_lazy_grad_sum, "lazy_grad_sum"},
        {&s.s_use_compiled_core, "use_compiled_core"},
        {&s.s_function_hooks, "function_hooks"},
        {&s.s_add_to, "add_to"},
        {&s.s_absorb, "absorb"},
    };
    for (const Entry& e : interned) {
        *e.target = intern(e.key);
        if (!keep(*e.target)) return false;
    }
    // Nothing is handed over that is not used.
    const Py_ssize_t n_parts = sizeof(entries) / sizeof(entries[0]) + 5;
    const Py_ssize_t n_names = sizeof(name_entries) / sizeof(name_entries[0]);
    if (PyDict_GET_SIZE(parts) != n_parts ||
        PyDict_GET_SIZE(names.get()) != n_names) {
        PyErr_Format(PyExc_TypeError,
                     "core_init: %zd parts and %zd names expected, not %zd "
                     "and %zd", n_parts, n_names, PyDict_GET_SIZE(parts),
                     PyDict_GET_SIZE(names.get()));
        return false;
    }
    s.thread_key = PyObject_CallNoArgs(
        reinterpret_cast<PyObject*>(&PyBaseObject_Type));
    return keep(s.thread_key);
}

// core_init(parts): takes the classes, functions and names of the Python
// side (chainer/_compiled_core.py lists them), once.
PyObject* core_init(PyObject*, PyObject* parts) {
    if (!PyDict_Check(parts)) {
        PyErr_SetString(PyExc_TypeError, "core_init takes a dict");
        return nullptr;
    }
    State s;
    std::vector<Ref> held;  // released unless the state is taken
    if (!fill_state(parts, s, &held)) return nullptr;
    if (initialized) {
        PyErr_SetString(PyExc_RuntimeError, "core_init has run already");
        return nullptr;
    }
    // Kept for the life of the process, as the classes themselves are.
    for (Ref& r : held) r.release();
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
    "apply", as_cfunction(entry<apply>), METH_FASTCALL | METH_KEYWORDS,
    "apply($self, inputs)\n--\n\n"
    "Computes the outputs and links the node into the graph."};

// apply_method(cls): FunctionNode.apply as a method of the class `cls`,
// with the docstring of the Python apply.
PyObject* apply_method(PyObject*, PyObject* cls) {
    if (!initialized) {
        PyErr_SetString(PyExc_RuntimeError, "core_init has not run");
        return nullptr;
    }
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "apply_method takes a class");
        return nullptr;
    }
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

PyMethodDef methods[] = {
    {"core_init", core_init, METH_O,
     "Takes the classes, functions and names of the Python side."},
    {"apply_method", apply_method, METH_O,
     "FunctionNode.apply of the compiled core, as a method of the class."},
    {"backprop_to_all", as_cfunction(entry<backprop_to_all>),
     METH_FASTCALL | METH_KEYWORDS,
     "backprop_to_all(outputs, retain_grad, loss_scale) of the compiled "
     "core."},
    {"light_depth", light_depth, METH_NOARGS,
     "How deeply the current thread is in type_check's light mode."},
    {"enter_light", enter_light, METH_NOARGS,
     "Enters type_check's light mode in the current thread."},
    {"leave_light", leave_light, METH_NOARGS,
     "Leaves type_check's light mode in the current thread."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "chainer._compiled_autograd",
    "The compiled autograd core: FunctionNode.apply, the backward traversal "
    "and the fields they work on (see chainer._compiled_core).",
    -1, methods, nullptr, nullptr, nullptr, nullptr};

}  // namespace
}  // namespace chainer_autograd

PyMODINIT_FUNC PyInit__compiled_autograd() {
    using namespace chainer_autograd;
    Ref module(PyModule_Create(&module_def));
    if (!module || !add_field_types(module.get()) ||
        !add_grad_table_type(module.get()))
        return nullptr;
    return module.release();
}
