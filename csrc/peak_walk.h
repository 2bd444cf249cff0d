// The peak estimate's walk of one plan (fusioncut.peak.phase_events), whole, in C++: the
// frontier estimates every plan it scores, and the walk's numpy passes cost more than its
// arithmetic. The graph's facts that no plan changes are held once (PeakGraph); a walk takes
// one plan's phases and saved set and returns each phase's storage events. The rules are
// fusioncut.peak's module docstring; the names below follow its code.
// Header-only like the solvers; the binding validates the arrays and this code trusts them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <list>
#include <memory>
#include <mutex>
#include <numeric>
#include <utility>
#include <vector>

#include "kernels.h"

namespace fusioncut {

// The backward's schedule of one plan: what the walk derives from its phases alone (fw, bw,
// trigger) and the node sizes, before any saved or offloaded value is looked at (the
// horizontal groups, the fused order, each node's kernel step and last use). Plans that differ
// only in what they offload share it: the peak search offloads on top of one plan many times.
struct BackwardSchedule {
  // The key: the phases, the triggers and the sizes it was built from, and their hash.
  std::vector<uint8_t> fw, bw;
  std::vector<int64_t> trigger, size;
  uint64_t hash = 0;
  // The schedule.
  int64_t length = 0;  // nodes in the backward
  std::vector<uint8_t> written, alone;
  std::vector<int64_t> time, step, group, last_use, phantom;
};

// The schedules of the plans walked last (up to `kCapacity` and `kMaxBytes` of them, the
// newest always, the newest first), shared by the walks of one PeakGraph; a lookup compares
// the whole key, so a hit is the schedule a walk would build.
class ScheduleCache {
 public:
  static constexpr size_t kCapacity = 8;
  static constexpr size_t kMaxBytes = size_t{32} << 20;  // as the Evaluator's walks

  std::shared_ptr<const BackwardSchedule> find(uint64_t hash, int64_t n, const uint8_t* fw,
                                               const uint8_t* bw, const int64_t* trigger,
                                               const int64_t* size) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      const BackwardSchedule& s = **it;
      if (s.hash == hash && std::memcmp(s.bw.data(), bw, n) == 0 &&
          std::memcmp(s.fw.data(), fw, n) == 0 &&
          std::memcmp(s.trigger.data(), trigger, n * sizeof(int64_t)) == 0 &&
          std::memcmp(s.size.data(), size, n * sizeof(int64_t)) == 0) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front();
      }
    }
    return nullptr;
  }

  void add(std::shared_ptr<const BackwardSchedule> schedule) {
    std::lock_guard<std::mutex> lock(mutex_);
    bytes_ += bytes_of(*schedule);
    entries_.push_front(std::move(schedule));
    while (entries_.size() > 1 && (entries_.size() > kCapacity || bytes_ > kMaxBytes)) {
      bytes_ -= bytes_of(*entries_.back());
      entries_.pop_back();
    }
  }

 private:
  static size_t bytes_of(const BackwardSchedule& s) {
    const size_t n = s.bw.size();
    return n * (4 * sizeof(uint8_t) + 7 * sizeof(int64_t));  // its eleven arrays of n
  }

  std::mutex mutex_;
  std::list<std::shared_ptr<const BackwardSchedule>> entries_;
  size_t bytes_ = 0;
};

// A hash of `bytes` bytes at `data`, folded into `h` (FNV-1a over 8-byte words).
inline uint64_t hash_bytes(uint64_t h, const void* data, size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  size_t k = 0;
  for (; k + 8 <= bytes; k += 8) {
    uint64_t word;
    std::memcpy(&word, p + k, 8);
    h = (h ^ word) * 1099511628211ULL;
  }
  for (; k < bytes; ++k) h = (h ^ p[k]) * 1099511628211ULL;
  return h;
}

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
  int horizontal_distance = 64;  // fusioncut.peak._HORIZONTAL_DISTANCE (0: no horizontal fusion)
  // The inputs of node v: the user edges in_edge[in_ptr[v] .. in_ptr[v + 1]), each from
  // in_src[k] (built by index_inputs).
  std::vector<int64_t> in_ptr, in_edge, in_src;
  // The backward schedules of the last plans walked (shared by copies of this graph).
  std::shared_ptr<ScheduleCache> schedules = std::make_shared<ScheduleCache>();

  UserGraph users() const {
    return {n, ptr.data(), dst.data(), reads.data(), reduced.data()};
  }

  // The users in CSR form, read backwards: every node's inputs.
  void index_inputs() {
    in_ptr.assign(n + 1, 0);
    for (const int64_t d : dst) ++in_ptr[d + 1];
    for (int64_t v = 0; v < n; ++v) in_ptr[v + 1] += in_ptr[v];
    in_edge.resize(dst.size());
    in_src.resize(dst.size());
    std::vector<int64_t> next(in_ptr.begin(), in_ptr.end() - 1);
    for (int64_t u = 0; u < n; ++u) {
      for (int64_t e = ptr[u]; e < ptr[u + 1]; ++e) {
        const int64_t k = next[dst[e]]++;
        in_edge[k] = e;
        in_src[k] = u;
      }
    }
  }
};

