// Every minimum cut at once: the strongly connected components of a maximum flow's residual
// graph.
//
// Problem: after a maximum (pre)flow, describe all minimum s-t cuts, not just the canonical
// one. Picard and Queyranne (1980): with a maximum flow f, a vertex set S (s in S, t not in S)
// is the source side of a minimum cut iff no residual arc leaves S. With a maximum preflow
// (push-relabel's first phase) the same holds once every vertex with positive excess is also
// required in S: the capacity of any cut is the flow into t, plus the excess on its sink side,
// plus the residual capacity from S to T (all three non-negative). So:
//
//   forced source  F_s = vertices reachable in the residual graph from the source set or from
//                        a vertex with positive excess: on the source side of every min cut;
//   forced sink    F_t = vertices that reach the sink set in the residual graph: on the sink
//                        side of every min cut (the canonical sink side of min_cut.h);
//   free           the rest. Contract each strongly connected component of the residual
//                  graph on the free vertices; a residual arc between components, tail ->
//                  head, means "tail on the source side forces head there too". The minimum
//                  cuts are exactly F_s plus a closure of that DAG (a set of components closed
//                  under its arcs).
//
// The caller supplies the residual after the solve and the initial capacities (for the
// excesses), in the capacity type the flow ran in.
//
// Invariants of the result:
//   1. component[v] is kForcedSource, kForcedSink or a free component id in [0, count);
//      components are numbered in Tarjan's completion order, so every DAG arc goes from a
//      higher id to a lower one (id order is a reverse topological order).
//   2. dag_tail/dag_head hold each arc between two distinct free components once, sorted.
//   3. No residual arc leads from F_s to a vertex outside F_s, and none into F_t from outside
//      (checked: a violation means the flow was not maximum and throws std::logic_error).
//
// Complexity: O(V + E) time (iterative Tarjan), O(V) extra memory plus the DAG's arcs.
//
// Reference: J.-C. Picard, M. Queyranne, "On the structure of all minimum cuts in a network
// and applications", Mathematical Programming Study 13, 1980.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "residual_graph.h"

