// Disjoint sets of the integers 0..n-1, each named by its least member (union by least root,
// path halving): the fused order's kernel groups (kernels.h) and the knapsack's component
// groups (knapsack.h) are both numbered by their least member. Header-only like the rest.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace fusioncut {

class LeastRootSets {
 public:
  explicit LeastRootSets(int64_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), int64_t{0});
  }

  int64_t find(int64_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }

  void unite(int64_t a, int64_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

  // Every member's set (its least member), as one array; the sets are spent.
  std::vector<int64_t> labels() && {
    for (int64_t x = 0; x < static_cast<int64_t>(parent_.size()); ++x) parent_[x] = find(x);
    return std::move(parent_);
  }

 private:
  std::vector<int64_t> parent_;
};

}  // namespace fusioncut
