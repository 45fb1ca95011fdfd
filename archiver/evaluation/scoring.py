"""Score one crawl's captures with every paper's metrics, each under its paper's budget.

All crawlers of a site make the same number of requests; each metric then reads the prefix
of the request sequence its paper prescribes:

- budget B (SOUrCe §5.3 gives the crawlers "a budget B to crawl at most B pages", iRobot
  §6.3 retrieves "5,000 pages" with each crawler): valid ratio, recall, F, entropy,
  iRobot ratios, ACEBot request count and proportions, focused harvest ratio;
- #(All Target) per target kind (SOUrCe §5.4): harvest rate;
- the whole run: the harvest curve and the requests needed to reach 95% of UCC entities.

Cutting a longer run is the same as a shorter run for archiver crawls (the loop only stops
at `max_requests`) and is how the papers simulate crawls on a mirror.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from archiver.evaluation import metrics as m
from archiver.evaluation.captures import Capture
from archiver.evaluation.truth import SiteTruth

FRACTION = 0.95           # of UCC entities, for the efficiency measure


@dataclass(frozen=True)
class Reference:
    """The full mirror a crawl's content coverage is measured against (ACEBot §4.1: "wget
    (for a full, exhaustive crawl)"; here a budget-free archiver BFS crawl of the site)."""

    requests: int
    bigrams: frozenset[tuple[str, str]]
    external: frozenset[str]

    @classmethod
    def of(cls, captures: Sequence[Capture], host: str) -> Reference:
        """The reference made from a mirror's captures; `host` is the site's host name."""
        return cls(len(captures), frozenset(m.crawl_bigrams(captures)),
                   frozenset(m.external_links(captures, host)))


def score(captures: Sequence[Capture], truth: SiteTruth, *, budget: int | None,
          reference: Reference | None, topic: str | None,
          learning_requests: int = 0) -> dict[str, Any]:
    """Every metric of one crawl, as a JSON-ready dict (None where undefined).

    `budget` None scores the whole sequence (the mirror row). The harvest curve is stored
    as the points where it rises, plus the last request. `learning_requests` > 0: the
    first that many captures were a separate learning phase (see `_target_rates`).
    """
    judged = m.judge(captures, truth)
    cut = judged if budget is None else judged[:budget]
    cut_caps = [j.capture for j in cut]
    vr = m.valid_ratio(cut)
    recall = m.recall_entities(cut, truth)
    recall_pages = m.recall_pages(cut, truth)
    rates = {}
    for kind in sorted(truth.targets):
        rates[kind] = _target_rates(judged, truth, kind, learning_requests)
    curve = m.harvest_curve(judged, truth)
    total = len(truth.ucc_entities)
    reach = m.requests_to_reach(curve, total, FRACTION)
    bigrams = m.crawl_bigrams(cut_caps)
    external = m.external_links(cut_caps, truth.host)
    return {
        "requests": len(judged),
        "scored_requests": len(cut),
        "source": {
            "valid_ratio": vr, "recall": recall, "f": m.f_measure(vr, recall),
            "recall_pages": recall_pages, "f_pages": m.f_measure(vr, recall_pages),
            "entropy": m.entropy(cut), "target": rates,
        },
        "irobot": {
            "invalid_ratio": m.invalid_ratio(cut), "duplicate_ratio": m.duplicate_ratio(cut),
            "coverage": m.coverage_ratio(cut, truth),
            "requests_to_95": reach,
            "requests_to_95_per_entity": (reach / (FRACTION * total)
                                          if reach is not None and total else None),
        },
        "acebot": {
            "requests": len(cut),
            "requests_vs_mirror": (len(cut) / reference.requests
                                   if reference is not None and reference.requests else None),
            "bigrams": m.proportion(bigrams, reference.bigrams) if reference else None,
            "external_links": (m.proportion(external, reference.external)
                               if reference else None),
        },
        "focused": {"topic": topic, "harvest_ratio": m.focused_harvest_ratio(cut, truth, topic)},
        "curve": compact_curve(curve),
    }


def compact_curve(curve: Sequence[int]) -> list[list[int]]:
    """[[requests, entities], ...] at each rise of the step curve, and at its end."""
    out: list[list[int]] = []
    last = 0
    for i, value in enumerate(curve):
        if value != last:
            out.append([i + 1, value])
            last = value
    if curve and (not out or out[-1][0] != len(curve)):
        out.append([len(curve), curve[-1]])
    return out


def _target_rates(judged: Sequence[m.Judged], truth: SiteTruth, kind: str,
                  learning_requests: int) -> dict[str, Any]:
    """SOUrCe §5.4 for one target kind: harvest rate and recall, the budget being the
    #(All Target) requests a crawl from nothing would get, less the targets learning took.

    After a separate learning phase (`learning_requests` > 0) that already archived S of
    the N targets, the harvest is given the N − S requests its task still needs: its rate
    is the targets it archives in them over N − S, and recall is every target the job has
    archived by then (learning included) over N. §5.4 crawls from nothing with budget N,
    so a perfect crawler scores 1; charging the harvest for N requests while the S
    sampled targets cannot be archived twice would cap its rate at (N − S) / N (0.74 on
    the zoo wiki's 58 user pages, 15 of them sampled). The rate over the job's first N
    requests, learning included, is reported beside it (`harvest_rate_with_learning`),
    and so is S (`targets_while_learning`).
    """
    n = m.target_budget(truth, kind)
    sampled = m.targets_archived(judged[:learning_requests], truth, kind)
    budget = n - sampled
    harvest = judged[learning_requests:learning_requests + budget]
    out: dict[str, Any] = {
        "budget": budget, "requests": len(harvest),
        "harvest_rate": m.harvest_rate(harvest, truth, kind),
        "recall": m.target_recall(judged[:learning_requests + budget], truth, kind)}
    if learning_requests:
        out.update(learning_requests=learning_requests, targets_while_learning=sampled,
                   harvest_rate_with_learning=m.harvest_rate(judged[:n], truth, kind))
    return out
