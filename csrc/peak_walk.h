// The peak estimate's walk of one plan (fusioncut.peak.phase_events), whole, in C++: the
// frontier estimates every plan it scores, and the walk's numpy passes cost more than its
// arithmetic. The graph's facts that no plan changes are held once (PeakGraph); a walk takes
// one plan's phases and saved set and returns each phase's storage events. The rules are
// fusioncut.peak's module docstring; the names below follow its code.
// Header-only like the solvers; the binding validates the arrays and this code trusts them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "kernels.h"

namespace fusioncut {

struct PeakGraph {
  int64_t n = 0;
  std::vector<int64_t> ptr, dst;  // users in CSR form, each above its node
  std::vector<uint8_t> reads, reduced, same, blocking;  // per edge
  std::vector<int64_t> base, output_of, layout_copy, workspace;  // per node
  std::vector<uint8_t> tensor, fusible, merged, computing, heavy, reduction, backward_role,
      input, fwd_output, bwd_output;  // per node
  bool cpu_rules = true;  // the C++ backend's store-on-reuse rule applies (not on a GPU)
  int max_store_passes = 8;   // fusioncut.peak._MAX_STORE_PASSES
  int max_fused_outputs = 4;  // fusioncut.peak._MAX_FUSED_OUTPUTS

  UserGraph users() const {
    return {n, ptr.data(), dst.data(), reads.data(), reduced.data()};
  }
};

// One phase's storage events (fusioncut.peak.PhaseEvents).
struct WalkPhase {
  std::vector<int64_t> time, alloc_node, alloc_t, alloc_s;
  std::vector<uint8_t> in_place;
  std::vector<int64_t> free_node, free_t, free_s, work_node, work_t, work_s;
};

struct WalkResult {
  WalkPhase forward, backward;
  int64_t kept = 0;                    // bytes alive between the phases
  std::vector<int64_t> reload_node;    // offloaded storages the backward reloads, ascending
  std::vector<int64_t> reload_use;     // the first backward time reading each
};

namespace walk_detail {

// Storages a phase writes (_written in tests/_peak_reference.py), indexed per node through its
// base.
inline void written(const PeakGraph& g, const uint8_t* phase, const uint8_t* forced,
                    std::vector<uint8_t>& scratch, std::vector<uint8_t>& out) {
  const int64_t n = g.n;
  for (int64_t i = 0; i < n; ++i) {
    scratch[i] = !g.fusible[i] || g.input[i] || forced[i];
  }
  for (int64_t u = 0; u < n; ++u) {
    for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
      if (g.blocking[e] && g.reads[e] && phase[g.dst[e]]) scratch[g.base[u]] = 1;
    }
  }
  for (int64_t i = 0; i < n; ++i) out[i] = scratch[g.base[i]] && !g.merged[i];
}

// Per storage, the latest kernel time of a read in the phase (-1: none).
inline void last_use(const PeakGraph& g, const uint8_t* phase, const int64_t* when,
                     std::vector<int64_t>& out) {
  std::fill(out.begin(), out.end(), int64_t{-1});
  for (int64_t u = 0; u < g.n; ++u) {
    int64_t& last = out[g.base[u]];
    for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
      const int64_t d = g.dst[e];
      if (g.reads[e] && phase[d] && when[d] > last) last = when[d];
    }
  }
}

// A phase's kernel times and the values stored on reuse, added to `written`.
inline void kernels(const PeakGraph& g, const uint8_t* phase, const int64_t* time,
                    std::vector<uint8_t>& written, std::vector<int64_t>& kernel) {
  const UserGraph users = g.users();
  const PhaseNodes nodes{phase, g.fusible.data(), g.merged.data(), g.computing.data(),
                         g.heavy.data(), g.reduction.data(), g.base.data(), time};
  bool have = false;
  if (g.cpu_rules) {
    std::vector<uint8_t> added(g.n);
    have = stored_on_reuse(users, nodes, written.data(), g.max_store_passes, added.data(),
                           kernel.data());
    for (int64_t i = 0; i < g.n; ++i) written[i] = written[i] || added[i];
  }
  if (!have) {
    std::vector<uint8_t> inlined(g.n), stored(g.n);
    phase_kernel_times(users, nodes, written.data(), inlined, stored, kernel.data());
  }
}

