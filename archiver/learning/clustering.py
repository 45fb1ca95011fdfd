"""Page clusters for SOUrCe's sitemap (Xu, Gao & Callan 2018, §4.2): scikit-learn DBSCAN over
bag-of-XPaths vectors, minPts = 4, with eps chosen automatically from the sorted K-dist
histogram, an improved variant of that rule measured on real sites (see `auto_eps`), and a
widening of it to the nearest natural break between clusters (see `widen_eps`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from typing import Self

logger = logging.getLogger(__name__)

__all__ = ["EPS_RULES", "PageClusterer", "auto_eps", "k_distances", "merge_heights",
           "widen_eps"]

EPS_RULES = ("paper", "tail", "gap")
_MIN_EPS = 1e-9  # DBSCAN needs eps > 0; identical pages have K-dist 0
WIDEN = 1.5      # `widen_eps` looks for the break within [eps, 1.5 eps] ...
BIG_SHARE = 0.2  # ... and below the first merge of two groups of 20% of the pages each


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


def merge_heights(X: sp.spmatrix | np.ndarray, kdist: np.ndarray,
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The merges of DBSCAN's clusters as eps grows: edge weights of the minimum spanning
    tree of the mutual-reachability graph (distance max(K-dist a, K-dist b, ‖a − b‖)),
    sorted, and for each merge the page count of the smaller of the two groups it joins
    (outliers counting as singletons).

    Prim's algorithm over the dense distance matrix (O(n²) time and memory: ~8 MB and tens
    of milliseconds for 1,000 pages), then union–find in height order for the sizes.

    References
    ----------
    Campello, Moulavi & Sander (2013), HDBSCAN: the DBSCAN* clusterings at every eps are
    the cuts of this tree.
    """
    from sklearn.metrics import pairwise_distances

    n = X.shape[0]
    if n < 2:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    core = np.asarray(kdist, dtype=np.float64)
    dist = pairwise_distances(X, metric="euclidean")
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
    parent = np.arange(n)
    size = np.ones(n, dtype=np.int64)

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = int(parent[x])
        return x

    smaller = np.empty(n - 1, dtype=np.int64)
    for k, e in enumerate(order):
        ra, rb = root(int(a_end[e])), root(int(b_end[e]))
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        smaller[k] = size[rb]
        parent[rb] = ra
        size[ra] += size[rb]
    return weight[order], smaller


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
        A fixed eps, or "auto" to choose it from the K-dist histogram (`auto_eps`).
    eps_rule : {"gap", "tail", "paper"}, default="gap"
        Which rule "auto" uses: a K-dist histogram rule (`auto_eps`), or "gap", the "tail"
        rule widened to the nearest break between clusters (`widen_eps`).
    w_per_page : float, default=0.0048
        The paper's bin-count factor w divided by |D| (only for ``eps_rule="paper"``).

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
        self, min_pts: int = 4, eps: float | str = "auto", eps_rule: str = "gap",
        w_per_page: float = 0.0048,
    ) -> None:
        self.min_pts = min_pts
        self.eps = eps
        self.eps_rule = eps_rule
        self.w_per_page = w_per_page

    def fit(self, X: sp.spmatrix | np.ndarray) -> Self:
        """Cluster the training pages (rows of `X`, L1-normalised TF-IDF vectors)."""
        from sklearn.cluster import DBSCAN

        if self.min_pts < 2:
            raise ValueError(f"min_pts must be >= 2; got {self.min_pts}")
        n = X.shape[0]
        self.kdist_ = k_distances(X, self.min_pts)
        if self.eps == "auto":
            rule = "tail" if self.eps_rule == "gap" else self.eps_rule
            eps = auto_eps(self.kdist_, X.shape[1], min_pts=self.min_pts, rule=rule,
                           w_per_page=self.w_per_page)
            if self.eps_rule == "gap" and n >= self.min_pts:
                eps = widen_eps(*merge_heights(X, self.kdist_), eps)
        elif isinstance(self.eps, (int, float)) and self.eps > 0:
            eps = float(self.eps)
        else:
            raise ValueError(f"eps must be a number > 0 or 'auto'; got {self.eps!r}")
        self.eps_ = eps
        if n < self.min_pts or X.shape[1] == 0:  # too few pages, or no XPath kept by θ
            self.labels_ = np.full(n, -1, dtype=np.int64)
            self.core_sample_indices_ = np.zeros(0, dtype=np.int64)
        else:
            db = DBSCAN(eps=eps, min_samples=self.min_pts, metric="euclidean",
                        algorithm="brute").fit(X)
            self.labels_ = np.asarray(db.labels_, dtype=np.int64)
            self.core_sample_indices_ = np.asarray(db.core_sample_indices_, dtype=np.int64)
        self.n_clusters_ = int(self.labels_.max() + 1) if n else 0
        logger.info("DBSCAN eps=%.4f (%s): %d clusters, %d of %d pages outliers", eps,
                    self.eps_rule if self.eps == "auto" else "fixed", self.n_clusters_,
                    int((self.labels_ < 0).sum()), n)
        return self

    def fit_predict(self, X: sp.spmatrix | np.ndarray) -> np.ndarray:
        """`fit` and return `labels_`."""
        return self.fit(X).labels_
