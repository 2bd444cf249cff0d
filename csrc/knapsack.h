// The subset-sum programme of one gap between two hull cuts (fusioncut.budget_reach._Gap):
// the residual components at the breakpoint, each adding `value[c]` bytes, in groups no DAG arc
// joins; per group its closures, one per distinct byte total; across groups the reachable byte
// totals, each remembering the group option and the earlier total it came from. A byte budget
// between two cuts makes one of these per restricted problem it tries, with hundreds of groups
// (one per identical layer), so the programme runs here rather than group by group in numpy.
// The rules are budget_reach's module docstring; ties resolve as np.unique's first occurrence.
// Header-only like the solvers; the binding validates the arrays and this code trusts them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "least_root.h"

namespace fusioncut {

struct GapKnapsack {
  std::vector<int64_t> totals;  // reachable byte totals, ascending
  // Per group taken (groups whose components all add 0 bytes are skipped): its closures
  // (component ids, ascending), and per total its earlier total's index and closure index.
  std::vector<std::vector<std::vector<int64_t>>> options;
  std::vector<std::vector<int64_t>> parent, option;
};

namespace knapsack_detail {

// The closures of one group (`members` ascending; every arc falls, so a component's heads are
// decided before it), one per distinct byte total in depth-first order (leaving a component
// out before taking it), the empty one first: all of them while at most `max_closures` leaves
// are reached, and every prefix of `members` when the group has more than `max_closures`
// members or the enumeration reaches that many leaves.
class Closures {
 public:
  Closures(const std::vector<int64_t>& members, const std::vector<std::vector<int64_t>>& succ,
           const std::vector<int64_t>& value, int64_t max_closures, std::vector<uint8_t>& chosen)
      : members_(members), succ_(succ), value_(value), max_(max_closures), chosen_(chosen) {
    add(0, {});
    visited_ = static_cast<int64_t>(members.size()) <= max_closures ? 0 : max_closures;
    walk(0, 0);
    if (visited_ >= max_) {
      int64_t total = 0;
      for (size_t j = 0; j < members.size(); ++j) {
        total += value[members[j]];
        add(total, std::vector<int64_t>(members.begin(), members.begin() + j + 1));
      }
    }
  }

  std::vector<std::vector<int64_t>> sets;
  std::vector<int64_t> totals;

 private:
  void add(int64_t total, std::vector<int64_t> set) {
    if (index_.emplace(total, sets.size()).second) {
      sets.push_back(std::move(set));
      totals.push_back(total);
    }
  }

  void walk(size_t i, int64_t total) {
    if (visited_ >= max_) return;
    if (i == members_.size()) {
      ++visited_;
      add(total, taken_);
      return;
    }
    const int64_t c = members_[i];
    walk(i + 1, total);
    for (const int64_t h : succ_[c]) {
      if (!chosen_[h]) return;
    }
    chosen_[c] = 1;
    taken_.push_back(c);
    walk(i + 1, total + value_[c]);
    taken_.pop_back();
    chosen_[c] = 0;
  }

  const std::vector<int64_t>& members_;
  const std::vector<std::vector<int64_t>>& succ_;
  const std::vector<int64_t>& value_;
  const int64_t max_;
  std::vector<uint8_t>& chosen_;
  std::vector<int64_t> taken_;
  std::unordered_map<int64_t, size_t> index_;
  int64_t visited_ = 0;
};

// Indices of at most about `max_totals` of the ascending `totals`: the first of each of that
// many equal bins, and the last (budget_reach._thin, in the same floating-point steps).
inline std::vector<int64_t> thin(const std::vector<int64_t>& totals, int64_t max_totals) {
  const int64_t n = static_cast<int64_t>(totals.size());
  const double scale = static_cast<double>(max_totals) /
                       static_cast<double>(totals[n - 1] - totals[0] + 1);
  std::vector<int64_t> keep;
  int64_t last_bin = 0;
  for (int64_t k = 0; k < n; ++k) {
    const auto bin = static_cast<int64_t>(static_cast<double>(totals[k] - totals[0]) * scale);
    if (k == 0 || bin != last_bin) keep.push_back(k);
    last_bin = bin;
  }
  if (keep.back() != n - 1) keep.push_back(n - 1);
  return keep;
}

}  // namespace knapsack_detail

// The programme over `count` components with byte values `value` and DAG arcs tail[k] ->
// head[k] (every arc falls: head < tail).
inline GapKnapsack gap_knapsack(int64_t count, const int64_t* value, int64_t num_arcs,
                                const int64_t* tail, const int64_t* head,
                                int64_t max_closures, int64_t max_totals) {
  using namespace knapsack_detail;
  // Groups: the weakly connected components of the arcs, each named by its least member.
  LeastRootSets sets(count);
  std::vector<std::vector<int64_t>> succ(count);
  for (int64_t k = 0; k < num_arcs; ++k) {
    sets.unite(tail[k], head[k]);
    succ[tail[k]].push_back(head[k]);
  }
  const std::vector<int64_t> root = std::move(sets).labels();
  std::vector<int64_t> order;  // the groups' least members, ascending
  std::vector<std::vector<int64_t>> members(count);
  for (int64_t c = 0; c < count; ++c) {
    const int64_t r = root[c];
    if (members[r].empty()) order.push_back(r);
    members[r].push_back(c);
  }
  std::vector<int64_t> values(value, value + count);
  std::vector<uint8_t> chosen(count, 0);
  GapKnapsack out;
  out.totals.assign(1, 0);
  std::vector<std::pair<int64_t, int64_t>> cand;  // (total, index in total-major order)
  for (const int64_t r : order) {
    const std::vector<int64_t>& group = members[r];
    std::vector<std::vector<int64_t>> sets;
    std::vector<int64_t> vals;
    if (group.size() == 1) {
      if (values[group[0]] == 0) continue;
      sets = {{}, group};
      vals = {0, values[group[0]]};
    } else {
      bool any = false;
      for (const int64_t c : group) any = any || values[c] != 0;
      if (!any) continue;
      Closures closures(group, succ, values, max_closures, chosen);
      sets = std::move(closures.sets);
      vals = std::move(closures.totals);
    }
    const int64_t width = static_cast<int64_t>(vals.size());
    const int64_t have = static_cast<int64_t>(out.totals.size());
    cand.resize(have * width);
    for (int64_t p = 0; p < have; ++p) {
      for (int64_t o = 0; o < width; ++o) {
        cand[p * width + o] = {out.totals[p] + vals[o], p * width + o};
      }
    }
    std::sort(cand.begin(), cand.end());
    std::vector<int64_t> totals, index;
    for (size_t k = 0; k < cand.size(); ++k) {
      if (k == 0 || cand[k].first != cand[k - 1].first) {
        totals.push_back(cand[k].first);
        index.push_back(cand[k].second);
      }
    }
    if (static_cast<int64_t>(totals.size()) > max_totals) {
      std::vector<int64_t> kept_totals, kept_index;
      for (const int64_t k : thin(totals, max_totals)) {
        kept_totals.push_back(totals[k]);
        kept_index.push_back(index[k]);
      }
      totals.swap(kept_totals);
      index.swap(kept_index);
    }
    std::vector<int64_t> parents(index.size()), options(index.size());
    for (size_t k = 0; k < index.size(); ++k) {
      parents[k] = index[k] / width;
      options[k] = index[k] % width;
    }
    out.options.push_back(std::move(sets));
    out.parent.push_back(std::move(parents));
    out.option.push_back(std::move(options));
    out.totals.swap(totals);
  }
  return out;
}

}  // namespace fusioncut
