// Minimum s-t cut of an edge-capacitated directed graph: validation, reductions, algorithm
// choice, and the canonical cut.
//
// Problem: given edges (src[i], dst[i]) with capacities in [0, kInfinity] (kInfinity: never
// cut), a source and a sink, return the minimum cut whose sink side is exactly the set of
// vertices that can reach the sink in the final residual graph (the cut closest to the sink,
// the same for every maximum flow and therefore for every algorithm).
//
// Pipeline of min_cut() when more than kInPlaceMaxInfiniteShare of the edges are infinite:
//   0. (The caller.) The input arrays copied and validated into an EdgeList (input.h): no
//      later step reads caller memory, which another thread may be writing to.
//   1. Reductions (reductions.h) on the input adjacency (adjacency.h): the infinite closures
//      S_inf, T_inf and the idle vertices; an s -> t path of infinite edges if no finite cut.
//   2. A residual graph of the live vertices only, S_inf and T_inf merged into two terminals.
//   3. FlowSolver: 64-bit capacities when the capacity leaving the source is below kInfinity
//      (then no excess, flow or residual can exceed it), else 128-bit; push-relabel or
//      Boykov-Kolmogorov (`kAuto`: choose_algorithm()); the sink side (BK's tree T, else
//      residual_sink_side()); optionally the self-check (check.h), always in debug builds.
//   4. Back to the input graph: S_inf to the source side, T_inf to the sink side, idle vertices
//      to the sink side iff they reach it through idle vertices.
//   5. The cut edges, from S_inf's finite out-edges, the live vertices' out-lists and the
//      zero-capacity edges (no pass over all edges).
// Otherwise nearly every vertex is live, and CutSolver runs steps 1 and 3 in place on one
// residual graph of the input, as NodeCutGraph (node_cut.h) does on its fixed network.
//
// Complexity: O(V + E) around the max-flow algorithm.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "adjacency.h"
#include "boykov_kolmogorov.h"
#include "check.h"
#include "input.h"
#include "push_relabel.h"
#include "reductions.h"
#include "residual_graph.h"

namespace fusioncut {

enum class Algorithm : int { kAuto = 0, kPushRelabel = 1, kBoykovKolmogorov = 2 };

// Thrown when no finite cut exists; `path` is one source-to-sink path of infinite edges.
class UnboundedCut : public std::invalid_argument {
 public:
  UnboundedCut(const std::string& message, std::vector<int64_t> path)
      : std::invalid_argument(message), path(std::move(path)) {}
  std::vector<int64_t> path;
};

// "3 -> 4 -> 7"
inline std::string format_path(const std::vector<int64_t>& path) {
  std::string text;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i) text += " -> ";
    text += std::to_string(path[i]);
  }
  return text;
}

// The `auto` rule: Boykov-Kolmogorov when at least half of the input's edges are infinite,
// push-relabel otherwise. Node-split dataflow networks (the partitioner's, about 75% infinite
// dependency edges) have short augmenting paths and shallow search trees: on their live
// networks (reductions.h; only 38-48% of the live edges are infinite, which is why the rule
// looks at the input) BK measured 1.8-4x faster than push-relabel (bench/: recorded GPT
// networks 12-96 layers, `layered` 10k-100k). On networks of finite edges (`grid`,
// `random_dag`) BK's trees grow deep and it measured 2-10x slower, while push-relabel's global
// relabelling keeps it fast.
inline Algorithm choose_algorithm(Algorithm requested, int64_t infinite_edges, int64_t edges) {
  if (requested != Algorithm::kAuto) return requested;
  return 2 * infinite_edges >= edges ? Algorithm::kBoykovKolmogorov : Algorithm::kPushRelabel;
}

// What a caller's reductions tell the max flow about a residual graph of the whole input
// (CutSolver), so that Boykov-Kolmogorov skips the passes over the terminal sets' arcs: the
// source- and sink-set vertices with an arc to a vertex of another role, in vertex order
// (BoykovKolmogorov::run's seeds), and every kIdleToSink vertex (Reductions::reaching_sink(),
// for idle_sink_side()). The cut is the same.
struct FlowHints {
  const std::vector<VertexId>* seeds = nullptr;
  VertexSpan idle_to_sink{nullptr, 0};
};

