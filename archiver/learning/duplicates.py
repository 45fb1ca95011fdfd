"""How often the links at one (cluster, Apath) lead to another view of a page already known.

SOUrCe's navigation table (§4.3) predicts the *type* of page a link leads to, and its
Score(C) (§4.4.1) values types. Neither can tell the topic link of a forum's topic list from
the "last post" permalink beside it, the unsorted board from the same board sorted by author,
or a post from its `?replytocom=` view: both lead to the same cluster, and SOUrCe relies on
DSim to keep duplicates out, which works only when the duplicate views form a cluster of
their own. On the zoo's forum, a fifth of source-ucc's budget went to such views.

This table adds the missing signal, learned per (source cluster, Apath) from what the crawl
actually fetched, with no per-site rule: a fetched page is a *duplicate view* when

- it names another URL as its canonical one (``<link rel="canonical">``, which phpBB,
  WordPress, MediaWiki and StackExchange emit on alternate views), or
- its body is byte-identical to a page fetched before (what the WARC writer turns into a
  revisit record).

The link score is multiplied by the share of *new* pages the pair is expected to give,
``keep = 1 − (d + m·p₀) / (n + m)``: n fetched pages via the pair, d of them duplicates,
shrunk towards the site-wide rate p₀ with m = 2 pseudo-observations, so a pair seen once is
not condemned by one page and an unseen pair gets the site's average.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

PRIOR_WEIGHT = 2.0   # m: pseudo-observations at the site-wide rate


@dataclass
class DuplicateRates:
    """Counts of fetched and duplicate pages per (cluster, Apath) key, and their keep factor."""

    counts: dict[tuple[int, str], list[int]] = field(default_factory=dict)  # key → [n, d]
    total: list[int] = field(default_factory=lambda: [0, 0])

    def observe(self, key: tuple[int, str], duplicate: bool) -> None:
        """One page fetched through a link at `key`; `duplicate` says whether it was."""
        n_d = self.counts.setdefault(key, [0, 0])
        n_d[0] += 1
        n_d[1] += duplicate
        self.total[0] += 1
        self.total[1] += duplicate

    def site_rate(self) -> float:
        """p₀: the share of duplicate views among all observed fetches (0 before any)."""
        n, d = self.total
        return d / n if n else 0.0

    def keep(self, key: tuple[int, str]) -> float:
        """Expected share of pages new to the crawl among those the links at `key` lead to."""
        n, d = self.counts.get(key, (0, 0))
        return 1.0 - (d + PRIOR_WEIGHT * self.site_rate()) / (n + PRIOR_WEIGHT)

    def rows(self) -> Iterator[list[int | str]]:
        """[cluster, apath, n, d] per key: the JSON form kept in the model's manifest."""
        for (cluster, apath), (n, d) in sorted(self.counts.items()):
            yield [cluster, apath, n, d]

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int | str]]) -> DuplicateRates:
        """Inverse of `rows`."""
        table = cls()
        for cluster, apath, n, d in rows:
            table.counts[(int(cluster), str(apath))] = [int(n), int(d)]
            table.total[0] += int(n)
            table.total[1] += int(d)
        return table