// One phase's storage events (fusioncut.peak.PhaseEvents).
struct WalkPhase {
  std::vector<int64_t> time, alloc_node, alloc_t, alloc_s;
  std::vector<uint8_t> in_place;
  std::vector<int64_t> free_node, free_t, free_s, work_node, work_t, work_s;
  std::vector<int64_t> phantom_node, phantom_t, phantom_s;  // realized and fused away
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

// A phase's kernel times and the values stored on reuse, added to `written`; `phantom`: the
// values realized and fused away (stored_on_reuse), per node the kernel's time or -1.
inline void kernels(const PeakGraph& g, const uint8_t* phase, const int64_t* time,
                    std::vector<uint8_t>& written, std::vector<int64_t>& kernel,
                    std::vector<int64_t>& phantom) {
  const UserGraph users = g.users();
  const PhaseNodes nodes{phase, g.fusible.data(), g.merged.data(), g.computing.data(),
                         g.heavy.data(), g.reduction.data(), g.base.data(), time};
  bool have = false;
  std::fill(phantom.begin(), phantom.end(), int64_t{-1});
  if (g.cpu_rules) {
    std::vector<uint8_t> added(g.n);
    have = stored_on_reuse(users, nodes, written.data(), g.max_store_passes, added.data(),
                           kernel.data(), phantom.data());
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
                           const uint8_t* phase, const int64_t* size,
                           const std::vector<int64_t>& phantom, WalkPhase& out) {
  for (int64_t i = 0; i < g.n; ++i) {
    if (phantom[i] >= 0) {
      out.phantom_node.push_back(i);
      out.phantom_t.push_back(phantom[i]);
      out.phantom_s.push_back(size[i]);
    }
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

// Inductor's horizontal fusion in the backward. Its scheduler fuses nodes that read a common
// buffer (Scheduler.can_fuse, score_fusion_memory: the pairs sharing most first) when neither
// depends on the other and they stand at most 64 scheduler nodes apart in its order
// (are_long_distant_nodes). Candidates are the stored pointwise values and reductions the
// backward computes, of their own storage; a group is a first candidate and up to
// max_fused_outputs - 1 later ones of its kind (pointwise or reduction) and size within
// `horizontal_distance` allocations of it in the backward's order, each sharing a storage it
// reads (directly or through values it keeps in registers) with a member, reached from no
// member through the backward, and, from the third on, read storages all of which one member
// reads (the gated MLP: the recomputed silu(gate) * up and the gradients of up and gate read
// gate, up and the down projection's input gradient; a layer norm's two row sums of its
// backward, or the weight gradients of two norms that read one input). Groups are taken in the
// order's order, each candidate in at most one.
// - A group of values the backward recomputes (a T5's two decoder layers computing their
//   attention probabilities from one position bias) depends on no tangent, so the scheduler
//   pulls it ahead: the later members' triggers, and those of what they recompute through, fall
//   to the earliest member's. Returns whether a trigger moved.
// - A group with a value the backward computes anew is placed by fused_order as one kernel:
//   group[u] is its first member for each member (else -1), and alone[u] marks a member that
//   reads no storage of its size that no other member reads: it cannot be written in place
//   (Inductor's decide_inplace_update needs the input's one remaining user to be the writer).
// `order`: the backward's nodes in (trigger, role, index) order; `written` and `inlined`: the
// backward's (order-independent).
inline bool horizontal(const PeakGraph& g, const uint8_t* fw, const uint8_t* bw,
                       const std::vector<uint8_t>& written, const std::vector<uint8_t>& inlined,
                       const std::vector<int64_t>& order, const int64_t* size,
                       std::vector<int64_t>& trigger, std::vector<int64_t>& group,
                       std::vector<uint8_t>& alone) {
  if (g.horizontal_distance <= 0) return false;
  const int64_t n = g.n;
  std::vector<int64_t> candidates, slot;  // slot[k]: allocations before candidates[k]
  int64_t allocations = 0;
  for (const int64_t u : order) {
    const bool stored = g.tensor[u] && written[u] && g.base[u] == u;
    if (stored && size[u] > 0 && ((g.computing[u] && g.fusible[u]) || g.reduction[u])) {
      candidates.push_back(u);
      slot.push_back(allocations);
    }
    allocations += stored;
  }
  if (candidates.size() < 2) return false;
  // The storages each candidate reads, through the values it computes in registers (sorted),
  // found when first asked for.
  const size_t count = candidates.size();
  std::vector<std::vector<int64_t>> reads(count);
  std::vector<uint8_t> known(count, 0);
  std::vector<int64_t> seen(n, -1), stack;
  auto reads_of = [&](size_t k) -> const std::vector<int64_t>& {
    if (known[k]) return reads[k];
    known[k] = 1;
    stack.assign(1, candidates[k]);
    while (!stack.empty()) {
      const int64_t x = stack.back();
      stack.pop_back();
      for (int64_t j = g.in_ptr[x]; j < g.in_ptr[x + 1]; ++j) {
        const int64_t v = g.in_src[j];
        if (!g.reads[g.in_edge[j]] || seen[v] == static_cast<int64_t>(k)) continue;
        seen[v] = static_cast<int64_t>(k);
        if (bw[v] && inlined[v]) {
          stack.push_back(v);
        } else {
          reads[k].push_back(g.base[v]);
        }
      }
    }
    std::sort(reads[k].begin(), reads[k].end());
    reads[k].erase(std::unique(reads[k].begin(), reads[k].end()), reads[k].end());
    return reads[k];
  };
  auto share = [&](size_t a, size_t b) {
    const std::vector<int64_t>& x = reads_of(a);
    const std::vector<int64_t>& y = reads_of(b);
    auto i = x.begin(), j = y.begin();
    while (i != x.end() && j != y.end()) {
      if (*i == *j) return true;
      if (*i < *j) ++i; else ++j;
    }
    return false;
  };
  // The next candidate of one kind (pointwise or reduction) and size: next[k] (count: none).
  std::vector<size_t> next(count, count), by_kind(count);
  std::iota(by_kind.begin(), by_kind.end(), size_t{0});
  auto kind = [&](size_t k) {
    return std::make_pair(size[candidates[k]], g.reduction[candidates[k]]);
  };
  std::stable_sort(by_kind.begin(), by_kind.end(),
                   [&](size_t x, size_t y) { return kind(x) < kind(y); });
  for (size_t k = 0; k + 1 < count; ++k) {
    if (kind(by_kind[k]) == kind(by_kind[k + 1])) next[by_kind[k]] = by_kind[k + 1];
  }
  // What the group's members reach through the backward, up to position `bound` of `order` (a
  // topological order: every node on a path to a candidate stands before it), marked with the
  // group's first in `reached`; the nodes found beyond `bound` wait in `beyond` until it grows
  // to the next candidate asked about.
  std::vector<int64_t> position(n, -1), reached(n, -1), beyond;
  for (size_t k = 0; k < order.size(); ++k) position[order[k]] = static_cast<int64_t>(k);
  int64_t bound = -1;
  auto walk = [&](int64_t mark) {
    while (!stack.empty()) {
      const int64_t x = stack.back();
      stack.pop_back();
      for (int64_t e = g.ptr[x]; e < g.ptr[x + 1]; ++e) {
        const int64_t d = g.dst[e];
        if (!bw[d] || reached[d] == mark) continue;
        if (position[d] > bound) {
          beyond.push_back(d);
          continue;
        }
        reached[d] = mark;
        stack.push_back(d);
      }
    }
  };
  auto reach_from = [&](int64_t from, int64_t mark) {
    stack.assign(1, from);
    walk(mark);
  };
  auto reach_to = [&](int64_t to, int64_t mark) {  // bound raised to `to`
    bound = to;
    size_t kept = 0;
    for (const int64_t d : beyond) {
      if (reached[d] == mark) continue;
      if (position[d] > bound) {
        beyond[kept++] = d;
      } else {
        reached[d] = mark;
        stack.push_back(d);
      }
    }
    beyond.resize(kept);
    walk(mark);
  };
  const size_t most = static_cast<size_t>(std::max(g.max_fused_outputs, 2));
  std::vector<uint8_t> taken(count, 0);
  std::vector<int64_t> all, joined;  // the union of the members' reads, from the second on
  std::vector<std::vector<size_t>> groups;
  for (size_t a = 0; a < count; ++a) {
    if (taken[a]) continue;
    const int64_t first = candidates[a];
    const size_t end = static_cast<size_t>(
        std::upper_bound(slot.begin() + a, slot.end(), slot[a] + g.horizontal_distance) -
        slot.begin());
    bool walked = false;
    std::vector<size_t> members{a};
    for (size_t b = next[a]; b < end && members.size() < most; b = next[b]) {
      const int64_t later = candidates[b];
      if (taken[b]) continue;
      bool shares = false;
      for (const size_t m : members) shares = shares || share(m, b);
      if (!shares) continue;
      joined.clear();
      if (members.size() >= 2) {  // one member's reads hold everyone's
        const std::vector<int64_t>& mine = reads_of(b);
        std::set_union(all.begin(), all.end(), mine.begin(), mine.end(),
                       std::back_inserter(joined));
        bool held = std::includes(mine.begin(), mine.end(), joined.begin(), joined.end());
        for (const size_t m : members) {
          held = held || std::includes(reads[m].begin(), reads[m].end(), joined.begin(),
                                       joined.end());
        }
        if (!held) continue;
      }
      if (!walked) {
        walked = true;
        bound = position[later];
        beyond.clear();
        reach_from(first, first);
      } else if (position[later] > bound) {
        reach_to(position[later], first);
      }
      if (reached[later] == first) continue;
      if (members.size() >= 2) {
        all.swap(joined);
      } else {
        std::set_union(reads[a].begin(), reads[a].end(), reads[b].begin(), reads[b].end(),
                       std::back_inserter(all));
      }
      members.push_back(b);
      if (members.size() < most) reach_from(later, first);
    }
    all.clear();
    if (members.size() < 2) continue;
    for (const size_t m : members) taken[m] = 1;
    groups.push_back(std::move(members));
  }
  bool moved = false;
  for (const std::vector<size_t>& members : groups) {
    bool recomputed = true;
    int64_t to = trigger[candidates[members[0]]];
    for (const size_t m : members) {
      recomputed = recomputed && fw[candidates[m]];
      to = std::min(to, trigger[candidates[m]]);
    }
    if (!recomputed) {
      for (const size_t m : members) {
        const int64_t u = candidates[m];
        group[u] = candidates[members[0]];
        // The storages of u's size that u alone of the group reads.
        bool own = false;
        for (const int64_t x : reads[m]) {
          if (size[x] != size[u] || own) continue;
          own = true;
          for (const size_t o : members) {
            if (o != m && std::binary_search(reads[o].begin(), reads[o].end(), x)) own = false;
          }
        }
        alone[u] = !own;
      }
      continue;
    }
    for (const size_t m : members) {  // each member and what it recomputes through
      stack.assign(1, candidates[m]);
      while (!stack.empty()) {
        const int64_t x = stack.back();
        stack.pop_back();
        if (trigger[x] <= to) continue;
        trigger[x] = to;
        moved = true;
        for (int64_t j = g.in_ptr[x]; j < g.in_ptr[x + 1]; ++j) {
          const int64_t v = g.in_src[j];
          if (fw[v] && bw[v]) stack.push_back(v);
        }
      }
    }
  }
  return moved;
}

}  // namespace walk_detail

// The backward's schedule of the split fw / bw / trigger at node bytes `size` (see
// BackwardSchedule), from g's cache when a plan of the same split was walked lately.
// `keep_to_end`: the storages alive to the backward's end; `scratch`: n bytes to reuse.
inline std::shared_ptr<const BackwardSchedule> backward_schedule(
    const PeakGraph& g, const uint8_t* fw, const uint8_t* bw, const int64_t* trigger,
    const int64_t* size, const std::vector<uint8_t>& keep_to_end, std::vector<uint8_t>& scratch) {
  using namespace walk_detail;
  const int64_t n = g.n;
  uint64_t hash = 1469598103934665603ULL;
  hash = hash_bytes(hash, fw, n);
  hash = hash_bytes(hash, bw, n);
  hash = hash_bytes(hash, trigger, n * sizeof(int64_t));
  hash = hash_bytes(hash, size, n * sizeof(int64_t));
  if (auto found = g.schedules->find(hash, n, fw, bw, trigger, size)) return found;

  auto s = std::make_shared<BackwardSchedule>();
  s->fw.assign(fw, fw + n);
  s->bw.assign(bw, bw + n);
  s->trigger.assign(trigger, trigger + n);
  s->size.assign(size, size + n);
  s->hash = hash;
  std::vector<uint8_t>& bw_written = s->written;
  bw_written.resize(n);
  std::vector<uint8_t> bw_stored(n), inlined(n);
  written(g, bw, keep_to_end.data(), scratch, bw_written);
  for (int64_t i = 0; i < n; ++i) {
    bw_stored[i] = bw[i] && g.fusible[i] && bw_written[i] && g.base[i] == i;
    inlined[i] = bw[i] && g.fusible[i] && !bw_written[i];
  }
  std::vector<int64_t> order, when(trigger, trigger + n);
  for (int64_t i = 0; i < n; ++i) {
    if (bw[i]) order.push_back(i);
  }
  auto before = [&](int64_t a, int64_t b) {  // (key, graph index)
    const int64_t ka = when[a] * 2 + g.backward_role[a], kb = when[b] * 2 + g.backward_role[b];
    return ka < kb || (ka == kb && a < b);
  };
  counting_sort(order, [&](int64_t a) { return when[a] * 2 + g.backward_role[a]; });  // before
  std::vector<int64_t>& group = s->group;
  group.assign(n, -1);
  std::vector<uint8_t>& alone = s->alone;
  alone.assign(n, 0);
  if (horizontal(g, fw, bw, bw_written, inlined, order, size, when, group, alone)) {
    // The nodes that moved, merged back into the others (still in order).
    std::vector<int64_t> stay, moved;
    for (const int64_t i : order) (when[i] != trigger[i] ? moved : stay).push_back(i);
    std::sort(moved.begin(), moved.end(), before);
    std::merge(stay.begin(), stay.end(), moved.begin(), moved.end(), order.begin(), before);
  }
  s->length = static_cast<int64_t>(order.size());
  std::vector<int64_t> ranked(n, -1);
  for (size_t k = 0; k < order.size(); ++k) ranked[order[k]] = static_cast<int64_t>(k);
  std::vector<int64_t>& time = s->time;
  time.resize(n);
  fused_order(g.users(), bw, g.same.data(), inlined.data(), bw_stored.data(), g.reduction.data(),
              ranked.data(), g.max_fused_outputs, group, time.data());
  // The backward's events happen at kernel steps: a group's members are one kernel, at its last
  // member's time.
  std::vector<int64_t>& step = s->step;
  step = time;
  std::vector<int64_t> group_time(n, -1);
  for (int64_t i = 0; i < n; ++i) {
    if (group[i] >= 0) group_time[group[i]] = std::max(group_time[group[i]], time[i]);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (group[i] >= 0) step[i] = group_time[group[i]];
  }
  std::vector<int64_t> bw_kernel(n);
  s->last_use.resize(n);
  s->phantom.resize(n);
  kernels(g, bw, step.data(), bw_written, bw_kernel, s->phantom);
  last_use(g, bw, bw_kernel.data(), s->last_use);
  g.schedules->add(s);
  return s;
}

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
  std::vector<int64_t> fw_kernel(n), last_fw(n), fw_phantom(n);
  kernels(g, fw, fw_time.data(), fw_written, fw_kernel, fw_phantom);
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

  // Backward: time = position in (trigger, tangent-dependent last, graph index) order, after
  // the horizontal fusion of recomputed kernels (the schedule, shared by plans of one split).
  std::vector<uint8_t> keep_to_end(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (g.bwd_output[i] || g.fwd_output[i]) keep_to_end[g.base[i]] = 1;
  }
  const std::shared_ptr<const BackwardSchedule> schedule =
      backward_schedule(g, fw, bw, trigger, size, keep_to_end, scratch);
  const std::vector<int64_t>& step = schedule->step;
  const std::vector<int64_t>& group = schedule->group;
  const std::vector<uint8_t>& alone = schedule->alone;
  const std::vector<uint8_t>& bw_written = schedule->written;
  const std::vector<int64_t>& last_bw = schedule->last_use;
  const std::vector<int64_t>& bw_phantom = schedule->phantom;
  r.backward.time = schedule->time;

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
  frees_and_work(g, fw_time, freed, last_fw, fw, size, fw_phantom, f);

  WalkPhase& b = r.backward;
  for (int64_t i = 0; i < n; ++i) {
    if (start[i]) allocate(b, i, -1);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (bw_alloc[i]) allocate(b, i, allocated_at(g, step.data(), i));
  }
  // Reloads, each at the first backward node reading it.
  std::vector<int64_t> first(n, schedule->length);
  for (int64_t u = 0; u < n; ++u) {
    if (!back[u]) continue;
    for (int64_t e = g.ptr[u]; e < g.ptr[u + 1]; ++e) {
      const int64_t d = g.dst[e];
      if (g.reads[e] && bw[d]) first[u] = std::min(first[u], step[d]);
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
    b.in_place.push_back(g.fusible[i] && !start[i] && !back[i] && !(group[i] >= 0 && alone[i]));
  }
  frees_and_work(g, step, freed, last_bw, bw, size, bw_phantom, b);
  return r;
}

}  // namespace fusioncut