// Max flow on a residual graph whose roles are already known, then the canonical sink side.
// Buffers are kept across runs.
class FlowSolver {
 public:
  // Solves in place (step 3 above). Afterwards in_sink()[v] is 1 iff v is on the canonical
  // sink side. Throws std::logic_error if `check` (or a debug build) finds the result wrong.
  // `hints` may be null.
  void run(const ResidualGraph& g, std::vector<int64_t>* residual, const uint8_t* role,
           Algorithm algorithm, bool check, const char* function,
           const FlowHints* hints = nullptr) {
#ifndef NDEBUG
    check = true;
#endif
    int64_t* res = residual->data();
    WideInt leaving_source = 0;
    const VertexId n = g.num_vertices();
    for (VertexId v = 0; v < n; ++v) {
      if (role[v] != kSourceSet) continue;
      for (ArcId a = g.first_arc(v); a < g.end_arc(v); ++a) {
        if (role[g.head(a)] != kSourceSet) leaving_source += res[a];
      }
    }
    wide_ = leaving_source >= kInfinity;
    if (!wide_) {
      run_with<int64_t>(g, res, role, algorithm, function, check ? &initial_ : nullptr,
                        push_relabel_, boykov_kolmogorov_, hints);
    } else {
      wide_residual_.resize(residual->size());
      for (size_t a = 0; a < residual->size(); ++a) {
        wide_residual_[a] = res[a] >= kInfinity ? CapacityTraits<WideInt>::kInfinite
                                                : WideInt{res[a]};
      }
      run_with<WideInt>(g, wide_residual_.data(), role, algorithm, function,
                        check ? &wide_initial_ : nullptr, wide_push_relabel_,
                        wide_boykov_kolmogorov_, hints);
    }
  }

  const std::vector<uint8_t>& in_sink() const { return in_sink_; }
  // Whether the last run was on the 128-bit path; its final residual is then wide_residual(),
  // else the caller's array.
  bool wide() const { return wide_; }
  const std::vector<WideInt>& wide_residual() const { return wide_residual_; }

 private:
  template <class Cap, class PR, class BK>
  void run_with(const ResidualGraph& g, Cap* residual, const uint8_t* role, Algorithm algorithm,
                const char* function, std::vector<Cap>* initial, PR& push_relabel, BK& bk,
                const FlowHints* hints) {
    if (initial) initial->assign(residual, residual + g.num_arcs());
    if (algorithm == Algorithm::kBoykovKolmogorov) {
      bk.run(g, residual, role, hints ? hints->seeds : nullptr);
      if (!bk.sink_side(&in_sink_)) {
        if (hints) {
          bk.tree_sink_side(&in_sink_);
          idle_sink_side(g, residual, role, hints->idle_to_sink.begin(),
                         hints->idle_to_sink.size(), &in_sink_, &queue_);
        } else {
          residual_sink_side(g, residual, role, &in_sink_, &queue_);
        }
      }
    } else {
      push_relabel.run(g, residual, role);
      residual_sink_side(g, residual, role, &in_sink_, &queue_);
    }
    if (initial) {
      const std::string failure = check_cut(g, initial->data(), residual, role, in_sink_.data());
      if (!failure.empty()) {
        throw std::logic_error(std::string(function) + ": self-check failed: " + failure);
      }
    }
  }

  PushRelabel<int64_t> push_relabel_;
  PushRelabel<WideInt> wide_push_relabel_;
  BoykovKolmogorov<int64_t> boykov_kolmogorov_;
  BoykovKolmogorov<WideInt> wide_boykov_kolmogorov_;
  std::vector<WideInt> wide_residual_;   // 128-bit copy of the residual (overflow-safe path)
  std::vector<int64_t> initial_;         // residual before solving, kept for the self-check
  std::vector<WideInt> wide_initial_;
  std::vector<uint8_t> in_sink_;         // the canonical sink side of the last run
  std::vector<VertexId> queue_;
  bool wide_ = false;                    // the last run took the 128-bit path
};

