"""Crawl strategies, registered under their YAML `strategy.name`."""

from __future__ import annotations

from archiver.strategies.base import ClusterInfo, Decision, PageInfo, Queued, Strategy, Visit
from archiver.strategies.bfs import BFSStrategy
from archiver.strategies.source import SourceTargetStrategy, SourceUCCStrategy

REGISTRY: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (BFSStrategy, SourceUCCStrategy, SourceTargetStrategy)}

__all__ = ["REGISTRY", "ClusterInfo", "Decision", "PageInfo", "Queued", "Strategy", "Visit",
           "get_strategy"]


def get_strategy(name: str) -> type[Strategy]:
    """The strategy class registered as `name` (KeyError lists the known names)."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown strategy {name!r}; known: {', '.join(sorted(REGISTRY))}") from None
