// Forward and backward adjacency of an input edge list, for the reductions.
//
// Problem: the reductions (reductions.h) search the input graph forwards and backwards before
// any residual graph exists. Building the full residual graph (16 bytes per arc, paired arcs)
// just to find that most vertices are idle or merged into a terminal is wasteful, so min_cut
// first builds this lighter structure: per vertex, its out-edges and in-edges as
// (neighbour, edge id) pairs, edge ids indexing the caller's capacity array.
//
//   out_first_: [0 | 2 | 3 | ...]   out_[out_first_[v] .. out_first_[v+1]) = {(dst[e], e) : src[e] == v}
//   in_first_:  [0 | 1 | 3 | ...]   in_[in_first_[v] .. in_first_[v+1])    = {(src[e], e) : dst[e] == v}
//
// Invariants:
//   1. Only edges with keep(e) appear, each once in out_ and once in in_.
//   2. Within a vertex, entries are in input-edge order (stable counting sort): deterministic.
//
// Complexity: O(V + E) time, 8 bytes per vertex and 16 bytes per edge.
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
  int32_t edge;     // index into the caller's edge arrays
};

class Adjacency {
 public:
  template <class Index, class Keep>
  void build(VertexId num_vertices, int64_t num_edges, const Index* src, const Index* dst,
             Keep keep) {
    if (num_edges > std::numeric_limits<int32_t>::max()) {
      throw std::length_error("fusioncut: " + std::to_string(num_edges) +
                              " edges exceed the supported maximum of " +
                              std::to_string(std::numeric_limits<int32_t>::max()));
    }
    num_vertices_ = num_vertices;
    out_first_.assign(static_cast<size_t>(num_vertices) + 1, 0);
    in_first_.assign(static_cast<size_t>(num_vertices) + 1, 0);
    for (int64_t e = 0; e < num_edges; ++e) {
      if (!keep(e)) continue;
      ++out_first_[static_cast<size_t>(src[e]) + 1];
      ++in_first_[static_cast<size_t>(dst[e]) + 1];
    }
    for (VertexId v = 0; v < num_vertices; ++v) {
      out_first_[v + 1] += out_first_[v];
      in_first_[v + 1] += in_first_[v];
    }
    out_.resize(static_cast<size_t>(out_first_[num_vertices]));
    in_.resize(static_cast<size_t>(in_first_[num_vertices]));
    // Place with the first arrays as cursors, then shift them back one slot.
    for (int64_t e = 0; e < num_edges; ++e) {
      if (!keep(e)) continue;
      const auto u = static_cast<VertexId>(src[e]);
      const auto v = static_cast<VertexId>(dst[e]);
      out_[out_first_[u]++] = {v, static_cast<int32_t>(e)};
      in_[in_first_[v]++] = {u, static_cast<int32_t>(e)};
    }
    for (VertexId v = num_vertices; v > 0; --v) {
      out_first_[v] = out_first_[v - 1];
      in_first_[v] = in_first_[v - 1];
    }
    out_first_[0] = in_first_[0] = 0;
  }

  VertexId num_vertices() const { return num_vertices_; }
  const int32_t* out_first() const { return out_first_.data(); }
  const int32_t* in_first() const { return in_first_.data(); }
  const AdjacencyEntry* out() const { return out_.data(); }
  const AdjacencyEntry* in() const { return in_.data(); }

 private:
  VertexId num_vertices_ = 0;
  std::vector<int32_t> out_first_, in_first_;  // invariant 1 (offsets)
  std::vector<AdjacencyEntry> out_, in_;       // invariants 1, 2
};

// The graph interface of Reductions over an Adjacency and its edge capacities.
class AdjacencyView {
 public:
  AdjacencyView(const Adjacency& adjacency, const int64_t* capacity)
      : n_(adjacency.num_vertices()),
        out_first_(adjacency.out_first()),
        in_first_(adjacency.in_first()),
        out_(adjacency.out()),
        in_(adjacency.in()),
        capacity_(capacity) {}
  VertexId num_vertices() const { return n_; }
  // f(w, c) for every edge x -> w of capacity c.
  template <class F>
  void for_each_out(VertexId x, F&& f) const {
    for (int32_t k = out_first_[x], end = out_first_[x + 1]; k < end; ++k) {
      f(out_[k].vertex, capacity_[out_[k].edge]);
    }
  }
  // f(w, c) for every edge w -> x of capacity c.
  template <class F>
  void for_each_in(VertexId x, F&& f) const {
    for (int32_t k = in_first_[x], end = in_first_[x + 1]; k < end; ++k) {
      f(in_[k].vertex, capacity_[in_[k].edge]);
    }
  }

 private:
  VertexId n_;
  const int32_t* out_first_;
  const int32_t* in_first_;
  const AdjacencyEntry* out_;
  const AdjacencyEntry* in_;
  const int64_t* capacity_;
};

// The same interface over a residual graph's initial capacities (a reverse arc has residual
// 0, so it is no edge).
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
    for (ArcId a = first_[x], end = first_[x + 1]; a < end; ++a) f(head_[a], residual_[a]);
  }
  template <class F>
  void for_each_in(VertexId x, F&& f) const {
    for (ArcId a = first_[x], end = first_[x + 1]; a < end; ++a) {
      f(head_[a], residual_[reverse_[a]]);
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
