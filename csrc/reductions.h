// Linear-time reductions applied before a max-flow solve.
//
// Problem: given a graph with capacities (an AdjacencyView or ResidualView, adjacency.h), a
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
//
// Complexity: O(V + E); every adjacency list is scanned at most twice (once per direction).
#pragma once

#include <cstdint>
#include <vector>

#include "adjacency.h"
#include "residual_graph.h"

namespace fusioncut {

class Reductions {
 public:
  // `graph` is an AdjacencyView or a ResidualView (adjacency.h) of the initial capacities.
  // Returns false (and leaves roles undefined) when t is reachable from s through infinite
  // edges; then unbounded_path() holds one such path of vertices, s first.
  template <class View>
  bool run(const View& graph, VertexId s, VertexId t) {
    const VertexId n = graph.num_vertices();
    role_.assign(static_cast<size_t>(n), 0);
    uint8_t* role = role_.data();
    path_.clear();

    // Bits 4 and 8 mark vertices outside S_inf and T_inf that are reachable from S_inf
    // (kFromSource) or reach T_inf (kToSink) through positive edges. Each closure search also
    // collects the first frontier of its positive-edge search, so that no adjacency list is
    // scanned twice. Joining a closure clears those bits.
    constexpr uint8_t kFromSource = 4, kToSink = 8;
    std::vector<VertexId>& from_source = scratch_;
    std::vector<VertexId>& to_sink = scratch2_;
    from_source.clear();
    to_sink.clear();

    // S_inf, remembering the vertex that discovered each one for the unbounded path.
    parent_.resize(static_cast<size_t>(n));
    queue_.clear();
    queue_.push_back(s);
    role[s] = kSourceSet;
    parent_[s] = kNoVertex;
    bool unbounded = false;
    for (size_t q = 0; q < queue_.size() && !unbounded; ++q) {
      const VertexId x = queue_[q];
      graph.for_each_out(x, [&](VertexId w, int64_t c) {
        if (c >= kInfinity) {
          if (role[w] & kSourceSet) return;
          role[w] = kSourceSet;
          parent_[w] = x;
          queue_.push_back(w);
          unbounded |= w == t;
        } else if (c > 0 && role[w] == 0) {
          role[w] = kFromSource;
          from_source.push_back(w);
        }
      });
    }
    if (unbounded) {
      for (VertexId v = t; v != kNoVertex; v = parent_[v]) path_.push_back(v);
      std::vector<VertexId>(path_.rbegin(), path_.rend()).swap(path_);
      return false;
    }

    // T_inf: walk infinite edges backwards from t.
    queue_.clear();
    queue_.push_back(t);
    role[t] = kSinkSet;
    for (size_t q = 0; q < queue_.size(); ++q) {
      graph.for_each_in(queue_[q], [&](VertexId w, int64_t c) {
        if (role[w] & (kSourceSet | kSinkSet)) return;
        if (c >= kInfinity) {
          role[w] = kSinkSet;
          queue_.push_back(w);
        } else if (c > 0 && !(role[w] & kToSink)) {
          role[w] |= kToSink;
          to_sink.push_back(w);
        }
      });
    }

    // The positive-edge searches, skipping frontier vertices that later joined a closure.
    for (size_t q = 0; q < from_source.size(); ++q) {
      const VertexId x = from_source[q];
      if (role[x] & (kSourceSet | kSinkSet)) continue;
      graph.for_each_out(x, [&](VertexId w, int64_t c) {
        if ((role[w] & (kSourceSet | kSinkSet | kFromSource)) || c <= 0) return;
        role[w] |= kFromSource;
        from_source.push_back(w);
      });
    }
    for (size_t q = 0; q < to_sink.size(); ++q) {
      const VertexId x = to_sink[q];
      if (role[x] & (kSourceSet | kSinkSet)) continue;
      graph.for_each_in(x, [&](VertexId w, int64_t c) {
        if ((role[w] & (kSourceSet | kSinkSet | kToSink)) || c <= 0) return;
        role[w] |= kToSink;
        to_sink.push_back(w);
      });
    }
    num_live_ = 0;
    for (VertexId v = 0; v < n; ++v) {
      const uint8_t r = role[v];
      if (r >= kFromSource) {
        const bool live = (r & (kFromSource | kToSink)) == (kFromSource | kToSink);
        role[v] = live ? kLive : kIdle;
        num_live_ += live;
      }
    }
    return true;
  }

  const uint8_t* role() const { return role_.data(); }
  const std::vector<VertexId>& unbounded_path() const { return path_; }
  VertexId num_live() const { return num_live_; }

 private:
  std::vector<uint8_t> role_;       // a VertexRole per vertex (invariants 1, 2)
  std::vector<VertexId> parent_;    // the vertex that first reached a vertex of S_inf
  std::vector<VertexId> queue_;     // S_inf, then T_inf, in BFS order
  std::vector<VertexId> scratch_;   // queue of the search from S_inf through positive edges
  std::vector<VertexId> scratch2_;  // queue of the search towards T_inf
  std::vector<VertexId> path_;      // the s -> t path of infinite edges, if any
  VertexId num_live_ = 0;
};

}  // namespace fusioncut
