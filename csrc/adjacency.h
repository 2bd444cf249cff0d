// Forward and backward adjacency of an input edge list, for the reductions.
//
// Problem: the reductions (reductions.h) search the input graph forwards and backwards before
// any residual graph exists. Building the full residual graph (16 bytes per arc, paired arcs)
// just to find that most vertices are idle or merged into a terminal is wasteful, so min_cut
// first builds this lighter structure: per vertex, its out-edges and in-edges as
// (neighbour, edge) pairs. Only edges that can carry flow (positive capacity, not a self-loop)
// are kept, and each entry says whether its edge is infinite, so that the searches never read
// the caller's capacity array (a random access per entry).
//
//   out_first_: [0 | 2 | 3 | ...]   out_[out_first_[v] .. out_first_[v+1]) = {(dst[e], e) : src[e] == v}
//   in_first_:  [0 | 1 | 3 | ...]   in_[in_first_[v] .. in_first_[v+1])    = {(src[e], e) : dst[e] == v}
//   entry.edge:  e for a finite edge, ~e (negative) for an infinite one
//
// Invariants:
//   1. Exactly the edges with capacity > 0 and src != dst appear, each once in out_ and once
//      in in_.
//   2. Within a vertex, entries are in input-edge order (stable counting sort): deterministic.
//
// Complexity: O(V + E) time in two passes over the edges (count, place), 8 bytes per vertex
// and 16 bytes per edge.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "residual_graph.h"

namespace fusioncut {

struct AdjacencyEntry {
  VertexId vertex;  // the other endpoint
  int32_t edge;     // e, or ~e if the edge is infinite (invariant 1)

  bool infinite() const { return edge < 0; }
  int32_t edge_index() const { return edge < 0 ? ~edge : edge; }
};

class Adjacency {
 public:
  // Capacities must already be validated (in [0, kInfinity]). Returns false, with the
  // structure unusable, if some src[e] or dst[e] is outside [0, num_vertices): checking here,
  // in the counting pass that reads them anyway, saves min_cut a pass over both arrays.
  bool build(VertexId num_vertices, int64_t num_edges, const int64_t* src, const int64_t* dst,
             const int64_t* capacity) {
    if (num_edges > std::numeric_limits<int32_t>::max()) {
      throw std::length_error("fusioncut: " + std::to_string(num_edges) +
                              " edges exceed the supported maximum of " +
                              std::to_string(std::numeric_limits<int32_t>::max()));
    }
    num_vertices_ = num_vertices;
    // Counts land at [v] and become, by an inclusive prefix sum, the end of v's block; the
    // placement then walks the edges backwards and pre-decrements, which leaves each cursor
    // at the start of its block (the first array) and keeps input order (invariant 2)
    // without a separate shift pass.
    out_first_.assign(static_cast<size_t>(num_vertices) + 1, 0);
    in_first_.assign(static_cast<size_t>(num_vertices) + 1, 0);
    int32_t* out_first = out_first_.data();
    int32_t* in_first = in_first_.data();
    const auto end = static_cast<uint64_t>(num_vertices);
    for (int64_t e = 0; e < num_edges; ++e) {
      const int64_t u = src[e], v = dst[e];
      // Negative indices wrap to huge unsigned ones: one comparison checks both bounds.
      if ((static_cast<uint64_t>(u) >= end) | (static_cast<uint64_t>(v) >= end)) return false;
      const int32_t keep = (capacity[e] > 0) & (u != v);
      out_first[u] += keep;
      in_first[v] += keep;
    }
    int32_t out_total = 0, in_total = 0;
    for (VertexId v = 0; v < num_vertices; ++v) {
      out_first[v] = out_total += out_first[v];
      in_first[v] = in_total += in_first[v];
    }
    out_first[num_vertices] = out_total;
    in_first[num_vertices] = in_total;
    out_.resize(static_cast<size_t>(out_total));
    in_.resize(static_cast<size_t>(in_total));
    AdjacencyEntry* out = out_.data();
    AdjacencyEntry* in = in_.data();
    zero_capacity_.clear();
    for (int64_t e = num_edges - 1; e >= 0; --e) {
      const int64_t c = capacity[e];
      const auto u = static_cast<VertexId>(src[e]);
      const auto v = static_cast<VertexId>(dst[e]);
      if (c <= 0 || u == v) {
        if (c == 0) zero_capacity_.push_back(static_cast<int32_t>(e));
        continue;
      }
      const int32_t tag = c >= kInfinity ? ~static_cast<int32_t>(e) : static_cast<int32_t>(e);
      out[--out_first[u]] = {v, tag};
      in[--in_first[v]] = {u, tag};
    }
    return true;
  }

