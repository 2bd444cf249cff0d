// Vertex-capacitated minimum cut by node splitting, with a reusable structure.
//
// Problem: nodes 0..n-1 with weights w[v] in [0, kInfinity] (kInfinity: cannot be cut),
// dependency edges u -> v, and the nodes attached to the source or the sink at their input or
// output side. Find the cheapest set of nodes whose removal separates source from sink.
//
// Network (built once; weights are written into the split arcs on every solve):
//
//      s ──INF──> v_in ──w[v]──> v_out ──INF──> t          vertex ids: v_in  = 2v
//                   ^              │                                   v_out = 2v + 1
//                   └──── INF ─────┘ (u_out -> v_in per dependency)    s = 2n, t = 2n + 1
//
//   source_in: s -> v_in, source_out: s -> v_out, sink_in: v_in -> t, sink_out: v_out -> t,
//   all infinite. Node v is cut iff v_in is on the source side and v_out on the sink side.
//
// Invariants:
//   1. base_residual_ holds the initial residual with every split arc at 0; split_arc_[v] is
//      v's split arc. solve() copies base_residual_ and writes the weights: the topology is never
//      rebuilt.
//   2. The returned cut is the canonical one of min_cut.h on this network.
//   3. pattern_ holds, per node, whether the last solve's weight was zero, finite or infinite;
//      when the next solve's weights fall the same way (a sweep over a price), its reductions
//      and algorithm choice are those of the last one (CutSolver::solve's same_pattern).
//
// Construction is two steps: split() copies and validates the caller's arrays into the split
// network's edge list (the binding holds the GIL for it), then the constructor builds the
// residual graph from that list alone.
//
// solve_components() also describes every minimum cut for those weights (residual_components.h):
// each vertex's strongly connected component of the final residual graph, per node side.
//
// solve() with a bracket (CutBracket: the canonical cuts of a lower and a higher weight on
// source-attached nodes, a parametric sweep's neighbours) merges what the two cuts fix into the
// terminals and runs min_cut() on the band between them (solve_band()).
//
// Complexity: construction O(n + m); solve() O(n + m) plus the max-flow algorithm, with no
// allocation after the first solve; with a bracket O(n) plus the band's arcs and its max
// flow; solve_components() O(n + m) more.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "input.h"
#include "min_cut.h"
#include "residual_components.h"
#include "residual_graph.h"

namespace fusioncut {

struct NodeCutResult {
  WideInt value = 0;
  std::vector<int64_t> cut_nodes;  // ascending
  Algorithm algorithm = Algorithm::kAuto;
};

// Every minimum cut of one solve, per node side: the side's residual component
// (ResidualComponents::kForcedSource, kForcedSink, or a free component in [0, count)), and the
// DAG of the free components (tail on the source side forces head there). A node is cut in a
// minimum cut iff its in-side is on the source side and its out-side is not. `saturated[v]`:
// v's split arc has no residual capacity left; for such a node with positive weight, its
// out-side on the source side forces its in-side there, so "v is cut" is [in-side on the source
// side] - [out-side on the source side], additive over components.
struct NodeCutComponents {
  std::vector<int32_t> in, out;  // per node
  std::vector<uint8_t> saturated;  // per node
  int32_t count = 0;
  std::vector<int32_t> dag_tail, dag_head;
};

// Two canonical cuts around a solve (NodeCutGraph::solve): per node, 0/1 whether its in- and
// out-side lie on the source side, for the lower and the upper weights.
struct CutBracket {
  const uint8_t* lower_in = nullptr;
  const uint8_t* lower_out = nullptr;
  const uint8_t* upper_in = nullptr;
  const uint8_t* upper_out = nullptr;
  // The band is solved alone only when at most 1 / max_band_share of the split network's
  // vertices lie in it (a wider band built anew costs more than the whole network solved in
  // place); 1: always (the tests).
  int64_t max_band_share = 4;
};

// The nodes attached to a terminal, as index arrays.
struct TerminalNodes {
  const int64_t* data = nullptr;
  int64_t size = 0;
};

// The split network's edges: the nodes' split edges first (edge v is v_in -> v_out), then the
// dependencies, then the terminal edges. NodeCutGraph::split() makes it from the caller's
// arrays; nothing after that reads them.
struct SplitEdges {
  VertexId num_nodes = 0;
  std::vector<int32_t> tail, head;
};

class NodeCutGraph {
 public:
  static constexpr VertexId kMaxNodes = (std::numeric_limits<VertexId>::max() - 2) / 2;
  // The working set of construction plus one solve (check_memory in input.h): the largest
  // peak RSS measured, rounded up: 218 bytes a node (5M nodes, 10 edges) and beyond that 130
  // an edge (1M nodes, 4M random edges, 128-bit flows; both push-relabel, check=True).
  static constexpr int64_t kBytesPerNode = 224;
  static constexpr int64_t kBytesPerEdge = 136;