namespace fusioncut {

struct ResidualComponents {
  static constexpr int32_t kForcedSource = -1;
  static constexpr int32_t kForcedSink = -2;
  std::vector<int32_t> component;  // per vertex (invariant 1)
  int32_t count = 0;               // free components
  std::vector<int32_t> dag_tail, dag_head;  // invariant 2
};

// `initial(a)` is arc a's capacity before the solve (0 for a reverse arc); `role` the
// reductions' vertex roles (kSourceSet, kSinkSet, ...); `residual` the final residual.
// `borders` (may be null): the source- and sink-set vertices with an arc to a vertex of another
// role (CutSolver::seeds()); the two reachability searches then start from those alone, since
// the others' arcs all lead into their own set, which is forced already.
template <class Cap, class InitialOf>
void residual_components(const ResidualGraph& g, const Cap* residual, InitialOf initial,
                         const uint8_t* role, const char* function, ResidualComponents* out,
                         const std::vector<VertexId>* borders = nullptr) {
  const VertexId n = g.num_vertices();
  const ArcId* first = g.first_data();
  const VertexId* head = g.head_data();
  const ArcId* reverse = g.reverse_data();
  constexpr int32_t kUnseen = -3;
  std::vector<int32_t>& comp = out->component;
  comp.assign(static_cast<size_t>(n), kUnseen);
  std::vector<VertexId> queue;
  queue.reserve(static_cast<size_t>(n));
  // F_s: the source set and every vertex holding excess (the sink set absorbs flow: its
  // excess is the flow value), then forward residual reachability.
  for (VertexId v = 0; v < n; ++v) {
    bool start = role[v] == kSourceSet;
    if (!start && role[v] != kSinkSet) {
      WideInt excess = 0;
      for (ArcId a = first[v]; a < first[v + 1]; ++a) {
        excess += WideInt{residual[a]} - WideInt{initial(a)};
      }
      start = excess > 0;
    }
    if (start) {
      comp[v] = ResidualComponents::kForcedSource;
      if (!borders || role[v] != kSourceSet) queue.push_back(v);
    }
  }
  if (borders) {
    for (const VertexId v : *borders) {
      if (role[v] == kSourceSet) queue.push_back(v);
    }
  }
  for (size_t q = 0; q < queue.size(); ++q) {
    const VertexId x = queue[q];
    for (ArcId a = first[x]; a < first[x + 1]; ++a) {
      const VertexId w = head[a];
      if (residual[a] <= 0 || comp[w] != kUnseen) continue;
      comp[w] = ResidualComponents::kForcedSource;
      queue.push_back(w);
    }
  }
  // F_t: backward residual reachability from the sink set.
  queue.clear();
  for (VertexId v = 0; v < n; ++v) {
    if (role[v] != kSinkSet) continue;
    if (comp[v] == ResidualComponents::kForcedSource) {
      throw std::logic_error(std::string(function) +
                             ": internal error: the sink set is reachable in the residual "
                             "graph (the flow is not maximum)");
    }
    comp[v] = ResidualComponents::kForcedSink;
    if (!borders) queue.push_back(v);
  }
  if (borders) {
    for (const VertexId v : *borders) {
      if (role[v] == kSinkSet) queue.push_back(v);
    }
  }
  for (size_t q = 0; q < queue.size(); ++q) {
    const VertexId x = queue[q];
    for (ArcId a = first[x]; a < first[x + 1]; ++a) {
      const VertexId w = head[a];
      if (residual[reverse[a]] <= 0 || comp[w] == ResidualComponents::kForcedSink) continue;
      if (comp[w] == ResidualComponents::kForcedSource) {
        throw std::logic_error(std::string(function) +
                               ": internal error: a residual path joins source and sink "
                               "(the flow is not maximum)");
      }
      comp[w] = ResidualComponents::kForcedSink;
      queue.push_back(w);
    }
  }
  // Tarjan's algorithm on the free vertices, iteratively: `stack` holds the vertices of
  // unfinished components, `call` the depth-first path with each vertex's next arc.
  std::vector<int32_t> index(static_cast<size_t>(n), -1), low(static_cast<size_t>(n), 0);
  std::vector<VertexId> stack;
  std::vector<std::pair<VertexId, ArcId>> call;
  int32_t next_index = 0, count = 0;
  for (VertexId root = 0; root < n; ++root) {
    if (comp[root] != kUnseen || index[root] >= 0) continue;
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    call.emplace_back(root, first[root]);
    while (!call.empty()) {
      auto& [v, a] = call.back();
      if (a < first[v + 1]) {
        const ArcId arc = a++;
        const VertexId w = head[arc];
        if (residual[arc] <= 0 || comp[w] != kUnseen) continue;  // forced or finished
        if (index[w] < 0) {
          index[w] = low[w] = next_index++;
          stack.push_back(w);
          call.emplace_back(w, first[w]);
        } else {
          low[v] = std::min(low[v], index[w]);  // w is on the stack: same component
        }
        continue;
      }
      const VertexId done = v;
      call.pop_back();
      if (!call.empty()) low[call.back().first] = std::min(low[call.back().first], low[done]);
      if (low[done] == index[done]) {
        VertexId w;
        do {
          w = stack.back();
          stack.pop_back();
          comp[w] = count;
        } while (w != done);
        ++count;
      }
    }
  }
  out->count = count;
  // The condensed arcs, each once.
  std::vector<std::pair<int32_t, int32_t>> arcs;
  for (VertexId v = 0; v < n; ++v) {
    const int32_t cv = comp[v];
    if (cv < 0) continue;
    for (ArcId a = first[v]; a < first[v + 1]; ++a) {
      const int32_t cw = comp[head[a]];
      if (residual[a] > 0 && cw >= 0 && cw != cv) arcs.emplace_back(cv, cw);
    }
  }
  std::sort(arcs.begin(), arcs.end());
  arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
  out->dag_tail.resize(arcs.size());
  out->dag_head.resize(arcs.size());
  for (size_t i = 0; i < arcs.size(); ++i) {
    out->dag_tail[i] = arcs[i].first;
    out->dag_head[i] = arcs[i].second;
  }
}

}  // namespace fusioncut
