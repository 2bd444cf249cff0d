// Minimum s-t cut of an edge-capacitated directed graph: validation, reductions, algorithm
// choice, and the canonical cut.
//
// Problem: given edges (src[i], dst[i]) with capacities in [0, kInfinity] (kInfinity: never
// cut), a source and a sink, return the minimum cut whose sink side is exactly the set of
// vertices that can reach the sink in the final residual graph (the cut closest to the sink,
// the same for every maximum flow and therefore for every algorithm).
//
// Pipeline (CutSolver::solve):
//   1. Reductions (reductions.h): merge the infinite closures into the terminals, mark idle
//      vertices; report an s -> t path of infinite edges if there is no finite cut.
//   2. Pick 64- or 128-bit capacities: 64 bits suffice when the capacity leaving the source set
//      is below kInfinity, since no excess, flow or residual can then exceed it.
//   3. Run push-relabel or Boykov-Kolmogorov (`kAuto`: see choose_algorithm()).
//   4. residual_sink_side(): backward search from the sink set in the final residual graph.
//   5. Optionally certify the result (check.h); always in debug builds.
//
// Invariant: after a successful solve(), in_sink()[v] is 1 iff v is on the canonical sink side.
//
// Complexity: O(V + E) around the max-flow algorithm; one CutSolver reuses its buffers.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "boykov_kolmogorov.h"
#include "check.h"
#include "push_relabel.h"
#include "reductions.h"
#include "residual_graph.h"

namespace fusioncut {

enum class Algorithm : int { kAuto = 0, kPushRelabel = 1, kBoykovKolmogorov = 2 };

// Thrown when no finite cut exists; `path` is one source-to-sink path of infinite edges.
class UnboundedCut : public std::invalid_argument {
 public:
  UnboundedCut(const std::string& message, std::vector<int64_t> path)
      : std::invalid_argument(message), path(std::move(path)) {}
  std::vector<int64_t> path;
};

// "3 -> 4 -> 7"
inline std::string format_path(const std::vector<int64_t>& path) {
  std::string text;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i) text += " -> ";
    text += std::to_string(path[i]);
  }
  return text;
}

// The `auto` rule. Boykov-Kolmogorov wins on the small, shallow node-split graphs of the
// partitioner; push-relabel's global relabelling wins on large, deep graphs, where BK's
// augmenting paths grow long. kAutoBoykovKolmogorovMaxLive is the crossover in live vertices.
constexpr VertexId kAutoBoykovKolmogorovMaxLive = 100000;
inline Algorithm choose_algorithm(Algorithm requested, VertexId num_live) {
  if (requested != Algorithm::kAuto) return requested;
  return num_live <= kAutoBoykovKolmogorovMaxLive ? Algorithm::kBoykovKolmogorov
                                                  : Algorithm::kPushRelabel;
}

class CutSolver {
 public:
  // Solves on g starting from the residual capacities in *residual (modified). Returns false
  // when there is no finite cut; unbounded_path() then holds an s -> t path of infinite arcs.
  // Throws std::logic_error if `check` (or a debug build) finds the result not optimal.
  bool solve(const ResidualGraph& g, std::vector<int64_t>* residual, VertexId s, VertexId t,
             Algorithm algorithm, bool check, const char* function) {
#ifndef NDEBUG
    check = true;
#endif
    int64_t* res = residual->data();
    if (!reductions_.run(g, res, s, t)) return false;
    const uint8_t* role = reductions_.role();
    used_ = choose_algorithm(algorithm, reductions_.num_live());

    WideInt leaving_source = 0;
    const VertexId n = g.num_vertices();
    for (VertexId v = 0; v < n; ++v) {
      if (role[v] != kSourceSet) continue;
      for (ArcId a = g.first_arc(v); a < g.end_arc(v); ++a) {
        if (role[g.head(a)] != kSourceSet) leaving_source += res[a];
      }
    }
    if (leaving_source < kInfinity) {
      run<int64_t>(g, res, role, function,
                   check ? &initial_ : nullptr, push_relabel_, boykov_kolmogorov_);
    } else {
      wide_residual_.resize(residual->size());
      for (size_t a = 0; a < residual->size(); ++a) {
        wide_residual_[a] = res[a] >= kInfinity ? CapacityTraits<WideInt>::kInfinite
                                                : WideInt{res[a]};
      }
      run<WideInt>(g, wide_residual_.data(), role, function,
                   check ? &wide_initial_ : nullptr, wide_push_relabel_,
                   wide_boykov_kolmogorov_);
    }
    return true;
  }

  const std::vector<uint8_t>& in_sink() const { return in_sink_; }
  const std::vector<VertexId>& unbounded_path() const { return reductions_.unbounded_path(); }
  Algorithm used() const { return used_; }

 private:
  template <class Cap, class PR, class BK>
  void run(const ResidualGraph& g, Cap* residual, const uint8_t* role, const char* function,
           std::vector<Cap>* initial, PR& push_relabel, BK& bk) {
    if (initial) initial->assign(residual, residual + g.num_arcs());
    if (used_ == Algorithm::kBoykovKolmogorov) {
      bk.run(g, residual, role);
    } else {
      push_relabel.run(g, residual, role);
    }
    residual_sink_side(g, residual, role, &in_sink_, &queue_);
    if (initial) {
      const std::string failure = check_cut(g, initial->data(), residual, role, in_sink_.data());
      if (!failure.empty()) {
        throw std::logic_error(std::string(function) + ": self-check failed: " + failure);
      }
    }
  }