  // Step 0 (the binding holds the GIL): copies and validates the dependencies src[i] -> dst[i]
  // and the terminal lists, each entry read once, into the split network's edges. Throws
  // std::domain_error (num_nodes), std::length_error, std::out_of_range or MemoryLimit naming
  // `function`, the argument, the first bad entry and the valid range.
  static SplitEdges split(int64_t num_nodes, int64_t num_edges, const int64_t* src,
                          const int64_t* dst, TerminalNodes source_in, TerminalNodes source_out,
                          TerminalNodes sink_in, TerminalNodes sink_out,
                          const char* function = "NodeCutGraph") {
    SplitEdges edges;
    const int64_t n = edges.num_nodes =
        check_num_vertices(function, "num_nodes", num_nodes, kMaxNodes);
    check_num_edges(function, "src", num_edges);
    // Array lengths are below 2**60 (8-byte entries): no overflow.
    const int64_t terminals = source_in.size + source_out.size + sink_in.size + sink_out.size;
    const int64_t total = n + num_edges + terminals;
    if (total > kMaxEdges) {
      throw std::length_error(
          std::string(function) + ": num_nodes + len(src) + the terminal lists' lengths = " +
          std::to_string(total) + " edges of the split network; at most " +
          std::to_string(kMaxEdges) + " are supported");
    }
    check_memory(function, "num_nodes", n, "edges (len(src) + the terminal lists' lengths)",
                 num_edges + terminals, kBytesPerNode, kBytesPerEdge);
    const auto source = static_cast<int32_t>(2 * n), sink = source + 1;
    edges.tail.resize(static_cast<size_t>(total));
    edges.head.resize(static_cast<size_t>(total));
    int32_t* tail = edges.tail.data();
    int32_t* head = edges.head.data();
    int64_t e = 0;
    for (int64_t v = 0; v < n; ++v, ++e) {
      tail[e] = static_cast<int32_t>(2 * v);
      head[e] = static_cast<int32_t>(2 * v + 1);
    }
    // Negative indices wrap to huge unsigned ones: one comparison checks both bounds. Each
    // entry is read once, so what is checked is what is stored.
    const auto end = static_cast<uint64_t>(n);
    const auto copy = [&](const char* argument, const int64_t* x, int64_t size, int side,
                          int32_t* out, int64_t first) {
      uint64_t bad = 0;
      for (int64_t i = 0; i < size; ++i) {
        const auto v = static_cast<uint64_t>(x[i]);
        bad |= static_cast<uint64_t>(v >= end);
        out[first + i] = static_cast<int32_t>(2 * v + side);
      }
      if (bad) {
        check_index_array(function, argument, x, size, n);
        throw std::invalid_argument(std::string(function) + ": " + argument +
                                    " changed while being copied");
      }
    };
    copy("src", src, num_edges, 1, tail, e);
    copy("dst", dst, num_edges, 0, head, e);
    e += num_edges;
    const auto attach = [&](const char* argument, TerminalNodes nodes, bool from_source,
                            int side) {
      copy(argument, nodes.data, nodes.size, side, from_source ? head : tail, e);
      int32_t* terminal = from_source ? tail : head;
      for (int64_t i = 0; i < nodes.size; ++i) terminal[e + i] = from_source ? source : sink;
      e += nodes.size;
    };
    attach("source_in", source_in, true, 0);
    attach("source_out", source_out, true, 1);
    attach("sink_in", sink_in, false, 0);
    attach("sink_out", sink_out, false, 1);
    return edges;
  }

  // Builds the network of split(): no caller memory is read.
  explicit NodeCutGraph(const SplitEdges& edges) {
    num_nodes_ = edges.num_nodes;
    const int64_t n = num_nodes_;
    source_ = static_cast<VertexId>(2 * n);
    sink_ = source_ + 1;
    std::vector<ArcId> arc_of_edge;
    graph_.build(
        static_cast<VertexId>(2 * n + 2), static_cast<int64_t>(edges.tail.size()),
        edges.tail.data(), edges.head.data(), [](int64_t) { return true; },
        [&](int64_t i) { return i < n ? int64_t{0} : kInfinity; }, &base_residual_,
        &arc_of_edge);
    split_arc_.assign(arc_of_edge.begin(), arc_of_edge.begin() + n);
  }

