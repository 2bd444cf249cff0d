// The only pybind11 code in fusioncut: thin wrappers over the header-only solvers.
// Arrays come in as C-contiguous numpy arrays of the exact dtype (no silent conversion), the
// GIL is released while solving, and results go out as numpy arrays and exact Python ints.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <string>

#include "min_cut.h"
#include "node_cut.h"

namespace py = pybind11;
using fusioncut::Algorithm;
using fusioncut::WideInt;

namespace {

using Int64Array = py::array_t<int64_t, py::array::c_style>;

PyObject* unbounded_cut_error = nullptr;

// min_cut keeps one workspace per thread for graphs up to this many edges (about 40 bytes an
// edge), so that repeated small solves neither allocate nor page-fault; larger graphs free
// theirs on return.
constexpr int64_t kRetainedWorkspaceEdges = int64_t{1} << 18;
thread_local std::unique_ptr<fusioncut::MinCutWorkspace> cached_workspace;  // fusioncut._core.UnboundedCutError (never freed)

Algorithm parse_algorithm(const std::string& function, const std::string& name) {
  if (name == "auto") return Algorithm::kAuto;
  if (name == "push_relabel") return Algorithm::kPushRelabel;
  if (name == "boykov_kolmogorov") return Algorithm::kBoykovKolmogorov;
  throw std::invalid_argument(function + ": algorithm = '" + name +
                              "' is not one of 'auto', 'push_relabel', 'boykov_kolmogorov'");
}

const char* algorithm_name(Algorithm algorithm) {
  return algorithm == Algorithm::kBoykovKolmogorov ? "boykov_kolmogorov" : "push_relabel";
}

py::int_ to_python_int(WideInt value) {
  if (value >= INT64_MIN && value <= INT64_MAX) return py::int_(static_cast<int64_t>(value));
  const std::string text = fusioncut::to_string_wide(value);
  return py::reinterpret_steal<py::int_>(PyLong_FromString(text.c_str(), nullptr, 10));
}

void check_one_dimensional(const char* function, const char* argument, const Int64Array& a) {
  if (a.ndim() != 1) {
    throw py::type_error(std::string(function) + ": " + argument +
                         " must be one-dimensional, got " + std::to_string(a.ndim()) +
                         " dimensions");
  }
}

void check_same_length(const char* function, const char* argument, const Int64Array& a,
                       const char* reference, const Int64Array& b) {
  if (a.size() != b.size()) {
    throw py::value_error(std::string(function) + ": " + argument + " has length " +
                          std::to_string(a.size()) + " but " + reference + " has length " +
                          std::to_string(b.size()));
  }
}

fusioncut::TerminalNodes terminal(const char* argument, const Int64Array& a) {
  check_one_dimensional("NodeCutGraph", argument, a);
  return {a.data(), a.size()};
}

// NodeCutGraph plus a mutex: solve() releases the GIL and reuses buffers.
struct BoundNodeCutGraph {
  fusioncut::NodeCutGraph graph;
  std::mutex mutex;
};

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "fusioncut's C++ max-flow / min-cut core";
  m.attr("__version__") = FUSIONCUT_VERSION;
  m.attr("INF") = fusioncut::kInfinity;

