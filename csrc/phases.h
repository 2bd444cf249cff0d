// The sequential walks of fusioncut's peak estimate, here because the frontier runs them once
// per plan it scores (hundreds of times on a 9k-node graph): which graph computes each joint
// node for one saved set (phase_split), the host link's copies one at a time (link_done) and
// torch's reload prefetch queue (prefetch_times); raise_along, a fixpoint on any edges, serves
// the numpy reference walk (tests/_peak_reference.py), the rest of the walk being peak_walk.h
// and a phase's peak buffer_reuse.h.
// Header-only like the solvers; the binding validates the arrays and this code trusts them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace fusioncut {

// Per-node facts that do not depend on the saved set: the bits of bits[i] (_core.PHASE_FLAGS).
enum PhaseFlag : uint8_t {
  kPhaseInput = 1,            // a placeholder or constant: exists before either phase
  kPhaseTangentDependent = 2, // the backward computes it whatever is saved
  kPhaseLiveOut = 4,          // a forward or backward output of the joint graph
  kPhaseBackwardOutput = 8,
  kPhaseForward = 16,         // a forward node (role FORWARD)
  kPhaseMetadata = 32,        // reads only its input's sizes (aten.sym_size)
};

// Inputs: n nodes in topological order; the users of node i are
// user_dst[user_ptr[i] .. user_ptr[i + 1]), every one above i; bits and saved per node.
// Outputs (n each): fw[i], bw[i] (1 if that graph computes node i) and trigger[i] (for a
// node the backward computes, the index of the first backward node that needs its value,
// preferring a reader of the value over one of its sizes; i itself otherwise).
inline void phase_split(int64_t n, const int64_t* user_ptr, const int64_t* user_dst,
                        const uint8_t* bits, const uint8_t* saved, uint8_t* fw, uint8_t* bw,
                        int64_t* trigger) {
  for (int64_t i = 0; i < n; ++i) {
    fw[i] = (bits[i] & kPhaseForward) ? 1 : 0;
    bw[i] = 0;
    trigger[i] = i;
  }
  for (int64_t i = n - 1; i >= 0; --i) {
    const uint8_t b = bits[i];
    if (b & kPhaseInput) continue;
    if (b & kPhaseTangentDependent) {
      bw[i] = 1;
      continue;
    }
    int64_t first = n, first_value = n;
    bool needed_in_fw = false;
    for (int64_t e = user_ptr[i]; e < user_ptr[i + 1]; ++e) {
      const int64_t u = user_dst[e];
      if (bw[u]) {
        if (trigger[u] < first) first = trigger[u];
        if (trigger[u] < first_value && !(bits[u] & kPhaseMetadata)) first_value = trigger[u];
      }
      if (fw[u]) needed_in_fw = true;
    }
    const bool is_saved = saved[i] != 0;
    if (first < n && !is_saved) {
      bw[i] = 1;
      trigger[i] = first_value < n ? first_value : first;
    } else if ((b & kPhaseBackwardOutput) && !is_saved && !(b & kPhaseForward)) {
      bw[i] = 1;  // a backward output computable from forward values alone
    }
    if (is_saved || needed_in_fw || ((b & kPhaseLiveOut) && !bw[i])) fw[i] = 1;
  }
}

// The fixpoint behind fusioncut.peak's kernel times and fused order: value raised until
// value[to[e]] >= value[from[e]] for every edge e (the least such values above the given
// ones, whatever the order of the work). A FIFO worklist seeded with every node in the order
// most edges run (ascending index when most edges rise, else descending: kernel times flow
// from readers back to what they read): on a DAG whose edges mostly run one way each node is
// then visited about once. Values only take values already present, so it ends on any graph.
// O(n + m) to build the edge lists.
inline void raise_along(int64_t n, int64_t m, const int64_t* from, const int64_t* to,
                        int64_t* value) {
  std::vector<int64_t> ptr(n + 1, 0), dst(m);
  int64_t rising = 0;
  for (int64_t e = 0; e < m; ++e) {
    ++ptr[from[e] + 1];
    rising += to[e] > from[e] ? 1 : (to[e] < from[e] ? -1 : 0);
  }
  for (int64_t i = 0; i < n; ++i) ptr[i + 1] += ptr[i];
  std::vector<int64_t> fill(ptr.begin(), ptr.end() - 1);
  for (int64_t e = 0; e < m; ++e) dst[fill[from[e]]++] = to[e];
  std::vector<int64_t> queue(n);
  std::iota(queue.begin(), queue.end(), int64_t{0});
  if (rising < 0) std::reverse(queue.begin(), queue.end());
  std::vector<uint8_t> queued(n, 1);
  for (size_t head = 0; head < queue.size(); ++head) {
    const int64_t u = queue[head];
    queued[u] = 0;
    for (int64_t e = ptr[u]; e < ptr[u + 1]; ++e) {
      const int64_t v = dst[e];
      if (value[v] < value[u]) {
        value[v] = value[u];
        if (!queued[v]) {
          queued[v] = 1;
          queue.push_back(v);
        }
      }
    }
  }
}

// The host link (fusioncut.peak_offload.paced_waits): copies in the order they are issued,
// copy k ready at start[k] and moving for seconds[k], one at a time: each finishes at
// max(its start, the previous one's finish) + its seconds, summed in this order so that every
// caller gets the same floating-point times.
inline void link_done(int64_t count, const double* start, const double* seconds, double* out) {
  double free = 0.0;
  for (int64_t k = 0; k < count; ++k) {
    free = (start[k] > free ? start[k] : free) + seconds[k];
    out[k] = free;
  }
}

// torch's reload prefetch (fusioncut.peak_offload.reload_times), walked in C++: the reloads in
// the order torch meets them walking the backward from its end (first use descending), each
// first used at backward time use[k] and needing lead[k] seconds of compute before it; the
// compute seconds of the node at each backward time. A first-in first-out queue: the reload
// at its head takes each node's seconds off its lead and is placed before the node that
// covers it; reloads still queued at the backward's start are placed there (-1).
inline void prefetch_times(int64_t count, const int64_t* use, const double* lead,
                           int64_t steps, const double* seconds, int64_t* out) {
  std::vector<int64_t> queue;
  std::vector<double> remaining;
  queue.reserve(count);
  remaining.reserve(count);
  size_t head = 0;
  int64_t at = 0;
  for (int64_t k = 0; k < count; ++k) out[k] = -1;
  for (int64_t t = steps - 1; t >= 0; --t) {
    if (head < queue.size()) {
      remaining[head] -= seconds[t];
      if (remaining[head] <= 0) {
        out[queue[head]] = t;
        ++head;
      }
    }
    while (at < count && use[at] >= t) {
      const int64_t k = at++;
      if (lead[k] <= 0) {
        out[k] = use[k];
        continue;
      }
      queue.push_back(k);
      remaining.push_back(lead[k]);
    }
  }
}

}  // namespace fusioncut
