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
//
// Complexity: construction O(n + m); solve() O(n + m) plus the max-flow algorithm, with no
// allocation after the first solve.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "min_cut.h"
#include "residual_graph.h"

namespace fusioncut {

struct NodeCutResult {
  WideInt value = 0;
  std::vector<int64_t> cut_nodes;  // ascending
  Algorithm algorithm = Algorithm::kAuto;
};

// The nodes attached to a terminal, as index arrays.
struct TerminalNodes {
  const int64_t* data = nullptr;
  int64_t size = 0;
};

class NodeCutGraph {
 public:
  static constexpr VertexId kMaxNodes = (std::numeric_limits<VertexId>::max() - 2) / 2;

  NodeCutGraph(int64_t num_nodes, int64_t num_edges, const int64_t* src, const int64_t* dst,
               TerminalNodes source_in, TerminalNodes source_out, TerminalNodes sink_in,
               TerminalNodes sink_out, const char* function = "NodeCutGraph") {
    num_nodes_ = check_num_vertices(function, "num_nodes", num_nodes, kMaxNodes);
    const int64_t n = num_nodes_;
    check_index_array(function, "src", src, num_edges, n);
    check_index_array(function, "dst", dst, num_edges, n);
    check_index_array(function, "source_in", source_in.data, source_in.size, n);
    check_index_array(function, "source_out", source_out.data, source_out.size, n);
    check_index_array(function, "sink_in", sink_in.data, sink_in.size, n);
    check_index_array(function, "sink_out", sink_out.data, sink_out.size, n);
    source_ = static_cast<VertexId>(2 * n);
    sink_ = source_ + 1;

    const int64_t total =
        n + num_edges + source_in.size + source_out.size + sink_in.size + sink_out.size;
    std::vector<int32_t> tail(static_cast<size_t>(total)), head(static_cast<size_t>(total));
    int64_t e = 0;
    for (int64_t v = 0; v < n; ++v, ++e) {
      tail[e] = static_cast<int32_t>(2 * v);
      head[e] = static_cast<int32_t>(2 * v + 1);
    }
    for (int64_t i = 0; i < num_edges; ++i, ++e) {
      tail[e] = static_cast<int32_t>(2 * src[i] + 1);
      head[e] = static_cast<int32_t>(2 * dst[i]);
    }
    auto attach = [&](TerminalNodes nodes, bool from_source, int side) {
      for (int64_t i = 0; i < nodes.size; ++i, ++e) {
        const auto v = static_cast<int32_t>(2 * nodes.data[i] + side);
        tail[e] = from_source ? source_ : v;
        head[e] = from_source ? v : sink_;
      }
    };
    attach(source_in, true, 0);
    attach(source_out, true, 1);
    attach(sink_in, false, 0);
    attach(sink_out, false, 1);

    std::vector<ArcId> arc_of_edge;
    graph_.build(
        static_cast<VertexId>(2 * n + 2), total, tail.data(), head.data(),
        [](int64_t) { return true; },
        [&](int64_t i) { return i < n ? int64_t{0} : kInfinity; }, &base_residual_,
        &arc_of_edge);
    split_arc_.assign(arc_of_edge.begin(), arc_of_edge.begin() + n);
  }

  VertexId num_nodes() const { return num_nodes_; }

  // Solves for `weights` (length num_nodes). Writes 0/1 bytes into source_side_in/out
  // (length num_nodes each). Throws UnboundedCut with a path of nodes, or std::domain_error
  // for a weight outside [0, kInfinity].
  NodeCutResult solve(const int64_t* weights, Algorithm algorithm, bool check,
                      uint8_t* source_side_in, uint8_t* source_side_out,
                      const char* function = "NodeCutGraph.solve") {
    check_capacity_array(function, "weights", weights, num_nodes_);
    residual_.assign(base_residual_.begin(), base_residual_.end());
    for (VertexId v = 0; v < num_nodes_; ++v) residual_[split_arc_[v]] = weights[v];
    if (!solver_.solve(graph_, &residual_, source_, sink_, algorithm, check, function)) {
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
    const uint8_t* in_sink = solver_.in_sink().data();
    NodeCutResult result;
    result.algorithm = solver_.used();
    for (VertexId v = 0; v < num_nodes_; ++v) {
      const uint8_t in_side = in_sink[2 * v] ^ 1, out_side = in_sink[2 * v + 1] ^ 1;
      source_side_in[v] = in_side;
      source_side_out[v] = out_side;
      if (in_side && !out_side) {
        if (weights[v] >= kInfinity) {
          throw std::logic_error(std::string(function) + ": internal error: infinite node " +
                                 std::to_string(v) + " is cut");
        }
        result.cut_nodes.push_back(v);
        result.value += weights[v];
      }
    }
    return result;
  }

 private:
  VertexId num_nodes_ = 0;
  VertexId source_ = 0, sink_ = 0;
  ResidualGraph graph_;
  std::vector<int64_t> base_residual_;  // invariant 1
  std::vector<ArcId> split_arc_;        // invariant 1
  std::vector<int64_t> residual_;       // the residual of the current solve
  CutSolver solver_;
};

}  // namespace fusioncut