// Reductions and max flow in place on one residual graph (NodeCutGraph's fixed network).
class CutSolver {
 public:
  // Returns false when there is no finite cut; unbounded_path() then holds an s -> t path of
  // infinite arcs. `same_pattern`: the caller guarantees that every arc is zero, finite or
  // infinite exactly as in the previous call on the same graph, which then succeeded with the
  // same `algorithm`: the reductions and the algorithm choice, which read nothing else, are
  // kept from it (a parametric sweep changes finite capacities only).
  bool solve(const ResidualGraph& g, std::vector<int64_t>* residual, VertexId s, VertexId t,
             Algorithm algorithm, bool check, const char* function, bool same_pattern = false) {
    if (!same_pattern) {
      if (!reductions_.run(ResidualView(g, residual->data()), s, t)) return false;
      if (algorithm == Algorithm::kAuto) {
        int64_t infinite = 0, positive = 0;
        for (int64_t r : *residual) {
          infinite += r >= kInfinity;
          positive += r > 0;
        }
        algorithm = choose_algorithm(algorithm, infinite, positive);
      }
      used_ = algorithm;
      find_seeds(g);
    }
    FlowHints hints;
    hints.seeds = &seeds_;
    hints.idle_to_sink = reductions_.reaching_sink();
    flow_.run(g, residual, reductions_.role(), used_, check, function, &hints);
    return true;
  }

  const std::vector<uint8_t>& in_sink() const { return flow_.in_sink(); }
  const std::vector<VertexId>& unbounded_path() const { return reductions_.unbounded_path(); }
  Algorithm used() const { return used_; }
  const uint8_t* role() const { return reductions_.role(); }
  const FlowSolver& flow() const { return flow_; }
  // The source- and sink-set vertices of role() with an arc to a vertex of another role.
  const std::vector<VertexId>& seeds() const { return seeds_; }

 private:
  // FlowHints::seeds for the roles of the last reductions: the source- and sink-set vertices
  // with an arc (either way) to a vertex of another role. On node-split networks most
  // vertices lie in the two sets, and few of them border anything else.
  void find_seeds(const ResidualGraph& g) {
    const uint8_t* role = reductions_.role();
    const ArcId* first = g.first_data();
    const VertexId* head = g.head_data();
    seeds_.clear();
    for (VertexId v = 0; v < g.num_vertices(); ++v) {
      const uint8_t r = role[v];
      if (r != kSourceSet && r != kSinkSet) continue;
      for (ArcId a = first[v], end = first[v + 1]; a < end; ++a) {
        if (role[head[a]] != r) {
          seeds_.push_back(v);
          break;
        }
      }
    }
  }

  Reductions reductions_;
  FlowSolver flow_;
  Algorithm used_ = Algorithm::kAuto;
  std::vector<VertexId> seeds_;  // FlowHints::seeds of reductions_ (find_seeds)
};

// Everything min_cut() allocates, kept between calls so that repeated solves of similar graphs
// neither allocate nor page-fault. Every member is fully re-initialised by each call.
struct MinCutWorkspace {
  EdgeList edges;                       // the caller's arrays, copied (input.h)
  Adjacency adjacency;
  Reductions reductions;
  std::vector<VertexId> compact;        // live input vertex -> live-network vertex
  std::vector<VertexId> live_vertices;  // live-network vertex -> input vertex
  std::vector<int32_t> live_src, live_dst;
  std::vector<int64_t> live_capacity;
  ResidualGraph graph;                  // the live network, or the input graph (in place)
  std::vector<int64_t> residual;
  std::vector<uint8_t> live_role;
  FlowSolver flow;
  std::vector<VertexId> queue;
  std::vector<uint64_t> cut_bits;       // one bit per input edge: crosses the cut
  CutSolver in_place;                   // for networks with few infinite edges
};

// min_cut solves in place, skipping the reductions' live network, when at most this share of
// the edges is infinite (measured: the in-place route is ~20% faster on `grid` and `random_dag`,
// the live network 1.5-3x faster on node-split networks, about 75% infinite).
constexpr double kInPlaceMaxInfiniteShare = 0.1;

struct MinCutResult {
  WideInt value = 0;
  std::vector<int64_t> cut_edges;  // ascending input edge indices from source to sink side
  Algorithm algorithm = Algorithm::kAuto;
};