  // Both steps, for C++ callers whose arrays cannot change meanwhile.
  NodeCutGraph(int64_t num_nodes, int64_t num_edges, const int64_t* src, const int64_t* dst,
               TerminalNodes source_in, TerminalNodes source_out, TerminalNodes sink_in,
               TerminalNodes sink_out, const char* function = "NodeCutGraph")
      : NodeCutGraph(split(num_nodes, num_edges, src, dst, source_in, source_out, sink_in,
                           sink_out, function)) {}

  VertexId num_nodes() const { return num_nodes_; }

  // Solves for `weights` (length num_nodes), which no one may write to during the call (the
  // binding passes its own copy). Writes 0/1 bytes into source_side_in/out (length num_nodes
  // each). Throws UnboundedCut with a path of nodes, or std::domain_error for a weight outside
  // [0, kInfinity].
  //
  // `between` (may be null): the canonical cuts of two earlier solves whose weights differ from
  // these only on nodes whose in-side is attached to the source, where they were no higher
  // (`lower`) and no lower (`upper`) than these. Those nodes' split arcs act as source arcs, so
  // the canonical cuts nest (Gallo, Grigoriadis and Tarjan): what lies on the source side for
  // `lower` lies there now, what lies on the sink side for `upper` does too. Those vertices are
  // merged into the terminals and the max flow runs on a network of the band between the two
  // cuts alone (solve_band), with the same canonical cut as without `between`. Throws
  // std::invalid_argument when `lower`'s source side is not inside `upper`'s; a bracket whose
  // band has no finite cut runs the whole network instead. Brackets that break the rule above
  // otherwise are not detected: they give a wrong cut (the caller's contract).
  NodeCutResult solve(const int64_t* weights, Algorithm algorithm, bool check,
                      uint8_t* source_side_in, uint8_t* source_side_out,
                      const char* function = "NodeCutGraph.solve",
                      const CutBracket* between = nullptr) {
    check_capacity_array(function, "weights", weights, num_nodes_);
    if (between) {
      NodeCutResult result;
      if (solve_band(weights, *between, algorithm, check, function, source_side_in,
                     source_side_out, &result)) {
        return result;
      }
    }
    residual_.assign(base_residual_.begin(), base_residual_.end());
    // Invariant 3: the reductions depend only on which weights are zero, finite or infinite.
    bool same = reusable_ && algorithm == last_algorithm_;
    pattern_.resize(static_cast<size_t>(num_nodes_));
    for (VertexId v = 0; v < num_nodes_; ++v) {
      const int64_t w = weights[v];
      residual_[split_arc_[v]] = w;
      const uint8_t kind = w == 0 ? 0 : (w >= kInfinity ? 2 : 1);
      same = same && pattern_[v] == kind;
      pattern_[v] = kind;
    }
    reusable_ = false;  // until this solve succeeds
    last_algorithm_ = algorithm;
    if (!solver_.solve(graph_, &residual_, source_, sink_, algorithm, check, function, same)) {
      std::vector<int64_t> nodes;
      for (VertexId x : solver_.unbounded_path()) {
        if (x >= source_) continue;
        if (nodes.empty() || nodes.back() != x / 2) nodes.push_back(x / 2);
      }
      const std::string message =
          std::string(function) + ": no finite cut: the nodes " + format_path(nodes) +
          " form a path of infinite weights and edges from source to sink";
      throw UnboundedCut(message, std::move(nodes));
    }
    reusable_ = true;
    const uint8_t* in_sink = solver_.in_sink().data();
    NodeCutResult result;
    result.algorithm = solver_.used();
    write_cut(weights, [&](VertexId x) -> uint8_t { return in_sink[x] ^ 1; }, source_side_in,
              source_side_out, &result, function);
    return result;
  }

