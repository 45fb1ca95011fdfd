"""Crawl strategies, registered under their YAML `strategy.name`."""

from __future__ import annotations

from archiver.strategies.base import Decision, PageInfo, Queued, Strategy, Visit
from archiver.strategies.bfs import BFSStrategy

REGISTRY: dict[str, type[Strategy]] = {cls.name: cls for cls in (BFSStrategy,)}

__all__ = ["REGISTRY", "Decision", "PageInfo", "Queued", "Strategy", "Visit", "get_strategy"]


def get_strategy(name: str) -> type[Strategy]:
    """The strategy class registered as `name` (KeyError lists the known names)."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown strategy {name!r}; known: {', '.join(sorted(REGISTRY))}") from None