// The live-network route of min_cut (see there): writes the canonical source side of the input
// graph into source_side[0 .. n) and fills *result.
//
// On node-split networks most vertices are merged into a terminal or idle (GPT-48: 13,760
// vertices, 2,360 live), so after the reductions every step walks only the live vertices and
// their adjacency lists, found on the reductions' own search lists: the only passes over all E
// edges are the two that build the adjacency, and those over all V vertices are byte-wide ones
// the compiler vectorises.
template <class ThrowUnbounded>
void live_network_cut(const EdgeList& edges, VertexId source, VertexId sink, Algorithm algorithm,
                      bool check, const char* function, ThrowUnbounded throw_unbounded,
                      uint8_t* source_side, MinCutWorkspace* workspace, MinCutResult* result) {
  const VertexId n = edges.num_vertices();
  const int64_t num_edges = edges.num_edges();
  const int32_t* src = edges.src();
  const int32_t* dst = edges.dst();
  const int64_t* capacity = edges.capacity();
  // 1. Reductions on the input adjacency.
  Adjacency& adjacency = workspace->adjacency;
  adjacency.build(edges);
  Reductions& reductions = workspace->reductions;
  if (!reductions.run(adjacency, source, sink)) {
    throw_unbounded(reductions.unbounded_path());
  }
  const uint8_t* role = reductions.role();

  // 2. The live network: live vertices 0..L-1 (in the reductions' search order), then the
  //    merged source L and the merged sink L + 1. Its edges are those live -> live,
  //    live -> sink set and source set -> live (all others cannot carry useful flow), found on
  //    the live vertices' out-lists and on the reductions' source frontier.
  //    Edges from the source set to a live vertex or from a live vertex to the sink set are
  //    finite (an infinite one would have merged the live vertex into that set).
  //    compact[] is written and read for live vertices only.
  const VertexSpan reaching_sink = reductions.reaching_sink();
  std::vector<VertexId>& compact = workspace->compact;
  std::vector<VertexId>& live_vertices = workspace->live_vertices;
  compact.resize(static_cast<size_t>(n));
  live_vertices.resize(reaching_sink.size() + 1);
  VertexId num_live = 0;
  for (const VertexId v : reaching_sink) {  // branch-free: only live vertices advance
    compact[v] = num_live;
    live_vertices[num_live] = v;
    num_live += role[v] == kLive;
  }
  const VertexId merged_source = num_live, merged_sink = num_live + 1;
  std::vector<int32_t>& live_src = workspace->live_src;
  std::vector<int32_t>& live_dst = workspace->live_dst;
  std::vector<int64_t>& live_capacity = workspace->live_capacity;
  live_src.clear();
  live_dst.clear();
  live_capacity.clear();
  const auto emit = [&](VertexId u, VertexId v, int64_t c) {
    live_src.push_back(u);
    live_dst.push_back(v);
    live_capacity.push_back(c);
  };
  for (VertexId i = 0; i < num_live; ++i) {
    adjacency.for_each_out(live_vertices[i], [&](VertexId w, bool infinite, int32_t e) {
      const uint8_t r = role[w];
      if (r == kLive) {
        emit(i, compact[w], infinite ? kInfinity : capacity[e]);
      } else if (r == kSinkSet) {
        emit(i, merged_sink, capacity[e]);
      }
    });
  }
  for (const int32_t e : reductions.source_frontier()) {
    const VertexId w = dst[e];
    if (role[w] == kLive) emit(merged_source, compact[w], capacity[e]);
  }
  // Collecting the edges and counting-sorting them beat placing arcs straight from a second
  // pass over the lists (measured 10 us slower on GPT-48): that pass repeats the role tests,
  // whose branches are data-dependent.
  ResidualGraph& graph = workspace->graph;
  std::vector<int64_t>& residual = workspace->residual;
  graph.build(
      num_live + 2, static_cast<int64_t>(live_src.size()), live_src.data(), live_dst.data(),
      [](int64_t) { return true; }, [&](int64_t e) { return live_capacity[e]; }, &residual,
      nullptr);
  std::vector<uint8_t>& live_role = workspace->live_role;
  live_role.assign(static_cast<size_t>(num_live) + 2, kLive);
  live_role[merged_source] = kSourceSet;
  live_role[merged_sink] = kSinkSet;

  // 3. Max flow and the canonical cut of the live network.
  result->algorithm = choose_algorithm(algorithm, edges.num_infinite(), num_edges);
  FlowSolver& flow = workspace->flow;
  flow.run(graph, &residual, live_role.data(), result->algorithm, check, function);

  // 4. Back to the input graph: the sink set is on the sink side, the source set and idle
  //    vertices start on the source side (one vectorised byte comparison), live vertices take
  //    their side in the live network. An idle vertex carries no flow, so its residual edges
  //    are its input edges: it is on the sink side iff it reaches one of those through idle
  //    vertices, and only kIdleToSink vertices can (reductions.h, invariant 3). Each of them
  //    with an edge into the sink side seeds a backward search over the others, which never
  //    touches the (large) sink set's lists.
  for (VertexId v = 0; v < n; ++v) source_side[v] = role[v] != kSinkSet;
  const uint8_t* live_in_sink = flow.in_sink().data();
  for (VertexId i = 0; i < num_live; ++i) source_side[live_vertices[i]] = live_in_sink[i] ^ 1;
  std::vector<VertexId>& queue = workspace->queue;
  queue.resize(reaching_sink.size());
  VertexId queue_end = 0;
  for (const VertexId w : reaching_sink) {
    if (role[w] != kIdleToSink || !source_side[w]) continue;
    bool into_sink_side = false;
    adjacency.for_each_out(w, [&](VertexId x, bool, int32_t) {
      into_sink_side |= !source_side[x];
    });
    if (into_sink_side) {
      source_side[w] = 0;
      queue[queue_end++] = w;
    }
  }
  for (VertexId q = 0; q < queue_end; ++q) {
    adjacency.for_each_in(queue[q], [&](VertexId w, bool, int32_t) {
      if (role[w] != kIdleToSink || !source_side[w]) return;
      source_side[w] = 0;
      queue[queue_end++] = w;
    });
  }

  // 5. The cut edges, without a pass over all edges: a positive edge that crosses the cut
  //    leaves S_inf (then it is finite and on the reductions' source frontier) or a live
  //    vertex; an idle vertex on the source side has no positive edge into the sink side (it
  //    would have been found in step 4, or reach T_inf and not be kIdle). Zero-capacity edges
  //    are checked one by one. A bitmap over the edges puts them in ascending order.
  std::vector<uint64_t>& bits = workspace->cut_bits;
  bits.assign(static_cast<size_t>((num_edges + 63) / 64), 0);
  size_t num_cut = 0;
  const auto mark = [&](int32_t e) {
    bits[static_cast<size_t>(e) >> 6] |= uint64_t{1} << (e & 63);
    ++num_cut;
    result->value += capacity[e];
  };
  for (const int32_t e : reductions.source_frontier()) {
    if (!source_side[dst[e]]) mark(e);
  }
  for (VertexId i = 0; i < num_live; ++i) {
    const VertexId v = live_vertices[i];
    if (!source_side[v]) continue;
    adjacency.for_each_out(v, [&](VertexId w, bool infinite, int32_t e) {
      if (source_side[w]) return;
      if (infinite) {
        throw std::logic_error(std::string(function) + ": internal error: infinite edge " +
                               std::to_string(e) + " crosses the cut");
      }
      mark(e);
    });
  }
  for (const int32_t e : adjacency.zero_capacity_edges()) {
    if (source_side[src[e]] && !source_side[dst[e]]) mark(e);
  }
  result->cut_edges.reserve(num_cut);
  for (size_t word = 0; word < bits.size(); ++word) {
    for (uint64_t b = bits[word]; b != 0; b &= b - 1) {
      result->cut_edges.push_back(static_cast<int64_t>(word * 64) + __builtin_ctzll(b));
    }
  }
}

