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
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
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

// out[u] = the earliest kernel that computes node u: time[u] for a node that is not inlined;
// an inlined node is computed again in every kernel that reads it, so the earliest of its
// readers' in the phase (time >= 0), or its own time when none reads it. One descending sweep.
inline void earliest_kernels(const UserGraph& g, const uint8_t* inlined, const int64_t* time,
                             int64_t* out) {
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  for (int64_t u = g.n - 1; u >= 0; --u) {
    if (!inlined[u]) {
      out[u] = time[u];
      continue;
    }
    int64_t best = kNone;
    for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
      const int64_t d = g.dst[e];
      if (g.reads[e] && time[d] >= 0) best = std::min(best, out[d]);
    }
    out[u] = best;
  }
  for (int64_t u = 0; u < g.n; ++u) {
    if (out[u] == kNone) out[u] = time[u];
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
// value the pass adds, and whose readers other than reductions run in more than one kernel (an
// inlined reader runs in every kernel that reads it: earliest_kernels to kernel_times) or
// that a reduction and a pointwise op both read (the pointwise op reads it again after the
// reduction's loop: a softmax's exp, which under a bfloat16 output cannot share its storage).
// Writes added[u]; returns whether `kernel` holds the kernel times of the phase with them
// stored (computed on the way), as the Python function returns them or None. A candidate whose
// readers all run in one kernel is realized by Inductor's lowering and then fused away: it is no
// storage, but Inductor's own estimate of the peak counts it at that kernel (phantom[u]: the
// kernel's time, else -1; the limit of its buffer reuse, reuse_peak in buffer_reuse.h).
inline bool stored_on_reuse(const UserGraph& g, const PhaseNodes& p, const uint8_t* written,
                            int max_passes, uint8_t* added, int64_t* kernel, int64_t* phantom) {
  const int64_t n = g.n;
  std::fill(added, added + n, uint8_t{0});
  std::fill(phantom, phantom + n, int64_t{-1});
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
  std::vector<int64_t> reach(n), early(n);
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
    earliest_kernels(g, inl.data(), p.time, early.data());
    have_kernel = true;
    found = false;
    std::vector<int64_t> lo(n, std::numeric_limits<int64_t>::max()), hi(n, -1);
    std::vector<uint8_t> reduced(n, 0);
    outside_reads([&](int64_t b, int64_t d) {  // the kernels reading each fresh storage
      if (!fresh[b]) return;
      if (p.reduction[d]) {
        reduced[b] = 1;
      } else {
        lo[b] = std::min(lo[b], early[d]);
        hi[b] = std::max(hi[b], kernel[d]);
      }
    });
    for (int64_t u = 0; u < n; ++u) {
      const bool keep = hi[u] > lo[u] || (reduced[u] && hi[u] >= 0);
      if (fresh[u] && !keep && hi[u] >= 0) phantom[u] = hi[u];
      fresh[u] = fresh[u] && keep;
      found = found || fresh[u];
    }
    if (!found) break;
    for (int64_t u = 0; u < n; ++u) {
      if (fresh[u]) {
        stored[u] = added[u] = 1;
        phantom[u] = -1;
      }
    }
    have_kernel = false;
  }
  return have_kernel;
}


