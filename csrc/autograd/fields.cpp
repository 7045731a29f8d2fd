// The C base types of chainer.Variable, chainer.variable.VariableNode and
// chainer.FunctionNode: the storage of their fields, reached as struct
// members here and as attributes (member descriptors) from Python.
//
// Each type lists its fields in `__slots__`, as chainer/_core_fields.py
// does for the pure-Python bases, so that what reads the slots of a class
// (copyreg for pickling and copying, chainer.serializers' rollback) sees
// the same fields either way.
#include <cstddef>
#include <cstring>

#include "autograd.hpp"

#include <structmember.h>

namespace chainer_autograd {

PyTypeObject* variable_base_type = nullptr;
PyTypeObject* node_base_type = nullptr;
PyTypeObject* function_base_type = nullptr;

PyObject* field(PyObject* owner, PyObject* value, const char* name) {
    if (value == nullptr) {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute "
                     "'%s'", Py_TYPE(owner)->tp_name, name);
        return nullptr;
    }
    Py_INCREF(value);
    return value;
}

namespace {

#define FIELD(type, member, name) \
    {name, T_OBJECT_EX, offsetof(type, member), 0, nullptr}

PyMemberDef variable_members[] = {
    FIELD(VariableObject, data, "_data"),
    FIELD(VariableObject, node, "_node"),
    FIELD(VariableObject, grad_var, "_grad_var"),
    FIELD(VariableObject, requires_grad, "_requires_grad"),
    FIELD(VariableObject, loss_scale, "_loss_scale"),
    FIELD(VariableObject, layout, "_layout"),
    {nullptr, 0, 0, 0, nullptr}};

PyMemberDef node_members[] = {
    FIELD(NodeObject, variable, "_variable"),
    FIELD(NodeObject, creator_node, "_creator_node"),
    FIELD(NodeObject, data, "_data"),
    FIELD(NodeObject, rank, "_rank"),
    FIELD(NodeObject, name, "name"),
    FIELD(NodeObject, requires_grad, "_requires_grad"),
    FIELD(NodeObject, dtype, "dtype"),
    FIELD(NodeObject, shape, "shape"),
    FIELD(NodeObject, old_style_grad_generator, "_old_style_grad_generator"),
    FIELD(NodeObject, layout, "_layout"),
    {nullptr, 0, 0, 0, nullptr}};

PyMemberDef function_members[] = {
    FIELD(FunctionObject, inputs, "inputs"),
    FIELD(FunctionObject, outputs, "outputs"),
    FIELD(FunctionObject, rank, "rank"),
    FIELD(FunctionObject, stack, "stack"),
    FIELD(FunctionObject, lazy_grad_sum, "lazy_grad_sum"),
    FIELD(FunctionObject, input_indexes_to_retain,
          "_input_indexes_to_retain"),
    FIELD(FunctionObject, output_indexes_to_retain,
          "_output_indexes_to_retain"),
    FIELD(FunctionObject, retained_output_data, "_retained_output_data"),
    FIELD(FunctionObject, n_local_function_hooks, "_n_local_function_hooks"),
    FIELD(FunctionObject, local_function_hooks, "_local_function_hooks"),
    FIELD(FunctionObject, input_layouts, "_input_layouts"),
    FIELD(FunctionObject, output_layouts, "_output_layouts"),
    {nullptr, 0, 0, 0, nullptr}};

#undef FIELD

// The object fields of an instance of a type whose members are all
// objects: traversed, cleared and released alike.
template <typename T>
constexpr Py_ssize_t n_fields() {
    return (sizeof(T) - sizeof(PyObject)) / sizeof(PyObject*);
}

template <typename T>
PyObject** fields_of(PyObject* self) {
    return reinterpret_cast<PyObject**>(reinterpret_cast<char*>(self) +
                                        sizeof(PyObject));
}

template <typename T>
int traverse(PyObject* self, visitproc visit, void* arg) {
    PyObject** f = fields_of<T>(self);
    for (Py_ssize_t i = 0; i < n_fields<T>(); ++i) Py_VISIT(f[i]);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

template <typename T>
int clear(PyObject* self) {
    PyObject** f = fields_of<T>(self);
    for (Py_ssize_t i = 0; i < n_fields<T>(); ++i) Py_CLEAR(f[i]);
    return 0;
}

template <typename T>
void dealloc(PyObject* self) {
    PyTypeObject* type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    clear<T>(self);
    type->tp_free(self);
    Py_DECREF(type);
}

static_assert(n_fields<VariableObject>() == 6, "fields of VariableObject");
static_assert(n_fields<NodeObject>() == 10, "fields of NodeObject");
static_assert(n_fields<FunctionObject>() == 12, "fields of FunctionObject");

// A function node starts with the fields of a node not yet applied (those
// of chainer._core_fields._PythonFunctionNodeFields); like object(), it
// takes no arguments unless its class defines __init__.
PyObject* function_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
    const bool excess = PyTuple_GET_SIZE(args) != 0 ||
                        (kwds != nullptr && PyDict_GET_SIZE(kwds) != 0);
    if (excess && type->tp_init == PyBaseObject_Type.tp_init) {
        PyErr_Format(PyExc_TypeError, "%.200s() takes no arguments",
                     type->tp_name);
        return nullptr;
    }
    PyObject* self = type->tp_alloc(type, 0);
    if (self == nullptr) return nullptr;
    FunctionObject* f = as_function_object(self);
    PyObject** fields = fields_of<FunctionObject>(self);
    for (Py_ssize_t i = 0; i < n_fields<FunctionObject>(); ++i)
        fields[i] = Py_NewRef(Py_None);
    Ref zero(PyLong_FromLong(0));
    if (!zero) {
        Py_DECREF(self);
        return nullptr;
    }
    set_field(&f->rank, zero.get());
    set_field(&f->n_local_function_hooks, zero.get());
    set_field(&f->lazy_grad_sum, Py_False);
    return self;
}

PyType_Slot variable_slots[] = {
    {Py_tp_doc, const_cast<char*>(
        "The fields of chainer.Variable, stored by the compiled core.")},
    {Py_tp_members, variable_members},
    {Py_tp_traverse, reinterpret_cast<void*>(traverse<VariableObject>)},
    {Py_tp_clear, reinterpret_cast<void*>(clear<VariableObject>)},
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<VariableObject>)},
    {0, nullptr}};

