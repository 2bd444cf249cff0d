// Forward and backward adjacency of an input edge list, for the reductions.
//
// Problem: the reductions (reductions.h) search the input graph forwards and backwards before
// any residual graph exists. Building the full residual graph (16 bytes per arc, paired arcs)
// just to find that most vertices are idle or merged into a terminal is wasteful, so min_cut
// first builds this lighter structure: per vertex, its out-edges and in-edges. Each entry says
// whether its edge is infinite, so that the searches never read the capacity array for
// in-lists (a random access per entry).
//
//   out_first_: [0 | 2 | 3 | ...]   out-list of v: out_first_[v] .. out_first_[v+1]
//       sorted input (src non-decreasing, as torch's and networkx's edge lists come): the
//       input's own edges e in that range, read from the EdgeList (no copy at all);
//       otherwise out_[k] = (dst[e], e or ~e if infinite), counting-sorted.
//   in_first_:  [0 | 1 | 3 | ...]   in_[in_first_[v] .. in_first_[v+1]) = src[e] (or ~src[e]
//       if infinite) for the edges e into v; 4 bytes an entry, no edge index (no caller needs
//       it: edges into a live vertex from S_inf are on the reductions' source frontier).
//
// Invariants:
//   1. for_each_out / for_each_in visit exactly the edges with capacity > 0 and src != dst
//      (out-lists may hold others; the iteration skips them).
//   2. Within a vertex, entries are in input-edge order (stable counting sort): deterministic.
//   3. The EdgeList (input.h) outlives every use of the structure (sorted input reads it); it
//      is the solver's own validated copy, never the caller's arrays.
//
// Complexity: O(V + E) time in two passes over the edges (count, place), 8 bytes per vertex
// and 4 (sorted input) or 12 bytes per edge.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "input.h"
#include "residual_graph.h"

namespace fusioncut {

struct AdjacencyEntry {
  VertexId vertex;  // the other endpoint
  int32_t edge;     // e, or ~e if the edge is infinite

  bool infinite() const { return edge < 0; }
  int32_t edge_index() const { return edge < 0 ? ~edge : edge; }
};

class Adjacency {
 public:
  // The lists of a validated edge list, which must outlive them (invariant 3).
  void build(const EdgeList& edges) {
    const VertexId num_vertices = edges.num_vertices();
    const int64_t num_edges = edges.num_edges();
    const int32_t* src = edges.src();
    const int32_t* dst = edges.dst();
    const int64_t* capacity = edges.capacity();
    num_vertices_ = num_vertices;
    dst_ = dst;
    capacity_ = capacity;
    // In-list counts land at [v] and become, by an inclusive prefix sum, the end of v's
    // block; the placement then walks the edges backwards and pre-decrements, which leaves
    // each cursor at the start of its block and keeps input order (invariant 2) without a
    // shift pass. Out-list counts land at [v + 1] and count every edge, so that for sorted
    // input the prefix sums are the input's own ranges; only unsorted input places them (then
    // with [v + 1] as cursors, and a shift).
    out_first_.assign(static_cast<size_t>(num_vertices) + 1, 0);
    in_first_.assign(static_cast<size_t>(num_vertices) + 1, 0);
    int32_t* out_first = out_first_.data();
    int32_t* in_first = in_first_.data();
    int32_t previous = 0;
    bool sorted = true;
    for (int64_t e = 0; e < num_edges; ++e) {
      const int32_t u = src[e], v = dst[e];
      sorted &= u >= previous;
      previous = u;
      ++out_first[u + 1];
      in_first[v] += (capacity[e] > 0) & (u != v);
    }
    sorted_ = sorted;
    int32_t in_total = 0;
    for (VertexId v = 0; v < num_vertices; ++v) {
      out_first[v + 1] += out_first[v];
      in_first[v] = in_total += in_first[v];
    }
    in_.resize(static_cast<size_t>(in_total));
    int32_t* in = in_.data();
    zero_capacity_.clear();
    if (sorted) {
      // The out-lists are the input's own ranges: only the in-lists need placing.
      for (int64_t e = num_edges - 1; e >= 0; --e) {
        const int64_t c = capacity[e];
        const VertexId u = src[e], v = dst[e];
        if (c <= 0 || u == v) {
          if (c == 0) zero_capacity_.push_back(static_cast<int32_t>(e));
          continue;
        }
        in[--in_first[v]] = c >= kInfinity ? ~u : u;
      }
    } else {
      const int32_t out_total = out_first[num_vertices];
      out_.resize(static_cast<size_t>(out_total));
      AdjacencyEntry* out = out_.data();
      for (int64_t e = num_edges - 1; e >= 0; --e) {
        const int64_t c = capacity[e];
        const VertexId u = src[e], v = dst[e];
        if (c <= 0 || u == v) {
          // Out-lists hold every edge; pointing this one back at u makes for_each_out skip it.
          out[--out_first[u + 1]] = {u, static_cast<int32_t>(e)};
          if (c == 0) zero_capacity_.push_back(static_cast<int32_t>(e));
          continue;
        }
        const int32_t tag = c >= kInfinity ? ~static_cast<int32_t>(e) : static_cast<int32_t>(e);
        out[--out_first[u + 1]] = {v, tag};
        in[--in_first[v]] = c >= kInfinity ? ~u : u;
      }
      for (VertexId v = 0; v < num_vertices; ++v) out_first[v] = out_first[v + 1];
      out_first[num_vertices] = out_total;
    }
    in_first[num_vertices] = in_total;
  }

  // The graph interface of Reductions: f(w, infinite, e) for every edge e of positive capacity
  // x -> w (for_each_out); f(w, infinite, k) for every such edge w -> x, k its in-list slot
  // (for_each_in). The branch on sorted_ goes the same way for a whole solve.
  VertexId num_vertices() const { return num_vertices_; }
  template <class F>
  void for_each_out(VertexId x, F&& f) const {
    const int32_t begin = out_first_[x], end = out_first_[x + 1];
    if (sorted_) {
      for (int32_t e = begin; e < end; ++e) {
        const int64_t c = capacity_[e];
        const VertexId w = dst_[e];
        if (c > 0 && w != x) f(w, c >= kInfinity, e);
      }
    } else {
      for (int32_t k = begin; k < end; ++k) {
        const AdjacencyEntry a = out_[k];
        if (a.vertex != x) f(a.vertex, a.infinite(), a.edge_index());
      }
    }
  }
  template <class F>
  void for_each_in(VertexId x, F&& f) const {
    for (int32_t k = in_first_[x], end = in_first_[x + 1]; k < end; ++k) {
      const int32_t w = in_[k];
      f(w < 0 ? ~w : w, w < 0, k);
    }
  }
  // The edges of capacity 0 (invariant 1 leaves them out; min_cut still reports those that
  // cross the cut), in descending order.
  const std::vector<int32_t>& zero_capacity_edges() const { return zero_capacity_; }

 private:
  VertexId num_vertices_ = 0;
  bool sorted_ = false;
  const int32_t* dst_ = nullptr;       // the EdgeList's arrays (invariant 3)
  const int64_t* capacity_ = nullptr;
  std::vector<int32_t> out_first_, in_first_;
  std::vector<AdjacencyEntry> out_;    // unsorted input only
  std::vector<int32_t> in_;            // the tail, or ~tail if the edge is infinite
  std::vector<int32_t> zero_capacity_;
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
