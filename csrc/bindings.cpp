// The only pybind11 code in fusioncut: thin wrappers over the header-only solvers.
// Arrays come in as C-contiguous numpy arrays of the exact dtype (no silent conversion) and are
// copied into the solvers' own memory and validated while the GIL is held; only then is the
// GIL released for the solve, so another thread writing to the caller's arrays meanwhile
// cannot change what is solved. Results go out as read-only structs of numpy arrays and exact
// Python ints.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "buffer_reuse.h"
#include "input.h"
#include "knapsack.h"
#include "peak_walk.h"
#include "min_cut.h"
#include "node_cut.h"
#include "phases.h"

namespace py = pybind11;
using fusioncut::Algorithm;
using fusioncut::WideInt;

namespace {

using Int64Array = py::array_t<int64_t, py::array::c_style>;
using BoolArray = py::array_t<bool>;

PyObject* unbounded_cut_error = nullptr;  // fusioncut._core.UnboundedCutError (never freed)

// min_cut keeps one workspace per thread (input copy included) for graphs up to this many
// edges (about 60 bytes an edge), so that repeated small solves neither allocate nor
// page-fault; larger graphs free theirs on return. NodeCutGraph.solve's weight copies follow
// the same rule per node.
constexpr int64_t kRetainedWorkspaceEdges = int64_t{1} << 18;
thread_local std::unique_ptr<fusioncut::MinCutWorkspace> cached_workspace;
thread_local std::vector<int64_t> cached_weights;

// Takes this thread's workspace and puts it back on every exit, unless the graph was large.
class WorkspaceLease {
 public:
  explicit WorkspaceLease(int64_t num_edges)
      : workspace_(std::move(cached_workspace)), retain_(num_edges <= kRetainedWorkspaceEdges) {
    if (!workspace_) workspace_ = std::make_unique<fusioncut::MinCutWorkspace>();
  }
  ~WorkspaceLease() {
    if (retain_) cached_workspace = std::move(workspace_);
  }
  WorkspaceLease(const WorkspaceLease&) = delete;
  WorkspaceLease& operator=(const WorkspaceLease&) = delete;
  fusioncut::MinCutWorkspace* get() const { return workspace_.get(); }

 private:
  std::unique_ptr<fusioncut::MinCutWorkspace> workspace_;
  bool retain_;
};

// What _core.min_cut returns: fusioncut::MinCutResult with the source side, as numpy arrays.
struct BoundMinCutResult {
  py::int_ value;
  BoolArray source_side;
  Int64Array cut_edges;
  py::str algorithm;
};

// What _core.NodeCutGraph.solve returns: fusioncut::NodeCutResult with both sides.
struct BoundNodeCutResult {
  py::int_ value;
  Int64Array cut_nodes;
  BoolArray source_side_in;
  BoolArray source_side_out;
  py::str algorithm;
};

// What _core.NodeCutGraph.solve_components returns besides the cut: every minimum cut as the
// residual components of each node side (fusioncut::NodeCutComponents).
struct BoundNodeCutComponents {
  py::array_t<int32_t> component_in;
  py::array_t<int32_t> component_out;
  BoolArray saturated;
  int32_t count;
  py::array_t<int32_t> dag_tail;
  py::array_t<int32_t> dag_head;
};

py::array_t<int32_t> to_numpy32(const std::vector<int32_t>& values) {
  py::array_t<int32_t> array(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), array.mutable_data());
  return array;
}

BoolArray to_bool_numpy(const std::vector<uint8_t>& values) {
  BoolArray array(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), reinterpret_cast<uint8_t*>(array.mutable_data()));
  return array;
}

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

Int64Array to_numpy(const std::vector<int64_t>& values) {
  Int64Array array(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), array.mutable_data());
  return array;
}

// Every pair from[k] -> to[k] (of m) names two of the n indices 0..n-1, or a ValueError naming
// the first that does not.
void check_ends(const char* function, const char* pair, const int64_t* from, const int64_t* to,
                int64_t m, int64_t n) {
  for (int64_t k = 0; k < m; ++k) {
    if (from[k] < 0 || from[k] >= n || to[k] < 0 || to[k] >= n) {
      throw py::value_error(std::string(function) + ": " + pair + " " + std::to_string(k) +
                            " (" + std::to_string(from[k]) + " -> " + std::to_string(to[k]) +
                            ") has an end outside [0, " + std::to_string(n) + ")");
    }
  }
}

