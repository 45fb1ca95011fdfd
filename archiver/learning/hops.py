"""What a kind of link costs: redirects and files, counted per (cluster, Apath) pair. Two
extensions of SOUrCe's eq. 12 (`archiver.strategies.source`), parameters ``redirect_cost``
and ``files``.

Redirect cost: eq. 12 is the value of a link's destination, and a link that answers with a
redirect costs two requests for it. Each (cluster, Apath) pair counts the requests its links
took and how many were redirects (the sample's included), and a link's score is divided by
the requests per page its pair has cost (`HopCounts.cost`). It orders the frontier only. On
a real FlaskBB a post's permalink (a redirect to its topic's page) was ranked with the
topics' own links: 235 of source-ucc's 1,088 requests. With it, 138 of 993, and recall
unchanged.

Files: the navigation table knows pages only, and a link to a file (a document, an image, a
sound: a 2xx answer that is no HTML page and no machine-readable copy of pages) has no
destination cluster, so its pair's row is empty and eq. 5's back-off predicts a page from
other clusters' links of that Apath. On a real photologue gallery a photo page's link to its
original JPEG was ranked above the photo pages: source-ucc fetched a photo, its original,
the next photo, ..., and 95% of the photos took 826 requests (2.01 of the floor; bfs 429).
The pairs also count the files their links gave, and links of a pair most of whose requests
gave files (`HopCounts.files`) are followed after every link to a page: a file links
nothing, and for an archive of the site's content it is part of that content, so it is
fetched, not skipped. Photologue: 95% of the photos after 435 requests (1.06), every
original still fetched (`benchmarks/results/realsite-photologue.md`).

The counts are saved with the model (its info's ``redirects`` rows, [cluster, Apath,
requests, redirects, files]), so a harvest that reuses the model starts from the sample's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from archiver.learning.navigation import Pair


class HopCounts:
    """[requests, redirects, files] of the links followed, per (cluster, Apath) pair and,
    pooled over the clusters, per Apath."""

    def __init__(self, files: bool = True, redirect_cost: bool = True) -> None:
        self.use_files = files
        self.use_redirect_cost = redirect_cost
        self.pairs: dict[Pair, list[int]] = {}
        self.apaths: dict[str, list[int]] = {}

    def count(self, pair: Pair, redirect: bool, file: bool = False) -> None:
        """One request made for a link of `pair`: a redirect or not, a file or not."""
        for row in (self.pairs.setdefault(pair, [0, 0, 0]),
                    self.apaths.setdefault(pair[1], [0, 0, 0])):
            row[0] += 1
            row[1] += redirect
            row[2] += file

    def files(self, pair: Pair) -> bool:
        """Whether links of this pair lead to files: most of the requests they took gave a
        2xx document that is no page. A pair none of whose links was followed asks its
        Apath's, in every cluster, as eq. 5 backs off: the first and last photo of a
        gallery, with one neighbour link, can be a cluster of their own, and their originals
        were ranked as pages."""
        row = self.pairs.get(pair) or self.apaths.get(pair[1])
        return self.use_files and row is not None and 2 * row[2] > row[0]

    def cost(self, pair: Pair) -> float:
        """Requests per page that links of this pair have cost (1 when none was followed, or
        without ``redirect_cost``): a redirect to a page costs two."""
        row = self.pairs.get(pair)
        if row is None or not self.use_redirect_cost:
            return 1.0
        return 1.0 + row[1] / max(1, row[0] - row[1])

    def rows(self) -> list[list[Any]]:
        """The model info's ``redirects`` rows: [cluster, Apath, requests, redirects, files]."""
        return [[c, x, *row] for (c, x), row in sorted(self.pairs.items())]

    def load(self, rows: Iterable[Sequence[Any]]) -> None:
        """Replace the counts by a model's ``redirects`` rows (rows saved before the files
        were counted have no third count)."""
        self.pairs = {(int(row[0]), str(row[1])): [*map(int, row[2:5]), *[0] * (5 - len(row))]
                      for row in rows}
        self.apaths = {}
        for (_, apath), counts in self.pairs.items():
            pooled = self.apaths.setdefault(apath, [0, 0, 0])
            for i in range(3):
                pooled[i] += counts[i]
