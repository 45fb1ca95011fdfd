"""Clustering scores (SOUrCe §5.2) on hand-made labelings whose answers are worked out by hand
in the comments."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from archiver.evaluation.clusterscore import (
    cv_precision,
    evaluable,
    f_measure,
    outlier_share,
    purity,
    source_fit_classify,
    stratified_folds,
)

# Clusters: 0 = {a, a}, 1 = {a, b, b}, and the outlier {c} as a singleton.
TRUTH = ["a", "a", "a", "b", "b", "c"]
LABELS = np.array([0, 0, 1, 1, 1, -1])


def test_purity_counts_each_outlier_as_a_singleton() -> None:
    # majorities: 2 (cluster 0) + 2 (cluster 1) + 1 (the outlier) = 5 of 6
    assert purity(LABELS, TRUTH) == pytest.approx(5 / 6)
    assert outlier_share(LABELS) == pytest.approx(1 / 6)


def test_f_measure_best_cluster_per_type() -> None:
    # a: cluster 0 has P=1, R=2/3 -> F=0.8 (cluster 1: P=R=1/3 -> 1/3)
    # b: cluster 1 has P=2/3, R=1 -> F=0.8;  c: its singleton, P=R=1 -> F=1
    micro, macro = f_measure(LABELS, TRUTH)
    assert micro == pytest.approx((3 * 0.8 + 2 * 0.8 + 1 * 1.0) / 6)
    assert macro == pytest.approx((0.8 + 0.8 + 1.0) / 3)


def test_perfect_and_merged_clusterings() -> None:
    truth = ["a", "a", "b", "b"]
    assert purity(np.array([5, 5, 7, 7]), truth) == 1.0
    assert f_measure(np.array([5, 5, 7, 7]), truth) == (1.0, 1.0)
    # everything merged: purity 1/2; each type P=1/2, R=1 -> F=2/3
    merged = np.zeros(4, dtype=int)
    assert purity(merged, truth) == 0.5
    assert f_measure(merged, truth) == pytest.approx((2 / 3, 2 / 3))


def test_outliers_do_not_buy_a_good_f_measure() -> None:
    # four pages of one type, all outliers: purity 1, but the best singleton has
    # P=1, R=1/4 -> F = 2·0.25/1.25 = 0.4, and the outlier share shows it
    labels = np.full(4, -1)
    assert purity(labels, ["a"] * 4) == 1.0
    assert f_measure(labels, ["a"] * 4) == pytest.approx((0.4, 0.4))
    assert outlier_share(labels) == 1.0


def test_length_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="2 labels but 3"):
        purity(np.array([0, 0]), ["a", "b", "c"])


def test_evaluable_drops_annotation_outliers() -> None:
    truth = ["a"] * 4 + ["b"] * 3 + ["c"]
    assert evaluable(truth, 4).tolist() == [True] * 4 + [False] * 4


def test_stratified_folds_balance_every_type() -> None:
    truth = ["a"] * 9 + ["b"] * 4 + ["c"] * 2
    folds = stratified_folds(truth, 4, random_state=1)
    for t, n in Counter(truth).items():
        per_fold = Counter(f for f, u in zip(folds, truth, strict=True) if u == t)
        assert sum(per_fold.values()) == n
        assert max(per_fold.values()) - min(per_fold.get(k, 0) for k in range(4)) <= 1
    # the two 'c' pages are not both in the same fold
    assert len({f for f, u in zip(folds, truth, strict=True) if u == "c"}) == 2


# --- cross-validated precision ----------------------------------------------------------
# 12 pages, 8 of type a and 4 of type b: every one of the 4 folds holds 2 a's and 1 b.
CV_TRUTH = ["a"] * 8 + ["b"] * 4


def _by_type(train_map: dict[str, int], predict: dict[str, list[int]]):
    """A fit_classify whose training clusters follow `train_map` and whose predictions for
    a fold's held-out pages of type t are `predict[t]`, in order."""
    def fit_classify(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen: Counter[str] = Counter()
        out = []
        for i in test:
            t = CV_TRUTH[i]
            out.append(predict[t][seen[t]])
            seen[t] += 1
        return np.array([train_map[CV_TRUTH[i]] for i in train]), np.array(out)
    return fit_classify


def test_cv_precision_perfect() -> None:
    r = cv_precision(CV_TRUTH, _by_type({"a": 0, "b": 1}, {"a": [0, 0], "b": [1]}))
    assert (r.micro, r.macro, r.outlier_share, r.n_test) == (1.0, 1.0, 0.0, 12)


def test_cv_precision_micro_and_macro_differ() -> None:
    # per fold: cluster 0 gets one a (precision 1); cluster 1 gets one a and the b (1/2)
    # micro = 2 correct of 3 = 2/3; macro = mean(1, 1/2) = 3/4
    r = cv_precision(CV_TRUTH, _by_type({"a": 0, "b": 1}, {"a": [0, 1], "b": [1]}))
    assert r.micro == pytest.approx(2 / 3)
    assert r.macro == pytest.approx(3 / 4)


def test_cv_precision_maps_clusters_with_the_training_folds() -> None:
    # Held-out pages land in the *other* type's cluster: a mapping taken from the test
    # pages themselves would call that perfect; the training-fold mapping scores 0.
    r = cv_precision(CV_TRUTH, _by_type({"a": 0, "b": 1}, {"a": [1, 1], "b": [0]}))
    assert r.micro == 0.0
    assert r.macro == 0.0


def test_cv_precision_outlier_predictions_are_wrong() -> None:
    # b's predicted as outliers: micro = 2/3; macro per fold = mean(cluster 0: 1, outliers: 0)
    r = cv_precision(CV_TRUTH, _by_type({"a": 0, "b": 1}, {"a": [0, 0], "b": [-1]}))
    assert r.micro == pytest.approx(2 / 3)
    assert r.macro == pytest.approx(0.5)
    assert r.outlier_share == pytest.approx(1 / 3)


def test_cv_precision_scored_mask_limits_the_test_pages() -> None:
    scored = np.array([True] * 8 + [False] * 4)     # only the a's are held-out pages
    r = cv_precision(CV_TRUTH, _by_type({"a": 0, "b": 1}, {"a": [0, 0], "b": [-1]}),
                     scored=scored)
    assert (r.micro, r.n_test, r.outlier_share) == (1.0, 8, 0.0)


def test_source_pipeline_separates_two_templates() -> None:
    # Two page templates with no XPath in common, 20 pages each, varying list lengths.
    rng = np.random.default_rng(0)
    bags: list[dict[str, int]] = []
    truth: list[str] = []
    for t, paths in (("list", ["/html/body/ul/li/a", "/html/body/h1", "/html/body/nav/a"]),
                     ("post", ["/html/body/article/p", "/html/body/article/h2",
                               "/html/body/footer/span"])):
        for _ in range(20):
            bags.append({p: int(rng.integers(1, 3)) for p in paths})
            truth.append(t)
    # A fixed eps: this checks the wiring (vectorizer, DBSCAN, kNN, cluster→type mapping),
    # not the eps rule. Under L2 the templates are √2 apart, pages within one are < 0.5.
    r = cv_precision(truth, source_fit_classify(bags, eps=0.5))
    assert (r.micro, r.macro, r.outlier_share) == (1.0, 1.0, 0.0)
    # One eps for everything merges the two templates: half the held-out pages are wrong.
    merged = cv_precision(truth, source_fit_classify(bags, eps=2.0))
    assert merged.micro == pytest.approx(0.5)
