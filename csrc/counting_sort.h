// A stable counting sort of node indices by a small non-negative integer key: the peak walk
// orders every plan's nodes and events by times, which are such keys, and a linear sort there
// is cheaper than std::stable_sort's n log n. Header-only like the rest of csrc/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace fusioncut {

// `items` reordered stably by key(item), each key a non-negative integer.
template <class Key>
inline void counting_sort(std::vector<int64_t>& items, Key key) {
  int64_t bound = 0;
  for (const int64_t x : items) bound = std::max(bound, key(x) + 1);
  std::vector<int64_t> start(bound + 1, 0);
  for (const int64_t x : items) ++start[key(x) + 1];
  for (int64_t k = 0; k < bound; ++k) start[k + 1] += start[k];
  std::vector<int64_t> out(items.size());
  for (const int64_t x : items) out[start[key(x)]++] = x;
  items.swap(out);
}

}  // namespace fusioncut