// min_cut's limits, checked before anything is allocated: vertex ids are VertexId, with two
// more for the live network's merged terminals. The working set (input.h, check_memory) is the
// largest peak RSS measured, rounded up: 67 bytes a vertex (10M vertices, 10 edges,
// push-relabel, check=True), and beyond that 124 bytes an edge (1M-vertex random DAG, in-place
// route, 128-bit flows, check=True; the layered graphs' live route needs 16-24).
constexpr int64_t kMinCutMaxVertices = std::numeric_limits<VertexId>::max() - 2;
constexpr int64_t kMinCutBytesPerVertex = 72;
constexpr int64_t kMinCutBytesPerEdge = 128;

// Checks the scalar arguments of min_cut.
inline VertexId check_min_cut_arguments(const char* function, int64_t num_vertices,
                                        int64_t source, int64_t sink) {
  const VertexId n = check_num_vertices(function, "num_nodes", num_vertices, kMinCutMaxVertices);
  if (source < 0 || source >= n) {
    throw std::out_of_range(std::string(function) + ": source = " + std::to_string(source) +
                            " is out of range [0, " + std::to_string(n) + ")");
  }
  if (sink < 0 || sink >= n) {
    throw std::out_of_range(std::string(function) + ": sink = " + std::to_string(sink) +
                            " is out of range [0, " + std::to_string(n) + ")");
  }
  if (source == sink) {
    throw std::invalid_argument(std::string(function) + ": source and sink are both " +
                                std::to_string(source) + "; they must differ");
  }
  return n;
}

