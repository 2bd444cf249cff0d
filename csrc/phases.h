// The sequential walks of fusioncut's peak estimate, here because the frontier runs them once
// per plan it scores (hundreds of times on a 9k-node graph): which graph computes each joint
// node for one saved set (phase_split), a phase's live bytes under Inductor's buffer pool
// (pooled_peak), the host link's copies one at a time (link_done) and torch's reload prefetch
// queue (prefetch_times); raise_along, a fixpoint on any edges, serves the numpy reference walk
// (tests/_peak_reference.py), the rest of the walk being peak_walk.h.
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

// One phase of the peak walk (fusioncut.peak.PhaseEvents.peak): storages allocated at
// alloc_t[k] (alloc_s[k] bytes) and freed at free_t[k] (free_s[k] bytes); at one time the
// allocations come before the frees (event times 2t and 2t + 1), except that a free of the
// size of an in-place allocation (in_place[k]) of the same time comes first (2t - 1): the
// storage passes from a kernel's dying input to its output. Inductor keeps a freed storage
// for a later allocation of its size: per size, with L the live count after each event, M its
// running maximum (the storages ever held) and P = M - L the pool, the storages still held at
// an event are M - (the least P from that event on). Events of one size run in time order,
// allocations before frees at one time, each in its given order; the sizes' events merge in
// time order (ties: smaller size first). Transient bytes (work_t, work_s: a workspace while its
// kernel runs) count on top of the storages live after the allocations of their time.
// Returns the peak (at least 0) and the bytes held after the last event.
struct PooledPeak {
  int64_t peak;
  int64_t end;
};

inline PooledPeak pooled_peak(int64_t num_alloc, const int64_t* alloc_t, const int64_t* alloc_s,
                              const uint8_t* in_place, int64_t num_free, const int64_t* free_t,
                              const int64_t* free_s, int64_t num_work, const int64_t* work_t,
                              const int64_t* work_s) {
  std::vector<std::pair<int64_t, int64_t>> reuse;  // (time, size) of the in-place allocations
  for (int64_t k = 0; k < num_alloc; ++k) {
    if (in_place[k]) reuse.emplace_back(alloc_t[k], alloc_s[k]);
  }
  std::sort(reuse.begin(), reuse.end());
  const int64_t count = num_alloc + num_free;
  std::vector<int64_t> time(count), size(count), step(count);
  for (int64_t k = 0; k < num_alloc; ++k) {
    time[k] = 2 * alloc_t[k];
    size[k] = alloc_s[k];
    step[k] = 1;
  }
  for (int64_t k = 0; k < num_free; ++k) {
    const bool first = std::binary_search(reuse.begin(), reuse.end(),
                                          std::make_pair(free_t[k], free_s[k]));
    time[num_alloc + k] = 2 * free_t[k] + (first ? -1 : 1);
    size[num_alloc + k] = free_s[k];
    step[num_alloc + k] = -1;
  }
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return size[a] != size[b] ? size[a] < size[b] : time[a] < time[b];
  });
  // Per size: held storages after each event, and the change in bytes it makes.
  std::vector<int64_t> most(count), pool(count), delta(count);
  for (int64_t g = 0; g < count;) {
    int64_t end = g;
    while (end < count && size[order[end]] == size[order[g]]) ++end;
    int64_t live = 0, held_max = 0;
    for (int64_t j = g; j < end; ++j) {
      live += step[order[j]];
      held_max = std::max(held_max, live);
      most[j] = held_max;
      pool[j] = held_max - live;
    }
    int64_t ahead = pool[end - 1], previous_held = 0;
    for (int64_t j = end - 1; j >= g; --j) {
      ahead = std::min(ahead, pool[j]);
      pool[j] = ahead;  // now the least pool from j on
    }
    for (int64_t j = g; j < end; ++j) {
      const int64_t held = most[j] - pool[j];
      delta[j] = (held - previous_held) * size[order[g]];
      previous_held = held;
    }
    g = end;
  }
  std::vector<int64_t> by_time(count);
  std::iota(by_time.begin(), by_time.end(), int64_t{0});
  std::stable_sort(by_time.begin(), by_time.end(),
                   [&](int64_t a, int64_t b) { return time[order[a]] < time[order[b]]; });
  // Workspaces by time, summed per time.
  std::vector<std::pair<int64_t, int64_t>> work(num_work);
  for (int64_t k = 0; k < num_work; ++k) work[k] = {work_t[k], work_s[k]};
  std::sort(work.begin(), work.end());
  int64_t total = 0, peak = 0;
  size_t w = 0;
  auto transient_until = [&](int64_t event_time) {  // workspaces of times before event_time
    while (w < work.size() && 2 * work[w].first < event_time) {
      int64_t extra = 0;
      const int64_t t = work[w].first;
      for (; w < work.size() && work[w].first == t; ++w) extra += work[w].second;
      peak = std::max(peak, total + extra);
    }
  };
  for (int64_t j = 0; j < count; ++j) {
    const int64_t e = by_time[j];
    transient_until(time[order[e]]);
    total += delta[e];
    peak = std::max(peak, total);
  }
  transient_until(std::numeric_limits<int64_t>::max());
  return {peak, total};
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
