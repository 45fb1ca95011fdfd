"""Page-clustering quality against true page types (SOUrCe, Xu, Gao & Callan 2018, §5.2 and
Fig. 5): purity, micro/macro F-measure of the clusters of the training sample D, and the
micro/macro Precision of 4-fold stratified cross-validated classification.

Conventions shared by every function here:

* Labels are cluster ids; ``-1`` is a DBSCAN outlier. SOUrCe keeps outliers as outliers
  (§4.2), and §5.2 scores "outliers created by clustering algorithms ... as singular
  clusters": every ``-1`` is its own one-page cluster. A singleton is trivially pure, so
  purity alone can be raised by declaring pages outliers; `outlier_share` is therefore
  always reported beside it, and the F-measure penalises it (a type scattered into
  singletons has a best-matching cluster of recall 1/|T|).
* "Annotation outliers" (§5.1: true types with fewer than minPts pages in D) are left out of
  the scores, as §5.2 does ("annotation outliers are not included"), but not out of the
  clustering: the pages are clustered as the crawl clusters them, and `evaluable` gives the
  mask of pages that are scored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "CVPrecision",
    "FitClassify",
    "cv_precision",
    "evaluable",
    "f_measure",
    "outlier_share",
    "purity",
    "source_fit_classify",
    "stratified_folds",
]

# fit_classify(train_indices, test_indices) -> (cluster labels of the training pages,
# predicted cluster of each test page); -1 is an outlier in both.
FitClassify = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def _singletons(labels: np.ndarray) -> np.ndarray:
    """Labels where every outlier (-1) gets a fresh id of its own."""
    labels = np.asarray(labels, dtype=np.int64).copy()
    out = labels < 0
    start = int(labels.max()) + 1 if labels.size and (~out).any() else 0
    labels[out] = np.arange(start, start + int(out.sum()))
    return labels


def _contingency(labels: np.ndarray, truth: Sequence[Hashable]) -> tuple[np.ndarray, list]:
    """Cluster × type counts (outliers as singletons) and the type names, in column order."""
    if len(labels) != len(truth):
        raise ValueError(f"{len(labels)} labels but {len(truth)} true types")
    if len(truth) == 0:
        raise ValueError("no pages to score")
    lab = _singletons(np.asarray(labels))
    _, rows = np.unique(lab, return_inverse=True)
    types = sorted(set(truth), key=str)
    col = {t: i for i, t in enumerate(types)}
    table = np.zeros((int(rows.max()) + 1, len(types)), dtype=np.int64)
    np.add.at(table, (rows, np.array([col[t] for t in truth], dtype=np.int64)), 1)
    return table, types


def evaluable(truth: Sequence[Hashable], min_pts: int = 4) -> np.ndarray:
    """Mask of pages whose true type has at least `min_pts` pages in the sample (§5.1–5.2:
    rarer types are "annotation outliers" and are not scored)."""
    counts = Counter(truth)
    return np.array([counts[t] >= min_pts for t in truth], dtype=bool)


def outlier_share(labels: np.ndarray) -> float:
    """Share of pages labelled -1 (DBSCAN outliers)."""
    labels = np.asarray(labels)
    return float((labels < 0).mean()) if labels.size else 0.0


def purity(labels: np.ndarray, truth: Sequence[Hashable]) -> float:
    """Purity: Σ over clusters of its majority type's page count, over all pages.

    Every outlier is a singleton cluster (so it counts as pure); report `outlier_share`
    with it.
    """
    table, _ = _contingency(labels, truth)
    return float(table.max(axis=1).sum() / table.sum())


def f_measure(labels: np.ndarray, truth: Sequence[Hashable]) -> tuple[float, float]:
    """Clustering F-measure, (micro, macro).

    For every true type T, F(T) = max over clusters C of 2·P·R / (P + R), with
    P = |C ∩ T| / |C| and R = |C ∩ T| / |T| (each type scored by its best-matching
    cluster; outliers are singleton clusters). Micro-F averages F(T) weighted by |T|
    (pages); macro-F averages it over types, unweighted, so small types weigh as much as
    large ones.
    """
    table, _ = _contingency(labels, truth)
    inter = table.astype(np.float64)
    precision = inter / table.sum(axis=1, keepdims=True)
    recall = inter / table.sum(axis=0, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(inter > 0, 2 * precision * recall / (precision + recall), 0.0)
    best = f.max(axis=0)
    sizes = table.sum(axis=0)
    return float((best * sizes).sum() / sizes.sum()), float(best.mean())


def stratified_folds(truth: Sequence[Hashable], n_splits: int = 4,
                     random_state: int = 0) -> np.ndarray:
    """Fold number (0 … n_splits−1) of every page: each type's pages are shuffled and dealt
    round-robin, so every fold holds ⌊|T|/k⌋ or ⌈|T|/k⌉ pages of each type T (what
    scikit-learn's StratifiedKFold does, without its warning for types smaller than k)."""
    if n_splits < 2:
        raise ValueError(f"n_splits must be >= 2; got {n_splits}")
    rng = np.random.default_rng(random_state)
    folds = np.empty(len(truth), dtype=np.int64)
    by_type: dict[Hashable, list[int]] = {}
    for i, t in enumerate(truth):
        by_type.setdefault(t, []).append(i)
    offset = 0
    for t in sorted(by_type, key=str):
        idx = np.array(by_type[t])
        rng.shuffle(idx)
        # Rotating the starting fold spreads the remainders of small types over all folds.
        folds[idx] = (np.arange(idx.size) + offset) % n_splits
        offset += idx.size
    return folds


@dataclass(frozen=True, slots=True)
class CVPrecision:
    """Result of `cv_precision`."""

    micro: float
    macro: float
    outlier_share: float      # held-out pages the classifier called outliers
    n_test: int               # held-out pages scored, over all folds


def cv_precision(
    truth: Sequence[Hashable], fit_classify: FitClassify, *, n_splits: int = 4,
    random_state: int = 0, scored: np.ndarray | None = None,
) -> CVPrecision:
    """Micro/macro Precision of k-fold stratified cross-validated classification (§5.2).

    For each fold: `fit_classify` clusters the other k−1 folds and classifies the held-out
    pages into those clusters (SOUrCe: kNN, k = minPts − 1, §4.2). Each training cluster
    C_i is mapped to its majority true type in the training folds,
    j = argmax_j |C_i^train ∩ T_j^train|, and a held-out page is correct when the type of
    its predicted cluster is its own type. Over all folds' held-out pages:

    * micro-Precision = correct pages / held-out pages (the paper's Σ_i |C_i^test ∩ T_j| /
      N^test);
    * macro-Precision = mean over predicted clusters (per fold) of the share of their
      held-out pages that are correct (the paper's (1/|C^test|) Σ_i |C_i^test ∩ T_j| /
      |C_i^test|).

    A page predicted as an outlier (-1) is wrong: an outlier has no training cluster, hence
    no type, and the crawl treats it as a page of no known type. For macro-Precision the
    outlier predictions of a fold form one group of precision 0 (not one group per page:
    that would let a handful of outliers outweigh every real cluster; the outlier share is
    returned beside the figures). Training pages that DBSCAN left as outliers map to no
    type; a training cluster with a tie between types takes the first in sorted order.

    Parameters
    ----------
    truth : sequence
        True page type of every page of D.
    fit_classify : callable
        ``fit_classify(train_idx, test_idx) -> (train_labels, test_predictions)``.
    n_splits : int, default=4
    random_state : int, default=0
        Seeds `stratified_folds`.
    scored : boolean mask, optional
        Pages that count as held-out test pages (e.g. `evaluable`); all pages still train.

    References
    ----------
    Xu, Gao & Callan (2018), §5.2, the Precision equations, and Fig. 5(b).
    """
    truth = list(truth)
    n = len(truth)
    mask = np.ones(n, dtype=bool) if scored is None else np.asarray(scored, dtype=bool)
    folds = stratified_folds(truth, n_splits, random_state)
    correct_total = tested = outliers = 0
    cluster_precisions: list[float] = []
    for k in range(n_splits):
        train = np.flatnonzero(folds != k)
        test = np.flatnonzero((folds == k) & mask)
        if test.size == 0:
            continue
        train_labels, predicted = fit_classify(train, test)
        train_labels = np.asarray(train_labels)
        predicted = np.where(np.asarray(predicted) < 0, -1, np.asarray(predicted))
        type_of: dict[int, Hashable] = {}
        for c in set(train_labels.tolist()) - {-1}:
            votes = Counter(truth[i] for i, lab in zip(train, train_labels, strict=True)
                            if lab == c)
            top = max(votes.values())
            type_of[c] = sorted((t for t, v in votes.items() if v == top), key=str)[0]
        right = np.array([c in type_of and type_of[c] == truth[i]
                          for i, c in zip(test, predicted.tolist(), strict=True)], dtype=bool)
        correct_total += int(right.sum())
        tested += test.size
        outliers += int((predicted < 0).sum())
        for c in np.unique(predicted):
            cluster_precisions.append(float(right[predicted == c].mean()))
    if tested == 0:
        raise ValueError("no held-out pages to score")
    return CVPrecision(micro=correct_total / tested, macro=float(np.mean(cluster_precisions)),
                       outlier_share=outliers / tested, n_test=tested)


def source_fit_classify(bags: Sequence[Mapping[str, int]], **params: Any) -> FitClassify:
    """A `FitClassify` running SOUrCe's own pipeline on bags of XPaths: the vectorizer
    (TF-IDF, θ filter, idf) fitted on the training folds only, `PageClusterer` on them, and
    `PageClassifier` (k = minPts − 1, neighbours within eps) for the held-out pages, with
    `archiver.learning.model.SourceModel`'s parameters (`params` overrides them)."""
    from archiver.learning.classify import PageClassifier
    from archiver.learning.clustering import PageClusterer
    from archiver.learning.features import XPathVectorizer
    from archiver.learning.model import SourceModel

    p = {**SourceModel().params(), **params}

    def fit_classify(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        vec = XPathVectorizer(min_df=p["min_pts"], norm=p["norm"], collapse=p["collapse"])
        X = vec.fit_transform([bags[i] for i in train])
        clusterer = PageClusterer(min_pts=p["min_pts"], eps=p["eps"],
                                  eps_rule=p["eps_rule"]).fit(X)
        classifier = PageClassifier(p["min_pts"] - 1, clusterer.eps_).fit(X, clusterer.labels_)
        return clusterer.labels_, classifier.predict(vec.transform([bags[i] for i in test]))

    return fit_classify
