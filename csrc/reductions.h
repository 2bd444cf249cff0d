// Linear-time reductions applied before a max-flow solve.
//
// Problem: given a graph with capacities (an Adjacency or a ResidualView, adjacency.h), a
// source s and a sink t, find
//   S_inf = vertices reachable from s through infinite edges  (on the source side of every
//           finite cut: merged into the source),
//   T_inf = vertices that reach t through infinite edges      (merged into the sink),
//   idle  = the other vertices that lie on no path S_inf -> T_inf of positive-capacity edges.
// If t is in S_inf there is no finite cut; unbounded_path() then holds one s -> t path of
// infinite edges.
//
// Why the canonical cut survives (the sink side is "can reach t in the final residual graph"):
//   * Every finite cut has S_inf on the source side and T_inf on the sink side, so contracting
//     them maps finite cuts one-to-one, with equal values and ordered sink sides; the smallest
//     minimum sink side therefore maps to the smallest one.
//   * An idle vertex carries no flow in some maximum flow (flow runs on S_inf -> T_inf paths),
//     so its residual edges are its input edges. One that cannot reach T_inf stays on the
//     source side; one that can is on the sink side exactly when it reaches the sink side
//     through idle vertices (from a live vertex no residual edge leads back to an idle one).
//     residual_sink_side() over all vertices, or min_cut's backward search through idle
//     vertices, computes exactly that.
//
// Invariants after run():
//   1. role_[s] == kSourceSet, role_[t] == kSinkSet; S_inf and T_inf are disjoint.
//   2. role_[v] == kLive iff v is outside S_inf and T_inf, reachable from S_inf and reaching
//      T_inf through positive-capacity arcs that avoid S_inf and T_inf.
//   3. Every other vertex outside S_inf and T_inf is kIdleToSink if it reaches T_inf that way,
//      else kIdle. Only a kIdleToSink vertex can be on the sink side: it must reach a sink-side
//      vertex through idle vertices, and from there T_inf through positive edges.
//
// Complexity: O(V + E); every adjacency list is scanned at most twice (once per direction).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "adjacency.h"
#include "residual_graph.h"

namespace fusioncut {

// The first `size` entries of a vertex array, for range-for loops.
struct VertexSpan {
  const VertexId* first;
  size_t count;
  const VertexId* begin() const { return first; }
  const VertexId* end() const { return first + count; }
  size_t size() const { return count; }
};

class Reductions {
 public:
  // `graph` is an Adjacency or a ResidualView (adjacency.h) of the initial capacities: its
  // for_each_out / for_each_in call f(w, infinite, k) for every positive-capacity edge (k: the
  // view's handle of the edge).
  // Returns false (and leaves roles undefined) when t is reachable from s through infinite
  // edges; then unbounded_path() holds one such path of vertices, s first.
  //
  // The queues are preallocated (each vertex joins each at most once: n slots) and the
  // discoverers of S_inf are not recorded; find_unbounded_path() searches again in the rare
  // failure case. (A branch-free variant of the searches, selects instead of the
  // data-dependent branches, measured 15% slower on the GPT networks: it writes every entry.)
  template <class View>
  bool run(const View& graph, VertexId s, VertexId t) {
    const VertexId n = graph.num_vertices();
    role_.assign(static_cast<size_t>(n), 0);
    uint8_t* role = role_.data();
    path_.clear();
    for (std::vector<VertexId>* v : {&queue_, &from_source_, &to_sink_}) {
      if (v->size() < static_cast<size_t>(n)) v->resize(static_cast<size_t>(n));
    }
    VertexId* queue = queue_.data();
    VertexId* from_source = from_source_.data();
    VertexId* to_sink = to_sink_.data();

    // Bits 4 and 8 mark vertices outside S_inf and T_inf that are reachable from S_inf
    // (kFromSource) or reach T_inf (kToSink) through positive edges. Each closure search also
    // collects the first frontier of its positive-edge search, so that no adjacency list is
    // scanned twice. Joining a closure clears those bits.
    constexpr uint8_t kFromSource = 4, kToSink = 8;
    size_t from_source_end = 0, to_sink_end = 0;

    // S_inf, recording the finite edges that leave it (the only ones out of S_inf that can
    // cross a finite cut).
    source_frontier_.clear();
    queue[0] = s;
    role[s] = kSourceSet;
    size_t queue_end = 1;
    for (size_t q = 0; q < queue_end; ++q) {
      graph.for_each_out(queue[q], [&](VertexId w, bool infinite, int32_t k) {
        if (infinite) {
          if (role[w] & kSourceSet) return;
          role[w] = kSourceSet;
          queue[queue_end++] = w;
          return;
        }
        source_frontier_.push_back(k);
        if (role[w] == 0) {
          role[w] = kFromSource;
          from_source[from_source_end++] = w;
        }
      });
    }
    if (role[t] == kSourceSet) {
      find_unbounded_path(graph, s, t);
      return false;
    }

    // T_inf: walk infinite edges backwards from t.
    queue[0] = t;
    role[t] = kSinkSet;
    queue_end = 1;
    for (size_t q = 0; q < queue_end; ++q) {
      graph.for_each_in(queue[q], [&](VertexId w, bool infinite, int32_t) {
        if (role[w] & (kSourceSet | kSinkSet)) return;
        if (infinite) {
          role[w] = kSinkSet;
          queue[queue_end++] = w;
        } else if (!(role[w] & kToSink)) {
          role[w] |= kToSink;
          to_sink[to_sink_end++] = w;
        }
      });
    }

    // The positive-edge searches, skipping frontier vertices that later joined a closure.
    for (size_t q = 0; q < from_source_end; ++q) {
      const VertexId x = from_source[q];
      if (role[x] & (kSourceSet | kSinkSet)) continue;
      graph.for_each_out(x, [&](VertexId w, bool, int32_t) {
        if (role[w] & (kSourceSet | kSinkSet | kFromSource)) return;
        role[w] |= kFromSource;
        from_source[from_source_end++] = w;
      });
    }
    for (size_t q = 0; q < to_sink_end; ++q) {
      const VertexId x = to_sink[q];
      if (role[x] & (kSourceSet | kSinkSet)) continue;
      graph.for_each_in(x, [&](VertexId w, bool, int32_t) {
        if (role[w] & (kSourceSet | kSinkSet | kToSink)) return;
        role[w] |= kToSink;
        to_sink[to_sink_end++] = w;
      });
    }
    to_sink_count_ = to_sink_end;

    // Bits to roles: the byte is 0..2 (no bits: unreached, S_inf, T_inf), 4 (kIdle),
    // 8 (kIdleToSink) or 12 (kLive), so byte comparisons do it, and the compiler vectorises
    // them (16 vertices an instruction even on plain SSE2).
    static_assert(kFromSource == 4 && kToSink == 8 && kIdle == 0, "the mapping below");
    for (VertexId v = 0; v < n; ++v) {
      const uint8_t r = role[v];
      role[v] = static_cast<uint8_t>((r & 3) | (r == kToSink ? kIdleToSink : 0) |
                                     (r == (kFromSource | kToSink) ? kLive : 0));
    }
    return true;
  }