  Reductions reductions_;
  PushRelabel<int64_t> push_relabel_;
  PushRelabel<WideInt> wide_push_relabel_;
  BoykovKolmogorov<int64_t> boykov_kolmogorov_;
  BoykovKolmogorov<WideInt> wide_boykov_kolmogorov_;
  std::vector<WideInt> wide_residual_;   // 128-bit copy of the residual (overflow-safe path)
  std::vector<int64_t> initial_;         // residual before solving, kept for the self-check
  std::vector<WideInt> wide_initial_;
  std::vector<uint8_t> in_sink_;         // the invariant above
  std::vector<VertexId> queue_;
  Algorithm used_ = Algorithm::kAuto;
};

// "min_cut: src[3] = 9 is out of range [0, 5)"
inline std::string out_of_range_message(const char* function, const char* argument, int64_t i,
                                        int64_t value, int64_t end) {
  return std::string(function) + ": " + argument + "[" + std::to_string(i) + "] = " +
         std::to_string(value) + " is out of range [0, " + std::to_string(end) + ")";
}

inline void check_index_array(const char* function, const char* argument, const int64_t* x,
                              int64_t size, int64_t end) {
  for (int64_t i = 0; i < size; ++i) {
    if (x[i] < 0 || x[i] >= end) {
      throw std::out_of_range(out_of_range_message(function, argument, i, x[i], end));
    }
  }
}

inline void check_capacity_array(const char* function, const char* argument, const int64_t* c,
                                 int64_t size) {
  for (int64_t i = 0; i < size; ++i) {
    if (c[i] < 0 || c[i] > kInfinity) {
      throw std::domain_error(std::string(function) + ": " + argument + "[" + std::to_string(i) +
                              "] = " + std::to_string(c[i]) +
                              " is out of range [0, 2**62] (2**62 = INF: never cut)");
    }
  }
}

inline VertexId check_num_vertices(const char* function, const char* argument, int64_t n,
                                   int64_t max) {
  if (n < 0 || n > max) {
    throw std::domain_error(std::string(function) + ": " + argument + " = " + std::to_string(n) +
                            " is out of range [0, " + std::to_string(max) + "]");
  }
  return static_cast<VertexId>(n);
}

struct MinCutResult {
  WideInt value = 0;
  std::vector<int64_t> cut_edges;  // ascending input edge indices from source to sink side
  Algorithm algorithm = Algorithm::kAuto;
};

// Validates everything (a direct call can never crash), solves, and writes the source side as
// 0/1 bytes into source_side[0 .. num_vertices). Throws UnboundedCut, std::out_of_range,
// std::domain_error or std::invalid_argument with messages naming min_cut and the argument.
inline MinCutResult min_cut(int64_t num_vertices, int64_t num_edges, const int64_t* src,
                            const int64_t* dst, const int64_t* capacity, int64_t source,
                            int64_t sink, Algorithm algorithm, bool check, uint8_t* source_side,
                            CutSolver* solver) {
  const char* kFunction = "min_cut";
  const VertexId n = check_num_vertices(kFunction, "num_nodes", num_vertices,
                                        std::numeric_limits<VertexId>::max() - 1);
  if (source < 0 || source >= n) {
    throw std::out_of_range(std::string(kFunction) + ": source = " + std::to_string(source) +
                            " is out of range [0, " + std::to_string(n) + ")");
  }
  if (sink < 0 || sink >= n) {
    throw std::out_of_range(std::string(kFunction) + ": sink = " + std::to_string(sink) +
                            " is out of range [0, " + std::to_string(n) + ")");
  }
  if (source == sink) {
    throw std::invalid_argument(std::string(kFunction) + ": source and sink are both " +
                                std::to_string(source) + "; they must differ");
  }
  check_index_array(kFunction, "src", src, num_edges, n);
  check_index_array(kFunction, "dst", dst, num_edges, n);
  check_capacity_array(kFunction, "capacity", capacity, num_edges);

  ResidualGraph graph;
  std::vector<int64_t> residual;
  graph.build(
      n, num_edges, src, dst,
      [&](int64_t i) { return capacity[i] > 0 && src[i] != dst[i]; },
      [&](int64_t i) { return capacity[i]; }, &residual, nullptr);
  if (!solver->solve(graph, &residual, static_cast<VertexId>(source),
                     static_cast<VertexId>(sink), algorithm, check, kFunction)) {
    std::vector<int64_t> path(solver->unbounded_path().begin(), solver->unbounded_path().end());
    const std::string message = std::string(kFunction) +
                                ": no finite cut: the edges of infinite capacity form the path " +
                                format_path(path) + " from source to sink";
    throw UnboundedCut(message, std::move(path));
  }
  const uint8_t* in_sink = solver->in_sink().data();
  for (VertexId v = 0; v < n; ++v) source_side[v] = in_sink[v] ^ 1;
  MinCutResult result;
  result.algorithm = solver->used();
  for (int64_t i = 0; i < num_edges; ++i) {
    if (in_sink[src[i]] || !in_sink[dst[i]]) continue;
    if (capacity[i] >= kInfinity) {
      throw std::logic_error("min_cut: internal error: infinite edge " + std::to_string(i) +
                             " crosses the cut");
    }
    result.cut_edges.push_back(i);
    result.value += capacity[i];
  }
  return result;
}

}  // namespace fusioncut