PyType_Slot node_slots[] = {
    {Py_tp_doc, const_cast<char*>(
        "The fields of chainer.variable.VariableNode, stored by the "
        "compiled core.\n\n"
        "    Attributes:\n"
        "        name (str): A label for the variable.\n"
        "        dtype: Data type of the variable's array.\n"
        "        shape (tuple): Shape of the variable's array.\n")},
    {Py_tp_members, node_members},
    {Py_tp_traverse, reinterpret_cast<void*>(traverse<NodeObject>)},
    {Py_tp_clear, reinterpret_cast<void*>(clear<NodeObject>)},
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<NodeObject>)},
    {0, nullptr}};

PyType_Slot function_slots[] = {
    {Py_tp_doc, const_cast<char*>(
        "The fields of chainer.FunctionNode, stored by the compiled core.\n\n"
        "    Attributes:\n"
        "        inputs (tuple of VariableNode): The input nodes.\n"
        "        outputs (tuple of weakref): Weak references to the output "
        "nodes.\n"
        "        rank (int): The highest rank of the inputs.\n"
        "        stack (list): The stack where the node was applied, in "
        "debug mode.\n"
        "        lazy_grad_sum (bool): Whether gradients are summed at "
        "once.\n")},
    {Py_tp_members, function_members},
    {Py_tp_new, reinterpret_cast<void*>(function_new)},
    {Py_tp_traverse, reinterpret_cast<void*>(traverse<FunctionObject>)},
    {Py_tp_clear, reinterpret_cast<void*>(clear<FunctionObject>)},
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<FunctionObject>)},
    {0, nullptr}};

constexpr unsigned int kFlags =
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC;

PyType_Spec variable_spec = {"chainer._compiled_autograd.VariableFields",
                             sizeof(VariableObject), 0, kFlags,
                             variable_slots};
PyType_Spec node_spec = {"chainer._compiled_autograd.VariableNodeFields",
                         sizeof(NodeObject), 0, kFlags, node_slots};
PyType_Spec function_spec = {"chainer._compiled_autograd.FunctionNodeFields",
                             sizeof(FunctionObject), 0, kFlags,
                             function_slots};

// The type of `spec`, with `__slots__` naming its members, added to the
// module under its short name.
PyTypeObject* add_type(PyObject* module, PyType_Spec* spec,
                       const PyMemberDef* members) {
    Ref type(PyType_FromModuleAndSpec(module, spec, nullptr));
    if (!type) return nullptr;
    Py_ssize_t n = 0;
    while (members[n].name != nullptr) ++n;
    Ref names(PyTuple_New(n));
    if (!names) return nullptr;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* name = PyUnicode_InternFromString(members[i].name);
        if (name == nullptr) return nullptr;
        PyTuple_SET_ITEM(names.get(), i, name);
    }
    if (PyObject_SetAttrString(type.get(), "__slots__", names.get()) < 0)
        return nullptr;
    const char* short_name = strrchr(spec->name, '.') + 1;
    if (PyModule_AddObjectRef(module, short_name, type.get()) < 0)
        return nullptr;
    return reinterpret_cast<PyTypeObject*>(type.release());
}

}  // namespace

bool add_field_types(PyObject* module) {
    variable_base_type = add_type(module, &variable_spec, variable_members);
    if (variable_base_type == nullptr) return false;
    node_base_type = add_type(module, &node_spec, node_members);
    if (node_base_type == nullptr) return false;
    function_base_type =
        add_type(module, &function_spec, function_members);
    return function_base_type != nullptr;
}

}  // namespace chainer_autograd
