// The gradient table of a compiled traversal: chainer._backprop._GradTable
// (the reference) for a traversal that loads the variables' own gradients
// and that nothing observes.
//
// The table owns what it keeps: the list of gradient variables of each
// node (a dict keyed by node), the sums it made and alone holds, and the
// addends still to be added into them (both keyed by the gradient
// variable, which the table holds a reference to). The Python steps that
// the traversal hands a node to (_backprop._run_backward) use its methods,
// the same as the reference's.
#include <new>
#include <unordered_map>
#include <unordered_set>

#include "autograd.hpp"

namespace chainer_autograd {

PyTypeObject* grad_table_type = nullptr;

struct GradTableObject {
    PyObject_HEAD
    PyObject* grads;  // {node: [gradient variable, ...]}
    // The sums of the table, each held.
    std::unordered_set<PyObject*>* sums;
    // {sum: the Addend to add into it}, both held.
    std::unordered_map<PyObject*, PyObject*>* pending;
    // Whether gradients may be summed in place (no backprop through the
    // traversal).
    bool into_sums;
};

namespace {

PyObject* data_of(PyObject* grad) {
    return field(grad, as_variable_object(grad)->data, "_data");
}

// Adds `addend` into the array of `grad` (Addend.add_to).
bool add_to(PyObject* addend, PyObject* grad) {
    Ref data(data_of(grad));
    if (!data) return false;
    Ref r(PyObject_CallMethodOneArg(addend, st.s_add_to, data.get()));
    return static_cast<bool>(r);
}

// _GradTable.settle: adds the addends kept for the gradients in `grads`.
bool settle(GradTableObject* t, PyObject* grads) {
    if (t->pending->empty()) return true;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(grads); ++k) {
        Ref g = Ref::borrow(PyList_GET_ITEM(grads, k));
        auto it = t->pending->find(g.get());
        if (it == t->pending->end()) continue;
        Ref addend(it->second);
        Ref total(it->first);
        t->pending->erase(it);
        if (!add_to(addend.get(), g.get())) return false;
    }
    return true;
}

// _GradTable.release: `grad` leaves the sums.
void release(GradTableObject* t, PyObject* grad) {
    if (t->sums->empty()) return;
    auto it = t->sums->find(grad);
    if (it == t->sums->end()) return;
    t->sums->erase(it);
    Py_DECREF(grad);
}

// _sum_grads of a list, unobserved.
PyObject* sum_grads(PyObject* grads) {
    return PyObject_CallFunctionObjArgs(st.sum_grads, grads, Py_False,
                                        nullptr);
}

// Whether every array of `rest` has the type, shape and dtype of `total`.
int same_kind(PyObject* total, PyObject* grads) {
    Ref shape(PyObject_GetAttr(total, st.s_shape));
    Ref dtype(shape ? PyObject_GetAttr(total, st.s_dtype) : nullptr);
    if (!dtype) return -1;
    for (Py_ssize_t k = 1; k < PyList_GET_SIZE(grads); ++k) {
        Ref data(data_of(PyList_GET_ITEM(grads, k)));
        if (!data) return -1;
        if (Py_TYPE(data.get()) != Py_TYPE(total)) return 0;
        Ref s(PyObject_GetAttr(data.get(), st.s_shape));
        if (!s) return -1;
        int eq = PyObject_RichCompareBool(s.get(), shape.get(), Py_EQ);
        if (eq <= 0) return eq;
        Ref d(PyObject_GetAttr(data.get(), st.s_dtype));
        if (!d) return -1;
        eq = PyObject_RichCompareBool(d.get(), dtype.get(), Py_EQ);
        if (eq <= 0) return eq;
    }
    return 1;
}

// _backprop._take_grad: the gradient of the variable of `node`, which
// drops it.
PyObject* take_grad(PyObject* node) {
    PyObject* ref = as_node_object(node)->variable;
    if (ref == nullptr) return field(node, ref, "_variable");
    Ref var(PyObject_CallNoArgs(ref));
    if (!var) return nullptr;
    if (var.get() == Py_None) Py_RETURN_NONE;
    VariableObject* v = as_variable_object(var.get());
    PyObject* grad = field(var.get(), v->grad_var, "_grad_var");
    if (grad != nullptr && grad != Py_None) set_field(&v->grad_var, Py_None);
    return grad;
}

// --- The methods the Python steps call --------------------------------

GradTableObject* self_of(PyObject* self) {
    return reinterpret_cast<GradTableObject*>(self);
}

bool check_variable(PyObject* o) {
    if (PyObject_TypeCheck(o, variable_base_type)) return true;
    PyErr_Format(PyExc_TypeError, "a gradient variable is expected, not %.100s",
                 Py_TYPE(o)->tp_name);
    return false;
}

bool check_list(PyObject* o) {
    if (PyList_Check(o)) return true;
    PyErr_Format(PyExc_TypeError, "a list is expected, not %.100s",
                 Py_TYPE(o)->tp_name);
    return false;
}

PyObject* py_get_as_list(PyObject* self, PyObject* node) {
    if (!PyObject_TypeCheck(node, node_base_type)) {
        PyErr_SetString(PyExc_TypeError, "a variable node is expected");
        return nullptr;
    }
    return Py_XNewRef(grad_table_get_as_list(self_of(self), node));
}

PyObject* py_sum_list(PyObject* self, PyObject* grads) {
    if (!check_list(grads) || !grad_table_sum_list(self_of(self), grads))
        return nullptr;
    Py_RETURN_NONE;
}

PyObject* py_release(PyObject* self, PyObject* grad) {
    if (grad != Py_None) release(self_of(self), grad);
    return Py_NewRef(grad);
}

PyObject* py_settle(PyObject* self, PyObject* grads) {
    if (!check_list(grads) || !settle(self_of(self), grads)) return nullptr;
    return Py_NewRef(grads);
}

PyObject* py_own(PyObject* self, PyObject* grad) {
    if (!check_variable(grad) || !grad_table_own(self_of(self), grad))
        return nullptr;
    return Py_NewRef(grad);
}

PyObject* py_owns(PyObject* self, PyObject* grad) {
    return PyBool_FromLong(grad_table_owns(self_of(self), grad));
}

PyObject* py_defer(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "defer(total, addend)");
        return nullptr;
    }
    if (!check_variable(args[0]) ||
        !grad_table_defer(self_of(self), args[0], args[1]))
        return nullptr;
    Py_RETURN_NONE;
}