  // solve(), then every minimum cut for the same weights (see NodeCutComponents).
  NodeCutResult solve_components(const int64_t* weights, Algorithm algorithm, bool check,
                                 uint8_t* source_side_in, uint8_t* source_side_out,
                                 NodeCutComponents* components,
                                 const char* function = "NodeCutGraph.solve_components") {
    NodeCutResult result =
        solve(weights, algorithm, check, source_side_in, source_side_out, function);
    // The initial residual is base_residual_ with the weights on the split arcs (invariant 1).
    std::vector<int64_t>& initial = initial_;
    initial.assign(base_residual_.begin(), base_residual_.end());
    for (VertexId v = 0; v < num_nodes_; ++v) initial[split_arc_[v]] = weights[v];
    const FlowSolver& flow = solver_.flow();
    components->saturated.resize(static_cast<size_t>(num_nodes_));
    for (VertexId v = 0; v < num_nodes_; ++v) {
      const ArcId a = split_arc_[v];
      components->saturated[v] =
          flow.wide() ? flow.wide_residual()[a] <= 0 : residual_[a] <= 0;
    }
    if (flow.wide()) {
      const auto wide_initial = [&](ArcId a) {
        return initial[a] >= kInfinity ? CapacityTraits<WideInt>::kInfinite
                                       : WideInt{initial[a]};
      };
      residual_components(graph_, flow.wide_residual().data(), wide_initial, solver_.role(),
                          function, &all_, &solver_.seeds());
    } else {
      residual_components(graph_, residual_.data(), [&](ArcId a) { return initial[a]; },
                          solver_.role(), function, &all_, &solver_.seeds());
    }
    components->in.resize(static_cast<size_t>(num_nodes_));
    components->out.resize(static_cast<size_t>(num_nodes_));
    for (VertexId v = 0; v < num_nodes_; ++v) {
      components->in[v] = all_.component[2 * v];
      components->out[v] = all_.component[2 * v + 1];
    }
    components->count = all_.count;
    components->dag_tail = all_.dag_tail;
    components->dag_head = all_.dag_head;
    return result;
  }

 private:
  // Where `between` (solve()) puts each split vertex, into local_: kOnSourceSide for both sides of
  // a node on the source side of `lower` (and the source), kOnSinkSide for those on the sink side
  // of `upper` (and the sink), else its index in the band, counted from 0. Returns the band's
  // size.
  static constexpr int64_t kOnSourceSide = -1, kOnSinkSide = -2;  // local_ outside the band
  int64_t place(const CutBracket& b, const char* function) {
    const VertexId vertices = 2 * num_nodes_ + 2;
    local_.resize(static_cast<size_t>(vertices));
    int64_t band = 0;
    const auto put = [&](VertexId x, uint8_t lower, uint8_t upper) {
      local_[x] = lower ? kOnSourceSide : upper ? band++ : kOnSinkSide;
    };
    for (VertexId v = 0; v < num_nodes_; ++v) {
      const uint8_t lo_in = b.lower_in[v] != 0, lo_out = b.lower_out[v] != 0;
      const uint8_t up_in = b.upper_in[v] != 0, up_out = b.upper_out[v] != 0;
      if ((lo_in && !up_in) || (lo_out && !up_out)) {
        throw std::invalid_argument(
            std::string(function) + ": between: node " + std::to_string(v) +
            " is on the source side of the lower cut but not of the upper one; the lower "
            "cut's source side must lie inside the upper cut's");
      }
      put(2 * v, lo_in, up_in);
      put(2 * v + 1, lo_out, up_out);
    }
    local_[source_] = kOnSourceSide;
    local_[sink_] = kOnSinkSide;
    return band;
  }

  // The capacity of arc a (tail x) for `weights`: a split arc's weight, else the base one.
  int64_t capacity(const int64_t* weights, VertexId x, ArcId a) const {
    return (x & 1) == 0 && x < source_ && graph_.head(a) == x + 1 ? weights[x / 2]
                                                                  : base_residual_[a];
  }

