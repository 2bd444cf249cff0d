// When the kernels of one phase of fusioncut's peak estimate run, and which values Inductor's C++
// backend stores although every reader could fuse them (fusioncut.peak's rules; their numpy form
// is tests/_peak_reference.py, _kernel_time and _stored_on_reuse): the frontier estimates every
// plan it scores, and these passes are most of an estimate. Both walk the joint graph's users in
// CSR form (in any order within a node), every user above its node (a topological order), so each
// fixpoint is one sweep: along the edges in ascending node order, against them in descending
// order. Header-only like the solvers; the binding validates the arrays and this code trusts them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "counting_sort.h"
#include "least_root.h"

namespace fusioncut {

// The users of node u are dst[ptr[u] .. ptr[u + 1]); per edge, reads[e] (the user reads the
// storage, not only its sizes) and reduced[e] (the user is a reduction).
struct UserGraph {
  int64_t n;
  const int64_t* ptr;
  const int64_t* dst;
  const uint8_t* reads;
  const uint8_t* reduced;
};

// out[u] = when node u's value is computed: time[u] for a kernel of its own or a stored
// output; for an inlined node the latest kernel reading it; a stored output a reduction reads
// is computed again in that reduction, unless a kernel of its own (in the phase: time >= 0,
// not inlined, not a reduction) reads it no later. The fixpoint of raising out[u] to out[d]
// along those reads, one descending sweep.
inline void kernel_times(const UserGraph& g, const uint8_t* inlined, const uint8_t* stored,
                         const int64_t* time, int64_t* out) {
  std::copy(time, time + g.n, out);
  for (int64_t u = g.n - 1; u >= 0; --u) {
    const int64_t lo = g.ptr[u], hi = g.ptr[u + 1];
    int64_t best = out[u];
    if (inlined[u]) {
      for (int64_t e = lo; e < hi; ++e) {
        if (g.reads[e]) best = std::max(best, out[g.dst[e]]);
      }
    } else if (stored[u]) {
      int64_t first = std::numeric_limits<int64_t>::max();
      for (int64_t e = lo; e < hi; ++e) {
        const int64_t d = g.dst[e];
        if (g.reads[e] && !g.reduced[e] && !inlined[d] && time[d] >= 0) {
          first = std::min(first, time[d]);
        }
      }
      for (int64_t e = lo; e < hi; ++e) {
        const int64_t d = g.dst[e];
        if (g.reads[e] && g.reduced[e] && time[d] <= first) best = std::max(best, out[d]);
      }
    }
    out[u] = best;
  }
}

// The facts of one phase that stored_on_reuse reads, per node.
struct PhaseNodes {
  const uint8_t* phase;      // the phase computes the node
  const uint8_t* fusible;    // a fused kernel can keep its value in registers
  const uint8_t* merged;     // a matmul Inductor runs inside the add that follows it
  const uint8_t* computing;  // a pointwise or random op
  const uint8_t* heavy;      // exp, log, sigmoid, tanh: what the C++ backend stores on reuse
  const uint8_t* reduction;  // a reduction
  const int64_t* base;       // the node whose storage it is (a view's base)
  const int64_t* time;       // the phase's time (-1 outside it)
};

// The kernel times of a phase that writes the storages `written`: fused ops whose own storage is
// not written (and merged matmuls) are inlined, the others stored (_kernels in
// tests/_peak_reference.py).
inline void phase_kernel_times(const UserGraph& g, const PhaseNodes& p, const uint8_t* written,
                               std::vector<uint8_t>& inlined, std::vector<uint8_t>& stored,
                               int64_t* out) {
  for (int64_t u = 0; u < g.n; ++u) {
    const bool own = written[u] && p.base[u] == u;
    inlined[u] = p.phase[u] && ((p.fusible[u] && !own) || p.merged[u]);
    stored[u] = p.phase[u] && p.fusible[u] && own;
  }
  kernel_times(g, inlined.data(), stored.data(), p.time, out);
}

// Values the C++ backend stores although every reader could fuse them
// (_stored_on_reuse in tests/_peak_reference.py): candidates are the phase's pointwise values, not
// written, that own their storage and have more than one distinct reader in the phase; in
// passes, those whose inlined expression reaches a heavy op without going through another
// value the pass adds, and whose readers other than reductions run in more than one kernel or
// that a reduction and a pointwise op both read (the pointwise op reads it again after the
// reduction's loop: a softmax's exp, which under a bfloat16 output cannot share its storage).
// Writes added[u]; returns whether `kernel` holds the kernel times of the phase with them
// stored (computed on the way), as the Python function returns them or None.
inline bool stored_on_reuse(const UserGraph& g, const PhaseNodes& p, const uint8_t* written,
                            int max_passes, uint8_t* added, int64_t* kernel) {
  const int64_t n = g.n;
  std::fill(added, added + n, uint8_t{0});
  // A value read through views is read by the views' readers: per storage, the reads in the
  // phase by nodes that are not its own views (a T5's position bias, read by two layers
  // through one unsqueeze, has two readers). fn(storage, reader) for each.
  auto outside_reads = [&](auto&& fn) {
    for (int64_t x = 0; x < n; ++x) {
      const int64_t b = p.base[x];
      for (int64_t e = g.ptr[x]; e < g.ptr[x + 1]; ++e) {
        const int64_t d = g.dst[e];
        if (g.reads[e] && p.phase[d] && p.base[d] != b) fn(b, d);
      }
    }
  };
  std::vector<int64_t> first(n, -1);  // a second distinct reader makes a candidate
  std::vector<uint8_t> several(n, 0), candidate(n, 0);
  outside_reads([&](int64_t b, int64_t d) {
    if (first[b] < 0) {
      first[b] = d;
    } else if (d != first[b]) {
      several[b] = 1;
    }
  });
  bool any = false;
  for (int64_t u = 0; u < n; ++u) {
    candidate[u] = p.phase[u] && p.computing[u] && p.fusible[u] && p.base[u] == u &&
                   !written[u] && several[u];
    any = any || candidate[u];
  }
  if (!any) return false;
  std::vector<uint8_t> stored(written, written + n), fresh(n), inl(n), st(n);
  std::vector<int64_t> reach(n);
  // Forward max-propagation of `heavy` along the phase's reads of still-inlined values (not
  // out of a value `skip` marks), one ascending sweep.
  auto heavy_reach = [&](const uint8_t* skip) {
    for (int64_t u = 0; u < n; ++u) reach[u] = p.heavy[u];
    for (int64_t u = 0; u < n; ++u) {
      if (!reach[u] || !(p.phase[u] && p.fusible[u] && !stored[u]) || (skip && skip[u])) continue;
      for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
        if (g.reads[e] && p.phase[g.dst[e]]) reach[g.dst[e]] = 1;
      }
    }
  };
  bool have_kernel = false;
  for (int pass = 0; pass < max_passes; ++pass) {
    heavy_reach(nullptr);
    bool found = false;
    for (int64_t u = 0; u < n; ++u) {
      fresh[u] = candidate[u] && !stored[u] && reach[u] > 0;
      found = found || fresh[u];
    }
    if (!found) break;
    heavy_reach(fresh.data());
    for (int64_t u = 0; u < n; ++u) fresh[u] = fresh[u] && reach[u] > 0;
    phase_kernel_times(g, p, stored.data(), inl, st, kernel);
    have_kernel = true;
    found = false;
    std::vector<int64_t> lo(n, std::numeric_limits<int64_t>::max()), hi(n, -1);
    std::vector<uint8_t> reduced(n, 0);
    outside_reads([&](int64_t b, int64_t d) {  // the kernels reading each fresh storage
      if (!fresh[b]) return;
      if (p.reduction[d]) {
        reduced[b] = 1;
      } else {
        lo[b] = std::min(lo[b], kernel[d]);
        hi[b] = std::max(hi[b], kernel[d]);
      }
    });
    for (int64_t u = 0; u < n; ++u) {
      fresh[u] = fresh[u] && (hi[u] > lo[u] || (reduced[u] && hi[u] >= 0));
      found = found || fresh[u];
    }
    if (!found) break;
    for (int64_t u = 0; u < n; ++u) {
      if (fresh[u]) stored[u] = added[u] = 1;
    }
    have_kernel = false;
  }
  return have_kernel;
}