PyObject* py_observed(PyObject*, void*) { Py_RETURN_FALSE; }

int traverse(PyObject* self, visitproc visit, void* arg) {
    GradTableObject* t = self_of(self);
    Py_VISIT(t->grads);
    for (PyObject* g : *t->sums) Py_VISIT(g);
    for (const auto& entry : *t->pending) {
        Py_VISIT(entry.first);
        Py_VISIT(entry.second);
    }
    Py_VISIT(Py_TYPE(self));
    return 0;
}

int clear(PyObject* self) {
    GradTableObject* t = self_of(self);
    Py_CLEAR(t->grads);
    std::unordered_set<PyObject*> sums;
    sums.swap(*t->sums);
    std::unordered_map<PyObject*, PyObject*> pending;
    pending.swap(*t->pending);
    for (PyObject* g : sums) Py_DECREF(g);
    for (const auto& entry : pending) {
        Py_DECREF(entry.first);
        Py_DECREF(entry.second);
    }
    return 0;
}

void dealloc(PyObject* self) {
    PyTypeObject* type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    clear(self);
    delete self_of(self)->sums;
    delete self_of(self)->pending;
    type->tp_free(self);
    Py_DECREF(type);
}

PyMethodDef methods[] = {
    {"get_as_list", py_get_as_list, METH_O,
     "The gradient list of a node, made on first use."},
    {"sum_list", py_sum_list, METH_O,
     "Replaces the gradients in the list by their sum."},
    {"release", py_release, METH_O,
     "Unregisters a gradient as it leaves the table; returns it."},
    {"settle", py_settle, METH_O,
     "Adds the addends kept for the gradients in the list; returns it."},
    {"own", py_own, METH_O,
     "Registers a gradient nothing else holds as a sum; returns it."},
    {"owns", py_owns, METH_O, "Whether the gradient is a sum of the table."},
    {"defer", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(
         py_defer)),
     METH_FASTCALL, "Keeps an Addend to be added into a sum of the table."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef getset[] = {
    {"observed", py_observed, nullptr,
     "Whether the traversal is observed: never, for this table.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyType_Slot slots[] = {
    {Py_tp_doc, const_cast<char*>(
        "The gradient table of a compiled traversal (see "
        "chainer._backprop._GradTable).")},
    {Py_tp_methods, methods},
    {Py_tp_getset, getset},
    {Py_tp_traverse, reinterpret_cast<void*>(traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(clear)},
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc)},
    {0, nullptr}};

PyType_Spec spec = {
    "chainer._compiled_autograd.GradTable", sizeof(GradTableObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
        Py_TPFLAGS_DISALLOW_INSTANTIATION,
    slots};

}  // namespace

bool add_grad_table_type(PyObject* module) {
    PyObject* type = PyType_FromModuleAndSpec(module, &spec, nullptr);
    if (type == nullptr) return false;
    grad_table_type = reinterpret_cast<PyTypeObject*>(type);
    return PyModule_AddObjectRef(module, "GradTable", type) == 0;
}

GradTableObject* new_grad_table(bool into_sums) {
    GradTableObject* t = PyObject_GC_New(GradTableObject, grad_table_type);
    if (t == nullptr) return nullptr;
    t->into_sums = into_sums;
    t->sums = new (std::nothrow) std::unordered_set<PyObject*>();
    t->pending = new (std::nothrow) std::unordered_map<PyObject*, PyObject*>();
    t->grads = PyDict_New();
    if (t->grads == nullptr || t->sums == nullptr || t->pending == nullptr) {
        Py_XDECREF(t->grads);
        delete t->sums;
        delete t->pending;
        PyObject_GC_Del(t);
        Py_DECREF(grad_table_type);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return nullptr;
    }
    // Tracked once complete, so that the collector never sees a part.
    PyObject_GC_Track(t);
    return t;
}

PyObject* grad_table_get_as_list(GradTableObject* t, PyObject* node) {
    PyObject* grads = PyDict_GetItemWithError(t->grads, node);
    if (grads != nullptr || PyErr_Occurred()) return grads;
    Ref list(PyList_New(0));
    if (!list) return nullptr;
    NodeObject* n = as_node_object(node);
    Ref creator(field(node, n->creator_node, "_creator_node"));
    if (!creator) return nullptr;
    if (creator.get() == Py_None) {
        if (n->old_style_grad_generator != nullptr &&
            n->old_style_grad_generator != Py_None) {
            Ref r(PyObject_CallOneArg(st.check_old_style_gradient, node));
            if (!r) return nullptr;
        }
        Ref ref(field(node, n->variable, "_variable"));
        if (!ref) return nullptr;
        Ref var(PyObject_CallNoArgs(ref.get()));
        if (!var) return nullptr;
        if (var.get() != Py_None) {
            PyObject* grad_var = as_variable_object(var.get())->grad_var;
            if (grad_var != nullptr && grad_var != Py_None &&
                PyList_Append(list.get(), grad_var) < 0)
                return nullptr;
        }
    }
    if (PyDict_SetItem(t->grads, node, list.get()) < 0) return nullptr;
    return list.get();  // the dict holds it
}

PyObject* grad_table_pop(GradTableObject* t, PyObject* node) {
    Ref grads = Ref::borrow(PyDict_GetItemWithError(t->grads, node));
    if (!grads) {
        if (PyErr_Occurred()) return nullptr;
        return take_grad(node);
    }
    if (PyDict_DelItem(t->grads, node) < 0) return nullptr;
    Py_ssize_t n = PyList_GET_SIZE(grads.get());
    if (n == 0) Py_RETURN_NONE;
    if (!settle(t, grads.get())) return nullptr;
    Ref total(n == 1 ? Py_NewRef(PyList_GET_ITEM(grads.get(), 0))
                     : sum_grads(grads.get()));
    if (!total) return nullptr;
    release(t, total.get());
    return total.release();
}

bool grad_table_own(GradTableObject* t, PyObject* grad) {
    if (t->into_sums && t->sums->insert(grad).second) Py_INCREF(grad);
    return true;
}

int grad_table_owns(GradTableObject* t, PyObject* grad) {
    return t->sums->count(grad) != 0;
}

bool grad_table_defer(GradTableObject* t, PyObject* total, PyObject* addend) {
    auto it = t->pending->find(total);
    if (it == t->pending->end()) {
        t->pending->emplace(Py_NewRef(total), Py_NewRef(addend));
        return true;
    }
    Ref kept = Ref::borrow(it->second);
    Ref absorbed(PyObject_CallMethodOneArg(kept.get(), st.s_absorb, addend));
    if (!absorbed) return false;
    int truth = PyObject_IsTrue(absorbed.get());
    if (truth != 0) return truth > 0;
    if (!add_to(kept.get(), total)) return false;
    it = t->pending->find(total);  // add_to ran Python code
    if (it == t->pending->end()) {
        t->pending->emplace(Py_NewRef(total), Py_NewRef(addend));
    } else {
        PyObject* old = it->second;
        it->second = Py_NewRef(addend);
        Py_DECREF(old);
    }
    return true;
}

bool grad_table_sum_list(GradTableObject* t, PyObject* grads) {
    const Py_ssize_t n = PyList_GET_SIZE(grads);
    if (n < 2) return true;
    Ref first = Ref::borrow(PyList_GET_ITEM(grads, 0));
    if (t->into_sums && grad_table_owns(t, first.get())) {
        Ref total(data_of(first.get()));
        if (!total) return false;
        int same = same_kind(total.get(), grads);
        if (same < 0) return false;
        if (same) {
            Ref rest(PyList_GetSlice(grads, 1, n));
            if (!rest) return false;
            for (Py_ssize_t k = 0; k < n - 1; ++k) {
                Ref data(data_of(PyList_GET_ITEM(rest.get(), k)));
                if (!data) return false;
                Ref r(PyNumber_InPlaceAdd(total.get(), data.get()));
                if (!r) return false;
            }
            return PyList_SetSlice(grads, 1, n, nullptr) == 0;
        }
    }
    if (!settle(t, grads)) return false;
    Ref total(sum_grads(grads));
    if (!total) return false;
    if (!check_variable(total.get()) || !grad_table_own(t, total.get()))
        return false;
    Ref one(PyList_New(1));
    if (!one) return false;
    PyList_SET_ITEM(one.get(), 0, total.release());
    return PyList_SetSlice(grads, 0, PyList_GET_SIZE(grads), one.get()) == 0;
}

}  // namespace chainer_autograd