  // solve() on the band of `between` (place()): its vertices, a merged source (the band's
  // size) and a merged sink (that + 1); the arcs of band vertices to band vertices and to the
  // sink set, and those into band vertices from the source set (the rest carry no flow that can
  // change the cut). min_cut() gives the band's canonical cut; the sets keep their sides.
  // Returns false (nothing written) when the band is too wide or has no finite cut: the caller
  // then solves the whole network.
  bool solve_band(const int64_t* weights, const CutBracket& between, Algorithm algorithm,
                  bool check, const char* function, uint8_t* source_side_in,
                  uint8_t* source_side_out, NodeCutResult* result) {
    const VertexId vertices = 2 * num_nodes_ + 2;
    const int64_t band = place(between, function);
    // A wide band costs more built anew than the whole network solved in place, whose
    // reductions a sweep reuses (GPT-48, 22k vertices: 4-1,067 band vertices 0.13-0.26 ms
    // against 0.73-0.85 ms whole, the sweep's first bisection 2.4 ms against 0.78 ms).
    if (band > vertices / std::max<int64_t>(between.max_band_share, 1)) return false;
    const int64_t merged_source = band, merged_sink = band + 1;
    band_src_.clear();
    band_dst_.clear();
    band_capacity_.clear();
    const auto emit = [&](int64_t u, int64_t v, int64_t c) {
      band_src_.push_back(u);
      band_dst_.push_back(v);
      band_capacity_.push_back(c);
    };
    for (VertexId x = 0; x < vertices; ++x) {
      const int64_t lx = local_[x];
      if (lx < 0) continue;
      for (ArcId a = graph_.first_arc(x); a < graph_.end_arc(x); ++a) {
        const VertexId h = graph_.head(a);
        const int64_t forward = capacity(weights, x, a);
        if (forward > 0) {
          if (local_[h] >= 0) {
            emit(lx, local_[h], forward);
          } else if (local_[h] == kOnSinkSide) {
            emit(lx, merged_sink, forward);
          }
        }
        if (local_[h] == kOnSourceSide) {
          const int64_t backward = capacity(weights, h, graph_.reverse(a));
          if (backward > 0) emit(merged_source, lx, backward);
        }
      }
    }
    band_side_.resize(static_cast<size_t>(band) + 2);
    result->algorithm = Algorithm::kAuto;
    if (!band_src_.empty()) {
      band_edges_.copy(function, static_cast<VertexId>(band + 2),
                       static_cast<int64_t>(band_src_.size()), band_src_.data(),
                       band_dst_.data(), band_capacity_.data());
      try {
        result->algorithm = min_cut(band_edges_, merged_source, merged_sink, algorithm, check,
                                    band_side_.data(), &band_workspace_)
                                .algorithm;
      } catch (const UnboundedCut&) {
        return false;
      }
    } else {
      std::fill(band_side_.begin(), band_side_.end(), uint8_t{1});  // nothing reaches the sink
    }
    write_cut(weights,
              [&](VertexId x) -> uint8_t {
                return local_[x] >= 0 ? band_side_[local_[x]] : local_[x] == kOnSourceSide;
              },
              source_side_in, source_side_out, result, function);
    return true;
  }

  // Each node's sides (`side(x)`: 1 if split vertex x is on the source side) into the caller's
  // arrays, and the cut nodes and their total weight into *result.
  template <class Side>
  void write_cut(const int64_t* weights, Side side, uint8_t* source_side_in,
                 uint8_t* source_side_out, NodeCutResult* result, const char* function) const {
    for (VertexId v = 0; v < num_nodes_; ++v) {
      const uint8_t in_side = side(2 * v), out_side = side(2 * v + 1);
      source_side_in[v] = in_side;
      source_side_out[v] = out_side;
      if (in_side && !out_side) {
        if (weights[v] >= kInfinity) {
          throw std::logic_error(std::string(function) + ": internal error: infinite node " +
                                 std::to_string(v) + " is cut");
        }
        result->cut_nodes.push_back(v);
        result->value += weights[v];
      }
    }
  }

  VertexId num_nodes_ = 0;
  VertexId source_ = 0, sink_ = 0;
  ResidualGraph graph_;
  std::vector<int64_t> base_residual_;  // invariant 1
  std::vector<ArcId> split_arc_;        // invariant 1
  std::vector<int64_t> residual_;       // the residual of the current solve
  CutSolver solver_;
  std::vector<uint8_t> pattern_;        // invariant 3: per node, weight 0, finite or infinite
  bool reusable_ = false;               // the last solve succeeded on pattern_
  Algorithm last_algorithm_ = Algorithm::kAuto;
  std::vector<int64_t> local_;          // solve_band(): each vertex's place (place())
  std::vector<int64_t> band_src_, band_dst_, band_capacity_;
  std::vector<uint8_t> band_side_;
  EdgeList band_edges_;
  MinCutWorkspace band_workspace_;
  std::vector<int64_t> initial_;        // solve_components(): the residual before the solve
  ResidualComponents all_;              // solve_components(): per split-network vertex
};

}  // namespace fusioncut
