// Linear-time reductions applied before a max-flow solve.
//
// Problem: given a residual graph with initial capacities, a source s and a sink t, find
//   S_inf = vertices reachable from s through infinite arcs   (on the source side of every
//           finite cut: merged into the source),
//   T_inf = vertices that reach t through infinite arcs       (merged into the sink),
//   idle  = the other vertices that lie on no path S_inf -> T_inf of positive-capacity arcs.
// If t is in S_inf there is no finite cut; find_unbounded_path() then returns one s -> t path
// of infinite arcs.
//
// Why the canonical cut survives (the sink side is "can reach t in the final residual graph"):
//   * Every finite cut has S_inf on the source side and T_inf on the sink side, so contracting
//     them maps finite cuts one-to-one, with equal values and ordered sink sides; the smallest
//     minimum sink side therefore maps to the smallest one.
//   * An idle vertex carries no flow in some maximum flow, so its residual arcs are its input
//     arcs. residual_sink_side() runs over all vertices, idle ones included, and so puts an
//     idle vertex on the sink side exactly when it reaches the sink side through such arcs.
//
// Invariants after run():
//   1. role_[s] == kSourceSet, role_[t] == kSinkSet; S_inf and T_inf are disjoint.
//   2. role_[v] == kLive iff v is outside S_inf and T_inf, reachable from S_inf and reaching
//      T_inf through positive-capacity arcs that avoid S_inf and T_inf.
//
// Complexity: four breadth-first searches, O(V + E).
#pragma once

#include <cstdint>
#include <vector>

#include "residual_graph.h"

namespace fusioncut {

class Reductions {
 public:
  // Returns false (and leaves roles undefined) when t is reachable from s through infinite
  // arcs; then unbounded_path() holds one such path of vertices, s first.
  template <class Cap>
  bool run(const ResidualGraph& g, const Cap* residual, VertexId s, VertexId t) {
    constexpr Cap kInf = CapacityTraits<Cap>::kInfinite;
    const VertexId n = g.num_vertices();
    const ArcId* first = g.first_data();
    const VertexId* head = g.head_data();
    const ArcId* reverse = g.reverse_data();
    role_.assign(static_cast<size_t>(n), 0);
    uint8_t* role = role_.data();
    path_.clear();

    // S_inf, remembering the arc that discovered each vertex for the unbounded path.
    parent_arc_.resize(static_cast<size_t>(n));
    queue_.clear();
    queue_.push_back(s);
    role[s] = kSourceSet;
    parent_arc_[s] = -1;
    for (size_t q = 0; q < queue_.size(); ++q) {
      const VertexId x = queue_[q];
      for (ArcId a = first[x], end = first[x + 1]; a < end; ++a) {
        const VertexId w = head[a];
        if (role[w] || residual[a] < kInf) continue;
        role[w] = kSourceSet;
        parent_arc_[w] = a;
        if (w == t) {
          for (VertexId v = t; v != s; v = head[reverse[parent_arc_[v]]]) path_.push_back(v);
          path_.push_back(s);
          std::vector<VertexId>(path_.rbegin(), path_.rend()).swap(path_);
          return false;
        }
        queue_.push_back(w);
      }
    }
    const size_t source_set_size = queue_.size();

    // T_inf: walk infinite arcs backwards from t.
    const size_t sink_begin = queue_.size();
    queue_.push_back(t);
    role[t] = kSinkSet;
    for (size_t q = sink_begin; q < queue_.size(); ++q) {
      const VertexId x = queue_[q];
      for (ArcId a = first[x], end = first[x + 1]; a < end; ++a) {
        const VertexId w = head[a];
        if (role[w] || residual[reverse[a]] < kInf) continue;
        role[w] = kSinkSet;
        queue_.push_back(w);
      }
    }

    // Forward from S_inf and backward from T_inf through positive arcs; a vertex seen by both
    // is live. Bits 4 and 8 mark the two searches on vertices outside S_inf and T_inf.
    constexpr uint8_t kFromSource = 4, kToSink = 8;
    std::vector<VertexId>& frontier = scratch_;
    frontier.assign(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(source_set_size));
    for (size_t q = 0; q < frontier.size(); ++q) {
      const VertexId x = frontier[q];
      for (ArcId a = first[x], end = first[x + 1]; a < end; ++a) {
        const VertexId w = head[a];
        if ((role[w] & (kSourceSet | kSinkSet | kFromSource)) || residual[a] <= 0) continue;
        role[w] |= kFromSource;
        frontier.push_back(w);
      }
    }
    frontier.assign(queue_.begin() + static_cast<ptrdiff_t>(sink_begin), queue_.end());
    for (size_t q = 0; q < frontier.size(); ++q) {
      const VertexId x = frontier[q];
      for (ArcId a = first[x], end = first[x + 1]; a < end; ++a) {
        const VertexId w = head[a];
        if ((role[w] & (kSourceSet | kSinkSet | kToSink)) || residual[reverse[a]] <= 0) continue;
        role[w] |= kToSink;
        frontier.push_back(w);
      }
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
  std::vector<uint8_t> role_;          // a VertexRole per vertex (invariants 1, 2)
  std::vector<ArcId> parent_arc_;      // the infinite arc that first reached a vertex of S_inf
  std::vector<VertexId> queue_;        // S_inf in BFS order, then T_inf in BFS order
  std::vector<VertexId> scratch_;      // frontier of the positive-arc searches
  std::vector<VertexId> path_;         // the s -> t path of infinite arcs, if any
  VertexId num_live_ = 0;
};

}  // namespace fusioncut