  unbounded_cut_error =
      PyErr_NewException("fusioncut._core.UnboundedCutError", PyExc_ValueError, nullptr);
  m.attr("UnboundedCutError") = py::handle(unbounded_cut_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const fusioncut::UnboundedCut& e) {
      py::object error = py::reinterpret_steal<py::object>(
          PyObject_CallFunction(unbounded_cut_error, "s", e.what()));
      error.attr("path") = py::cast(e.path);
      PyErr_SetObject(unbounded_cut_error, error.ptr());
    }
  });

  m.def(
      "min_cut",
      [](int64_t num_nodes, const Int64Array& src, const Int64Array& dst,
         const Int64Array& capacity, int64_t source, int64_t sink, const std::string& algorithm,
         bool check) {
        const char* kFunction = "min_cut";
        check_one_dimensional(kFunction, "src", src);
        check_one_dimensional(kFunction, "dst", dst);
        check_one_dimensional(kFunction, "capacity", capacity);
        check_same_length(kFunction, "dst", dst, "src", src);
        check_same_length(kFunction, "capacity", capacity, "src", src);
        const Algorithm requested = parse_algorithm(kFunction, algorithm);
        fusioncut::check_num_vertices(kFunction, "num_nodes", num_nodes,
                                      std::numeric_limits<fusioncut::VertexId>::max() - 2);
        py::array_t<bool> source_side(static_cast<py::ssize_t>(num_nodes));
        auto* side = reinterpret_cast<uint8_t*>(source_side.mutable_data());
        fusioncut::MinCutResult result;
        {
          py::gil_scoped_release release;
          std::unique_ptr<fusioncut::MinCutWorkspace> workspace = std::move(cached_workspace);
          if (!workspace) workspace = std::make_unique<fusioncut::MinCutWorkspace>();
          result = fusioncut::min_cut(num_nodes, src.size(), src.data(), dst.data(),
                                      capacity.data(), source, sink, requested, check, side,
                                      workspace.get());
          if (src.size() <= kRetainedWorkspaceEdges) cached_workspace = std::move(workspace);
        }
        Int64Array cut_edges(static_cast<py::ssize_t>(result.cut_edges.size()));
        std::copy(result.cut_edges.begin(), result.cut_edges.end(), cut_edges.mutable_data());
        return py::make_tuple(to_python_int(result.value), source_side, cut_edges,
                              algorithm_name(result.algorithm));
      },
      py::arg("num_nodes"), py::arg("src").noconvert(), py::arg("dst").noconvert(),
      py::arg("capacity").noconvert(), py::arg("source"), py::arg("sink"),
      py::arg("algorithm") = "auto", py::arg("check") = false,
      "Minimum s-t cut; returns (value, source_side, cut_edges, algorithm_used).");

  py::class_<BoundNodeCutGraph>(m, "NodeCutGraph")
      .def(py::init([](int64_t num_nodes, const Int64Array& src, const Int64Array& dst,
                       const Int64Array& source_in, const Int64Array& source_out,
                       const Int64Array& sink_in, const Int64Array& sink_out) {
             check_one_dimensional("NodeCutGraph", "src", src);
             check_one_dimensional("NodeCutGraph", "dst", dst);
             check_same_length("NodeCutGraph", "dst", dst, "src", src);
             auto a = terminal("source_in", source_in), b = terminal("source_out", source_out);
             auto c = terminal("sink_in", sink_in), d = terminal("sink_out", sink_out);
             py::gil_scoped_release release;
             return new BoundNodeCutGraph{
                 fusioncut::NodeCutGraph(num_nodes, src.size(), src.data(), dst.data(), a, b,
                                         c, d),
                 {}};
           }),
           py::arg("num_nodes"), py::arg("src").noconvert(), py::arg("dst").noconvert(),
           py::arg("source_in").noconvert(), py::arg("source_out").noconvert(),
           py::arg("sink_in").noconvert(), py::arg("sink_out").noconvert())
      .def_property_readonly("num_nodes",
                             [](const BoundNodeCutGraph& self) { return self.graph.num_nodes(); })
      .def(
          "solve",
          [](BoundNodeCutGraph& self, const Int64Array& weights, const std::string& algorithm,
             bool check, const std::string& function) {
            const char* name = function.c_str();
            check_one_dimensional(name, "weights", weights);
            const int64_t n = self.graph.num_nodes();
            if (weights.size() != n) {
              throw py::value_error(function + ": weights has length " +
                                    std::to_string(weights.size()) + " but the graph has " +
                                    std::to_string(n) + " nodes");
            }
            const Algorithm requested = parse_algorithm(function, algorithm);
            py::array_t<bool> side_in(n), side_out(n);
            auto* in = reinterpret_cast<uint8_t*>(side_in.mutable_data());
            auto* out = reinterpret_cast<uint8_t*>(side_out.mutable_data());
            fusioncut::NodeCutResult result;
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(self.mutex);
              result = self.graph.solve(weights.data(), requested, check, in, out, name);
            }
            Int64Array cut_nodes(static_cast<py::ssize_t>(result.cut_nodes.size()));
            std::copy(result.cut_nodes.begin(), result.cut_nodes.end(),
                      cut_nodes.mutable_data());
            return py::make_tuple(to_python_int(result.value), cut_nodes, side_in, side_out,
                                  algorithm_name(result.algorithm));
          },
          py::arg("weights").noconvert(), py::arg("algorithm") = "auto",
          py::arg("check") = false, py::arg("function") = "NodeCutGraph.solve",
          "Re-solves for new node weights; returns (value, cut_nodes, source_side_in, "
          "source_side_out, algorithm_used).");
}
