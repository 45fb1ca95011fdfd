"""Breadth-first baseline: follow every in-scope link, shallowest first."""

from __future__ import annotations

from collections.abc import Sequence

from archiver.page import Link
from archiver.strategies.base import Decision, Strategy, Visit


class BFSStrategy(Strategy):
    """Follow every link; priority = -depth, so the frontier pops breadth-first (FIFO ties)."""

    name = "bfs"

    def decide(self, visit: Visit, links: Sequence[Link]) -> list[Decision]:
        priority = -float(visit.depth + 1)
        return [Decision(link.url, True, priority, "bfs") for link in links]
