"""Page clusters for SOUrCe's sitemap (Xu, Gao & Callan 2018, §4.2): scikit-learn DBSCAN over
bag-of-XPaths vectors, minPts = 4, with eps chosen automatically from the sorted K-dist
graph. The paper's histogram rule and a variant of it are kept (`auto_eps`); the default,
"silhouette", starts at the knee of the sorted K-dist graph (`knee_eps`) and widens it to
the cut between clusters that the pages' silhouettes support (`select_eps`), measured on
two real sites and the zoo (benchmarks/results/eps-rule.txt).
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from typing import Self

logger = logging.getLogger(__name__)

__all__ = ["EPS_RULES", "TYPE_SHARE", "PageClusterer", "auto_eps", "k_distances", "knee_eps",
           "merge_heights", "merge_tree", "page_silhouettes", "select_eps", "type_merges",
           "widen_eps"]

EPS_RULES = ("silhouette", "knee", "gap", "tail", "paper")
_MIN_EPS = 1e-9  # DBSCAN needs eps > 0; identical pages have K-dist 0
WIDEN = 1.5      # "gap" rule: `widen_eps` looks for the break within [eps, 1.5 eps]
BIG_SHARE = 0.2  # `select_eps`, `widen_eps`: below the first merge of two 20% groups
TYPE_SHARE = 0.1  # `SourceModel`: below the first merge of two 10% groups of two sections


def k_distances(X: sp.spmatrix | np.ndarray, min_pts: int = 4) -> np.ndarray:
    """Distance of every row to its K-th nearest other row, K = minPts − 1.

    With minPts counting the point itself (as in DBSCAN and scikit-learn), a page is a core
    point exactly when its K-dist is at most eps; the paper's Fig. 4 uses K = 3 for minPts 4.

    References
    ----------
    Xu, Gao & Callan (2018), §4.2 and Fig. 4; Ester et al. (1996), the K-dist graph.
    """
    from sklearn.neighbors import NearestNeighbors

    n = X.shape[0]
    k = min(min_pts, n)
    if k < 2 or X.shape[1] == 0:
        return np.zeros(n)
    nn = NearestNeighbors(n_neighbors=k, metric="euclidean", algorithm="brute").fit(X)
    dist, _ = nn.kneighbors(X)
    return np.asarray(dist[:, k - 1], dtype=np.float64)


def auto_eps(
    kdist: np.ndarray, n_features: int, *, min_pts: int = 4, rule: str = "tail",
    w_per_page: float = 0.0048, min_share: float = 0.5,
) -> float:
    """Choose DBSCAN's eps from the sorted K-dist histogram.

    ``rule="paper"`` is §4.2 read literally: ``NumBins = w · NumFeats`` with ``w`` growing
    with the sample (``w = 4.8`` for 1,000 pages, so ``w = w_per_page · |D|``); scan the bins
    from small to large K-dist and stop at the first bin holding fewer than minPts pages
    while at least `min_share` (50%) of the pages lie below it; eps is that bin's left edge.

    ``rule="tail"`` (the default) is the same scan with bins that can actually be sparse.
    Measured on a real site (1,000 pages of the Rust documentation, rustdoc and mdBook
    templates), the literal rule stops at the median K-dist and leaves 44–47% of the pages
    as outliers: with ~3 bins per page, bins of fewer than minPts pages occur throughout the
    bulk of the distribution, so the first one past the 50% guard is at the guard itself.
    "tail" keeps the rule – first bin with fewer than minPts pages once at least
    `min_share` of the pages lie below it, eps at its left edge – but (1) sizes the bins by
    the Freedman–Diaconis width of the K-dist values, so that a bin of fewer than minPts
    pages is sparse relative to how spread the K-dists are, and (2) builds the histogram
    and the 50% guard on the pages with K-dist > 0: exact structural duplicates (a login
    wall reached from every page) say nothing about where scattered pages begin, and when
    they are the majority they satisfy the guard at 0 and stop the scan in the gap after
    them. Measured on 12 samples (Rust docs, the zoo's 10 sites, the test forum; see
    benchmarks/results/learning.txt): the literal rule stops at the median K-dist on 4 of
    them (44–49% outliers) and works elsewhere (K-dist p82–p99); "tail" leaves 0–4.7%
    outliers everywhere, with the literal rule's purity wherever that one worked. Its
    known cost: on the zoo's Q&A sites a user's profile and activity tabs (one template,
    different lists) end up in one cluster at any eps that leaves few outliers.

    Parameters
    ----------
    kdist : ndarray of shape (n_samples,)
        K-dist of every training page (`k_distances`).
    n_features : int
        Number of XPath features (sets the paper's bin count).
    min_pts : int, default=4
    rule : {"tail", "paper"}
    w_per_page : float, default=0.0048
        The paper's w divided by |D| (w = 4.8 at |D| = 1,000).
    min_share : float, default=0.5
        At least this share of pages must have K-dist below eps.

    Returns
    -------
    float, at least 1e-9.

    References
    ----------
    Xu, Gao & Callan (2018), §4.2 ("Setting distance threshold") and Fig. 4.
    """
    if rule not in ("paper", "tail"):
        raise ValueError(f"rule must be 'paper' or 'tail'; got {rule!r}")
    values = np.sort(np.asarray(kdist, dtype=np.float64))
    n = values.size
    if n == 0 or values[-1] <= 0:
        return _MIN_EPS
    if rule == "paper":
        n_bins = max(1, round(w_per_page * n * n_features))
        counts, edges = np.histogram(values, bins=n_bins)
        return _first_sparse_bin(counts, edges, min_pts, min_share * n)
    positive = values[values > 0]
    if positive.size < min_pts:
        return max(float(values[-1]), _MIN_EPS)
    counts, edges = np.histogram(positive, bins=_fd_bins(positive))
    return _first_sparse_bin(counts, edges, min_pts, min_share * positive.size)


def knee_eps(kdist: np.ndarray, min_pts: int = 4) -> float:
    """The knee of the sorted K-dist graph: the page whose K-dist lies furthest below the
    chord from the smallest to the largest K-dist, both axes scaled to [0, 1].

    Ester et al. (1996) set eps at the first "valley" of the sorted K-dist graph, where the
    dense pages end and the scattered ones begin; this is that point found the Kneedle way
    (the largest difference between the scaled rank and the scaled K-dist). As in the
    "tail" rule, pages with K-dist 0 (exact structural duplicates) are left out: they say
    nothing about where scattered pages begin.

    Why not the histogram rules: on a real MediaWiki (200 pages: articles, talk and user
    pages, edit forms, diffs, histories, special pages of many kinds) the K-dists
    decline gradually over a long tail of moderately scattered pages, every histogram bin
    past the median holds minPts pages, and the "tail" rule ends at K-dist p99 (eps 0.80,
    where articles, diffs and redirects are already one cluster). The knee is at p84 (eps
    0.47). On the zoo's ten sites and the Rust docs it lies at p88–p96, just below the
    "tail" rule's eps. benchmarks/results/eps-rule.txt.

    Returns
    -------
    float, at least 1e-9.

    References
    ----------
    Ester et al. (1996), §4.2, the sorted k-dist graph; Satopää et al. (2011), Kneedle.
    """
    values = np.sort(np.asarray(kdist, dtype=np.float64))
    positive = values[values > 0]
    if positive.size < min_pts:
        return max(float(values[-1]) if values.size else 0.0, _MIN_EPS)
    span = float(positive[-1] - positive[0])
    if span <= 0:
        return max(float(positive[-1]), _MIN_EPS)
    rank = np.linspace(0.0, 1.0, positive.size)
    scaled = (positive - positive[0]) / span
    return max(float(positive[int(np.argmax(rank - scaled))]), _MIN_EPS)


def page_silhouettes(dist: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Every page's silhouette under a clustering, with outliers (label −1) at 0.

    Rousseeuw (1987) gives a cluster of one page the silhouette 0; an outlier is such a
    cluster. So the mean over all pages rewards clusters that are tight and apart, and
    charges every page left out as an outlier.

    Parameters
    ----------
    dist : ndarray of shape (n, n)
        Pairwise distances.
    labels : ndarray of shape (n,)
    """
    from sklearn.metrics import silhouette_samples

    s = np.zeros(labels.size)
    inside = labels >= 0
    if np.unique(labels[inside]).size >= 2:
        s[inside] = silhouette_samples(dist[np.ix_(inside, inside)], labels[inside],
                                       metric="precomputed")
    return s


def select_eps(dist: np.ndarray, heights: np.ndarray, smaller: np.ndarray, eps: float, *,
               min_pts: int = 4, big_share: float = BIG_SHARE,
               apart: np.ndarray | None = None) -> float:
    """Raise a density-based eps to the cut between clusters that the pages' silhouettes
    support; the smallest such cut when several are as good.

    Why: the knee (or any K-dist eps) sits at the density scale of the pages and cannot see
    the gaps *between* dense groups. A page type often forms a few dense groups that differ
    by an optional region (a search with and without results, a profile with and without a
    signature, a media list with and without a pager), and cutting at the K-dist eps splits
    the type at an arbitrary point of its spread: on the zoo's media sites the knee leaves
    the lists in up to 29 clusters. Where two groups are fragments of one type, joining
    them raises the pages' mean silhouette (`page_silhouettes`): they are closer to each
    other than to any other cluster. Where they are two types, it lowers it.

    The candidates are eps and the cuts just below every merge of two groups of at least
    minPts pages in the merge tree (`merge_heights`) above eps, plus the highest merge of
    the range: within one set of clusters, the highest eps leaves the fewest outliers.
    Among them the best mean silhouette wins, except that a smaller eps whose mean lies
    within one standard error of the best is preferred (the "one standard error" rule of
    Breiman et al.): a widening must be clearly supported, because joining two types costs
    the crawl more than keeping one type in two clusters. On the zoo's Q&A site that keeps
    users' profiles apart from questions' revision lists (mean silhouette 0.565 apart,
    0.574 together, standard error 0.011).

    The range ends below the first merge of two groups that each hold `big_share` of the
    pages: groups that big are the site's main page types. The silhouette alone joins the
    two halves of a blog (posts and listings, 97 and 95 of 200 pages, 0.47 apart) when
    nothing else is near. The guard no longer decides anything else: the rule before this
    one (`widen_eps`, rule "gap") relied on it to tell fragments from types, and on the
    real MediaWiki a 39-page group of edit forms passed under it (purity 0.36; see
    benchmarks/results/widen-guard.txt and eps-rule.txt).

    Given `apart` (`type_merges`, from the pages' URLs: ``PageClusterer(type_share=…)``),
    the range also ends below the first merge of two smaller groups whose URLs name two
    page types. On a real django-machina the silhouettes cut at 0.955, where topics (134
    of 200 pages), members' post lists (34) and profiles (21) are one cluster (mean 0.528,
    against 0.403 at 0.438, where they are three): a member's post list shows posts as a
    topic does, and the harvest spent 257 requests on post lists
    (``/member/profile/N/posts/``) as on topics (``/forum/F/topic/T/``). A type split by
    an optional region (a topic of one post and of fifteen) stays in its section of the
    site, and still joins.

    Parameters
    ----------
    dist : ndarray of shape (n, n)
        Pairwise distances of the pages.
    heights, smaller : ndarray
        From `merge_heights`.
    eps : float
        The density-based eps (`knee_eps`).
    min_pts : int, default=4
    big_share : float, default=0.2
    apart : ndarray of bool, optional
        For each merge, whether it joins two page types by their URLs (`type_merges`):
        the range ends below the first of them too.

    References
    ----------
    Rousseeuw (1987), silhouettes; Breiman et al. (1984), the one-standard-error rule.
    """
    from sklearn.cluster import DBSCAN

    above = heights > eps
    big = above & (smaller >= big_share * (heights.size + 1))
    if apart is not None:
        big |= above & apart
    top = float(heights[big].min()) if big.any() else np.inf
    inside = above & (heights < top)
    if not inside.any():
        return eps
    cuts = {eps, float(heights[inside].max())}
    for h in heights[inside & (smaller >= min_pts)].tolist():
        lower = heights[(heights >= eps) & (heights < h)]
        cuts.add(float(lower.max()) if lower.size else eps)
    candidates = sorted(cuts)
    scores = [page_silhouettes(dist, DBSCAN(eps=max(c, _MIN_EPS), min_samples=min_pts,
                                            metric="precomputed").fit(dist).labels_)
              for c in candidates]
    means = np.array([s.mean() for s in scores])
    best = int(np.argmax(means))
    se = float(scores[best].std(ddof=1) / np.sqrt(scores[best].size))
    return max(candidates[int(np.argmax(means >= means[best] - se))], _MIN_EPS)


def merge_tree(X: sp.spmatrix | np.ndarray, kdist: np.ndarray,
               dist: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The merges of DBSCAN's clusters as eps grows: the edges of the minimum spanning tree
    of the mutual-reachability graph (distance max(K-dist a, K-dist b, ‖a − b‖)), sorted by
    weight, as (heights, a, b): the merge at heights[k] joins the groups of pages a[k] and
    b[k].

    Prim's algorithm over the dense distance matrix (O(n²) time and memory: ~8 MB and tens
    of milliseconds for 1,000 pages). `dist`, the pages' pairwise distances, is computed
    from `X` when not given.

    References
    ----------
    Campello, Moulavi & Sander (2013), HDBSCAN: the DBSCAN* clusterings at every eps are
    the cuts of this tree.
    """
    from sklearn.metrics import pairwise_distances

    n = X.shape[0]
    if n < 2:
        return np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    core = np.asarray(kdist, dtype=np.float64)
    dist = (pairwise_distances(X, metric="euclidean") if dist is None
            else np.array(dist, dtype=np.float64))
    np.maximum(dist, core[:, None], out=dist)
    np.maximum(dist, core[None, :], out=dist)
    weight, a_end, b_end = np.empty(n - 1), np.empty(n - 1, dtype=np.int64), \
        np.empty(n - 1, dtype=np.int64)
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    best = dist[0].copy()
    best[0] = np.inf
    via = np.zeros(n, dtype=np.int64)
    for i in range(n - 1):
        j = int(np.argmin(best))
        weight[i], a_end[i], b_end[i] = best[j], via[j], j
        in_tree[j] = True
        closer = dist[j] < best
        via[closer] = j
        np.minimum(best, dist[j], out=best)
        best[in_tree] = np.inf
    order = np.argsort(weight, kind="stable")
    return weight[order], a_end[order], b_end[order]


def merge_heights(X: sp.spmatrix | np.ndarray, kdist: np.ndarray,
                  dist: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The heights of the merges of `merge_tree`, and for each merge the page count of the
    smaller of the two groups it joins (outliers counting as singletons)."""
    heights, a, b = merge_tree(X, kdist, dist)
    return heights, _smaller(a, b, X.shape[0])


def _smaller(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """For each merge of `merge_tree`, the page count of the smaller group it joins."""
    smaller = np.empty(a.size, dtype=np.int64)
    groups = _Groups(n)
    for k, (x, y) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        smaller[k] = min(groups.size(x), groups.size(y))
        groups.join(x, y)
    return smaller


def type_merges(a: np.ndarray, b: np.ndarray, sections: Sequence[str], min_size: int,
                purity: float = 0.9) -> np.ndarray:
    """Which merges of `merge_tree` join two page types by their URLs: two groups of at
    least `min_size` pages, each with `purity` of its pages in one section of the site
    (`sections`, one per page: `archiver.learning.urlshape.page_section`), and not the same.

    Fragments of one page type that a template's optional region splits (a topic of one
    post and of fifteen, a list with and without a pager) live in one section; the main
    page types of a site often do not (``/forum/…/topic/…`` and ``/member/…/posts/``).
    `select_eps` ends its range below the first such merge. Why sections and pure groups,
    measured on the samples of 23 real sites and the zoo
    (`benchmarks/results/menu-sections-and-url-guard.md`): by the whole URL form, a media
    site's tag lists (``photos/tags/*``) and photo streams (``photos/*``), one template,
    stayed apart, and the zoo media site's photo example fell in no cluster; with groups
    half in one section, a real WordPress's archives, one template under ``category/``,
    ``author/``, ``tag/`` and ``page/``, fell apart into 14 clusters and 46 outliers.
    """
    out = np.zeros(a.size, dtype=bool)
    groups = _Groups(len(sections), [Counter([x]) for x in sections])
    for k, (x, y) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        one, other = groups.labels(x), groups.labels(y)
        n_one, n_other = groups.size(x), groups.size(y)
        if min(n_one, n_other) >= min_size:
            (f1, c1), = one.most_common(1)
            (f2, c2), = other.most_common(1)
            out[k] = (f1 != f2 and c1 >= purity * n_one and c2 >= purity * n_other)
        groups.join(x, y)
    return out


class _Groups:
    """Union–find over pages, with each group's size and, optionally, a count of its pages'
    labels (their sections, `type_merges`)."""

    def __init__(self, n: int, labels: list[Counter[str]] | None = None) -> None:
        self._parent = list(range(n))
        self._size = [1] * n
        self._labels = labels

    def root(self, x: int) -> int:
        parent = self._parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def size(self, x: int) -> int:
        return self._size[self.root(x)]

    def labels(self, x: int) -> Counter[str]:
        assert self._labels is not None
        return self._labels[self.root(x)]

    def join(self, x: int, y: int) -> None:
        rx, ry = self.root(x), self.root(y)
        if rx == ry:
            return
        if self._size[rx] < self._size[ry]:
            rx, ry = ry, rx
        self._parent[ry] = rx
        self._size[rx] += self._size[ry]
        if self._labels is not None:
            self._labels[rx].update(self._labels[ry])
            self._labels[ry] = Counter()


def widen_eps(heights: np.ndarray, smaller: np.ndarray, eps: float, *,
              factor: float = WIDEN, big_share: float = BIG_SHARE) -> float:
    """Raise a density-based eps to the start of the widest relative gap between merge
    heights above it, within [eps, factor · eps] and before any merge of two big groups.

    Why: the K-dist rule puts eps at the density scale of the pages (the distance to the
    (minPts − 1)-th neighbour), and cannot see gaps *between* dense groups. A page type
    often forms a few dense groups that differ by an optional region (a search with and
    without results, a profile with and without a signature, a wiki article with and
    without an infobox), and cutting at the K-dist eps splits the type at an arbitrary
    point of its spread. On the zoo's sites that left types in 2–9 clusters with purity 1
    (micro-F 0.77–0.97). Moving eps up to where the clustering is most stable – the lower
    end of the largest ratio between consecutive merge heights (`merge_heights`) – rejoins
    such fragments. Two bounds keep it from merging page types, the paper's concern: eps
    grows by at most `factor` (it stays at the density scale the paper's rule found, not
    the distance between templates; the first height above the range ends the last gap),
    and the range ends *below* the first merge of two groups that each hold `big_share`
    of the sample: groups that big are the site's main page types, not fragments of one
    (on a 150-page training fold of the zoo blog, posts and archives were 1.24× the
    K-dist eps apart). Measured in benchmarks/results/clustering.md: factors 1.25–2 and
    shares 0.2–0.3 give the same picture; 0.1 rejoins less.

    Parameters
    ----------
    heights, smaller : ndarray
        From `merge_heights`.
    eps : float
        The density-based eps (`auto_eps`, rule "tail").
    factor : float, default=1.5
    big_share : float, default=0.2
    """
    n = heights.size + 1   # n − 1 merges join n pages
    if factor <= 1 or heights.size == 0 or eps <= 0:
        return eps
    steps = [eps]
    for h, small in zip(heights.tolist(), smaller.tolist(), strict=True):
        if h <= eps:
            continue
        steps.append(h)   # a big merge or the first height past the range ends the last gap
        if h > factor * eps or small >= big_share * n:
            break
    if len(steps) < 2:
        return eps
    arr = np.asarray(steps)
    ratios = arr[1:] / np.maximum(arr[:-1], _MIN_EPS)
    return max(float(arr[int(np.argmax(ratios))]), _MIN_EPS)


def _first_sparse_bin(counts: np.ndarray, edges: np.ndarray, min_pts: int, guard: float,
                      ) -> float:
    """Left edge of the first bin with < min_pts values and at least `guard` values left of
    it; the right end of the histogram when there is none."""
    below = np.concatenate(([0], np.cumsum(counts)[:-1]))
    ok = (counts < min_pts) & (below >= guard)
    edge = edges[int(np.argmax(ok))] if ok.any() else edges[-1]
    return max(float(edge), _MIN_EPS)


def _fd_bins(values: np.ndarray) -> int:
    """Freedman–Diaconis bin count: width 2·IQR·n^(-1/3) over the range of `values`."""
    q75, q25 = np.percentile(values, [75, 25])
    width = 2.0 * (q75 - q25) / np.cbrt(values.size)
    span = float(values[-1] - values[0])
    if width <= 0 or span <= 0:
        return 1
    return int(min(max(np.ceil(span / width), 1), 10_000))


class PageClusterer:
    """DBSCAN page clusters with an automatic eps (§4.2).

    Parameters
    ----------
    min_pts : int, default=4
        DBSCAN's minPts (``min_samples``); the paper follows Ester et al. and uses 4.
    eps : float or "auto", default="auto"
        A fixed eps, or "auto" to choose it by `eps_rule`.
    eps_rule : {"silhouette", "knee", "gap", "tail", "paper"}, default="silhouette"
        Which rule "auto" uses: "silhouette", the knee of the sorted K-dist graph
        (`knee_eps`) widened to the cut the silhouettes support (`select_eps`); "knee"
        alone; "gap", the "tail" rule widened to the widest gap between merges
        (`widen_eps`, the rule before 2026-11); or a K-dist histogram rule (`auto_eps`).
    w_per_page : float, default=0.0048
        The paper's bin-count factor w divided by |D| (only for ``eps_rule="paper"``).
    type_share : float, default=0.0
        With the pages' sections given to `fit`, ``eps_rule="silhouette"`` cuts below the
        first merge of two groups of at least this share of the pages (and minPts) that
        their URLs tell apart (`type_merges`); 0 turns it off.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of every training page; -1 marks outliers (kept as such).
    eps_ : float
        The eps used.
    kdist_ : ndarray of shape (n_samples,)
        K-dist of every training page.
    core_sample_indices_ : ndarray
        Indices of DBSCAN's core pages.
    n_clusters_ : int

    References
    ----------
    Xu, Gao & Callan (2018), §4.2; Ester et al. (1996), DBSCAN.
    """

    def __init__(
        self, min_pts: int = 4, eps: float | str = "auto", eps_rule: str = "silhouette",
        w_per_page: float = 0.0048, type_share: float = 0.0,
    ) -> None:
        self.min_pts = min_pts
        self.eps = eps
        self.eps_rule = eps_rule
        self.w_per_page = w_per_page
        self.type_share = type_share

    def fit(self, X: sp.spmatrix | np.ndarray, sections: Sequence[str] | None = None,
            ) -> Self:
        """Cluster the training pages (rows of `X`, L1-normalised TF-IDF vectors);
        `sections`, the site's section of each (`archiver.learning.urlshape.page_section`),
        for `type_share`."""
        from sklearn.cluster import DBSCAN
        from sklearn.metrics import pairwise_distances

        if self.min_pts < 2:
            raise ValueError(f"min_pts must be >= 2; got {self.min_pts}")
        if self.eps == "auto" and self.eps_rule not in EPS_RULES:
            raise ValueError(f"eps_rule must be one of {', '.join(EPS_RULES)}; "
                             f"got {self.eps_rule!r}")
        n = X.shape[0]
        self.kdist_ = k_distances(X, self.min_pts)
        dist = None
        if self.eps == "auto":
            eps = self._auto_eps(X)
            if self.eps_rule in ("gap", "silhouette") and n >= self.min_pts:
                dist = pairwise_distances(X, metric="euclidean")
                heights, a, b = merge_tree(X, self.kdist_, dist)
                smaller = _smaller(a, b, n)
                apart = None
                if sections is not None and self.type_share > 0:
                    if len(sections) != n:
                        raise ValueError(f"{n} pages but {len(sections)} sections")
                    apart = type_merges(a, b, sections,
                                        max(self.min_pts, math.ceil(self.type_share * n)))
                eps = (select_eps(dist, heights, smaller, eps, min_pts=self.min_pts,
                                  apart=apart)
                       if self.eps_rule == "silhouette" else widen_eps(heights, smaller, eps))
        elif isinstance(self.eps, (int, float)) and self.eps > 0:
            eps = float(self.eps)
        else:
            raise ValueError(f"eps must be a number > 0 or 'auto'; got {self.eps!r}")
        self.eps_ = eps
        if n < self.min_pts or X.shape[1] == 0:  # too few pages, or no XPath kept by θ
            self.labels_ = np.full(n, -1, dtype=np.int64)
            self.core_sample_indices_ = np.zeros(0, dtype=np.int64)
        else:
            # on the distances `select_eps` judged, so that its cut is the one used
            db = (DBSCAN(eps=eps, min_samples=self.min_pts, metric="precomputed").fit(dist)
                  if dist is not None and self.eps_rule == "silhouette" else
                  DBSCAN(eps=eps, min_samples=self.min_pts, metric="euclidean",
                         algorithm="brute").fit(X))
            self.labels_ = np.asarray(db.labels_, dtype=np.int64)
            self.core_sample_indices_ = np.asarray(db.core_sample_indices_, dtype=np.int64)
        self.n_clusters_ = int(self.labels_.max() + 1) if n else 0
        logger.info("DBSCAN eps=%.4f (%s): %d clusters, %d of %d pages outliers", eps,
                    self.eps_rule if self.eps == "auto" else "fixed", self.n_clusters_,
                    int((self.labels_ < 0).sum()), n)
        return self

    def _auto_eps(self, X: sp.spmatrix | np.ndarray) -> float:
        """The density-based eps of the rule: the knee, or a K-dist histogram rule."""
        if self.eps_rule in ("silhouette", "knee"):
            return knee_eps(self.kdist_, self.min_pts)
        return auto_eps(self.kdist_, X.shape[1], min_pts=self.min_pts,
                        rule="tail" if self.eps_rule == "gap" else self.eps_rule,
                        w_per_page=self.w_per_page)

    def fit_predict(self, X: sp.spmatrix | np.ndarray) -> np.ndarray:
        """`fit` and return `labels_`."""
        return self.fit(X).labels_
