"""Maximum matching in a general graph (Edmonds' blossom algorithm), for the Swiss pairings.

A graph is a list of adjacency lists over vertices ``0..n-1``.  The Swiss pairing asks only
whether some players can all be paired (:func:`has_perfect_matching`); the blossom algorithm
answers exactly in O(n³), and the pairing asks it only of small sets (the rest is settled by
Dirac's theorem, :mod:`cribbage.tournament.pairing`).

>>> triangle_and_tail = [[1, 2], [0, 2], [0, 1, 3], [2]]
>>> maximum_matching(triangle_and_tail)
[1, 0, 3, 2]
>>> has_perfect_matching([[1, 2], [0, 2], [0, 1], []])
False
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["has_perfect_matching", "maximum_matching"]

_FREE = -1


def maximum_matching(adjacency: Sequence[Sequence[int]]) -> list[int]:
    """A maximum matching: each vertex's partner, or -1 for one left unmatched."""
    mate = [_FREE] * len(adjacency)
    for v, neighbours in enumerate(adjacency):  # a greedy start leaves few to augment
        if mate[v] == _FREE:
            for u in neighbours:
                if mate[u] == _FREE and u != v:
                    mate[u], mate[v] = v, u
                    break
    for root in range(len(adjacency)):
        if mate[root] == _FREE:
            _Search(adjacency, mate, root).augment()
    return mate


def has_perfect_matching(adjacency: Sequence[Sequence[int]]) -> bool:
    """Whether every vertex can be matched."""
    return len(adjacency) % 2 == 0 and _FREE not in maximum_matching(adjacency)


class _Search:
    """One search for an augmenting path from ``root`` (blossoms contracted through ``base``),
    flipping ``mate`` along it when one is found."""

    def __init__(self, adjacency: Sequence[Sequence[int]], mate: list[int], root: int) -> None:
        n = len(adjacency)
        self.adjacency = adjacency
        self.mate = mate
        self.root = root
        self.parent = [_FREE] * n
        self.base = list(range(n))
        self.used = [False] * n
        self.queue: deque[int] = deque()

    def augment(self) -> bool:
        """Find a path from the root to a free vertex and flip it; whether there was one."""
        end = self._path_end()
        v = end
        while v != _FREE:
            before = self.parent[v]
            after = self.mate[before]
            self.mate[v], self.mate[before] = before, v
            v = after
        return end != _FREE

    def _path_end(self) -> int:
        mate, parent, base = self.mate, self.parent, self.base
        self.used[self.root] = True
        self.queue.append(self.root)
        while self.queue:
            v = self.queue.popleft()
            for to in self.adjacency[v]:
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == self.root or (mate[to] != _FREE and parent[mate[to]] != _FREE):
                    self._contract(v, to)
                elif parent[to] == _FREE:
                    parent[to] = v
                    if mate[to] == _FREE:
                        return to
                    self.used[mate[to]] = True
                    self.queue.append(mate[to])
        return _FREE

    def _contract(self, v: int, to: int) -> None:
        """Shrink the odd cycle closed by the edge ``v``-``to`` to its base."""
        top = self._common_base(v, to)
        blossom = [False] * len(self.base)
        self._mark(v, top, to, blossom)
        self._mark(to, top, v, blossom)
        for i, b in enumerate(self.base):
            if blossom[b]:
                self.base[i] = top
                if not self.used[i]:
                    self.used[i] = True
                    self.queue.append(i)

    def _common_base(self, a: int, b: int) -> int:
        seen = [False] * len(self.base)
        while True:
            a = self.base[a]
            seen[a] = True
            if self.mate[a] == _FREE:
                break
            a = self.parent[self.mate[a]]
        while True:
            b = self.base[b]
            if seen[b]:
                return b
            b = self.parent[self.mate[b]]

    def _mark(self, v: int, top: int, child: int, blossom: list[bool]) -> None:
        while self.base[v] != top:
            blossom[self.base[v]] = blossom[self.base[self.mate[v]]] = True
            self.parent[v] = child
            child = self.mate[v]
            v = self.parent[self.mate[v]]
