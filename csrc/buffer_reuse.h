// A phase's peak under Inductor's buffer reuse (fusioncut.peak.PhaseEvents.peak): the generated
// code keeps a freed buffer for a later allocation of its size only when its own estimate of the
// peak allows it (AllocateLine.plan and should_reuse_buffer in torch/_inductor/codegen/
// wrapper.py). Header-only like the rest of csrc/; the binding validates the arrays.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace fusioncut {

// Range add and range maximum over n values: a segment tree with lazy additions, kept
// bottom-up in one array (node p's children are 2p and 2p + 1, the values the leaves n..2n-1;
// most_[p] is the largest value below p with the additions at p and beneath, add_[p] the
// addition waiting at p for its children).
class MaxAddTree {
 public:
  explicit MaxAddTree(const std::vector<int64_t>& values)
      : n_(static_cast<int64_t>(values.size())), most_(2 * n_), add_(n_, 0) {
    while (int64_t{1} << height_ < n_) ++height_;
    std::copy(values.begin(), values.end(), most_.begin() + n_);
    for (int64_t p = n_ - 1; p > 0; --p) most_[p] = std::max(most_[2 * p], most_[2 * p + 1]);
  }

  // The largest value in [lo, hi] (lo <= hi, both in [0, n)).
  int64_t max(int64_t lo, int64_t hi) {
    int64_t l = lo + n_, r = hi + 1 + n_;
    push(l);
    push(r - 1);
    int64_t best = std::numeric_limits<int64_t>::min();
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1) best = std::max(best, most_[l++]);
      if (r & 1) best = std::max(best, most_[--r]);
    }
    return best;
  }

  // Adds `amount` to every value in [lo, hi].
  void add(int64_t lo, int64_t hi, int64_t amount) {
    int64_t l = lo + n_, r = hi + 1 + n_;
    const int64_t l0 = l, r0 = r - 1;
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1) apply(l++, amount);
      if (r & 1) apply(--r, amount);
    }
    rebuild(l0);
    rebuild(r0);
  }

 private:
  void apply(int64_t p, int64_t amount) {
    most_[p] += amount;
    if (p < n_) add_[p] += amount;
  }

  void rebuild(int64_t p) {  // the nodes above p, from their children
    for (p >>= 1; p > 0; p >>= 1) most_[p] = std::max(most_[2 * p], most_[2 * p + 1]) + add_[p];
  }

  void push(int64_t p) {  // the additions above p, handed down to it
    for (int s = height_; s > 0; --s) {
      const int64_t i = p >> s;
      if (i > 0 && add_[i] != 0) {
        apply(2 * i, add_[i]);
        apply(2 * i + 1, add_[i]);
        add_[i] = 0;
      }
    }
  }

  int64_t n_;
  int height_ = 0;
  std::vector<int64_t> most_, add_;
};

// `items` reordered stably by key(item): a counting sort when the keys span a range the size of
// the list (a phase's event keys: twice its times), else a merge sort.
template <class Key>
inline void sort_events(std::vector<int64_t>& items, Key key) {
  if (items.empty()) return;
  int64_t lo = key(items[0]), hi = lo;
  for (const int64_t x : items) {
    lo = std::min(lo, key(x));
    hi = std::max(hi, key(x));
  }
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (span > 4 * static_cast<uint64_t>(items.size()) + 1024) {
    std::stable_sort(items.begin(), items.end(),
                     [&](int64_t a, int64_t b) { return key(a) < key(b); });
    return;
  }
  std::vector<int64_t> start(span + 2, 0), out(items.size());
  for (const int64_t x : items) ++start[key(x) - lo + 1];
  for (uint64_t k = 0; k <= span; ++k) start[k + 1] += start[k];
  for (const int64_t x : items) out[start[key(x) - lo]++] = x;
  items.swap(out);
}

// One phase's storages: allocated at alloc_t[k] (alloc_s[k] bytes) and freed at free_t[k]
// (free_s[k] bytes), at phase times; workspaces (work_t, work_s) held while their kernel runs;
// phantoms (phantom_t, phantom_s): buffers Inductor's lowering realized and fusion removed,
// which only Inductor's own estimate counts.
struct PhaseStorages {
  int64_t num_alloc;
  const int64_t* alloc_t;
  const int64_t* alloc_s;
  const uint8_t* in_place;  // the allocation may take a dying input's storage
  int64_t num_free;
  const int64_t* free_t;
  const int64_t* free_s;
  int64_t num_work;
  const int64_t* work_t;
  const int64_t* work_s;
  int64_t num_phantom;
  const int64_t* phantom_t;
  const int64_t* phantom_s;
};