// The outputs of an op called as one kernel are allocated when it runs.
inline int64_t allocated_at(const PeakGraph& g, const int64_t* time, int64_t i) {
  const int64_t op = g.output_of[i];
  return op >= 0 && time[i] >= 0 ? time[op] : time[i];
}

inline void allocate(WalkPhase& phase, int64_t node, int64_t at) {
  phase.alloc_node.push_back(node);
  phase.alloc_t.push_back(at);
}

inline void frees_and_work(const PeakGraph& g, const std::vector<int64_t>& time,
                           const std::vector<uint8_t>& freed, const std::vector<int64_t>& last,
                           const uint8_t* phase, const int64_t* size, WalkPhase& out) {
  for (int64_t i = 0; i < g.n; ++i) {
    if (freed[i]) {
      out.free_node.push_back(i);
      out.free_t.push_back(last[i] >= 0 ? last[i] : time[i]);
      out.free_s.push_back(size[i]);
    }
    if (phase[i] && g.workspace[i] > 0) {
      out.work_node.push_back(i);
      out.work_t.push_back(time[i]);
      out.work_s.push_back(g.workspace[i]);
    }
  }
}

}  // namespace walk_detail

// The walk of the plan whose phases are fw / bw (trigger: phase_split's), saving the values
// `saved` marks, of which `away` marks those offloaded (`hold_forward`: their device copies
// stay to the forward's end; `wait_node[k]`, `wait_before[k]`: the forward waits for the
// copy of node wait_node[k] before node wait_before[k]). `size`: bytes per node. Reloads are
// placed at their first use; the caller moves them (torch's prefetch) before the peak.
inline WalkResult peak_walk(const PeakGraph& g, const uint8_t* fw, const uint8_t* bw,
                            const int64_t* trigger, const uint8_t* saved, const uint8_t* away,
                            bool offloaded, bool hold_forward, int64_t num_waits,
                            const int64_t* wait_node, const int64_t* wait_before,
                            const int64_t* size) {
  using namespace walk_detail;
  const int64_t n = g.n;
  WalkResult r;
  std::vector<uint8_t> scratch(n), kept(n, 0), written_out(n), fw_written(n);
  for (int64_t i = 0; i < n; ++i) {
    if ((saved[i] && !away[i]) || g.fwd_output[i]) kept[g.base[i]] = 1;
  }
  for (int64_t i = 0; i < n; ++i) written_out[i] = kept[i];
  for (int64_t i = 0; i < n; ++i) {
    if (away[i]) written_out[g.base[i]] = 1;
  }

  // Forward: time = graph index.
  std::vector<int64_t>& fw_time = r.forward.time;
  fw_time.resize(n);
  for (int64_t i = 0; i < n; ++i) fw_time[i] = fw[i] ? i : -1;
  written(g, fw, written_out.data(), scratch, fw_written);
  std::vector<int64_t> fw_kernel(n), last_fw(n);
  kernels(g, fw, fw_time.data(), fw_written, fw_kernel);
  std::vector<uint8_t> fw_alloc(n), gone(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    fw_alloc[i] = fw[i] && g.tensor[i] && fw_written[i];
    gone[i] = away[i] && !kept[i] && fw_alloc[i];
  }
  last_use(g, fw, fw_kernel.data(), last_fw);
  for (int64_t k = 0; k < num_waits; ++k) {  // a paced wait holds the device copy
    const int64_t i = wait_node[k];
    if (gone[i]) last_fw[i] = std::max(last_fw[i], wait_before[k] - 1);
  }

  // Backward: time = position in (trigger, tangent-dependent last, graph index) order.
  std::vector<int64_t> order;
  for (int64_t i = 0; i < n; ++i) {
    if (bw[i]) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return trigger[a] * 2 + g.backward_role[a] < trigger[b] * 2 + g.backward_role[b];
  });
  std::vector<int64_t> ranked(n, -1);
  for (size_t k = 0; k < order.size(); ++k) ranked[order[k]] = static_cast<int64_t>(k);
  std::vector<uint8_t> keep_to_end(n, 0), bw_written(n), bw_stored(n), inlined(n);
  for (int64_t i = 0; i < n; ++i) {
    if (g.bwd_output[i] || g.fwd_output[i]) keep_to_end[g.base[i]] = 1;
  }
  written(g, bw, keep_to_end.data(), scratch, bw_written);
  for (int64_t i = 0; i < n; ++i) {
    bw_stored[i] = bw[i] && g.fusible[i] && bw_written[i] && g.base[i] == i;
    inlined[i] = bw[i] && g.fusible[i] && !bw_written[i];
  }
  std::vector<int64_t>& time = r.backward.time;
  time.resize(n);
  fused_order(g.users(), bw, g.same.data(), inlined.data(), bw_stored.data(), ranked.data(),
              g.max_fused_outputs, time.data());
  std::vector<int64_t> bw_kernel(n), last_bw(n);
  kernels(g, bw, time.data(), bw_written, bw_kernel);
  last_use(g, bw, bw_kernel.data(), last_bw);

  // Layout copies of inputs: made at the forward's start, handed to the backward when it
  // reads the input, freed after its last use.
  std::vector<uint8_t> copies(n), to_bw(n), start(n), bw_alloc(n), back(n);
  for (int64_t i = 0; i < n; ++i) {
    copies[i] = g.layout_copy[i] > 0 && (last_fw[i] >= 0 || last_bw[i] >= 0);
    to_bw[i] = copies[i] && last_bw[i] >= 0;
    const bool between = (fw_alloc[i] && kept[i]) || to_bw[i];
    if (between) r.kept += size[i];
    start[i] = between && (last_bw[i] >= 0 || keep_to_end[i]);
    bw_alloc[i] = bw[i] && g.tensor[i] && bw_written[i] && !start[i];
    back[i] = gone[i] && last_bw[i] >= 0;
  }

  WalkPhase& f = r.forward;
  for (int64_t i = 0; i < n; ++i) {
    if (copies[i]) allocate(f, i, -1);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (fw_alloc[i]) allocate(f, i, allocated_at(g, fw_time.data(), i));
  }
  std::vector<uint8_t> freed(n);
  for (int64_t i = 0; i < n; ++i) {
    const bool held = offloaded && hold_forward && gone[i];
    freed[i] = (fw_alloc[i] && !kept[i] && !held) || (copies[i] && !to_bw[i]);
  }
  for (const int64_t i : f.alloc_node) {
    f.alloc_s.push_back(size[i]);
    f.in_place.push_back(g.fusible[i] && !copies[i]);
  }
  frees_and_work(g, fw_time, freed, last_fw, fw, size, f);

  WalkPhase& b = r.backward;
  for (int64_t i = 0; i < n; ++i) {
    if (start[i]) allocate(b, i, -1);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (bw_alloc[i]) allocate(b, i, allocated_at(g, time.data(), i));
  }
  // Reloads, each at the first backward node reading it.
  std::vector<int64_t> first(n, static_cast<int64_t>(order.size()));
  for (int64_t u = 0; u < n; ++u) {
    if (!back[u]) continue;
    for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
      const int64_t d = g.dst[e];
      if (g.reads[e] && bw[d]) first[u] = std::min(first[u], time[d]);
    }
    r.reload_node.push_back(u);
    r.reload_use.push_back(first[u]);
    allocate(b, u, first[u]);
  }
  for (int64_t i = 0; i < n; ++i) {
    freed[i] = (start[i] || bw_alloc[i] || back[i]) && !keep_to_end[i];
  }
  for (const int64_t i : b.alloc_node) {
    b.alloc_s.push_back(size[i]);
    b.in_place.push_back(g.fusible[i] && !start[i] && !back[i]);
  }
  frees_and_work(g, time, freed, last_bw, bw, size, b);
  return r;
}

}  // namespace fusioncut
