"""A set of small ints with its k-th smallest member at hand: the random policy's index."""

from __future__ import annotations

import bisect


class IdSet:
    """A set of small non-negative ints with the k-th smallest member at hand.

    A sorted list while small (C-speed insort and indexing; the common case,
    a few runnable tasks), then, past ``SMALL`` members, a Fenwick tree:
    add, remove and k-th in O(log N) however many tasks are runnable.
    """

    SMALL = 256

    def __init__(self) -> None:
        self._sorted: list[int] | None = []
        self._capacity = 64  # of the tree: a power of two
        self._tree = [0] * (self._capacity + 1)  # 1-based
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def add(self, item: int) -> None:
        self.count += 1
        members = self._sorted
        if members is None:
            self._update(item, 1)
            return
        bisect.insort(members, item)
        if len(members) > self.SMALL:
            self._sorted = None
            for member in members:
                self._update(member, 1)

    def remove(self, item: int) -> None:
        """Remove ``item``, which must be present."""
        self.count -= 1
        members = self._sorted
        if members is None:
            self._update(item, -1)
        else:
            del members[bisect.bisect_left(members, item)]

    def kth(self, k: int) -> int:
        """The ``k``-th smallest member, counting from 0."""
        if self._sorted is not None:
            return self._sorted[k]
        tree, position, step = self._tree, 0, self._capacity
        while step:
            upper = position + step
            if tree[upper] <= k:  # never past the root: k < len(self) = tree[capacity]
                position = upper
                k -= tree[upper]
            step >>= 1
        return position  # the member is position + 1 in the 1-based tree

    def _update(self, item: int, delta: int) -> None:
        while item >= self._capacity:
            # doubling a power-of-two Fenwick tree: old nodes keep their sums, the
            # new root covers everything, the nodes between are empty
            old = self._capacity
            self._tree.extend([0] * old)
            self._tree[2 * old] = self._tree[old]
            self._capacity = 2 * old
        tree, index, size = self._tree, item + 1, self._capacity
        while index <= size:
            tree[index] += delta
            index += index & -index
