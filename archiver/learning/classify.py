"""Place new pages into the learned page clusters (SOUrCe §4.2, "Classify a new page"): kNN
with k = minPts − 1 over the clustered training pages, or outlier when too far from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from typing import Self

__all__ = ["PageClassifier"]

_DENSE_CELLS = 20_000_000  # 160 MB of float64
_CHUNK = 256


class PageClassifier:
    """k-nearest-neighbour page classifier over the training pages and their cluster labels.

    DBSCAN cannot place unseen points, so new pages are compared with the training pages it
    labelled, outliers included (label -1: "new pages can also be classified as outliers").
    Neighbours farther than `max_distance` do not vote; with the clustering's eps this is
    DBSCAN's own reach, so a page that no training page is eps-close to is an outlier. The
    majority label among the voting neighbours wins, ties going to the nearest of them.

    The neighbour search is a brute-force Euclidean search in NumPy rather than
    `sklearn.neighbors.KNeighborsClassifier`: for one page against ~1,000 training pages,
    scikit-learn's dispatch (input validation, then its parallel ArgKmin backend) measured
    6–20 ms per call here, against ~0.1 ms for one matrix–vector product, and the harvest
    classifies every fetched page one at a time within a 5 ms budget.

    Parameters
    ----------
    n_neighbors : int, default=3
        k = minPts − 1 (§4.2).
    max_distance : float or None, default=None
        Neighbours beyond it are ignored; None lets all k vote.

    Attributes
    ----------
    X_ : scipy.sparse.csr_matrix
        The training vectors.
    labels_ : ndarray of int
        Their cluster labels (-1 for outliers).

    References
    ----------
    Xu, Gao & Callan (2018), §4.2 ("Classify a new page", k = minPts − 1).
    """

    def __init__(self, n_neighbors: int = 3, max_distance: float | None = None) -> None:
        self.n_neighbors = n_neighbors
        self.max_distance = max_distance

    def fit(self, X: sp.spmatrix | np.ndarray, labels: np.ndarray) -> Self:
        """Remember the training pages and their labels."""
        labels = np.asarray(labels, dtype=np.int64)
        if X.shape[0] != labels.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but labels has {labels.shape[0]}")
        if X.shape[0] == 0:
            raise ValueError("cannot fit a PageClassifier on zero pages")
        if self.n_neighbors < 1:
            raise ValueError(f"n_neighbors must be >= 1; got {self.n_neighbors}")
        self.X_ = sp.csr_matrix(X, dtype=np.float64)
        self.labels_ = labels
        # Dense when small (the vocabulary is tens to a few thousand XPaths after the θ
        # filter): a dense matrix–vector product is the fastest search there is. Kept
        # transposed and C-contiguous: a sparse row times a transposed view made scipy copy
        # the whole training matrix on every call (3 of the 4 ms a page on the Rust docs).
        dense = X.shape[0] * X.shape[1] <= _DENSE_CELLS
        self._train_t: np.ndarray | sp.csc_matrix = (
            np.ascontiguousarray(self.X_.toarray().T) if dense else self.X_.T.tocsc())
        self._sq = np.asarray(self.X_.multiply(self.X_).sum(axis=1)).ravel()
        return self

    def kneighbors(self, X: sp.spmatrix | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Distances and training indices of the k nearest training pages of each row,
        nearest first (ties broken by training order)."""
        if not hasattr(self, "X_"):
            raise RuntimeError("PageClassifier is not fitted; call fit() or load a model bundle")
        k = min(self.n_neighbors, self.X_.shape[0])
        dists, inds = [], []
        for start in range(0, X.shape[0], _CHUNK):
            rows = X[start : start + _CHUNK]
            cross = rows @ self._train_t
            cross = cross.toarray() if sp.issparse(cross) else np.asarray(cross)
            if isinstance(rows, np.ndarray):
                sq_rows = np.einsum("ij,ij->i", rows, rows)
            else:
                sq_rows = np.asarray(rows.multiply(rows).sum(axis=1)).ravel()
            d2 = np.maximum(sq_rows[:, None] - 2.0 * cross + self._sq[None, :], 0.0)
            part = np.argpartition(d2, k - 1, axis=1)[:, :k] if k < d2.shape[1] else \
                np.tile(np.arange(d2.shape[1]), (d2.shape[0], 1))
            part_d = np.take_along_axis(d2, part, axis=1)
            order = np.lexsort((part, part_d), axis=1)
            inds.append(np.take_along_axis(part, order, axis=1))
            dists.append(np.sqrt(np.take_along_axis(part_d, order, axis=1)))
        return np.vstack(dists), np.vstack(inds)

    def predict(self, X: sp.spmatrix | np.ndarray) -> np.ndarray:
        """Cluster label of every row of `X` (-1: outlier)."""
        return self.predict_with_distance(X)[0]

    def predict_with_distance(self, X: sp.spmatrix | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Labels and the distance to the nearest training page, for every row of `X`."""
        dist, ind = self.kneighbors(X)
        neighbour_labels = self.labels_[ind]
        out = np.full(dist.shape[0], -1, dtype=np.int64)
        for row in range(dist.shape[0]):
            d, lab = dist[row], neighbour_labels[row]
            if self.max_distance is not None:
                lab = lab[d <= self.max_distance]
            if lab.size == 0:
                continue
            values, counts = np.unique(lab, return_counts=True)
            best = values[counts == counts.max()]
            # Ties go to the nearest neighbour among the tied labels (lab is sorted by d).
            out[row] = int(best[0]) if best.size == 1 else int(lab[np.isin(lab, best)][0])
        return out, dist[:, 0]