void check_one_dimensional(const char* function, const char* argument, const py::array& a) {
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

// "f: a has 3 edges, b 2 (want equal lengths)": the message of the peak walks' bindings.
void check_equal_lengths(const char* function, const char* first, const py::array& a,
                         const char* second, const py::array& b, const char* unit) {
  if (a.size() != b.size()) {
    throw py::value_error(std::string(function) + ": " + first + " has " +
                          std::to_string(a.size()) + " " + unit + ", " + second + " " +
                          std::to_string(b.size()) + " (want equal lengths)");
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

// NodeCutGraph.solve and .solve_components: copy and validate the weights holding the GIL,
// solve without it; `components` (may be null) receives every minimum cut.
// `between` (may be null): solve_between's four masks, already copied.
BoundNodeCutResult solve_bound(BoundNodeCutGraph& self, const Int64Array& weights,
                               const std::string& algorithm, bool check,
                               const std::string& function,
                               fusioncut::NodeCutComponents* components,
                               const fusioncut::CutBracket* between = nullptr) {
  const char* name = function.c_str();
  check_one_dimensional(name, "weights", weights);
  const int64_t n = self.graph.num_nodes();
  if (weights.size() != n) {
    throw py::value_error(function + ": weights has length " + std::to_string(weights.size()) +
                          " but the graph has " + std::to_string(n) + " nodes");
  }
  const Algorithm requested = parse_algorithm(function, algorithm);
  // The copy is made holding the GIL; solve() validates it and reads nothing else.
  std::vector<int64_t> large;
  std::vector<int64_t>& copy = n <= kRetainedWorkspaceEdges ? cached_weights : large;
  copy.assign(weights.data(), weights.data() + n);
  BoolArray side_in(n), side_out(n);
  auto* in = reinterpret_cast<uint8_t*>(side_in.mutable_data());
  auto* out = reinterpret_cast<uint8_t*>(side_out.mutable_data());
  fusioncut::NodeCutResult result;
  {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(self.mutex);
    result = components ? self.graph.solve_components(copy.data(), requested, check, in, out,
                                                      components, name)
                        : self.graph.solve(copy.data(), requested, check, in, out, name,
                                           between);
  }
  return BoundNodeCutResult{to_python_int(result.value), to_numpy(result.cut_nodes),
                            std::move(side_in), std::move(side_out),
                            py::str(algorithm_name(result.algorithm))};
}

// The joint graph's users in CSR form, as the peak walks read them: user_ptr runs from 0 to
// len(user_dst) without decreasing, and every user lies above its node and below n (a
// topological order, so one sweep reaches each fixpoint). Raises naming `function`.
void check_users(const char* function, const Int64Array& user_ptr, const Int64Array& user_dst,
                 int64_t n) {
  check_one_dimensional(function, "user_ptr", user_ptr);
  check_one_dimensional(function, "user_dst", user_dst);
  const std::string name(function);
  if (user_ptr.size() != n + 1) {
    throw py::value_error(name + ": user_ptr has " + std::to_string(user_ptr.size()) +
                          " entries for " + std::to_string(n) + " nodes (want n + 1)");
  }
  const int64_t* ptr = user_ptr.data();
  const int64_t* dst = user_dst.data();
  if (ptr[0] != 0 || ptr[n] != user_dst.size()) {
    throw py::value_error(name + ": user_ptr must run from 0 to len(user_dst) = " +
                          std::to_string(user_dst.size()));
  }
  for (int64_t i = 0; i < n; ++i) {
    if (ptr[i + 1] < ptr[i] || ptr[i + 1] > user_dst.size()) {
      throw py::value_error(name + ": user_ptr must not decrease nor pass len(user_dst) "
                            "(node " + std::to_string(i) + ")");
    }
    for (int64_t e = ptr[i]; e < ptr[i + 1]; ++e) {
      if (dst[e] <= i || dst[e] >= n) {
        throw py::value_error(name + ": user " + std::to_string(dst[e]) + " of node " +
                              std::to_string(i) + " is not in (" + std::to_string(i) + ", " +
                              std::to_string(n) + "): nodes must be in topological order");
      }
    }
  }
}

// A one-dimensional mask of `length` entries, as bytes; raises naming the argument.
const uint8_t* mask_of(const char* function, const char* argument,
                       const py::array_t<bool, py::array::c_style>& mask, int64_t length,
                       const char* what) {
  if (mask.ndim() != 1 || mask.size() != length) {
    throw py::value_error(std::string(function) + ": " + argument + " must be a bool array of " +
                          std::to_string(length) + " entries (one per " + what + "), got " +
                          std::to_string(mask.size()));
  }
  return reinterpret_cast<const uint8_t*>(mask.data());
}

// _core.phase_split: validates the CSR users (each above its node, so the reverse sweep reads
// only what it has written) and runs fusioncut::phase_split holding the GIL (microseconds).
py::tuple phase_split_bound(const Int64Array& user_ptr, const Int64Array& user_dst,
                            const py::array_t<uint8_t, py::array::c_style>& bits,
                            const py::array_t<bool, py::array::c_style>& saved) {
  const char* kFunction = "phase_split";
  if (bits.ndim() != 1 || saved.ndim() != 1) {
    throw py::type_error("phase_split: bits and saved must be one-dimensional");
  }
  const int64_t n = bits.size();
  if (saved.size() != n) {
    throw py::value_error("phase_split: bits has " + std::to_string(n) + " nodes, saved " +
                          std::to_string(saved.size()));
  }
  check_users(kFunction, user_ptr, user_dst, n);
  const int64_t* ptr = user_ptr.data();
  const int64_t* dst = user_dst.data();
  BoolArray fw(n), bw(n);
  Int64Array trigger(n);
  fusioncut::phase_split(n, ptr, dst, bits.data(),
                         reinterpret_cast<const uint8_t*>(saved.data()),
                         reinterpret_cast<uint8_t*>(fw.mutable_data()),
                         reinterpret_cast<uint8_t*>(bw.mutable_data()), trigger.mutable_data());
  return py::make_tuple(std::move(fw), std::move(bw), std::move(trigger));
}

using BoolMask = py::array_t<bool, py::array::c_style>;

void check_nodes(const char* function, const char* argument, const Int64Array& a, int64_t n,
                 int64_t low, int64_t high) {
  check_one_dimensional(function, argument, a);
  if (a.size() != n) {
    throw py::value_error(std::string(function) + ": " + argument + " has " +
                          std::to_string(a.size()) + " entries for " + std::to_string(n) +
                          " nodes");
  }
  for (int64_t i = 0; i < n; ++i) {
    if (a.data()[i] < low || a.data()[i] >= high) {
      throw py::value_error(std::string(function) + ": " + argument + "[" +
                            std::to_string(i) + "] = " + std::to_string(a.data()[i]) +
                            " is outside [" + std::to_string(low) + ", " +
                            std::to_string(high) + ")");
    }
  }
}

template <typename T>
std::vector<T> copy_of(const py::array_t<T, py::array::c_style>& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}

std::vector<uint8_t> mask_copy(const char* argument, const BoolMask& mask, int64_t length,
                               const char* what) {
  const uint8_t* data = mask_of("PeakGraph", argument, mask, length, what);
  return std::vector<uint8_t>(data, data + length);
}

// _core.PeakGraph: the facts of a joint graph the peak walk reads, validated and copied once
// per graph (fusioncut.peak._Masks).
fusioncut::PeakGraph make_peak_graph(
    const Int64Array& user_ptr, const Int64Array& user_dst, const BoolMask& reads,
    const BoolMask& reduced, const BoolMask& same, const BoolMask& blocking,
    const Int64Array& base, const Int64Array& output_of, const Int64Array& layout_copy,
    const Int64Array& workspace, const BoolMask& tensor, const BoolMask& fusible,
    const BoolMask& merged, const BoolMask& computing, const BoolMask& heavy,
    const BoolMask& reduction, const BoolMask& backward_role, const BoolMask& input,
    const BoolMask& fwd_output, const BoolMask& bwd_output, bool cpu_rules,
    int max_store_passes, int max_fused_outputs, int horizontal_distance) {
  const char* kFunction = "PeakGraph";
  check_one_dimensional(kFunction, "base", base);
  const int64_t n = base.size();
  check_users(kFunction, user_ptr, user_dst, n);
  check_nodes(kFunction, "base", base, n, 0, n);
  check_nodes(kFunction, "output_of", output_of, n, -1, n);
  const int64_t most = std::numeric_limits<int64_t>::max();
  check_nodes(kFunction, "layout_copy", layout_copy, n, 0, most);
  check_nodes(kFunction, "workspace", workspace, n, 0, most);
  if (max_store_passes < 0 || max_fused_outputs < 0 || horizontal_distance < 0) {
    throw py::value_error("PeakGraph: max_store_passes, max_fused_outputs and "
                          "horizontal_distance must be >= 0");
  }
  const int64_t m = user_dst.size();
  fusioncut::PeakGraph g;
  g.n = n;
  g.ptr = copy_of(user_ptr);
  g.dst = copy_of(user_dst);
  g.reads = mask_copy("reads", reads, m, "edge");
  g.reduced = mask_copy("reduced", reduced, m, "edge");
  g.same = mask_copy("same", same, m, "edge");
  g.blocking = mask_copy("blocking", blocking, m, "edge");
  g.base = copy_of(base);
  g.output_of = copy_of(output_of);
  g.layout_copy = copy_of(layout_copy);
  g.workspace = copy_of(workspace);
  g.tensor = mask_copy("tensor", tensor, n, "node");
  g.fusible = mask_copy("fusible", fusible, n, "node");
  g.merged = mask_copy("merged", merged, n, "node");
  g.computing = mask_copy("computing", computing, n, "node");
  g.heavy = mask_copy("heavy", heavy, n, "node");
  g.reduction = mask_copy("reduction", reduction, n, "node");
  g.backward_role = mask_copy("backward_role", backward_role, n, "node");
  g.input = mask_copy("input", input, n, "node");
  g.fwd_output = mask_copy("fwd_output", fwd_output, n, "node");
  g.bwd_output = mask_copy("bwd_output", bwd_output, n, "node");
  g.cpu_rules = cpu_rules;
  g.max_store_passes = max_store_passes;
  g.max_fused_outputs = max_fused_outputs;
  g.horizontal_distance = horizontal_distance;
  g.index_inputs();
  return g;
}

BoolArray bool_numpy(const std::vector<uint8_t>& values) {
  BoolArray array(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), reinterpret_cast<uint8_t*>(array.mutable_data()));
  return array;
}

py::tuple phase_tuple(const fusioncut::WalkPhase& p) {
  return py::make_tuple(to_numpy(p.time), to_numpy(p.alloc_node), to_numpy(p.alloc_t),
                        to_numpy(p.alloc_s), bool_numpy(p.in_place), to_numpy(p.free_node),
                        to_numpy(p.free_t), to_numpy(p.free_s), to_numpy(p.work_node),
                        to_numpy(p.work_t), to_numpy(p.work_s), to_numpy(p.phantom_node),
                        to_numpy(p.phantom_t), to_numpy(p.phantom_s));
}

// PeakGraph.walk: validates one plan's arrays and runs fusioncut::peak_walk.
py::tuple peak_walk_bound(const fusioncut::PeakGraph& g, const BoolMask& fw,
                          const BoolMask& bw, const Int64Array& trigger, const BoolMask& saved,
                          const BoolMask& away, bool offloaded, bool hold_forward,
                          const Int64Array& wait_node, const Int64Array& wait_before,
                          const Int64Array& size) {
  const char* kFunction = "PeakGraph.walk";
  const int64_t n = g.n;
  check_nodes(kFunction, "trigger", trigger, n, 0, n);
  check_nodes(kFunction, "size", size, n, 0, std::numeric_limits<int64_t>::max());
  check_one_dimensional(kFunction, "wait_node", wait_node);
  check_one_dimensional(kFunction, "wait_before", wait_before);
  check_equal_lengths(kFunction, "wait_node", wait_node, "wait_before", wait_before, "waits");
  for (int64_t k = 0; k < wait_node.size(); ++k) {
    if (wait_node.data()[k] < 0 || wait_node.data()[k] >= n) {
      throw py::value_error("PeakGraph.walk: wait_node[" + std::to_string(k) +
                            "] is not a node in [0, " + std::to_string(n) + ")");
    }
  }
  const fusioncut::WalkResult r = fusioncut::peak_walk(
      g, mask_of(kFunction, "fw", fw, n, "node"), mask_of(kFunction, "bw", bw, n, "node"),
      trigger.data(), mask_of(kFunction, "saved", saved, n, "node"),
      mask_of(kFunction, "away", away, n, "node"), offloaded, hold_forward, wait_node.size(),
      wait_node.data(), wait_before.data(), size.data());
  return py::make_tuple(phase_tuple(r.forward), phase_tuple(r.backward), r.kept,
                        to_numpy(r.reload_node), to_numpy(r.reload_use));
}

// _core.raise_along: validates the edges (int64, equal lengths, every end a node of value)
// and runs fusioncut::raise_along on a copy of value.
Int64Array raise_along_bound(const Int64Array& from, const Int64Array& to,
                             const Int64Array& value) {
  const char* kFunction = "raise_along";
  check_one_dimensional(kFunction, "from", from);
  check_one_dimensional(kFunction, "to", to);
  check_one_dimensional(kFunction, "value", value);
  check_equal_lengths(kFunction, "from", from, "to", to, "edges");
  const int64_t n = value.size(), m = from.size();
  const int64_t* f = from.data();
  const int64_t* t = to.data();
  check_ends(kFunction, "edge", f, t, m, n);
  Int64Array out(n);
  std::copy(value.data(), value.data() + n, out.mutable_data());
  fusioncut::raise_along(n, m, f, t, out.mutable_data());
  return out;
}

// _core.reuse_peak: validates the four event lists (int64, or bool for in_place; equal
// lengths within a list; times and sizes below 2**60 in magnitude, sizes >= 0) and runs
// fusioncut::reuse_peak.
int64_t reuse_peak_bound(const Int64Array& alloc_t, const Int64Array& alloc_s,
                         const py::array_t<bool, py::array::c_style>& in_place,
                         const Int64Array& free_t, const Int64Array& free_s,
                         const Int64Array& work_t, const Int64Array& work_s,
                         const Int64Array& phantom_t, const Int64Array& phantom_s) {
  const char* kFunction = "reuse_peak";
  const std::pair<const char*, const py::array*> arrays[] = {
      {"alloc_t", &alloc_t}, {"alloc_s", &alloc_s},     {"in_place", &in_place},
      {"free_t", &free_t},   {"free_s", &free_s},       {"work_t", &work_t},
      {"work_s", &work_s},   {"phantom_t", &phantom_t}, {"phantom_s", &phantom_s}};
  for (const auto& [name, array] : arrays) check_one_dimensional(kFunction, name, *array);
  check_equal_lengths(kFunction, "alloc_t", alloc_t, "alloc_s", alloc_s, "allocations");
  check_equal_lengths(kFunction, "alloc_t", alloc_t, "in_place", in_place, "allocations");
  check_equal_lengths(kFunction, "free_t", free_t, "free_s", free_s, "frees");
  check_equal_lengths(kFunction, "work_t", work_t, "work_s", work_s, "workspaces");
  check_equal_lengths(kFunction, "phantom_t", phantom_t, "phantom_s", phantom_s, "phantoms");
  constexpr int64_t kTimeLimit = int64_t{1} << 60;  // event keys 4t + 3 fit in int64
  for (const auto& [name, times, sizes] :
       {std::make_tuple("alloc", &alloc_t, &alloc_s), std::make_tuple("free", &free_t, &free_s),
        std::make_tuple("work", &work_t, &work_s),
        std::make_tuple("phantom", &phantom_t, &phantom_s)}) {
    const int64_t* t = times->data();
    const int64_t* b = sizes->data();
    for (int64_t k = 0; k < times->size(); ++k) {
      if (t[k] <= -kTimeLimit || t[k] >= kTimeLimit || b[k] < 0 || b[k] >= kTimeLimit) {
        throw py::value_error(std::string("reuse_peak: ") + name + " event " +
                              std::to_string(k) + " (time " + std::to_string(t[k]) + ", " +
                              std::to_string(b[k]) + " bytes) needs a time in "
                              "(-2**60, 2**60) and bytes in [0, 2**60)");
      }
    }
  }
  const fusioncut::PhaseStorages storages{
      alloc_t.size(), alloc_t.data(),   alloc_s.data(),
      reinterpret_cast<const uint8_t*>(in_place.data()),
      free_t.size(),  free_t.data(),    free_s.data(),
      work_t.size(),  work_t.data(),    work_s.data(),
      phantom_t.size(), phantom_t.data(), phantom_s.data()};
  return fusioncut::reuse_peak(storages);
}

// _core.link_done: validates the arrays and runs fusioncut::link_done.
py::array_t<double> link_done_bound(const py::array_t<double, py::array::c_style>& start,
                                    const py::array_t<double, py::array::c_style>& seconds) {
  const char* kFunction = "link_done";
  check_one_dimensional(kFunction, "start", start);
  check_one_dimensional(kFunction, "seconds", seconds);
  check_equal_lengths(kFunction, "start", start, "seconds", seconds, "copies");
  const int64_t count = start.size();
  py::array_t<double> out(count);
  fusioncut::link_done(count, start.data(), seconds.data(), out.mutable_data());
  return out;
}

// _core.prefetch_times: validates lengths and order (first uses descending, each a backward
// time) and runs fusioncut::prefetch_times.
Int64Array prefetch_times_bound(const Int64Array& use,
                                const py::array_t<double, py::array::c_style>& lead,
                                const py::array_t<double, py::array::c_style>& seconds) {
  const char* kFunction = "prefetch_times";
  check_one_dimensional(kFunction, "use", use);
  check_one_dimensional(kFunction, "lead", lead);
  check_one_dimensional(kFunction, "seconds", seconds);
  check_equal_lengths(kFunction, "use", use, "lead", lead, "reloads");
  const int64_t count = use.size(), steps = seconds.size();
  const int64_t* u = use.data();
  for (int64_t k = 0; k < count; ++k) {
    if (u[k] < 0 || u[k] > steps || (k && u[k] > u[k - 1])) {
      throw py::value_error("prefetch_times: use[" + std::to_string(k) + "] = " +
                            std::to_string(u[k]) + " must lie in [0, " + std::to_string(steps) +
                            "] and not rise (reloads in the order torch meets them)");
    }
  }
  Int64Array out(count);
  fusioncut::prefetch_times(count, u, lead.data(), steps, seconds.data(), out.mutable_data());
  return out;
}

// _core.gap_knapsack: validates the arrays (component ids in [0, count), at least one
// closure and one total kept) and runs fusioncut::gap_knapsack.
py::tuple gap_knapsack_bound(const Int64Array& value, const Int64Array& tail,
                             const Int64Array& head, int64_t max_closures, int64_t max_totals) {
  const char* kFunction = "gap_knapsack";
  check_one_dimensional(kFunction, "value", value);
  check_one_dimensional(kFunction, "tail", tail);
  check_one_dimensional(kFunction, "head", head);
  check_equal_lengths(kFunction, "tail", tail, "head", head, "arcs");
  if (max_closures < 1 || max_totals < 1) {
    throw py::value_error("gap_knapsack: max_closures = " + std::to_string(max_closures) +
                          " and max_totals = " + std::to_string(max_totals) +
                          " must both be at least 1");
  }
  const int64_t count = value.size(), arcs = tail.size();
  const int64_t* t = tail.data();
  const int64_t* h = head.data();
  check_ends(kFunction, "arc", t, h, arcs, count);
  fusioncut::GapKnapsack got;
  {
    py::gil_scoped_release release;
    got = fusioncut::gap_knapsack(count, value.data(), arcs, t, h, max_closures, max_totals);
  }
  py::list parents, options;
  for (size_t g = 0; g < got.parent.size(); ++g) {
    parents.append(to_numpy(got.parent[g]));
    options.append(to_numpy(got.option[g]));
  }
  return py::make_tuple(to_numpy(got.totals), got.options, parents, options);
}

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
    } catch (const fusioncut::MemoryLimit& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    }
  });

  py::class_<BoundMinCutResult>(m, "MinCutResult",
                                "What min_cut returns (read-only): value (exact int), "
                                "source_side (bool per vertex), cut_edges (int64, ascending), "
                                "algorithm (the one that ran).")
      .def_readonly("value", &BoundMinCutResult::value)
      .def_readonly("source_side", &BoundMinCutResult::source_side)
      .def_readonly("cut_edges", &BoundMinCutResult::cut_edges)
      .def_readonly("algorithm", &BoundMinCutResult::algorithm)
      .def("__repr__", [](const BoundMinCutResult& r) {
        return "MinCutResult(value=" + py::str(r.value).cast<std::string>() +
               ", cut_edges=" + std::to_string(r.cut_edges.size()) + " edges, algorithm='" +
               r.algorithm.cast<std::string>() + "')";
      });

  py::class_<BoundNodeCutResult>(m, "NodeCutResult",
                                 "What NodeCutGraph.solve returns (read-only): value (exact "
                                 "int), cut_nodes (int64, ascending), source_side_in, "
                                 "source_side_out (bool per node), algorithm (the one that ran).")
      .def_readonly("value", &BoundNodeCutResult::value)
      .def_readonly("cut_nodes", &BoundNodeCutResult::cut_nodes)
      .def_readonly("source_side_in", &BoundNodeCutResult::source_side_in)
      .def_readonly("source_side_out", &BoundNodeCutResult::source_side_out)
      .def_readonly("algorithm", &BoundNodeCutResult::algorithm)
      .def("__repr__", [](const BoundNodeCutResult& r) {
        return "NodeCutResult(value=" + py::str(r.value).cast<std::string>() +
               ", cut_nodes=" + std::to_string(r.cut_nodes.size()) + " nodes, algorithm='" +
               r.algorithm.cast<std::string>() + "')";
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
        const fusioncut::VertexId n =
            fusioncut::check_min_cut_arguments(kFunction, num_nodes, source, sink);
        fusioncut::check_min_cut_size(kFunction, n, src.size());
        // The copy is made holding the GIL: no Python code can write to the arrays meanwhile.
        const WorkspaceLease workspace(src.size());
        fusioncut::EdgeList& edges = workspace.get()->edges;
        edges.copy(kFunction, n, src.size(), src.data(), dst.data(), capacity.data());
        BoolArray source_side(static_cast<py::ssize_t>(n));
        auto* side = reinterpret_cast<uint8_t*>(source_side.mutable_data());
        fusioncut::MinCutResult result;
        {
          py::gil_scoped_release release;
          result = fusioncut::min_cut(edges, source, sink, requested, check, side,
                                      workspace.get());
        }
        return BoundMinCutResult{to_python_int(result.value), std::move(source_side),
                                 to_numpy(result.cut_edges),
                                 py::str(algorithm_name(result.algorithm))};
      },
      py::arg("num_nodes"), py::arg("src").noconvert(), py::arg("dst").noconvert(),
      py::arg("capacity").noconvert(), py::arg("source"), py::arg("sink"),
      py::arg("algorithm") = "auto", py::arg("check") = false,
      "Minimum s-t cut of C-contiguous int64 arrays, copied and validated before the GIL is "
      "released; returns a MinCutResult.");

  py::dict phase_flags;
  phase_flags["input"] = static_cast<int>(fusioncut::kPhaseInput);
  phase_flags["tangent_dependent"] = static_cast<int>(fusioncut::kPhaseTangentDependent);
  phase_flags["live_out"] = static_cast<int>(fusioncut::kPhaseLiveOut);
  phase_flags["backward_output"] = static_cast<int>(fusioncut::kPhaseBackwardOutput);
  phase_flags["forward"] = static_cast<int>(fusioncut::kPhaseForward);
  phase_flags["metadata"] = static_cast<int>(fusioncut::kPhaseMetadata);
  m.attr("PHASE_FLAGS") = phase_flags;
  m.def("phase_split", &phase_split_bound, py::arg("user_ptr").noconvert(),
        py::arg("user_dst").noconvert(), py::arg("bits").noconvert(),
        py::arg("saved").noconvert(),
        "Which graph computes each node for one saved set (fusioncut.peak.phases): users in "
        "CSR form (int64, each above its node), uint8 PHASE_FLAGS bits and a bool saved mask "
        "per node; returns (forward, backward, trigger).");

  m.def("raise_along", &raise_along_bound, py::arg("from_").noconvert(),
        py::arg("to").noconvert(), py::arg("value").noconvert(),
        "value (int64 per node) raised until value[to[e]] >= value[from_[e]] on every edge "
        "(int64 arrays of equal length, ends in [0, len(value))): the least such values "
        "above the given ones, as a new array (fusioncut.peak's kernel times).");

  py::class_<fusioncut::PeakGraph>(
      m, "PeakGraph",
      "The facts of a joint graph the peak walk reads (fusioncut.peak._Masks), validated and "
      "copied once per graph: users in CSR form (int64, each above its node), bool per edge "
      "(reads, reduced, same, blocking), per node base, output_of, layout_copy, workspace "
      "(int64) and masks.")
      .def(py::init(&make_peak_graph), py::arg("user_ptr").noconvert(),
           py::arg("user_dst").noconvert(), py::arg("reads").noconvert(),
           py::arg("reduced").noconvert(), py::arg("same").noconvert(),
           py::arg("blocking").noconvert(), py::arg("base").noconvert(),
           py::arg("output_of").noconvert(), py::arg("layout_copy").noconvert(),
           py::arg("workspace").noconvert(), py::arg("tensor").noconvert(),
           py::arg("fusible").noconvert(), py::arg("merged").noconvert(),
           py::arg("computing").noconvert(), py::arg("heavy").noconvert(),
           py::arg("reduction").noconvert(), py::arg("backward_role").noconvert(),
           py::arg("input").noconvert(), py::arg("fwd_output").noconvert(),
           py::arg("bwd_output").noconvert(), py::arg("cpu_rules"),
           py::arg("max_store_passes"), py::arg("max_fused_outputs"),
           py::arg("horizontal_distance"))
      .def_property_readonly("num_nodes", [](const fusioncut::PeakGraph& g) { return g.n; })
      .def("walk", &peak_walk_bound, py::arg("fw").noconvert(), py::arg("bw").noconvert(),
           py::arg("trigger").noconvert(), py::arg("saved").noconvert(),
           py::arg("away").noconvert(), py::arg("offloaded"), py::arg("hold_forward"),
           py::arg("wait_node").noconvert(), py::arg("wait_before").noconvert(),
           py::arg("size").noconvert(),
           "One plan's walk (fusioncut.peak.phase_events): bool phases, int64 trigger, bool "
           "saved and offloaded masks, the paced waits (node, node before which the forward "
           "waits) and int64 bytes per node; returns (forward, backward, kept bytes, reloaded "
           "nodes, their first backward uses), each phase the arrays of a PhaseEvents.");

  m.def("reuse_peak", &reuse_peak_bound, py::arg("alloc_t").noconvert(),
        py::arg("alloc_s").noconvert(), py::arg("in_place").noconvert(),
        py::arg("free_t").noconvert(), py::arg("free_s").noconvert(),
        py::arg("work_t").noconvert(), py::arg("work_s").noconvert(),
        py::arg("phantom_t").noconvert(), py::arg("phantom_s").noconvert(),
        "One phase's peak bytes under Inductor's conditional buffer reuse (fusioncut.peak."
        "PhaseEvents.peak): allocations (int64 times and bytes, bool in_place), frees, transient "
        "workspaces and phantoms (int64 times and bytes).");

  m.def("gap_knapsack", &gap_knapsack_bound, py::arg("value").noconvert(),
        py::arg("tail").noconvert(), py::arg("head").noconvert(), py::arg("max_closures"),
        py::arg("max_totals"),
        "The subset-sum programme between two hull cuts (fusioncut.budget_reach._Gap): byte "
        "values per residual component and the DAG arcs tail -> head (int64, every arc "
        "falling); returns (reachable totals, per group its closures, per group the earlier "
        "total's index and the closure index of each total).");
  m.def("link_done", &link_done_bound, py::arg("start").noconvert(),
        py::arg("seconds").noconvert(),
        "When a link moving one copy at a time finishes each (fusioncut.peak_offload."
        "paced_waits): copies in issue order, each ready at start (float64) and moving for "
        "seconds (float64); returns the finish times (float64).");
  m.def("prefetch_times", &prefetch_times_bound, py::arg("use").noconvert(),
        py::arg("lead").noconvert(), py::arg("seconds").noconvert(),
        "Where torch's reload prefetch places each reload (fusioncut.peak_offload."
        "reload_times): first uses (int64, not rising), leads and per-time compute seconds "
        "(float64); returns backward times (int64, -1: the backward's start).");

  py::class_<BoundNodeCutComponents>(
      m, "NodeCutComponents",
      "Every minimum cut of one solve (read-only): component_in, component_out (int32 per "
      "node: -1 forced to the source side, -2 forced to the sink side, else a free residual "
      "component in [0, count)), saturated (bool per node: its split arc is full), count, "
      "dag_tail, dag_head (int32: a free component on the "
      "source side forces its head there; ids fall along every arc).")
      .def_readonly("component_in", &BoundNodeCutComponents::component_in)
      .def_readonly("component_out", &BoundNodeCutComponents::component_out)
      .def_readonly("saturated", &BoundNodeCutComponents::saturated)
      .def_readonly("count", &BoundNodeCutComponents::count)
      .def_readonly("dag_tail", &BoundNodeCutComponents::dag_tail)
      .def_readonly("dag_head", &BoundNodeCutComponents::dag_head);

  py::class_<BoundNodeCutGraph>(m, "NodeCutGraph")
      .def(py::init([](int64_t num_nodes, const Int64Array& src, const Int64Array& dst,
                       const Int64Array& source_in, const Int64Array& source_out,
                       const Int64Array& sink_in, const Int64Array& sink_out) {
             check_one_dimensional("NodeCutGraph", "src", src);
             check_one_dimensional("NodeCutGraph", "dst", dst);
             check_same_length("NodeCutGraph", "dst", dst, "src", src);
             auto a = terminal("source_in", source_in), b = terminal("source_out", source_out);
             auto c = terminal("sink_in", sink_in), d = terminal("sink_out", sink_out);
             // Copied and validated holding the GIL; the build reads only the copy.
             const fusioncut::SplitEdges edges = fusioncut::NodeCutGraph::split(
                 num_nodes, src.size(), src.data(), dst.data(), a, b, c, d);
             py::gil_scoped_release release;
             return new BoundNodeCutGraph{fusioncut::NodeCutGraph(edges), {}};
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
            return solve_bound(self, weights, algorithm, check, function, nullptr);
          },
          py::arg("weights").noconvert(), py::arg("algorithm") = "auto",
          py::arg("check") = false, py::arg("function") = "NodeCutGraph.solve",
          "Re-solves for new node weights (a C-contiguous int64 array, copied and validated "
          "before the GIL is released); returns a NodeCutResult.")
      .def(
          "solve_between",
          [](BoundNodeCutGraph& self, const Int64Array& weights, const BoolMask& lower_in,
             const BoolMask& lower_out, const BoolMask& upper_in, const BoolMask& upper_out,
             int64_t max_band_share, const std::string& algorithm, bool check,
             const std::string& function) {
            const char* name = function.c_str();
            const int64_t n = self.graph.num_nodes();
            // Copied holding the GIL, as the weights are.
            std::vector<uint8_t> masks(static_cast<size_t>(4 * n));
            const std::pair<const char*, const BoolMask*> inputs[] = {
                {"lower_in", &lower_in}, {"lower_out", &lower_out},
                {"upper_in", &upper_in}, {"upper_out", &upper_out}};
            for (int k = 0; k < 4; ++k) {
              const uint8_t* m = mask_of(name, inputs[k].first, *inputs[k].second, n, "node");
              std::copy(m, m + n, masks.begin() + k * n);
            }
            const fusioncut::CutBracket between{masks.data(), masks.data() + n,
                                                masks.data() + 2 * n, masks.data() + 3 * n,
                                                max_band_share};
            return solve_bound(self, weights, algorithm, check, function, nullptr, &between);
          },
          py::arg("weights").noconvert(), py::arg("lower_in").noconvert(),
          py::arg("lower_out").noconvert(), py::arg("upper_in").noconvert(),
          py::arg("upper_out").noconvert(), py::arg("max_band_share") = 4,
          py::arg("algorithm") = "auto", py::arg("check") = false,
          py::arg("function") = "NodeCutGraph.solve_between",
          "solve, given the canonical cuts (source_side_in, source_side_out) of two solves "
          "whose weights differ from these only on source-attached nodes, lower there "
          "(lower_*) and higher (upper_*): the max flow runs on the band between them when at "
          "most 1 / max_band_share of the vertices lie in it; the cut is solve's.")
      .def(
          "solve_components",
          [](BoundNodeCutGraph& self, const Int64Array& weights, const std::string& algorithm,
             bool check, const std::string& function) {
            fusioncut::NodeCutComponents components;
            BoundNodeCutResult cut =
                solve_bound(self, weights, algorithm, check, function, &components);
            return py::make_tuple(
                std::move(cut),
                BoundNodeCutComponents{to_numpy32(components.in), to_numpy32(components.out),
                                       to_bool_numpy(components.saturated), components.count,
                                       to_numpy32(components.dag_tail),
                                       to_numpy32(components.dag_head)});
          },
          py::arg("weights").noconvert(), py::arg("algorithm") = "auto",
          py::arg("check") = false, py::arg("function") = "NodeCutGraph.solve_components",
          "solve, and every minimum cut for the same weights: returns (NodeCutResult, "
          "NodeCutComponents).");
}