// Inductor's fusion of stored outputs that compute a common inlined pointwise value of their own
// size (_fused_order in tests/_peak_reference.py): `same[e]` marks an edge between pointwise ops
// of one size. Along the phase's reads (reads[e] and phase[d]), a link runs from an inlined node
// to an inlined or stored one; a component of links with at most `max_outputs` stored link ends
// (its members) runs as one kernel at the latest member's time, and whatever reads a member,
// directly or not, moves after it. A component whose member must wait for another's reader leaves
// (up to `max_outputs` rounds; a graph that needs more keeps `time`). Writes the new rank of every
// phase node (-1 elsewhere) to `out`.
inline void fused_order(const UserGraph& g, const uint8_t* phase, const uint8_t* same,
                        const uint8_t* inlined, const uint8_t* stored, const int64_t* time,
                        int max_outputs, int64_t* out) {
  const int64_t n = g.n;
  std::copy(time, time + n, out);
  // Components along the links, each labelled by its least node.
  LeastRootSets sets(n);
  std::vector<uint8_t> members(n, 0);
  bool linked = false;
  for (int64_t u = 0; u < n; ++u) {
    if (!inlined[u]) continue;
    for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
      const int64_t d = g.dst[e];
      if (!(g.reads[e] && phase[d] && same[e] && (inlined[d] || stored[d]))) continue;
      linked = true;
      if (stored[d]) members[d] = 1;
      sets.unite(u, d);
    }
  }
  if (!linked) return;
  const std::vector<int64_t> label = std::move(sets).labels();
  std::vector<int64_t> count(n, 0), latest(n), start(n);
  for (int64_t u = 0; u < n; ++u) count[label[u]] += members[u];
  bool any = false;
  for (int64_t u = 0; u < n; ++u) {
    members[u] = members[u] && count[label[u]] <= max_outputs;
    any = any || members[u];
  }
  bool settled = false;
  for (int round = 0; round < max_outputs; ++round) {
    if (!any) return;
    std::fill(latest.begin(), latest.end(), int64_t{-1});
    for (int64_t u = 0; u < n; ++u) {
      if (members[u]) latest[label[u]] = std::max(latest[label[u]], time[u]);
    }
    for (int64_t u = 0; u < n; ++u) start[u] = members[u] ? latest[label[u]] : time[u];
    for (int64_t u = 0; u < n; ++u) {  // a reader runs after what it reads
      for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
        const int64_t d = g.dst[e];
        if (g.reads[e] && phase[d] && start[d] < start[u]) start[d] = start[u];
      }
    }
    std::vector<uint8_t> leaving(n, 0);
    bool cyclic = false;
    for (int64_t u = 0; u < n; ++u) {
      if (members[u] && start[u] > latest[label[u]]) leaving[label[u]] = cyclic = true;
    }
    if (!cyclic) {
      settled = true;
      break;
    }
    any = false;
    for (int64_t u = 0; u < n; ++u) {
      members[u] = members[u] && !leaving[label[u]];
      any = any || members[u];
    }
  }
  if (!settled) return;
  // At one start: the kernel's outputs (in their order), then the readers moved after it.
  std::vector<int64_t> nodes;
  for (int64_t u = 0; u < n; ++u) {
    if (phase[u]) nodes.push_back(u);
  }
  // In (start, pushed, time) order: by time, then stably by (start, pushed).
  counting_sort(nodes, [&](int64_t u) { return time[u]; });
  counting_sort(nodes, [&](int64_t u) {
    return start[u] * 2 + (start[u] > time[u] && !members[u] ? 1 : 0);
  });
  std::fill(out, out + n, int64_t{-1});
  for (size_t k = 0; k < nodes.size(); ++k) out[nodes[k]] = static_cast<int64_t>(k);
}

}  // namespace fusioncut