// The strongly connected components of the graph whose arcs out of u are adj[ptr[u] ..
// ptr[u + 1]), over the nodes `nodes`, of which arcs to a node with active[v] = 0 are left out
// (Tarjan's algorithm, iteratively): component[u] numbers u's, cyclic[u] = 1 for a node of a
// component of more than one node. Appends the nodes to `finished` in the order their
// components complete, a reverse topological order where there is no cycle.
inline void mark_cycles(const std::vector<int64_t>& ptr, const std::vector<int64_t>& adj,
                        const std::vector<int64_t>& nodes, const std::vector<uint8_t>& active,
                        std::vector<int64_t>& component, std::vector<uint8_t>& cyclic,
                        std::vector<int64_t>& finished) {
  const int64_t n = static_cast<int64_t>(ptr.size()) - 1;
  std::vector<int64_t> index(n, -1), low(n, 0), stack, calls, next(n, 0);
  std::vector<uint8_t> on_stack(n, 0);
  int64_t counter = 0, components = 0;
  for (const int64_t root : nodes) {
    if (index[root] >= 0) continue;
    calls.assign(1, root);
    index[root] = low[root] = counter++;
    next[root] = ptr[root];
    stack.push_back(root);
    on_stack[root] = 1;
    while (!calls.empty()) {
      const int64_t v = calls.back();
      if (next[v] < ptr[v + 1]) {
        const int64_t w = adj[next[v]++];
        if (!active[w]) continue;
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          next[w] = ptr[w];
          stack.push_back(w);
          on_stack[w] = 1;
          calls.push_back(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back()] = std::min(low[calls.back()], low[v]);
      if (low[v] != index[v]) continue;
      const size_t top = stack.size();
      size_t bottom = top;
      while (stack[bottom - 1] != v) --bottom;
      --bottom;
      for (size_t k = bottom; k < top; ++k) {
        on_stack[stack[k]] = 0;
        component[stack[k]] = components;
        if (top - bottom > 1) cyclic[stack[k]] = 1;
        finished.push_back(stack[k]);
      }
      ++components;
      stack.resize(bottom);
    }
  }
}

// Appends the nodes `nodes` of the graph whose arcs out of u are adj[ptr[u] .. ptr[u + 1]) to
// `finished` in a reverse topological order (Kahn's algorithm) and returns true; false when
// the graph has a cycle, with rest[u] = 1 for the nodes Kahn's order never reaches (those on a
// cycle, and what they lead to).
inline bool reverse_topological(const std::vector<int64_t>& ptr, const std::vector<int64_t>& adj,
                                const std::vector<int64_t>& nodes,
                                std::vector<int64_t>& finished, std::vector<uint8_t>& rest) {
  const int64_t n = static_cast<int64_t>(ptr.size()) - 1;
  std::vector<int64_t> indegree(n, 0), queue;
  for (const int64_t v : adj) ++indegree[v];
  for (const int64_t u : nodes) {
    if (indegree[u] == 0) queue.push_back(u);
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    const int64_t u = queue[head];
    for (int64_t k = ptr[u]; k < ptr[u + 1]; ++k) {
      if (--indegree[adj[k]] == 0) queue.push_back(adj[k]);
    }
  }
  if (queue.size() == nodes.size()) {
    finished.assign(queue.rbegin(), queue.rend());
    return true;
  }
  for (const int64_t u : nodes) rest[u] = indegree[u] > 0;
  for (const int64_t u : queue) rest[u] = 0;
  return false;
}

// Inductor's fusion of stored outputs into one kernel (_fused_order in
// tests/_peak_reference.py). Two kinds of link join nodes: along the phase's reads (reads[e] and
// phase[d]), an inlined node and an inlined or stored one computing pointwise values of one size
// (`same[e]`: a recomputed GeLU's value, read by its weight gradient and by its derivative); and
// a horizontal group (group[u]: the group's first member, -1 for none; the gated MLP's backward,
// `horizontal` in peak_walk.h). The stored nodes of a component (its members) run as one kernel
// when there are at most `max_outputs` of them (more: a chain every kernel recomputes, a
// residual stream). The kernels are scheduled as one node each: a kernel runs at its latest
// member's time once everything it reads has run, other kernels included, and whatever reads a
// member moves after it. A kernel that would run before a value it reads (a member reaches a
// reader of another member, directly or through other kernels: a cycle once each kernel is one
// node) cannot be one kernel: the groups on such cycles are dropped and the components formed
// again, and what is still on a cycle then leaves (its nodes keep their times). Writes the new
// rank of every phase node (-1 elsewhere) to `out`; `group` keeps only the groups that run as
// one kernel.
inline void fused_order(const UserGraph& g, const uint8_t* phase, const uint8_t* same,
                        const uint8_t* inlined, const uint8_t* stored, const uint8_t* reduction,
                        const int64_t* time, int max_outputs, std::vector<int64_t>& group,
                        int64_t* out) {
  const int64_t n = g.n;
  std::copy(time, time + n, out);
  // The phase's nodes, numbered 0..m-1 in ascending order (so the least node is the least
  // number), with their reads in the phase and their links.
  std::vector<int64_t> nodes, id(n, -1);
  for (int64_t u = 0; u < n; ++u) {
    if (phase[u]) {
      id[u] = static_cast<int64_t>(nodes.size());
      nodes.push_back(u);
    }
  }
  const int64_t m = static_cast<int64_t>(nodes.size());
  std::vector<int64_t> reads_ptr(m + 1, 0), reads_dst, link_a, link_b, kin(m, -1), t(m);
  std::vector<uint8_t> link_stored;
  bool any_group = false;
  for (int64_t c = 0; c < m; ++c) {
    const int64_t u = nodes[c];
    t[c] = time[u];
    if (group[u] >= 0) {
      kin[c] = id[group[u]];
      any_group = true;
    }
    for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
      const int64_t d = g.dst[e];
      if (!(g.reads[e] && phase[d])) continue;
      reads_dst.push_back(id[d]);
      if (inlined[u] && same[e] && (inlined[d] || stored[d])) {
        link_a.push_back(c);
        link_b.push_back(id[d]);
        link_stored.push_back(stored[d]);
      }
    }
    reads_ptr[c + 1] = static_cast<int64_t>(reads_dst.size());
  }
  for (const int64_t u : nodes) group[u] = -1;
  if (link_a.empty() && !any_group) return;
  std::vector<uint8_t> members(m), left(m, 0), cyclic(m), reducing(m), dropped(m), rest(m);
  std::vector<int64_t> rep(m), ptr(m + 1), adj, finished, component(m), count(m), first(m),
      first_time(m), kept(m), all(m);
  std::iota(all.begin(), all.end(), int64_t{0});
  for (;;) {
    LeastRootSets sets(m);
    std::fill(members.begin(), members.end(), uint8_t{0});
    for (int64_t c = 0; c < m; ++c) {
      if (kin[c] >= 0) {
        members[c] = 1;
        sets.unite(c, kin[c]);
      }
    }
    for (size_t k = 0; k < link_a.size(); ++k) {
      if (link_stored[k]) members[link_b[k]] = 1;
      sets.unite(link_a[k], link_b[k]);
    }
    const std::vector<int64_t> label = std::move(sets).labels();
    std::fill(count.begin(), count.end(), int64_t{0});
    std::fill(first.begin(), first.end(), int64_t{-1});
    for (int64_t c = 0; c < m; ++c) count[label[c]] += members[c] && !left[c];
    bool any = false;
    for (int64_t c = 0; c < m; ++c) {
      members[c] = members[c] && !left[c] && count[label[c]] <= max_outputs;
      if (members[c] && first[label[c]] < 0) first[label[c]] = c;
      rep[c] = members[c] ? first[label[c]] : c;
      any = any || members[c];
    }
    if (!any) return;
    // The phase's reads between kernels, each kernel one node (its first member).
    std::fill(ptr.begin(), ptr.end(), int64_t{0});
    for (int64_t c = 0; c < m; ++c) {
      for (int64_t k = reads_ptr[c]; k < reads_ptr[c + 1]; ++k) {
        if (rep[c] != rep[reads_dst[k]]) ++ptr[rep[c] + 1];
      }
    }
    for (int64_t c = 0; c < m; ++c) ptr[c + 1] += ptr[c];
    adj.resize(ptr[m]);
    {
      std::vector<int64_t> fill(ptr.begin(), ptr.end() - 1);
      for (int64_t c = 0; c < m; ++c) {
        for (int64_t k = reads_ptr[c]; k < reads_ptr[c + 1]; ++k) {
          const int64_t d = reads_dst[k];
          if (rep[c] != rep[d]) adj[fill[rep[c]]++] = rep[d];
        }
      }
    }
    finished.clear();
    if (!reverse_topological(ptr, adj, all, finished, rest)) {
      // Of the kernels on one cycle one stays fused, the others break the cycle: a kernel of
      // pointwise outputs before one of reductions, then the latest (by its first member's
      // time), then the least node. A kernel on a cycle of no other kernel leaves.
      std::fill(cyclic.begin(), cyclic.end(), uint8_t{0});
      finished.clear();
      std::vector<int64_t> unordered;
      for (int64_t c = 0; c < m; ++c) {
        if (rest[c]) unordered.push_back(c);
      }
      mark_cycles(ptr, adj, unordered, rest, component, cyclic, finished);
      std::fill(first_time.begin(), first_time.end(), std::numeric_limits<int64_t>::max());
      std::fill(kept.begin(), kept.end(), int64_t{-1});
      std::fill(reducing.begin(), reducing.end(), uint8_t{0});
      for (int64_t c = 0; c < m; ++c) {
        if (!members[c]) continue;
        first_time[rep[c]] = std::min(first_time[rep[c]], t[c]);
        reducing[rep[c]] = reducing[rep[c]] || reduction[nodes[c]];
      }
      for (int64_t c = 0; c < m; ++c) {
        if (!members[c] || rep[c] != c || !cyclic[c]) continue;
        int64_t& best = kept[component[c]];
        if (best < 0 || reducing[c] < reducing[best] ||
            (reducing[c] == reducing[best] && first_time[c] > first_time[best])) {
          best = c;
        }
      }
      bool breaks = false;
      for (int64_t c = 0; c < m; ++c) {
        breaks = breaks || (members[c] && cyclic[rep[c]] && kept[component[rep[c]]] != rep[c]);
      }
      auto leaves = [&](int64_t c) {
        return members[c] && cyclic[rep[c]] && !(breaks && kept[component[rep[c]]] == rep[c]);
      };
      bool group_on_cycle = false;
      std::fill(dropped.begin(), dropped.end(), uint8_t{0});
      for (int64_t c = 0; c < m; ++c) {
        if (leaves(c) && kin[c] >= 0) group_on_cycle = dropped[kin[c]] = 1;
      }
      if (group_on_cycle) {  // the groups on a cycle go, and the components form again
        for (int64_t c = 0; c < m; ++c) {
          if (kin[c] >= 0 && dropped[kin[c]]) kin[c] = -1;
        }
      } else {
        for (int64_t c = 0; c < m; ++c) {
          if (leaves(c)) left[c] = 1;
        }
      }
      continue;
    }
    // No cycle: `finished` is a reverse topological order of the kernels and nodes.
    std::vector<int64_t> start(m, -1);
    for (int64_t c = 0; c < m; ++c) start[rep[c]] = std::max(start[rep[c]], t[c]);
    for (auto it = finished.rbegin(); it != finished.rend(); ++it) {
      const int64_t c = *it;
      for (int64_t k = ptr[c]; k < ptr[c + 1]; ++k) {
        start[adj[k]] = std::max(start[adj[k]], start[c]);
      }
    }
    for (int64_t c = 0; c < m; ++c) {
      if (kin[c] >= 0 && members[c]) group[nodes[c]] = nodes[kin[c]];
    }
    // The order: a topological order of the kernels and other nodes, by (start, moved: a node
    // the kernels' placement delayed, first time) among those whose inputs have run, each
    // kernel a block of its members in their order: at one start a kernel's outputs, then the
    // readers moved after it.
    std::vector<int64_t> lead(t), block(m + 1, 0), by_time(all);
    counting_sort(by_time, [&](int64_t c) { return t[c]; });
    for (const int64_t c : by_time) {
      if (members[c]) lead[rep[c]] = std::min(lead[rep[c]], t[c]);
      ++block[rep[c] + 1];
    }
    for (int64_t c = 0; c < m; ++c) block[c + 1] += block[c];
    std::vector<int64_t> inside(block[m]), fill(block.begin(), block.end() - 1);
    for (const int64_t c : by_time) inside[fill[rep[c]]++] = c;
    auto moved = [&](int64_t r) { return !members[r] && start[r] > t[r] ? 1 : 0; };
    std::fill(out, out + n, int64_t{-1});
    int64_t rank = 0;
    auto emit = [&](int64_t r) {
      for (int64_t k = block[r]; k < block[r + 1]; ++k) out[nodes[inside[k]]] = rank++;
    };
    // Mostly the order by key is topological already: then it is the order.
    std::vector<int64_t> units, position(m, -1);
    for (const int64_t c : by_time) {  // each kernel at its first member: by lead
      if (position[rep[c]] < 0) {
        position[rep[c]] = 0;
        units.push_back(rep[c]);
      }
    }
    counting_sort(units, [&](int64_t r) { return start[r] * 2 + moved(r); });
    for (size_t k = 0; k < units.size(); ++k) position[units[k]] = static_cast<int64_t>(k);
    bool sorted = true;
    for (const int64_t r : units) {
      for (int64_t k = ptr[r]; k < ptr[r + 1]; ++k) {
        sorted = sorted && position[adj[k]] > position[r];
      }
    }
    if (sorted) {
      for (const int64_t r : units) emit(r);
      return;
    }
    std::vector<int64_t> indegree(m, 0);
    for (const int64_t c : adj) ++indegree[c];
    auto key = [&](int64_t r) { return (start[r] * 2 + moved(r)) * n + lead[r]; };
    std::priority_queue<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>,
                        std::greater<>> ready;
    for (const int64_t r : units) {
      if (indegree[r] == 0) ready.emplace(key(r), r);
    }
    while (!ready.empty()) {
      const int64_t r = ready.top().second;
      ready.pop();
      emit(r);
      for (int64_t k = ptr[r]; k < ptr[r + 1]; ++k) {
        if (--indegree[adj[k]] == 0) ready.emplace(key(adj[k]), adj[k]);
      }
    }
    return;
  }
}

}  // namespace fusioncut