// Checks, before anything is allocated, that the copy and the solve can fit in memory.
inline void check_min_cut_size(const char* function, VertexId num_vertices, int64_t num_edges) {
  check_num_edges(function, "src", num_edges);
  check_memory(function, "num_nodes", num_vertices, "edges (the length of src)", num_edges,
               kMinCutBytesPerVertex, kMinCutBytesPerEdge);
}

// Solves for `edges`, the solver's own validated copy of the input (input.h: EdgeList::copy
// is step 0, made by the caller, which may be workspace->edges), and writes the source side as
// 0/1 bytes into source_side[0 .. edges.num_vertices()). Nothing here reads caller memory
// but source_side. Throws UnboundedCut, std::out_of_range or std::invalid_argument (source or
// sink) with messages naming min_cut and the argument.
//
// Two routes to the same canonical cut (kInPlaceMaxInfiniteShare picks one):
//   * live network (many infinite edges, as in node-split graphs, where most vertices merge
//     into a terminal or are idle): reductions on the light input adjacency, max flow on a
//     residual graph of the live vertices only, idle vertices mapped back afterwards;
//   * in place (few infinite edges: nearly every vertex is live, so the adjacency and the copy
//     would be pure overhead): one residual graph of the input, CutSolver.
inline MinCutResult min_cut(const EdgeList& edges, int64_t source, int64_t sink,
                            Algorithm algorithm, bool check, uint8_t* source_side,
                            MinCutWorkspace* workspace) {
  const char* kFunction = "min_cut";
  const VertexId n = edges.num_vertices();
  const int64_t num_edges = edges.num_edges();
  check_min_cut_arguments(kFunction, n, source, sink);
  const int32_t* src = edges.src();
  const int32_t* dst = edges.dst();
  const int64_t* capacity = edges.capacity();
  const auto throw_unbounded = [&](const std::vector<VertexId>& p) {
    std::vector<int64_t> path(p.begin(), p.end());
    const std::string message = std::string(kFunction) +
                                ": no finite cut: the edges of infinite capacity form the path " +
                                format_path(path) + " from source to sink";
    throw UnboundedCut(message, std::move(path));
  };
  MinCutResult result;
  if (edges.num_infinite() <= num_edges * kInPlaceMaxInfiniteShare) {
    ResidualGraph& graph = workspace->graph;
    std::vector<int64_t>& residual = workspace->residual;
    graph.build(
        n, num_edges, src, dst, [&](int64_t e) { return capacity[e] > 0 && src[e] != dst[e]; },
        [&](int64_t e) { return capacity[e]; }, &residual, nullptr);
    CutSolver& solver = workspace->in_place;
    if (!solver.solve(graph, &residual, static_cast<VertexId>(source),
                      static_cast<VertexId>(sink), algorithm, check, kFunction)) {
      throw_unbounded(solver.unbounded_path());
    }
    result.algorithm = solver.used();
    const uint8_t* in_sink = solver.in_sink().data();
    for (VertexId v = 0; v < n; ++v) source_side[v] = in_sink[v] ^ 1;
  } else {
    live_network_cut(edges, static_cast<VertexId>(source), static_cast<VertexId>(sink),
                     algorithm, check, kFunction, throw_unbounded, source_side, workspace,
                     &result);
    return result;
  }

  for (int64_t i = 0; i < num_edges; ++i) {
    if (!source_side[src[i]] || source_side[dst[i]]) continue;
    if (capacity[i] >= kInfinity) {
      throw std::logic_error("min_cut: internal error: infinite edge " + std::to_string(i) +
                             " crosses the cut");
    }
    result.cut_edges.push_back(i);
    result.value += capacity[i];
  }
  return result;
}

}  // namespace fusioncut
