// The only pybind11 code in fusioncut: thin wrappers over the header-only solvers.
#include <pybind11/pybind11.h>

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "fusioncut's C++ max-flow / min-cut core";
  m.attr("__version__") = FUSIONCUT_VERSION;
}
