/* A hand-written CPython extension over the kernel of ../extension.mlir:
   kilnc gives it kiln_runtime.h (no -I to Kiln's sources). */
#include "kiln_runtime.h"

double k_div(double x, double y, kiln_error *error);

static PyObject *call_div(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  double x, y;
  if (nargs != 2 || kiln_as_double(args[0], &x, "div", "x") < 0 ||
      kiln_as_double(args[1], &y, "div", "y") < 0)
    return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "div() takes 2 arguments");
  kiln_error error = {0};
  double result = k_div(x, y, &error);
  if (error.kind != KILN_OK)
    return kiln_raise(&error, "div", "extension.py");
  return PyFloat_FromDouble(result);
}

static PyMethodDef methods[] = {
    {"div", (PyCFunction)(void (*)(void))call_div, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "kilnc_ext", NULL, 0, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_kilnc_ext(void) { return PyModule_Create(&module); }