// The phase's peak in bytes (at least 0). Events at one time t: the allocations (event key 2t),
// then the frees (2t + 1); an in-place allocation (in_place[k]: the output of a kernel Inductor
// generates, written over a same-sized input that dies in it) takes one free of its time and size,
// which then comes first (2t - 1: the storage passes from input to output), the frees in their
// given order. The generated code frees a buffer at its last use unless a later allocation of its
// size reuses it, the most recently freed first; it reuses it only when the bytes that holding it
// adds fit under its own estimate's overall peak: with P(i) Inductor's estimate at step i (every
// storage allocated at its kernel and freed after its last, nothing in place, phantoms counted
// at their kernel), a buffer freed at step f goes to an allocation of s bytes at step a when
// s + max over f < i < a of (the live bytes at i, reuses so far included) <= max_i P(i); a
// buffer held adds s bytes between f and a. The live bytes at a step are those alive while its
// kernel runs (its allocations made, its frees not yet); a workspace counts on top of the live
// bytes at its time.
inline int64_t reuse_peak(const PhaseStorages& p) {
  const int64_t count = p.num_alloc + p.num_free;
  // The in-place allocations' (time, size), with how many frees each still takes.
  std::vector<std::pair<int64_t, int64_t>> reuse;
  for (int64_t k = 0; k < p.num_alloc; ++k) {
    if (p.in_place[k]) reuse.emplace_back(p.alloc_t[k], p.alloc_s[k]);
  }
  std::sort(reuse.begin(), reuse.end());
  std::vector<int64_t> takes(reuse.size(), 0);
  for (size_t k = 0; k < reuse.size();) {  // the first of equal pairs counts them
    size_t end = k;
    while (end < reuse.size() && reuse[end] == reuse[k]) ++end;
    takes[k] = static_cast<int64_t>(end - k);
    k = end;
  }
  // Per event: its key, its key in Inductor's estimate, its bytes, and +1 / -1 (allocation,
  // free); allocations first, then frees.
  std::vector<int64_t> key(count), inductor_key(count), bytes(count), sign(count, 1);
  for (int64_t k = 0; k < p.num_alloc; ++k) {
    key[k] = inductor_key[k] = 2 * p.alloc_t[k];
    bytes[k] = p.alloc_s[k];
  }
  for (int64_t k = 0; k < p.num_free; ++k) {
    const std::pair<int64_t, int64_t> at{p.free_t[k], p.free_s[k]};
    const auto it = std::lower_bound(reuse.begin(), reuse.end(), at);
    bool first = false;
    if (it != reuse.end() && *it == at) {
      int64_t& left = takes[it - reuse.begin()];
      first = left > 0;
      left -= first;
    }
    key[p.num_alloc + k] = 2 * p.free_t[k] + (first ? -1 : 1);
    inductor_key[p.num_alloc + k] = 2 * p.free_t[k] + 1;
    bytes[p.num_alloc + k] = p.free_s[k];
    sign[p.num_alloc + k] = -1;
  }
  // Events by key, allocations before frees at one key, each kind in its given order.
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), int64_t{0});
  sort_events(order, [&](int64_t e) { return 2 * key[e] + (sign[e] < 0 ? 1 : 0); });
  std::vector<int64_t> keys, pos(count);  // the distinct keys; each event's index among them
  for (const int64_t e : order) {
    if (keys.empty() || keys.back() != key[e]) keys.push_back(key[e]);
    pos[e] = static_cast<int64_t>(keys.size()) - 1;
  }
  const int64_t steps = static_cast<int64_t>(keys.size());
  std::vector<int64_t> level(steps, 0), added(steps, 0), change(steps, 0);
  for (int64_t e = 0; e < count; ++e) {
    change[pos[e]] += sign[e] * bytes[e];
    if (sign[e] > 0) added[pos[e]] += bytes[e];
  }
  int64_t live = 0;
  for (int64_t i = 0; i < steps; ++i) {
    level[i] = live + added[i];
    live += change[i];
  }
  // Inductor's estimate at each key: its events before the key, and the key's allocations.
  std::vector<int64_t> by_inductor(count);
  std::iota(by_inductor.begin(), by_inductor.end(), int64_t{0});
  sort_events(by_inductor, [&](int64_t e) { return inductor_key[e]; });
  std::vector<int64_t> estimate(steps);
  int64_t before = 0;
  size_t j = 0;
  for (int64_t i = 0; i < steps; ++i) {
    for (; j < by_inductor.size() && inductor_key[by_inductor[j]] < keys[i]; ++j) {
      before += sign[by_inductor[j]] * bytes[by_inductor[j]];
    }
    estimate[i] = before + added[i];
  }
  auto at_or_before = [&](int64_t t) {  // the last key index <= 2t, or -1
    return static_cast<int64_t>(std::upper_bound(keys.begin(), keys.end(), 2 * t) -
                                keys.begin()) - 1;
  };
  for (int64_t k = 0; k < p.num_phantom; ++k) {
    const int64_t i = at_or_before(p.phantom_t[k]);
    if (i >= 0) estimate[i] += p.phantom_s[k];
  }
  const int64_t limit =
      steps ? *std::max_element(estimate.begin(), estimate.end()) : int64_t{0};
  // The reuses, in event order: per size, a stack of the steps its storages were freed at.
  std::vector<int64_t> sizes(bytes);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::vector<std::vector<int64_t>> freed(sizes.size());
  MaxAddTree held(level);
  for (const int64_t e : order) {
    const int64_t s = bytes[e];
    std::vector<int64_t>& stack =
        freed[std::lower_bound(sizes.begin(), sizes.end(), s) - sizes.begin()];
    const int64_t i = pos[e];
    if (sign[e] < 0) {
      stack.push_back(i);
      continue;
    }
    if (stack.empty()) continue;
    const int64_t lo = stack.back() + 1, hi = i - 1;
    const int64_t between = lo <= hi ? held.max(lo, hi) : 0;
    if (s + between > limit) continue;
    stack.pop_back();
    if (lo <= hi) held.add(lo, hi, s);
  }
  int64_t peak = steps ? std::max<int64_t>(held.max(0, steps - 1), 0) : 0;
  for (int64_t k = 0; k < p.num_work; ++k) {
    const int64_t i = at_or_before(p.work_t[k]);
    peak = std::max(peak, (i >= 0 ? held.max(i, i) : 0) + p.work_s[k]);
  }
  return peak;
}

}  // namespace fusioncut
