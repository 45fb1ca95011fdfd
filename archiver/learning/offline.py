"""SOUrCe's learning phase replayed from WARC files instead of the live site.

`learn_from_warcs` runs the *same* strategy code as a live learning phase (SOUrCe §4.1–4.3:
`SiteSampler` picks one random URL per unseen (page, Apath) group, U(p,x) lists are kept
for the navigation table, then `SourceStrategy.fit` clusters the sample and builds eq. 3–6),
but every "fetch" is a lookup in the archived response records. The sampler draws each
group's URL among those the archive holds (`SiteSampler.available`; a group with none gets
nothing): an archive is seldom the whole site, and until 2026-11-29 a draw of a URL it did
not hold was a lost page of the sample (a 200-page BFS archive of the small zoo forum gave
a 40-page sample 15 pages). A seed or a redirect's target the archive does not hold counts
as a failed fetch, as a network error would in a live crawl. The links between archived
pages give the U(p,x) lists, and nothing is requested from the site.
"""

from __future__ import annotations

import heapq
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from warcio.archiveiterator import ArchiveIterator

from archiver.exchange import media_type
from archiver.page import absolute_url, page_digest, parse_html
from archiver.strategies import Visit
from archiver.traps import TrapGuard
from archiver.urls import ScopeRules

if TYPE_CHECKING:
    from archiver.profile import SiteProfile
    from archiver.strategies.source import SourceStrategy

__all__ = ["ArchivedResponse", "learn_from_warcs", "read_responses"]

logger = logging.getLogger(__name__)
_CHARSET = re.compile(r"charset=([\w-]+)", re.I)


@dataclass(frozen=True, slots=True)
class ArchivedResponse:
    """One archived HTTP response: status, headers we need, and the (decoded) body."""

    status: int
    content_type: str
    location: str
    body: bytes
    robots: tuple[str, ...] = ()      # X-Robots-Tag values


def read_responses(paths: Iterable[str | Path]) -> dict[str, ArchivedResponse]:
    """URL → its first archived response, from the WARC ``response`` records of `paths`
    (revisit records carry no body and are skipped; the first capture of a URL wins)."""
    out: dict[str, ArchivedResponse] = {}
    for path in paths:
        with open(path, "rb") as fh:
            for rec in ArchiveIterator(fh):
                if rec.rec_type != "response" or rec.http_headers is None:
                    continue
                url = rec.rec_headers.get_header("WARC-Target-URI")
                if not url or url in out:
                    continue
                try:
                    status = int(rec.http_headers.get_statuscode())
                except (TypeError, ValueError):
                    continue
                out[url] = ArchivedResponse(
                    status, rec.http_headers.get_header("Content-Type") or "",
                    rec.http_headers.get_header("Location") or "",
                    rec.content_stream().read(),
                    tuple(v for k, v in rec.http_headers.headers
                          if k.lower() == "x-robots-tag"))
    return out


def learn_from_warcs(profile: SiteProfile, paths: Iterable[str | Path],
                     strategy: SourceStrategy | None = None) -> SourceStrategy:
    """Run a SOUrCe learning phase over archived pages and fit the model; never fetches.

    The sample is drawn in the order a live crawl would draw it: a priority queue seeded
    with the profile's seeds (and the target example), popping the highest-priority sample
    request, "fetching" it from the archive, and queueing the links the sampler picks
    (§4.1). Links leaving the profile's scope or tripping its trap rules are dropped as the
    crawl loop drops them. Returns the fitted strategy (`strategy.model` is None when the
    archive held too few pages to cluster).
    """
    from archiver.strategies import get_strategy
    from archiver.strategies.source import SAMPLE_BAND, SourceStrategy

    if strategy is None:
        made = get_strategy(profile.strategy.name).from_profile(profile)
        if not isinstance(made, SourceStrategy):
            raise ValueError(f"strategy {profile.strategy.name!r} does not learn a SOUrCe model")
        strategy = made
    archive = read_responses(paths)
    sc = profile.scope
    scope = ScopeRules(sc.hosts, sc.include, sc.exclude, sc.max_depth)
    t = sc.traps
    traps = TrapGuard(max_path_depth=t.max_path_depth,
                      max_repeated_segments=t.max_repeated_segments,
                      max_url_length=t.max_url_length, max_query_params=t.max_query_params,
                      max_query_variants=t.max_query_variants)
    strategy.sampler.available = archive.__contains__   # draw what the archive holds
    heap: list[tuple[float, int, str, int]] = []
    seen: set[str] = set()
    order = 0

    def push(url: str, priority: float, depth: int) -> None:
        nonlocal order
        if url not in seen:
            heapq.heappush(heap, (-priority, order, url, depth))
            order += 1

    for seed in [*profile.seeds, *strategy.extra_seeds()]:
        push(seed, strategy.seed_priority(), 0)
    while heap and strategy.learning:
        _, _, url, depth = heapq.heappop(heap)
        if url in seen:
            continue
        seen.add(url)
        if strategy.defer(url) is not None:
            continue                       # its Apath settled since it was asked for
        rec = archive.get(url)
        if rec is None:
            strategy.observe_fetch(url, None, False)
            continue
        if 300 <= rec.status < 400 and rec.location:
            target = absolute_url(url, rec.location)
            if target and scope.check(target, depth) is None:
                push(target, strategy.seed_priority(), depth)
            strategy.observe_fetch(url, rec.status, False, location=target or "")
            continue
        if not (200 <= rec.status < 300) or "html" not in rec.content_type.lower():
            strategy.observe_fetch(url, rec.status, False,
                                   content_type=media_type(rec.content_type))
            continue
        match = _CHARSET.search(rec.content_type)
        page = parse_html(url, rec.body, match.group(1) if match else None, rec.robots)
        visit = Visit(page=page, depth=depth, digest=page_digest(page, rec.body))
        strategy.describe(visit)
        links, keys = [], set()
        for link in page.links:
            if link.kind != "link" or (link.url, link.anchor_path) in keys:
                continue
            keys.add((link.url, link.anchor_path))
            if scope.check(link.url, depth + 1) is None and traps.check(link.url) is None:
                links.append(link)
        for d in strategy.decide(visit, links):
            if d.follow and d.priority >= SAMPLE_BAND:   # sample requests only
                push(d.url, d.priority, depth + 1)
        strategy.observe_fetch(url, rec.status, True)
    strategy.fit()
    logger.info("SOUrCe: learned from %d archived responses (%d looked up)", len(archive),
                len(seen))
    return strategy
