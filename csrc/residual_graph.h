// Compressed (CSR) residual graph with paired reverse arcs.
//
// Problem: every max-flow algorithm in fusioncut walks the residual graph of a directed
// network G = (V, E, c). Each input edge u -> v with capacity c becomes two arcs: a forward
// arc in u's block (residual c) and its reverse arc in v's block (residual 0).
//
//   first_:   [ 0 | 3 | 5 | ... | num_arcs ]     arcs of v are first_[v] .. first_[v + 1] - 1
//   head_:    [ v0  v1  v2 | ... ]               the vertex an arc points to
//   reverse_: [ a'  b'  c' | ... ]               the paired arc, reverse_[reverse_[a]] == a
//
// The residual capacities live outside the topology (a plain array indexed by arc) so that one
// topology can be re-solved with new capacities (NodeCutGraph) and solved in 64 or 128 bits.
//
// Invariants:
//   1. first_ is non-decreasing, first_[0] == 0, first_[num_vertices] == num_arcs.
//   2. reverse_ is an involution without fixed points; head_[reverse_[a]] is a's tail.
//   3. Arcs of one vertex appear in input-edge order (counting sort is stable): deterministic.
//
// Complexity: build is O(V + E) time, 2 counting passes, no per-edge allocation.
// Memory: 8 bytes per arc of topology (+ 8 or 16 per arc of residual capacity).
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace fusioncut {

using VertexId = int32_t;
using ArcId = int32_t;
using WideInt = __int128;

// An edge with this capacity can never be cut; finite capacities lie in [0, kInfinity).
constexpr int64_t kInfinity = int64_t{1} << 62;
constexpr VertexId kNoVertex = -1;

// The capacity types the solvers are instantiated for. 64 bits is the fast path; when the
// total capacity leaving the source could reach kInfinity, the 128-bit path keeps every sum
// exact (2^31 arcs * 2^62 < 2^93 < kInfinite).
template <class Cap>
struct CapacityTraits;
template <>
struct CapacityTraits<int64_t> {
  static constexpr int64_t kInfinite = kInfinity;
};
template <>
struct CapacityTraits<WideInt> {
  static constexpr WideInt kInfinite = WideInt{1} << 120;
};

// Decimal text of a 128-bit integer, for error messages and the Python int conversion.
inline std::string to_string_wide(WideInt x) {
  if (x == 0) return "0";
  bool negative = x < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(x) : x;
  std::string digits;
  while (u > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

class ResidualGraph {
 public:
  // Builds the topology from `num_edges` edges (src[i], dst[i]) that the caller has already
  // bounds-checked. Only edges with keep(i) get arcs. Writes the initial residual capacities
  // (capacity(i) forward, 0 reverse) into *residual and, if arc_of_edge is non-null, the forward
  // arc of every kept edge (-1 for the others).
  template <class Index, class Keep, class CapacityOf>
  void build(VertexId num_vertices, int64_t num_edges, const Index* src, const Index* dst,
             Keep keep, CapacityOf capacity, std::vector<int64_t>* residual,
             std::vector<ArcId>* arc_of_edge) {
    num_vertices_ = num_vertices;
    // Counts land at [v] and become, by an inclusive prefix sum, the end of v's block; the
    // placement walks the edges backwards and pre-decrements, which leaves each cursor at the
    // start of its block and keeps input order (invariant 3) without a cursor copy.
    first_.assign(static_cast<size_t>(num_vertices) + 1, 0);
    ArcId* first = first_.data();
    int64_t num_arcs = 0;
    for (int64_t i = 0; i < num_edges; ++i) {
      if (!keep(i)) continue;
      ++first[src[i]];
      ++first[dst[i]];
      num_arcs += 2;
    }
    if (num_arcs > std::numeric_limits<ArcId>::max()) {
      throw std::length_error("fusioncut: " + std::to_string(num_arcs / 2) +
                              " edges exceed the supported maximum of " +
                              std::to_string(std::numeric_limits<ArcId>::max() / 2));
    }
    ArcId total = 0;
    for (VertexId v = 0; v < num_vertices; ++v) first[v] = total += first[v];
    first[num_vertices] = total;
    head_.resize(static_cast<size_t>(num_arcs));
    reverse_.resize(static_cast<size_t>(num_arcs));
    residual->resize(static_cast<size_t>(num_arcs));
    if (arc_of_edge) arc_of_edge->assign(static_cast<size_t>(num_edges), -1);
    VertexId* head = head_.data();
    ArcId* reverse = reverse_.data();
    int64_t* res = residual->data();
    for (int64_t i = num_edges - 1; i >= 0; --i) {
      if (!keep(i)) continue;
      const auto u = static_cast<VertexId>(src[i]);
      const auto v = static_cast<VertexId>(dst[i]);
      const ArcId a = --first[u];
      const ArcId b = --first[v];
      head[a] = v;
      head[b] = u;
      reverse[a] = b;
      reverse[b] = a;
      res[a] = capacity(i);
      res[b] = 0;
      if (arc_of_edge) (*arc_of_edge)[i] = a;
    }
  }

  VertexId num_vertices() const { return num_vertices_; }
  ArcId num_arcs() const { return static_cast<ArcId>(head_.size()); }
  ArcId first_arc(VertexId v) const { return first_[v]; }
  ArcId end_arc(VertexId v) const { return first_[v + 1]; }
  VertexId head(ArcId a) const { return head_[a]; }
  ArcId reverse(ArcId a) const { return reverse_[a]; }
  const ArcId* first_data() const { return first_.data(); }
  const VertexId* head_data() const { return head_.data(); }
  const ArcId* reverse_data() const { return reverse_.data(); }

 private:
  VertexId num_vertices_ = 0;
  std::vector<ArcId> first_;     // invariant 1
  std::vector<VertexId> head_;   // head_[a]: the vertex arc a points to
  std::vector<ArcId> reverse_;   // invariant 2
};

// The role each vertex plays in a reduced problem (see reductions.h).
enum VertexRole : uint8_t {
  kIdle = 0,        // on no path from the source set to the sink set: the solvers skip it
  kSourceSet = 1,   // reachable from the source through infinite edges: merged into the source
  kSinkSet = 2,     // reaches the sink through infinite edges: merged into the sink
  kLive = 3,        // everything else
  kIdleToSink = 4,  // idle, but reaches the sink set through positive edges: the only idle
                    // vertices that can end on the sink side (min_cut searches just these)
};

// The canonical sink side: the vertices that can reach the sink set in the residual graph
// without passing through the source set. in_sink[v] becomes 1 for those, 0 otherwise.
// `queue` is scratch space. O(V + E).
template <class Cap>
void residual_sink_side(const ResidualGraph& g, const Cap* residual, const uint8_t* role,
                        std::vector<uint8_t>* in_sink, std::vector<VertexId>* queue) {
  const VertexId n = g.num_vertices();
  in_sink->assign(static_cast<size_t>(n), 0);
  queue->clear();
  uint8_t* mark = in_sink->data();
  for (VertexId v = 0; v < n; ++v) {
    if (role[v] == kSinkSet) {
      mark[v] = 1;
      queue->push_back(v);
    }
  }
  const ArcId* first = g.first_data();
  const VertexId* head = g.head_data();
  const ArcId* reverse = g.reverse_data();
  for (size_t q = 0; q < queue->size(); ++q) {
    const VertexId x = (*queue)[q];
    for (ArcId a = first[x], end = first[x + 1]; a < end; ++a) {
      const VertexId w = head[a];
      if (mark[w] || role[w] == kSourceSet || residual[reverse[a]] <= 0) continue;
      mark[w] = 1;
      queue->push_back(w);
    }
  }
}

// residual_sink_side() for a flow that ran through no idle vertex (Boykov-Kolmogorov claims
// none), when in_sink already holds the side of every other vertex: an idle vertex's residual
// arcs are then its input edges, and it is on the sink side iff it reaches that side through
// idle vertices, which only kIdleToSink ones can (reductions.h, invariant 3). `candidates`
// lists every kIdleToSink vertex (entries of other roles are skipped), so the search touches
// their arcs only, not the sink set's. `queue` is scratch space.
template <class Cap>
void idle_sink_side(const ResidualGraph& g, const Cap* residual, const uint8_t* role,
                    const VertexId* candidates, size_t num_candidates,
                    std::vector<uint8_t>* in_sink, std::vector<VertexId>* queue) {
  uint8_t* mark = in_sink->data();
  const ArcId* first = g.first_data();
  const VertexId* head = g.head_data();
  const ArcId* reverse = g.reverse_data();
  queue->clear();
  for (size_t i = 0; i < num_candidates; ++i) {
    const VertexId w = candidates[i];
    if (role[w] != kIdleToSink || mark[w]) continue;
    for (ArcId a = first[w], end = first[w + 1]; a < end; ++a) {
      if (residual[a] > 0 && mark[head[a]]) {
        mark[w] = 1;
        queue->push_back(w);
        break;
      }
    }
  }
  for (size_t q = 0; q < queue->size(); ++q) {
    const VertexId x = (*queue)[q];
    for (ArcId a = first[x], end = first[x + 1]; a < end; ++a) {
      const VertexId w = head[a];
      if (mark[w] || role[w] != kIdleToSink || residual[reverse[a]] <= 0) continue;
      mark[w] = 1;
      queue->push_back(w);
    }
  }
}

}  // namespace fusioncut
