// Optimality self-check of a computed minimum cut.
//
// Problem: given the initial and final residual capacities of a solve, the vertex roles and the
// returned sink side T, certify that T is the canonical minimum cut:
//   1. Capacity: every arc's residual is >= 0 and each arc pair keeps its total capacity.
//   2. Preflow: every vertex outside the source set has non-negative excess.
//   3. Roles: the source set lies outside T, the sink set inside T.
//   4. No augmenting path: no arc from outside T into T has residual capacity left.
//   5. Canonical: every vertex of T reaches the sink set in the residual graph (so T is exactly
//      the set of vertices that can, by 4).
//   6. Max-flow = min-cut: the capacity of the cut equals the flow into the sink set, and no
//      infinite arc crosses it.
// Together these prove the preflow maximum and the cut minimum (weak duality).
//
// Complexity: O(V + E).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "residual_graph.h"

namespace fusioncut {

// Returns an empty string when the cut is certified, else a description of the first failure.
template <class Cap>
std::string check_cut(const ResidualGraph& g, const Cap* initial, const Cap* residual,
                      const uint8_t* role, const uint8_t* in_sink) {
  constexpr Cap kInf = CapacityTraits<Cap>::kInfinite;
  const VertexId n = g.num_vertices();
  const ArcId* first = g.first_data();
  const VertexId* head = g.head_data();
  const ArcId* reverse = g.reverse_data();
  std::vector<WideInt> excess(static_cast<size_t>(n), 0);
  WideInt cut_capacity = 0;
  for (VertexId v = 0; v < n; ++v) {
    if (role[v] == kSourceSet && in_sink[v]) return "a source-set vertex is on the sink side";
    if (role[v] == kSinkSet && !in_sink[v]) return "a sink-set vertex is on the source side";
    for (ArcId a = first[v]; a < first[v + 1]; ++a) {
      const VertexId w = head[a];
      const ArcId b = reverse[a];
      if (residual[a] < 0) return "negative residual capacity on an arc";
      if (WideInt{residual[a]} + residual[b] != WideInt{initial[a]} + initial[b]) {
        return "an arc pair lost or gained capacity";
      }
      // Flow entering v through this pair is the residual gained by v's own arc.
      excess[v] += WideInt{residual[a]} - WideInt{initial[a]};
      if (!in_sink[v] && in_sink[w]) {
        if (residual[a] > 0) return "an augmenting arc leaves the source side";
        if (initial[a] >= kInf) return "an infinite arc crosses the cut";
        cut_capacity += initial[a];
      }
    }
  }
  WideInt flow = 0;
  for (VertexId v = 0; v < n; ++v) {
    if (role[v] != kSourceSet && excess[v] < 0) return "a vertex sends more flow than it gets";
    if (role[v] == kSinkSet) flow += excess[v];
  }
  if (flow != cut_capacity) {
    return "flow value " + to_string_wide(flow) + " differs from cut capacity " +
           to_string_wide(cut_capacity);
  }
  // 5: a fresh backward search from the sink set must find all of T.
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
  std::vector<VertexId> queue;
  for (VertexId v = 0; v < n; ++v) {
    if (role[v] == kSinkSet) {
      seen[v] = 1;
      queue.push_back(v);
    }
  }
  for (size_t q = 0; q < queue.size(); ++q) {
    const VertexId x = queue[q];
    for (ArcId a = first[x]; a < first[x + 1]; ++a) {
      const VertexId w = head[a];
      if (!seen[w] && residual[reverse[a]] > 0 && role[w] != kSourceSet) {
        seen[w] = 1;
        queue.push_back(w);
      }
    }
  }
  for (VertexId v = 0; v < n; ++v) {
    if (in_sink[v] && !seen[v]) return "a sink-side vertex cannot reach the sink";
  }
  return std::string();
}

}  // namespace fusioncut
