// The solvers' own copy of the caller's arrays, validated, and the size limits checked before
// anything large is allocated.
//
// Problem: the Python binding releases the GIL while solving, and the caller's arrays are
// numpy buffers that another thread may write to meanwhile. A value that changes between
// validation and use is an out-of-bounds index (a crash) or a negative capacity (a wrong
// flow). So nothing after the copy reads caller memory: EdgeList::copy() reads every entry
// once, in one pass the binding makes while it holds the GIL (so no Python-level write
// interleaves and the copy is one snapshot), and the solvers run on the copy.
//
//   src_:      [ 0  0  1  3 ... ]   int32: vertex ids are VertexId (half the bytes to re-read)
//   dst_:      [ 1  2  3  4 ... ]
//   capacity_: [ 5 INF 0  7 ... ]   int64, kInfinity = never cut
//
// Invariants after copy() returns (it throws, leaving the list unusable, otherwise):
//   1. 0 <= src_[e], dst_[e] < num_vertices_ for every edge e.
//   2. 0 <= capacity_[e] <= kInfinity; num_infinite_ counts the edges with kInfinity.
//   3. num_edges_ <= kMaxEdges, so every edge index fits an int32 (Adjacency, ResidualGraph).
//
// Complexity: one branch-free pass over the edges that the compiler vectorises; 16 bytes an
// edge. Only invalid input pays for the ordered per-entry checks that name the first bad entry
// (src, then dst, then capacity, as fusioncut/_solver.py checks them).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "residual_graph.h"

namespace fusioncut {

// Edge ids are int32 in the adjacency and residual graphs (an arc pair per edge).
constexpr int64_t kMaxEdges = std::numeric_limits<ArcId>::max() / 2;

// "min_cut: src[3] = 9 is out of range [0, 5)"
inline std::string out_of_range_message(const char* function, const char* argument, int64_t i,
                                        int64_t value, int64_t end) {
  return std::string(function) + ": " + argument + "[" + std::to_string(i) + "] = " +
         std::to_string(value) + " is out of range [0, " + std::to_string(end) + ")";
}

// Each entry is read once, so a concurrent writer cannot make the message disagree with the
// test. Throws std::out_of_range naming the first entry outside [0, end).
inline void check_index_array(const char* function, const char* argument, const int64_t* x,
                              int64_t size, int64_t end) {
  for (int64_t i = 0; i < size; ++i) {
    const int64_t value = x[i];
    if (value < 0 || value >= end) {
      throw std::out_of_range(out_of_range_message(function, argument, i, value, end));
    }
  }
}

// Throws std::domain_error naming the first capacity outside [0, kInfinity]; returns how many
// are kInfinity. The messages are word for word those of fusioncut/_solver.py.
inline int64_t check_capacity_array(const char* function, const char* argument,
                                    const int64_t* c, int64_t size) {
  int64_t infinite = 0;
  for (int64_t i = 0; i < size; ++i) {
    const int64_t value = c[i];
    if (value < 0 || value > kInfinity) {
      throw std::domain_error(std::string(function) + ": " + argument + "[" + std::to_string(i) +
                              "] = " + std::to_string(value) +
                              (value < 0 ? " is negative; valid range is [0, 2**62]"
                                         : " is out of range [0, 2**62]") +
                              " (2**62 = fusioncut.INF: never cut)");
    }
    infinite += value == kInfinity;
  }
  return infinite;
}

inline VertexId check_num_vertices(const char* function, const char* argument, int64_t n,
                                   int64_t max) {
  if (n < 0 || n > max) {
    throw std::domain_error(std::string(function) + ": " + argument + " = " + std::to_string(n) +
                            " is out of range [0, " + std::to_string(max) + "]");
  }
  return static_cast<VertexId>(n);
}

inline void check_num_edges(const char* function, const char* argument, int64_t size) {
  if (size > kMaxEdges) {
    throw std::length_error(std::string(function) + ": " + argument + " has length " +
                            std::to_string(size) + "; at most " + std::to_string(kMaxEdges) +
                            " edges are supported");
  }
}

// The machine's physical memory in bytes (0 if unknown), asked once.
inline int64_t physical_memory_bytes() {
  static const int64_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    return pages > 0 && page_size > 0 ? static_cast<int64_t>(pages) * page_size : int64_t{0};
  }();
  return bytes;
}

