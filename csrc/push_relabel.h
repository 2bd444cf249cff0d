// Highest-label push-relabel, first phase only.
//
// Problem: given a residual graph whose vertices are tagged by Reductions (a source set, a sink
// set, live and idle vertices), compute a maximum preflow: afterwards no vertex with excess can
// reach the sink set in the residual graph, so residual_sink_side() yields a minimum cut. The
// second phase (returning stranded excess to the source) only changes arcs inside the source
// side, so it cannot change that cut, and is skipped.
//
// Invariants (v live unless said otherwise):
//   1. Valid labelling: label_[v] <= label_[w] + 1 for every residual arc v -> w with
//      label_[v] < n; sink-set vertices have label 0, the source set and dead vertices n.
//   2. label_[v] == n means v cannot reach the sink set; it is never processed again.
//   3. A live vertex with 0 < label_[v] < n is in exactly one bucket list of its label: the
//      active list if excess_[v] > 0, the inactive list otherwise (except the vertex being
//      discharged, which is in none).
//   4. No active vertex has a label above max_active_; no bucketed vertex one above max_label_.
//   5. Arcs before current_[v] in v's block are not admissible (current-arc invariant).
//
// Heuristics (Cherkassky & Goldberg): highest-label selection, global relabelling by a
// backward breadth-first search from the sink set after O(n + m) relabelling work, and the
// gap heuristic (an empty label k strands every vertex labelled above k).
//
// Complexity: O(n^2 sqrt(m)) worst case; near-linear on the graphs fusioncut sees.
//
// References: A. V. Goldberg, R. E. Tarjan, "A new approach to the maximum-flow problem",
// JACM 1988. B. V. Cherkassky, A. V. Goldberg, "On implementing the push-relabel method for the
// maximum flow problem", Algorithmica 1997.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "residual_graph.h"

namespace fusioncut {

template <class Cap>
class PushRelabel {
 public:
  // Runs the first phase on `residual` (modified in place) for the roles of Reductions.
  void run(const ResidualGraph& g, Cap* residual, const uint8_t* role) {
    residual_ = residual;
    role_ = role;
    n_ = g.num_vertices();
    first_ = g.first_data();
    head_ = g.head_data();
    reverse_ = g.reverse_data();
    label_.assign(static_cast<size_t>(n_), n_);
    excess_.assign(static_cast<size_t>(n_), Cap{0});
    current_.resize(static_cast<size_t>(n_));
    next_.resize(static_cast<size_t>(n_));
    prev_.resize(static_cast<size_t>(n_));
    active_.assign(static_cast<size_t>(n_) + 1, kNoVertex);
    inactive_.assign(static_cast<size_t>(n_) + 1, kNoVertex);
    max_label_ = 0;
    max_active_ = 0;

    // Saturate every arc leaving the source set towards a vertex that can carry flow.
    for (VertexId u = 0; u < n_; ++u) {
      if (role[u] != kSourceSet) continue;
      for (ArcId a = first_[u], end = first_[u + 1]; a < end; ++a) {
        const VertexId w = head_[a];
        const Cap delta = residual[a];
        if (delta <= 0 || (role[w] != kLive && role[w] != kSinkSet)) continue;
        residual[a] = 0;
        residual[reverse_[a]] += delta;
        excess_[w] += delta;
      }
    }
    global_relabel();
    const int64_t relabel_budget =
        kGlobalRelabelPeriod * (kAlpha * static_cast<int64_t>(n_) + g.num_arcs() / 2);
    work_ = 0;
    while (max_active_ > 0) {
      const VertexId v = active_[max_active_];
      if (v == kNoVertex) {
        --max_active_;
        continue;
      }
      active_[max_active_] = next_[v];
      discharge(v);
      if (work_ > relabel_budget) {
        global_relabel();
        work_ = 0;
      }
    }
  }

 private:
  static constexpr int64_t kAlpha = 6;                // global relabel: work per vertex
  static constexpr int64_t kRelabelWork = 12;         // work charged per relabel, plus its degree
  static constexpr int64_t kGlobalRelabelPeriod = 4;  // relabel work / (alpha n + m) between
                                                      // global relabels (measured on bench/)

  void push_active(VertexId v, VertexId d) {
    next_[v] = active_[d];
    active_[d] = v;
    if (d > max_active_) max_active_ = d;
  }
  void push_inactive(VertexId v, VertexId d) {
    const VertexId h = inactive_[d];
    next_[v] = h;
    prev_[v] = kNoVertex;
    if (h != kNoVertex) prev_[h] = v;
    inactive_[d] = v;
  }
  void remove_inactive(VertexId v, VertexId d) {
    const VertexId p = prev_[v], q = next_[v];
    if (p != kNoVertex) next_[p] = q; else inactive_[d] = q;
    if (q != kNoVertex) prev_[q] = p;
  }

