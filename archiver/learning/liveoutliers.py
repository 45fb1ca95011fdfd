"""Live outliers: content pages that look like no other. An extension of SOUrCe's §4.2
(`archiver.strategies.source`, parameter ``live_outliers``, crawling for UCC).

A trusted sample's outliers are worth 0, so a kind of link whose sampled destinations were
outliers is skipped. On a real DokuWiki the namespace start pages (a paragraph and a long
list of the namespace's pages) are few and unlike any other page: the two sampled were
outliers, and the sidebar's links to the other four were skipped (recall 0.988). An outlier
is *live* when it is marked for indexing, is no duplicate view (but see "another URL of
a page that was live" below), brought new text judged on at least `MIN_SHINGLES`
shingles (`archiver.learning.discovery.News`), and its URL has a pattern of at least
`MIN_PATTERN_PAGES` sampled pages of the protected cluster: a content page that looks like
no other. A (cluster, Apath) pair's outlier destinations are then
worth, in the verdict, the best cluster's value in the share that were live
(`LiveOutliers.share`), for a link whose own URL has such a pattern; the order stays eq.
12's (outliers 0), so those links come last. Harvested outliers update the share
(`LiveOutliers.observe`). Real DokuWiki: recall 1.000 for 599 requests instead of 594. New
text alone is not enough: a real FlaskBB's member list is live by its text, and without the
URL pattern its 26 pages were fetched for nothing (781 -> 808 requests). The zoo,
MediaWiki, WordPress and FlaskBB crawls are unchanged.

A content page's *companion* pages have a pattern of their own: on a real MediaWiki at 2,000
articles the sample held three talk pages, outliers under ``/index.php/Talk:*``, and the
talk tab of every article was skipped (recall 0.818). A pair of companion links (held by at
least `MIN_PATTERN_PAGES` sampled pages, each linking pages of its own, unlike a menu that
links the member list from every page: `companion_pairs`) also credits its live outliers'
own URL patterns; a pair the sample never saw takes the row of its Apath pooled over the
clusters, as eq. 5's "any" back-off does. MediaWiki 2k: recall 1.000 for 2,934 requests
instead of 2,433 (95% of the UCC after 2,798, 1.08 of the floor).

A content type the sample met too seldom has no pattern of the content, no cluster and no
companion links: on a real Redmine the 213-page sample held one forum topic and two news
items, outliers all, and the boards' links to the other topics were skipped as low-value
(31 of its 60 topics and 7 of its 9 news items never archived; recall 0.911). Its pages
still come in through links valued for what else they lead to (a member's activity list
links issues, wiki pages and topics' replies), as outliers. A URL pattern whose harvested
outliers were live at least `MIN_PATTERN_PAGES` times, and in at least `PROVEN_SHARE` of
them, is *proven* (`LiveOutliers.proven`): it is credited at every pair, and a link of
that pattern to an outlier is worth at least the pattern's live share, whatever its pair's
row says. Redmine: the replies' permalinks were proven, the boards' "last message" links
followed, and 5 topics are missed (recall 0.972, 821 requests instead of 794; the news
items' pattern is shared with the versions'). The other real sites' crawls are
unchanged, but DokuWiki's, 5 requests longer after 95% of its UCC.

A duplicate view is not live by itself, but another URL of a page that was live (the same
digest; the strategy's ``live_views``, on by default) says the pattern leads to content as
well: whether following such links again is worth it is the duplicate rates' question
(`archiver.learning.duplicates`), not this one's. On the real Redmine a topic with replies
is linked both as ``?r=M`` (the page holding reply M) and plainly, a topic with none only
plainly; the plain pattern's harvested outliers were 6 topics already fetched by a reply
link and 3 new ones, so it was never proven and 5 topics were never archived. As views of
live pages, 9 of 9: every topic is archived (recall 0.972 -> 0.984), for 845 requests
instead of 821 (7 more topics fetched again), 95% of the UCC after 760 instead of 753
(session 46).

A page type the sample met a few times more can form a cluster of its own whose value is
under the line: on the real Redmine at another draw (``random_state`` 1) the sample held
four topics, a cluster whose Info·DSim was 0.9% of the issues' (four alike pages, linked
only from the boards), and the boards' links to the other topics were skipped as
low-value; 30 of the 60 topics were never archived (recall 0.914). The topics that came
in through members' activity lists were live, every one, but not outliers, so they proved
nothing. With ``live_clusters`` (the strategy's, on by default) a harvested page of a
cluster under the line counts toward its URL pattern's proof as an outlier does
(`LiveOutliers.observe_pattern`), and a link of a proven pattern predicted into such a
cluster is worth, in the verdict, the pattern's live share; it leaves the order alone.
Redmine at that draw: every topic archived (recall 0.984, the news items' pattern still
unproven), 805 requests instead of 755, 95% of the UCC after 772.

What the sample learned is saved in the model's info (``content_patterns`` and
``live_outliers``); the harvest's counts are not, and a resumed crawl counts them again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from archiver.learning.navigation import ANY_SOURCE, Pair, sampled_destinations

# Sampled pages of the content that must share a URL pattern before it is the content's
# (minPts, as few as a cluster needs); and pages holding a pair before it is a companion pair
MIN_PATTERN_PAGES = 4
# Sampled pages that link one URL through a pair of companion links, on average, at most
# (`companion_pairs`): a talk page is linked from its article's tab and its own; a menu's
# pages from every page holding the menu.
COMPANION_HOLDERS = 1.5
# Share of a URL pattern's harvested outliers that must have been live (with at least
# `MIN_PATTERN_PAGES` live) before the pattern is proven (`LiveOutliers.proven`)
PROVEN_SHARE = 0.75


class LiveOutliers:
    """The content's URL patterns, and per (cluster, Apath) pair [live, all] of its outlier
    destinations and the companion URL patterns it credits.

    `pattern`: the learned URL pattern of a URL; `backs_off`: whether the navigation table's
    row of a pair is its Apath's pooled over the clusters (the sample never saw the pair)."""

    def __init__(self, pattern: Callable[[str], str], backs_off: Callable[[Pair], bool]
                 ) -> None:
        self.pattern = pattern
        self.backs_off = backs_off
        self.on = False                         # a trusted sample, crawling for UCC
        self.sampled: set[str] = set()          # sampled pages that may be live (`learn`)
        self.content_patterns: set[str] = set()
        self.rows: dict[Pair, list[float]] = {}
        self.own: dict[Pair, set[str]] = {}     # a companion pair's live outliers' patterns
        self.patterns: dict[str, list[float]] = {}   # [live, all] harvested outliers, by pattern

    def learn(self, groups: Mapping[str, Mapping[str, Sequence[str]]],
              aliases: Mapping[str, str], dead: Collection[str],
              cluster_of: Mapping[str, int], content: int, info: dict[str, Any]) -> None:
        """Into the model's `info`: ``content_patterns``, the URL patterns of at least
        `MIN_PATTERN_PAGES` sampled pages of the `content` cluster, and ``live_outliers``,
        [cluster, Apath, live, outliers, companion patterns] of every sampled (cluster,
        Apath) pair, and of every Apath pooled over the clusters (cluster `ANY_SOURCE`, the
        navigation table's "any" level), that led to a live outlier: of its sampled
        destinations in the outlier column (outliers and dead links), how many were live
        and had a URL pattern `credited`; for a pair of companion links (`companion_pairs`),
        the URL patterns of its live outliers. Arguments as `NavigationTable.fit`'s."""
        shapes = Counter(self.pattern(u) for u, label in cluster_of.items() if label == content)
        self.content_patterns = {p for p, n in shapes.items() if n >= MIN_PATTERN_PAGES}
        companions = companion_pairs(groups, cluster_of)
        outliers: dict[Pair, list[tuple[str, str]]] = {}
        for key, _, final, dest in sampled_destinations(groups, cluster_of, aliases, dead):
            if dest < 0:
                for row in (key, (ANY_SOURCE, key[1])):
                    outliers.setdefault(row, []).append((final, self.pattern(final)))
        self.own = {row: {p for u, p in found if u in self.sampled}
                    for row, found in outliers.items() if row in companions}
        rows = []
        for row, found in sorted(outliers.items()):
            live = sum(u in self.sampled and self.credited(row, p) for u, p in found)
            if live:
                rows.append([*row, live, len(found), sorted(self.own.get(row, ()))])
        info["content_patterns"] = sorted(self.content_patterns)
        info["live_outliers"] = rows

    def read(self, info: Mapping[str, Any]) -> None:
        """The rows and patterns from a model's info (`learn`; rows saved before companion
        patterns have four fields); no rows while not `on`."""
        self.content_patterns = set(info.get("content_patterns") or [])
        rows = [r for r in info.get("live_outliers") or [] if int(r[3])] if self.on else []
        self.rows = {(int(r[0]), str(r[1])): [float(r[2]), float(r[3])] for r in rows}
        self.own = {(int(r[0]), str(r[1])): {str(p) for p in r[4]} for r in rows
                    if len(r) > 4 and r[4]}

    def row(self, pair: Pair) -> Pair:
        """The row of a (cluster, Apath) pair: its own, or, when the sample never saw the pair
        and the navigation table backs off to the Apath pooled over the clusters, that
        Apath's (`ANY_SOURCE`), as eq. 5's row does."""
        if pair in self.rows or not self.backs_off(pair):
            return pair
        return (ANY_SOURCE, pair[1])

    def credited(self, row: Pair, pattern: str) -> bool:
        """Whether a live outlier of URL pattern `pattern` counts at a row: a pattern of the
        content, or of the companion pages (`companion_pairs`) of the row or of its Apath
        pooled over the clusters: a pair the sample saw only link to its own page (an
        article's tabs) learns its talk pages while harvesting."""
        return pattern in self.content_patterns or pattern in self.own.get(row, ()) \
            or pattern in self.own.get((ANY_SOURCE, row[1]), ()) or bool(self.proven(pattern))

    def proven(self, pattern: str) -> float:
        """The share of live pages among the harvested outliers of a URL pattern when it is
        proven (module docstring: at least `MIN_PATTERN_PAGES` live, and `PROVEN_SHARE` of
        them); else 0."""
        live, found = self.patterns.get(pattern) or (0.0, 0.0)
        return live / found if live >= max(MIN_PATTERN_PAGES, PROVEN_SHARE * found) else 0.0

    def share(self, pair: Pair, pattern: str) -> float:
        """The share of live outliers among a pair's outlier destinations (its `row`), for a
        link of URL pattern `pattern` that is `credited` there, or the pattern's own share
        when it is `proven`, whichever is larger; else 0."""
        row = self.row(pair)
        counts = self.rows.get(row)
        own = counts[0] / counts[1] if counts and counts[1] and self.credited(row, pattern) \
            else 0.0
        return max(own, self.proven(pattern))

    def observe(self, pair: Pair, live: bool, url: str) -> None:
        """A harvested outlier (or dead) destination of a link of `pair`: `live`, indexable,
        no duplicate and new text, counts if its `url`'s pattern is `credited`."""
        if not self.on:
            return
        row = self.row(pair)
        pattern = self.pattern(url)
        counts = self.rows.setdefault(row, [0.0, 0.0])
        counts[0] += live and self.credited(row, pattern)
        counts[1] += 1.0
        self.observe_pattern(live, url, pattern)

    def observe_pattern(self, live: bool, url: str, pattern: str | None = None) -> None:
        """A harvested page the verdict held worthless (an outlier, or with ``live_clusters``
        a page of a low-value cluster): `live` counts toward its URL pattern's proof
        (`proven`), and no pair's row (those hold the outlier destinations)."""
        if not self.on:
            return
        found = self.patterns.setdefault(self.pattern(url) if pattern is None else pattern,
                                         [0.0, 0.0])
        found[0] += live
        found[1] += 1.0


def companion_pairs(groups: Mapping[str, Mapping[str, Sequence[str]]],
                    cluster_of: Mapping[str, int]) -> set[Pair]:
    """The (cluster, Apath) pairs, and Apaths pooled over the clusters (`ANY_SOURCE`), of
    *companion links*: held by at least `MIN_PATTERN_PAGES` sampled pages, each linking pages
    of its own (on average, a URL is linked from at most `COMPANION_HOLDERS` of them) — an
    article's talk tab, a post's comments page — unlike a menu, which links the same pages
    from every page."""
    holders: Counter[Pair] = Counter()
    links: Counter[Pair] = Counter()
    urls: dict[Pair, set[str]] = {}
    for page, by_apath in groups.items():
        cluster = cluster_of.get(page)
        if cluster is None:
            continue
        for apath, found in by_apath.items():
            own = set(found)
            for key in ((cluster, apath), (ANY_SOURCE, apath)):
                holders[key] += 1
                links[key] += len(own)
                urls.setdefault(key, set()).update(own)
    return {k for k, n in holders.items()
            if n >= MIN_PATTERN_PAGES and links[k] <= COMPANION_HOLDERS * len(urls[k])}