  const uint8_t* role() const { return role_.data(); }
  // Every vertex outside S_inf and T_inf that reaches T_inf through positive edges avoiding
  // both (the kLive and kIdleToSink vertices), once each, plus vertices that were found so and
  // joined a closure later (filter by role). Lets callers visit those roles without a pass
  // over all vertices.
  VertexSpan reaching_sink() const { return {to_sink_.data(), to_sink_count_}; }
  // The view's handles (an Adjacency's: edge indices) of the finite positive edges out of
  // S_inf's vertices, each once (their heads may have joined S_inf later).
  const std::vector<int32_t>& source_frontier() const { return source_frontier_; }
  const std::vector<VertexId>& unbounded_path() const { return path_; }

 private:
  // The failure case only: a breadth-first search over infinite edges from s that remembers
  // each vertex's discoverer, so that the hot search above need not.
  template <class View>
  void find_unbounded_path(const View& graph, VertexId s, VertexId t) {
    std::vector<VertexId> parent(static_cast<size_t>(graph.num_vertices()), kNoVertex);
    std::vector<VertexId> queue{s};
    parent[s] = s;
    for (size_t q = 0; q < queue.size() && parent[t] == kNoVertex; ++q) {
      const VertexId x = queue[q];
      graph.for_each_out(x, [&](VertexId w, bool infinite, int32_t) {
        if (!infinite || parent[w] != kNoVertex) return;
        parent[w] = x;
        queue.push_back(w);
      });
    }
    for (VertexId v = t; v != s; v = parent[v]) path_.push_back(v);
    path_.push_back(s);
    std::reverse(path_.begin(), path_.end());
  }

  std::vector<uint8_t> role_;          // a VertexRole per vertex (invariants 1, 2, 3)
  std::vector<VertexId> queue_;        // S_inf, then T_inf, in BFS order (n + 1 slots)
  std::vector<VertexId> from_source_;  // queue of the search from S_inf through positive edges
  std::vector<VertexId> to_sink_;      // queue of the search towards T_inf
  size_t to_sink_count_ = 0;           // entries of to_sink_ in use
  std::vector<int32_t> source_frontier_;
  std::vector<VertexId> path_;         // the s -> t path of infinite edges, if any
};

}  // namespace fusioncut
