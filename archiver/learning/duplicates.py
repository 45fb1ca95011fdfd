"""How often the links at one (cluster, Apath) lead to a page that is not new content:
another view of a page already known, or a page the site itself marks ``noindex``.

SOUrCe's navigation table (§4.3) predicts the *type* of page a link leads to, and its
Score(C) (§4.4.1) values types. Neither can tell the topic link of a forum's topic list from
the "last post" permalink beside it, the unsorted board from the same board sorted by author,
or a post from its `?replytocom=` view: both lead to the same cluster, and SOUrCe relies on
DSim to keep duplicates out, which works only when the duplicate views form a cluster of
their own. On the zoo's forum, a fifth of source-ucc's budget went to such views. Likewise a
wiki's revision diffs land in the article cluster (same skin, same article text): on the
zoo's wiki, source-ucc spent 60% of its budget on them.

This table adds the missing signal, learned per (source cluster, Apath) from what the crawl
actually fetched, with no per-site rule. A fetched page is

- a *duplicate view* when it names another URL as its canonical one (``<link
  rel="canonical">``, which phpBB, WordPress, MediaWiki and StackExchange emit on alternate
  views), or its body is byte-identical to a page fetched before (what the WARC writer turns
  into a revisit record), or it is a redirect to a place already reached (a login wall);
- *noindex* when its ``<meta name="robots">`` or ``X-Robots-Tag`` says ``noindex`` (or
  ``none``): the site says it is not content to index. MediaWiki marks diffs, history, edit,
  login and special pages so; forums, blogs, Q&A and media sites their search results,
  empty archives, revision lists and "all sizes" views.

The link score is multiplied by the share of *new content* the pair is expected to give,
``keep = 1 − (d + m·p₀) / (n + m)``: n fetched pages via the pair, d of them counted against
it (see below), shrunk towards the site-wide rate p₀ = D / N with m = 2 pseudo-observations,
so a pair seen once is not condemned by one page and an unseen pair gets the site's average.

Each signal has its own reliability guard. A signal found on more than half of all observed
fetches (`UNRELIABLE_SHARE`) says more about the site's markup than about its links and is
ignored: every page's rel=canonical naming the home page; WordPress's "discourage search
engines" setting or a staging site putting noindex on every page. The two are guarded
apart, so that one misconfigured signal does not take the other with it: on a wiki,
noindex pages are numerous (many page kinds carry it) and must not switch off the
canonical signal, and a noindex-everywhere blog keeps its canonical and identical-body
duplicates. The table therefore keeps per pair four counts, ``[n, d, x, b]``: fetched,
duplicate views, noindex pages, and pages that were both; d in the keep formula is then
duplicates + noindex − both (both signals trusted), duplicates only, noindex only, or 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

PRIOR_WEIGHT = 2.0       # m: pseudo-observations at the site-wide rate
UNRELIABLE_SHARE = 0.5   # a signal on more than this share of observed fetches is ignored


@dataclass
class DuplicateRates:
    """Counts of fetched, duplicate-view and noindex pages per (cluster, Apath) key, and
    their keep factor."""

    counts: dict[tuple[int, str], list[int]] = field(default_factory=dict)  # → [n, d, x, b]
    total: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def observe(self, key: tuple[int, str], duplicate: bool, noindex: bool = False) -> None:
        """One page fetched through a link at `key`: was it a duplicate view, was it noindex."""
        row = self.counts.setdefault(key, [0, 0, 0, 0])
        for counts in (row, self.total):
            counts[0] += 1
            counts[1] += duplicate
            counts[2] += noindex
            counts[3] += duplicate and noindex

    def site_rate(self) -> float:
        """The share of duplicate views among all observed fetches (0 before any)."""
        n, d, _, _ = self.total
        return d / n if n else 0.0

    def noindex_rate(self) -> float:
        """The share of noindex pages among all observed fetches (0 before any)."""
        n, _, x, _ = self.total
        return x / n if n else 0.0

    def signals(self) -> tuple[bool, bool]:
        """Which signals are trusted on this site: (duplicate views, noindex)."""
        return (self.site_rate() <= UNRELIABLE_SHARE,
                self.noindex_rate() <= UNRELIABLE_SHARE)

    def keep(self, key: tuple[int, str]) -> float:
        """Expected share of pages new to the crawl, and content, among those the links at
        `key` lead to (1 when neither signal is trusted)."""
        use_dup, use_noindex = self.signals()
        if not (use_dup or use_noindex):
            return 1.0
        row = self.counts.get(key, (0, 0, 0, 0))
        site = self.total[0]
        p0 = _against(self.total, use_dup, use_noindex) / site if site else 0.0
        return 1.0 - (_against(row, use_dup, use_noindex) + PRIOR_WEIGHT * p0) \
            / (row[0] + PRIOR_WEIGHT)

    def rows(self) -> Iterator[list[int | str]]:
        """[cluster, apath, n, d, x, b] per key: the JSON form kept in the model's manifest."""
        for (cluster, apath), counts in sorted(self.counts.items()):
            yield [cluster, apath, *counts]

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int | str]]) -> DuplicateRates:
        """Inverse of `rows`; also reads the [cluster, apath, n, d] rows of models saved
        before noindex was counted."""
        table = cls()
        for row in rows:
            cluster, apath, *rest = row
            counts = [int(v) for v in rest] + [0] * (4 - len(rest))
            table.counts[(int(cluster), str(apath))] = counts
            for i, v in enumerate(counts):
                table.total[i] += v
        return table


def _against(counts: Sequence[int], use_dup: bool, use_noindex: bool) -> int:
    """Pages counted against a key (or the site): duplicates, noindex pages, or either."""
    _, d, x, b = counts
    return (d if use_dup else 0) + (x if use_noindex else 0) - (b if use_dup and use_noindex
                                                                else 0)