  // Exact distances to the sink set by a backward breadth-first search; the rest become dead.
  void global_relabel() {
    for (VertexId d = 0; d <= max_label_; ++d) active_[d] = inactive_[d] = kNoVertex;
    for (VertexId v = 0; v < n_; ++v) {
      if (role_[v] == kLive) label_[v] = n_;
    }
    queue_.clear();
    for (VertexId v = 0; v < n_; ++v) {
      if (role_[v] == kSinkSet) {
        label_[v] = 0;
        queue_.push_back(v);
      }
    }
    max_label_ = 0;
    max_active_ = 0;
    for (size_t q = 0; q < queue_.size(); ++q) {
      const VertexId x = queue_[q];
      const VertexId d = label_[x] + 1;
      for (ArcId a = first_[x], end = first_[x + 1]; a < end; ++a) {
        const VertexId w = head_[a];
        if (label_[w] != n_ || role_[w] != kLive || residual_[reverse_[a]] <= 0) continue;
        label_[w] = d;
        current_[w] = first_[w];
        if (excess_[w] > 0) push_active(w, d); else push_inactive(w, d);
        max_label_ = d;
        queue_.push_back(w);
      }
    }
  }

  // Pushes v's excess along admissible arcs, relabelling as needed, until v is inactive or
  // dead. v is in no bucket on entry (invariant 3).
  void discharge(VertexId v) {
    Cap* residual = residual_;
    VertexId d = label_[v];
    for (;;) {
      const VertexId below = d - 1;
      Cap excess = excess_[v];
      ArcId a = current_[v];
      const ArcId end = first_[v + 1];
      for (; a < end; ++a) {
        if (residual[a] <= 0) continue;
        const VertexId w = head_[a];
        if (label_[w] != below) continue;
        const Cap delta = std::min(excess, residual[a]);
        residual[a] -= delta;
        residual[reverse_[a]] += delta;
        if (below > 0 && excess_[w] == 0) {
          remove_inactive(w, below);
          push_active(w, below);
        }
        excess_[w] += delta;
        excess -= delta;
        if (excess == 0) break;
      }
      excess_[v] = excess;
      if (excess == 0) {
        current_[v] = a;
        push_inactive(v, d);
        return;
      }
      // Relabel: no admissible arc is left.
      work_ += kRelabelWork + (end - first_[v]);
      VertexId new_label = n_;
      ArcId new_current = end;
      for (ArcId b = first_[v]; b < end; ++b) {
        if (residual[b] > 0 && label_[head_[b]] < new_label) {
          new_label = label_[head_[b]];
          new_current = b;
        }
      }
      ++new_label;
      if (active_[d] == kNoVertex && inactive_[d] == kNoVertex) {
        gap(d);  // v was the last vertex labelled d: v and everything above are stranded
        label_[v] = n_;
        return;
      }
      if (new_label >= n_) {
        label_[v] = n_;
        return;
      }
      d = new_label;
      label_[v] = d;
      current_[v] = new_current;
      if (d > max_label_) max_label_ = d;
    }
  }

  void gap(VertexId empty) {
    for (VertexId d = empty + 1; d <= max_label_; ++d) {
      for (VertexId v = active_[d]; v != kNoVertex; v = next_[v]) label_[v] = n_;
      for (VertexId v = inactive_[d]; v != kNoVertex; v = next_[v]) label_[v] = n_;
      active_[d] = inactive_[d] = kNoVertex;
    }
    max_label_ = empty - 1;
    if (max_active_ > max_label_) max_active_ = max_label_;
  }

  Cap* residual_ = nullptr;
  const uint8_t* role_ = nullptr;
  VertexId n_ = 0;
  const ArcId* first_ = nullptr;
  const VertexId* head_ = nullptr;
  const ArcId* reverse_ = nullptr;
  std::vector<VertexId> label_;     // invariants 1, 2
  std::vector<Cap> excess_;         // inflow minus outflow; > 0 marks an active live vertex
  std::vector<ArcId> current_;      // invariant 5
  std::vector<VertexId> next_;      // bucket list links (invariant 3)
  std::vector<VertexId> prev_;      // backward links of the inactive lists
  std::vector<VertexId> active_;    // active_[d]: first active vertex labelled d
  std::vector<VertexId> inactive_;  // inactive_[d]: first inactive vertex labelled d
  std::vector<VertexId> queue_;     // global relabel scratch
  VertexId max_label_ = 0;          // invariant 4
  VertexId max_active_ = 0;         // invariant 4
  int64_t work_ = 0;                // relabel work since the last global relabel
};

}  // namespace fusioncut