  VertexId num_vertices() const { return num_vertices_; }
  const int32_t* out_first() const { return out_first_.data(); }
  const int32_t* in_first() const { return in_first_.data(); }
  const AdjacencyEntry* out() const { return out_.data(); }
  const AdjacencyEntry* in() const { return in_.data(); }
  // The edges of capacity 0 (left out by invariant 1; min_cut still reports those that cross
  // the cut), in descending order.
  const std::vector<int32_t>& zero_capacity_edges() const { return zero_capacity_; }

 private:
  VertexId num_vertices_ = 0;
  std::vector<int32_t> out_first_, in_first_;  // invariant 1 (offsets)
  std::vector<AdjacencyEntry> out_, in_;       // invariants 1, 2
  std::vector<int32_t> zero_capacity_;
};

// The graph interface of Reductions over an Adjacency: f(w, infinite, k) for every edge of
// positive capacity x -> w (for_each_out) or w -> x (for_each_in); k is the entry's position
// in out() or in().
class AdjacencyView {
 public:
  explicit AdjacencyView(const Adjacency& adjacency)
      : n_(adjacency.num_vertices()),
        out_first_(adjacency.out_first()),
        in_first_(adjacency.in_first()),
        out_(adjacency.out()),
        in_(adjacency.in()) {}
  VertexId num_vertices() const { return n_; }
  template <class F>
  void for_each_out(VertexId x, F&& f) const {
    for (int32_t k = out_first_[x], end = out_first_[x + 1]; k < end; ++k) {
      f(out_[k].vertex, out_[k].infinite(), k);
    }
  }
  template <class F>
  void for_each_in(VertexId x, F&& f) const {
    for (int32_t k = in_first_[x], end = in_first_[x + 1]; k < end; ++k) {
      f(in_[k].vertex, in_[k].infinite(), k);
    }
  }

 private:
  VertexId n_;
  const int32_t* out_first_;
  const int32_t* in_first_;
  const AdjacencyEntry* out_;
  const AdjacencyEntry* in_;
};

// The same interface over a residual graph's initial capacities (a reverse arc has residual
// 0, so it is no edge); k is the arc.
class ResidualView {
 public:
  ResidualView(const ResidualGraph& g, const int64_t* residual)
      : n_(g.num_vertices()),
        first_(g.first_data()),
        head_(g.head_data()),
        reverse_(g.reverse_data()),
        residual_(residual) {}
  VertexId num_vertices() const { return n_; }
  template <class F>
  void for_each_out(VertexId x, F&& f) const {
    for (ArcId a = first_[x], end = first_[x + 1]; a < end; ++a) {
      const int64_t c = residual_[a];
      if (c > 0) f(head_[a], c >= kInfinity, a);
    }
  }
  template <class F>
  void for_each_in(VertexId x, F&& f) const {
    for (ArcId a = first_[x], end = first_[x + 1]; a < end; ++a) {
      const int64_t c = residual_[reverse_[a]];
      if (c > 0) f(head_[a], c >= kInfinity, a);
    }
  }

 private:
  VertexId n_;
  const ArcId* first_;
  const VertexId* head_;
  const ArcId* reverse_;
  const int64_t* residual_;
};

}  // namespace fusioncut