// Thrown when a problem would need more memory than the machine has (the binding maps it to
// MemoryError; std::bad_alloc carries no message).
class MemoryLimit : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Refuses, before anything is allocated, a problem whose solve would need more than the
// machine's physical memory: allocating it would end in std::bad_alloc at best and in the
// kernel's out-of-memory killer at worst (memory is committed when first written).
// `bytes_per_vertex` and `bytes_per_edge` are the solver's working set, measured and rounded
// up; the check is a floor (other processes use memory too), not a promise that the solve fits.
inline void check_memory(const char* function, const char* vertices_argument,
                         int64_t num_vertices, const char* edges_argument, int64_t num_edges,
                         int64_t bytes_per_vertex, int64_t bytes_per_edge) {
  const int64_t available = physical_memory_bytes();
  if (available == 0) return;
  // Counts below 2**34 (lengths of arrays of 8-byte entries that fit an address space of
  // 2**37) and weights below 2**8: no overflow.
  const int64_t needed = num_vertices * bytes_per_vertex + num_edges * bytes_per_edge;
  if (needed <= available) return;
  const auto gib = [](int64_t bytes) {
    const int64_t tenths = (bytes * 10 + (int64_t{1} << 29)) >> 30;  // rounded to 0.1 GiB
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " GiB";
  };
  throw MemoryLimit(std::string(function) + ": " + vertices_argument + " = " +
                    std::to_string(num_vertices) + " and " + std::to_string(num_edges) + " " +
                    edges_argument + " need about " + gib(needed) + " of working memory (" +
                    std::to_string(bytes_per_vertex) + " bytes each and " +
                    std::to_string(bytes_per_edge) + " an edge), more than this machine's " +
                    gib(available));
}

class EdgeList {
 public:
  // Copies and validates edges (src[e], dst[e]) with capacity[e] over vertices
  // [0, num_vertices) (invariants 1-3). The caller makes sure that no one writes to the three
  // arrays during the call (the binding holds the GIL); afterwards they are never read again.
  // Throws std::length_error, std::out_of_range or std::domain_error naming `function`, the
  // argument, the first bad entry and the valid range.
  void copy(const char* function, VertexId num_vertices, int64_t num_edges, const int64_t* src,
            const int64_t* dst, const int64_t* capacity) {
    check_num_edges(function, "src", num_edges);
    num_vertices_ = num_vertices;
    num_edges_ = num_edges;
    src_.resize(static_cast<size_t>(num_edges));
    dst_.resize(static_cast<size_t>(num_edges));
    capacity_.resize(static_cast<size_t>(num_edges));
    int32_t* __restrict__ src_copy = src_.data();
    int32_t* __restrict__ dst_copy = dst_.data();
    int64_t* __restrict__ capacity_copy = capacity_.data();
    // Branch-free, so that the compiler vectorises it even for plain SSE2 (no 64-bit
    // comparison): as unsigned numbers, an index x is valid iff neither x nor last - x has
    // bit 63 set (a negative x has it; x in [end, 2**63) makes last - x wrap past 2**63). A
    // valid capacity c in [0, 2**62] has c >> 62 == 1 exactly when c == kInfinity; any other
    // c with bit 62 set has low bits, and a negative one bit 63.
    const uint64_t last = static_cast<uint64_t>(num_vertices) - 1;
    uint64_t bad_index = 0, bad_capacity = 0, infinite = 0;
    for (int64_t e = 0; e < num_edges; ++e) {
      const auto u = static_cast<uint64_t>(src[e]);
      const auto v = static_cast<uint64_t>(dst[e]);
      const auto c = static_cast<uint64_t>(capacity[e]);
      bad_index |= u | v | (last - u) | (last - v);
      const uint64_t top = c >> 62;
      infinite += top;
      bad_capacity |= (c & (0 - top) & static_cast<uint64_t>(kInfinity - 1)) | (c >> 63);
      src_copy[e] = static_cast<int32_t>(u);
      dst_copy[e] = static_cast<int32_t>(v);
      capacity_copy[e] = static_cast<int64_t>(c);
    }
    bad_index >>= 63;
    num_infinite_ = static_cast<int64_t>(infinite);
    if (bad_index | bad_capacity) {
      // The caller's arrays, re-read in the promised order to name the first bad entry.
      check_index_array(function, "src", src, num_edges, num_vertices);
      check_index_array(function, "dst", dst, num_edges, num_vertices);
      check_capacity_array(function, "capacity", capacity, num_edges);
      // Only a writer the caller failed to exclude gets here.
      throw std::invalid_argument(std::string(function) +
                                  ": src, dst or capacity changed while being copied");
    }
  }

  VertexId num_vertices() const { return num_vertices_; }
  int64_t num_edges() const { return num_edges_; }
  int64_t num_infinite() const { return num_infinite_; }
  const int32_t* src() const { return src_.data(); }
  const int32_t* dst() const { return dst_.data(); }
  const int64_t* capacity() const { return capacity_.data(); }

 private:
  VertexId num_vertices_ = 0;
  int64_t num_edges_ = 0;
  int64_t num_infinite_ = 0;               // invariant 2
  std::vector<int32_t> src_, dst_;         // invariant 1
  std::vector<int64_t> capacity_;          // invariant 2
};

}  // namespace fusioncut
