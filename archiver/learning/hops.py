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

Whether a link leads to a file is first a matter of what the link points at: a link whose
*URL kind* (`archiver.learning.duplicates.url_kind`) has been followed before is judged by
that kind's requests, and only a link of a new kind by its pair's. An Apath is a position,
and one position can hold files beside pages: on a real Fossil the sample followed one
table-cell link of an outlier page (the outliers are pages of every type) to a file, and
the forum index reached in the harvest, itself an outlier, had its 25 threads and its
"Older" pager in such cells; all were queued as files and never fetched before the budget
ran out (1,096 links queued as files in all, check-ins, artifacts and file lists among
them), although a thread's kind of link, ``/forumpost/*``, had led to a page and never
to a file.

A kind names its folders' hashes as it names their numbers (``/zip/N/*``), so that
Fossil's archive downloads, one folder per check-in, are one kind: after the first few,
the rest wait behind the pages (Fossil at defaults: 3 to 22 archives fetched in 2,000
requests in seven runs, against 196 and 238 in two runs with the kinds but the hashes left
as they were, 179 and 241 before either). Session 51 first tried shrinking a pair's file
share towards the site's, as the duplicate rates are: the download links of pairs followed
once were then ranked as pages too (190 archives fetched).

The counts are saved with the model (its info's ``redirects`` rows, [cluster, Apath,
requests, redirects, files], and ``file_kinds`` rows, [URL kind, requests, files]), so a
harvest that reuses the model starts from the sample's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from archiver.learning.duplicates import url_kind

if TYPE_CHECKING:
    from archiver.learning.navigation import Pair


class HopCounts:
    """[requests, redirects, files] of the links followed, per (cluster, Apath) pair and,
    pooled over the clusters, per Apath; [requests, files] per URL kind of the link."""

    def __init__(self, files: bool = True, redirect_cost: bool = True) -> None:
        self.use_files = files
        self.use_redirect_cost = redirect_cost
        self.pairs: dict[Pair, list[int]] = {}
        self.apaths: dict[str, list[int]] = {}
        self.kinds: dict[str, list[int]] = {}

    def count(self, pair: Pair, redirect: bool, file: bool = False, link: str = "") -> None:
        """One request made for a link of `pair` (its URL `link`, when known): a redirect or
        not, a file or not."""
        for row in (self.pairs.setdefault(pair, [0, 0, 0]),
                    self.apaths.setdefault(pair[1], [0, 0, 0])):
            row[0] += 1
            row[1] += redirect
            row[2] += file
        if link:
            kind = self.kinds.setdefault(url_kind(link), [0, 0])
            kind[0] += 1
            kind[1] += file

    def files(self, pair: Pair, link: str = "") -> bool:
        """Whether a link of this pair (its URL `link`, when known) leads to a file: most of
        the requests that links of its URL kind took gave a 2xx document that is no page,
        or, for a kind never followed, most of those its pair's links took (module
        docstring). A pair none of whose links was followed asks its Apath's, in every
        cluster, as eq. 5 backs off: the first and last photo of a gallery, with one
        neighbour link, can be a cluster of their own, and their originals were ranked as
        pages."""
        if not self.use_files:
            return False
        if link and (kind := self.kinds.get(url_kind(link))) is not None:
            return 2 * kind[1] > kind[0]
        row = self.pairs.get(pair) or self.apaths.get(pair[1])
        return row is not None and 2 * row[2] > row[0]

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

    def kind_rows(self) -> list[list[Any]]:
        """The model info's ``file_kinds`` rows: [URL kind, requests, files]."""
        return [[kind, *row] for kind, row in sorted(self.kinds.items())]

    def load(self, rows: Iterable[Sequence[Any]],
             kinds: Iterable[Sequence[Any]] = ()) -> None:
        """Replace the counts by a model's ``redirects`` rows (rows saved before the files
        were counted have no third count) and ``file_kinds`` rows (none in a model saved
        before session 51)."""
        self.kinds = {str(row[0]): [int(row[1]), int(row[2])] for row in kinds}
        self.pairs = {(int(row[0]), str(row[1])): [*map(int, row[2:5]), *[0] * (5 - len(row))]
                      for row in rows}
        self.apaths = {}
        for (_, apath), counts in self.pairs.items():
            pooled = self.apaths.setdefault(apath, [0, 0, 0])
            for i in range(3):
                pooled[i] += counts[i]
