"""Ground truth for scoring a crawl: what each URL is, and the totals recall is measured against.

`SiteTruth` is independent of where the truth comes from; `zoo_truth` builds one from a zoo
site's generator-known labels (`archiver.zoo`). Tests build one by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from archiver.zoo import Site

# Zoo page types that are not pages a reader visits: they never count as valuable (iRobot's
# N_val counts forum pages, not robots.txt or style sheets).
NOT_PAGES = frozenset({"robots", "asset"})


class PageLabel(Protocol):
    """The truth about one URL (`archiver.zoo.PageTruth` satisfies it)."""

    @property
    def page_type(self) -> str: ...
    @property
    def ucc(self) -> bool: ...
    @property
    def valid(self) -> str: ...            # "valid" | "duplicate" | "invalid"
    @property
    def entity(self) -> str | None: ...
    @property
    def status(self) -> int: ...
    @property
    def topics(self) -> tuple[str, ...]: ...


def path_and_query(url: str) -> str:
    """The request target of `url`: "/path?query" (no scheme, host or fragment)."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _same(key: str) -> str:
    return key


@dataclass(frozen=True)
class SiteTruth:
    """Labels per URL plus the ground-truth totals of one site.

    `ucc_urls` holds URL keys (`key(path_and_query(url))`, so two spellings of one URL
    match). The other sets hold *content keys* (`content_key`): the entity a page shows, or
    "url:" + its URL key when it has none, so a canonical page and its duplicate views share
    one key. Denominators leave out what robots.txt forbids, since a polite crawler cannot
    fetch it (the papers' ground truth is a mirror made by a crawler).
    """

    lookup: Callable[[str], PageLabel | None]       # path+query -> label; None if unknown
    ucc_urls: frozenset[str]          # URL keys of pages showing UCC (duplicate views too)
    ucc_entities: frozenset[str]      # entities of the canonical UCC pages
    canonical: frozenset[str]         # content keys of every canonical ("valid") URL
    valuable: frozenset[str]          # content keys of canonical pages: iRobot's valuable
    #                                   pages (zoo: not robots.txt or style sheets)
    targets: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #                                   target kind ("detail", "profile") -> content keys
    target_examples: Mapping[str, str] = field(default_factory=dict)
    #                                   target kind -> path+query of one canonical target page
    detail_types: frozenset[str] = frozenset()    # page types of detail pages (focused crawl)
    detail_topics: Mapping[str, int] = field(default_factory=dict)
    #                                   topic -> canonical detail pages tagged with it
    key: Callable[[str], str] = _same  # path+query -> the key used in the sets above
    host: str = ""                    # the site's host name: other hosts are external

    def of(self, url: str) -> PageLabel | None:
        """The label of an absolute URL (None for unknown URLs and other hosts)."""
        if self.host and (urlsplit(url).hostname or "") != self.host:
            return None
        return self.lookup(path_and_query(url))

    def key_of(self, url: str) -> str:
        """The URL key of an absolute URL."""
        return self.key(path_and_query(url))

    def content_key(self, url: str, label: PageLabel) -> str:
        """What content `url` shows: its entity, else the URL itself."""
        return label.entity or "url:" + self.key_of(url)


def zoo_truth(site: Site, host: str = "") -> SiteTruth:
    """Ground truth of a zoo site from its generator's labels (`Site.manifest`).

    `host` is the host name the site is served on ("127.0.0.1"); captures on any other
    host are unknown. A UCC entity is one a canonical UCC page shows (the manifest's
    "ucc_entities"); target pages are canonical pages of `Site.target_types`.
    """
    from archiver.zoo.site import normalize

    manifest = site.manifest(with_digest=False)
    ucc_urls, entities, canonical, valuable = set(), set(), set(), set()
    target_types = {kind: frozenset(types) for kind, types in site.target_types.items()}
    detail = target_types.get("detail", frozenset())
    targets: dict[str, set[str]] = {kind: set() for kind in target_types}
    examples: dict[str, str] = {}
    topics: dict[str, int] = {}
    for link, data in manifest["urls"].items():
        if data.get("disallowed"):
            continue
        key = normalize(link)
        if data["ucc"]:
            ucc_urls.add(key)
        if data["valid"] != "valid":
            continue
        content = data.get("entity") or "url:" + key
        canonical.add(content)
        if data["ucc"] and data.get("entity"):
            entities.add(data["entity"])
        if data["page_type"] not in NOT_PAGES:
            valuable.add(content)
        for kind, types in target_types.items():
            if data["page_type"] in types:
                targets[kind].add(content)
                if kind not in examples or link < examples[kind]:
                    examples[kind] = link
        if data["page_type"] in detail:
            for topic in set(data.get("topics", ())):
                topics[topic] = topics.get(topic, 0) + 1
    return SiteTruth(lookup=site.truth, ucc_urls=frozenset(ucc_urls),
                     ucc_entities=frozenset(entities), canonical=frozenset(canonical),
                     valuable=frozenset(valuable),
                     targets={k: frozenset(v) for k, v in targets.items()},
                     target_examples=examples,
                     detail_types=detail, detail_topics=topics, key=normalize, host=host)
