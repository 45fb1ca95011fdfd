"""DBSCAN page clusters with the automatic eps (SOUrCe §4.2) and kNN classification of new
pages, on generated forums: no per-test eps tuning anywhere."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from archiver.evaluation.clusterscore import purity
from archiver.learning import clustering
from archiver.learning.classify import PageClassifier
from archiver.learning.clustering import (
    WIDEN,
    PageClusterer,
    auto_eps,
    k_distances,
    knee_eps,
    merge_heights,
    page_silhouettes,
    select_eps,
    type_merges,
    widen_eps,
)
from archiver.learning.features import XPathVectorizer, leaf_xpaths
from archiver.learning.sampling import SiteSampler
from tests.test_learning_sites import HOST, Forum, Sample, sample_site


@pytest.fixture(scope="module")
def forum_sample() -> tuple[Forum, Sample]:
    site = Forum(seed=7, n_topics=150, n_users=50)
    return site, sample_site(site, SiteSampler(500, saturation=0.0, random_state=0))


@pytest.mark.parametrize("norm", ["l2", "l1"])
def test_clusters_recover_page_types_without_tuning(forum_sample, norm) -> None:
    site, s = forum_sample
    truth = [site.page_type(u) for u in s.urls]
    X = XPathVectorizer(norm=norm).fit_transform(s.bags)
    clusterer = PageClusterer().fit(X)
    assert purity(clusterer.labels_, truth) >= 0.9
    assert (clusterer.labels_ < 0).mean() <= 0.06          # few outliers
    # every page type with at least minPts pages got a cluster of its own majority
    majority = {Counter(t for t, lab in zip(truth, clusterer.labels_, strict=True)
                        if lab == c).most_common(1)[0][0]
                for c in range(clusterer.n_clusters_)}
    common = {t for t, n in Counter(truth).items() if n >= 8}
    assert common <= majority
    assert clusterer.core_sample_indices_.size > 0
    # the default "silhouette" rule: the K-dist knee, widened by `select_eps`
    knee = knee_eps(clusterer.kdist_)
    dist = np.linalg.norm(X.toarray()[:, None, :] - X.toarray()[None, :, :], axis=2)
    assert np.isclose(clusterer.eps_,
                      select_eps(dist, *merge_heights(X, clusterer.kdist_), knee))
    assert knee <= clusterer.eps_


def test_literal_paper_rule_stops_at_the_median_on_a_fine_histogram() -> None:
    # A bulk of K-dists spread evenly over [0.1, 0.5] and a thin tail: with ~5 bins per
    # page no bin holds minPts pages, so the literal rule stops where the 50% guard lets it.
    rng = np.random.default_rng(0)
    kdist = np.concatenate([rng.uniform(0.1, 0.5, 950), rng.uniform(0.8, 1.2, 50)])
    paper = auto_eps(kdist, n_features=1000, rule="paper")
    assert abs((kdist <= paper).mean() - 0.5) < 0.02
    tail = auto_eps(kdist, n_features=1000, rule="tail")
    assert 0.5 <= tail <= 0.8                                # the gap before the tail
    assert (kdist > tail).mean() == pytest.approx(0.05, abs=0.01)


def test_tail_rule_ignores_a_majority_of_identical_pages() -> None:
    # 600 identical login pages (K-dist 0), then a bulk and a tail: the duplicates must not
    # satisfy the 50% guard by themselves and stop the scan in the gap after them.
    rng = np.random.default_rng(1)
    kdist = np.concatenate([np.zeros(600), rng.uniform(0.1, 0.3, 380), rng.uniform(0.9, 1, 20)])
    eps = auto_eps(kdist, n_features=50, rule="tail")
    assert 0.25 <= eps <= 0.9
    assert (kdist > eps).mean() <= 0.05
    assert auto_eps(kdist, n_features=50, rule="paper") < 0.1   # the literal rule does stop


def test_auto_eps_edge_cases() -> None:
    assert auto_eps(np.zeros(10), 5) == pytest.approx(1e-9)
    assert auto_eps(np.array([]), 5) == pytest.approx(1e-9)
    with pytest.raises(ValueError, match="rule"):
        auto_eps(np.ones(5), 5, rule="median")


def test_k_distances_are_distances_to_the_third_other_page() -> None:
    X = np.array([[0.0], [1.0], [2.0], [4.0], [8.0]])
    assert k_distances(X, min_pts=4).tolist() == [4.0, 3.0, 2.0, 4.0, 7.0]


def test_fixed_eps_and_validation() -> None:
    X = np.array([[0.0], [0.1], [0.2], [0.3], [5.0]])
    labels = PageClusterer(eps=0.25).fit_predict(X)
    assert labels.tolist() == [0, 0, 0, 0, -1]
    with pytest.raises(ValueError, match="eps"):
        PageClusterer(eps=-1.0).fit(X)


def test_knn_classifies_held_out_pages(forum_sample) -> None:
    site, s = forum_sample
    vec = XPathVectorizer(norm="l2").fit(s.bags)
    X = vec.transform(s.bags)
    clusterer = PageClusterer().fit(X)
    clf = PageClassifier(n_neighbors=3, max_distance=clusterer.eps_).fit(X, clusterer.labels_)
    truth = [site.page_type(u) for u in s.urls]
    # the majority page type of each cluster, to score held-out pages against
    kind = {c: Counter(t for t, lab in zip(truth, clusterer.labels_, strict=True)
                       if lab == c).most_common(1)[0][0]
            for c in range(clusterer.n_clusters_)}
    held_out = [f"{HOST}/topic/{t}" for t in range(150) if f"{HOST}/topic/{t}" not in s.pages]
    held_out += [f"{HOST}/user/{u}" for u in range(50) if f"{HOST}/user/{u}" not in s.pages]
    held_out += [f"{HOST}/board/{b}?page=2" for b in range(5)]
    assert len(held_out) >= 30
    pages = [site.fetch(u) for u in held_out]
    bags = [leaf_xpaths(p.tree) for p in pages if p is not None and p.tree is not None]
    predicted = clf.predict(vec.transform(bags))
    placed = [(int(p), u) for p, u in zip(predicted, held_out, strict=True) if p >= 0]
    right = sum(kind[p] == site.page_type(u) for p, u in placed)
    # §5.2's precision: placed pages land in a cluster of their type; few become outliers
    # (those whose nearest training pages were outliers themselves).
    assert right / len(placed) >= 0.95
    assert len(placed) / len(held_out) >= 0.85


def test_classifier_votes_and_outliers() -> None:
    X = np.array([[0.0, 0.0], [0.1, 0.0], [0.0, 0.1], [5.0, 5.0], [5.1, 5.0], [5.0, 5.1]])
    labels = np.array([0, 0, 0, 1, 1, -1])
    clf = PageClassifier(n_neighbors=3, max_distance=1.0).fit(X, labels)
    out, dist = clf.predict_with_distance(np.array([[0.05, 0.05], [5.05, 5.05], [20.0, 0.0]]))
    assert out.tolist() == [0, 1, -1]             # far from every training page: outlier
    assert dist[2] > 1.0
    # without a distance cut, the nearest pages vote whatever their distance
    assert PageClassifier(3).fit(X, labels).predict(np.array([[-20.0, 0.0]])).tolist() == [0]
    with pytest.raises(RuntimeError, match="not fitted"):
        PageClassifier().predict(X)


def test_classifier_dense_and_sparse_searches_agree(monkeypatch) -> None:
    """Small training sets are searched densely, large ones sparsely: same neighbours."""
    import scipy.sparse as sp

    from archiver.learning import classify

    rng = np.random.default_rng(3)
    X = sp.random(60, 40, density=0.2, random_state=4, format="csr")
    labels = rng.integers(-1, 3, size=60)
    queries = sp.random(9, 40, density=0.2, random_state=5, format="csr")
    dense = PageClassifier(3, max_distance=0.9).fit(X, labels)
    monkeypatch.setattr(classify, "_DENSE_CELLS", 0)
    sparse = PageClassifier(3, max_distance=0.9).fit(X, labels)
    assert isinstance(sparse._train_t, sp.spmatrix) and isinstance(dense._train_t, np.ndarray)
    d1, i1 = dense.kneighbors(queries)
    d2, i2 = sparse.kneighbors(queries)
    assert np.allclose(d1, d2) and (i1 == i2).all()
    assert (dense.predict(queries) == sparse.predict(queries)).all()
    # rows given dense (`XPathVectorizer.transform_one`, the harvest's page-by-page path)
    rows = queries.toarray()
    for model in (dense, sparse):
        d3, i3 = model.kneighbors(rows)
        assert np.allclose(d1, d3) and (i1 == i3).all()
        assert (model.predict(rows) == dense.predict(queries)).all()
    # brute force: the true nearest training page of every query
    full = np.linalg.norm(queries.toarray()[:, None, :] - X.toarray()[None, :, :], axis=2)
    assert np.allclose(d1[:, 0], full.min(axis=1))


def test_merge_heights_are_the_mutual_reachability_mst() -> None:
    X = np.array([[0.0], [1.0], [3.0], [3.5]])
    heights, smaller = merge_heights(X, np.zeros(4))
    # merges: {2,3} at 0.5 (1 + 1), {0,1} at 1 (1 + 1), then the pairs at 2 (2 + 2)
    assert heights.tolist() == [0.5, 1.0, 2.0] and smaller.tolist() == [1, 1, 2]
    # a core distance lifts every edge of its page: max(K-dist a, K-dist b, |a - b|)
    heights, smaller = merge_heights(X, np.array([0.0, 0.0, 0.0, 5.0]))
    assert heights.tolist() == [1.0, 2.0, 5.0] and smaller.tolist() == [1, 1, 1]


def test_widen_eps_moves_to_the_widest_break_within_the_bounds() -> None:
    heights = np.array([0.1, 0.2, 0.22, 0.3, 0.9])
    small = np.ones(5, dtype=int)
    # steps 0.2 → 0.22 → 0.3 → (0.9, first above 1.5·0.2): widest ratio starts at 0.3
    assert widen_eps(heights, small, 0.2) == pytest.approx(0.3)
    # bound 1.2·0.2 = 0.24: steps 0.2 → 0.22 → 0.3 (first above); widest starts at 0.22
    assert widen_eps(heights, small, 0.2, factor=1.2) == pytest.approx(0.22)
    assert widen_eps(heights, small, 0.2, factor=1.0) == 0.2
    # the merge at 0.3 joins two groups of 2 of the 6 pages (> 20% each): the range ends
    # below it, so 0.3 can no longer be chosen; steps 0.2 → 0.22 → 0.3: starts at 0.22
    big = np.array([1, 1, 1, 2, 1])
    assert widen_eps(heights, big, 0.2) == pytest.approx(0.22)
    assert widen_eps(heights, big, 0.2, big_share=0.5) == pytest.approx(0.3)


def test_gap_rule_joins_two_dense_groups_of_one_type_but_not_two_types() -> None:
    # One type: a run of 20 pages 0.05 apart and a run of 8 just past it (a gap of 0.11);
    # another type of 40 pages 1.0 away. The K-dist rule sees only the runs' own spacing
    # and cuts the first type in pieces; the gap rule widens eps to the break before the
    # other type and stops there.
    rng = np.random.default_rng(3)
    a1 = np.c_[np.arange(0, 1, 0.05) + rng.normal(0, 0.005, 20), np.zeros(20)]
    a2 = a1[:8] + np.array([0.95 + 0.11, 0.0])
    b = np.c_[np.arange(0, 2, 0.05) + rng.normal(0, 0.005, 40), np.ones(40)]
    X = np.vstack([a1, a2, b])
    tail = PageClusterer(eps_rule="tail").fit(X)
    gap = PageClusterer(eps_rule="gap").fit(X)
    assert tail.n_clusters_ > 2                       # the type is split
    assert tail.eps_ < gap.eps_ <= WIDEN * tail.eps_
    assert gap.n_clusters_ == 2 and (gap.labels_ >= 0).all()
    assert len(set(gap.labels_[:28])) == 1 and len(set(gap.labels_[28:])) == 1
    assert gap.labels_[0] != gap.labels_[28]


def test_silhouette_rule_joins_two_dense_groups_of_one_type_but_not_two_types() -> None:
    # One type in two dense groups 0.3 apart (pages with and without an optional region),
    # another type 1.0 away. The knee cuts the first type in two; joining the groups raises
    # the silhouettes (they are nearer each other than the other type), so the rule does.
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(0, 0.04, (20, 2)), rng.normal(0, 0.04, (8, 2)) + np.array([0.3, 0]),
                   rng.normal(0, 0.04, (40, 2)) + np.array([0, 1.0])])
    knee = PageClusterer(eps_rule="knee").fit(X)
    assert knee.n_clusters_ == 3
    chosen = PageClusterer().fit(X)
    assert chosen.n_clusters_ == 2 and chosen.eps_ > knee.eps_
    assert len(set(chosen.labels_[:28])) == 1 and len(set(chosen.labels_[28:])) == 1
    assert chosen.labels_[0] != chosen.labels_[28]


def test_knee_of_a_gradual_tail_stays_at_the_end_of_the_bulk() -> None:
    # A real MediaWiki's K-dists: a dense bulk, then a long, gradual tail of scattered
    # pages (special pages of many kinds) with no sparse histogram bin in it. The "tail"
    # rule runs to the end of the tail; the knee stays where the bulk ends.
    rng = np.random.default_rng(5)
    kdist = np.concatenate([rng.uniform(0.05, 0.3, 800), np.linspace(0.3, 0.9, 200)])
    assert auto_eps(kdist, n_features=100, rule="tail") > 0.8
    knee = knee_eps(kdist)
    assert 0.25 <= knee <= 0.4
    # exact duplicates (K-dist 0) do not move it
    assert knee_eps(np.concatenate([np.zeros(700), kdist])) == knee


def test_knee_eps_edge_cases() -> None:
    assert knee_eps(np.array([])) == pytest.approx(1e-9)
    assert knee_eps(np.zeros(10)) == pytest.approx(1e-9)
    assert knee_eps(np.array([0.0, 0.0, 0.5, 0.7])) == 0.7      # too few to have a knee
    assert knee_eps(np.full(8, 0.3)) == 0.3                     # no spread


def test_page_silhouettes_give_outliers_zero() -> None:
    X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1], [5.2], [20.0]])
    dist = np.abs(X - X.T)
    s = page_silhouettes(dist, np.array([0, 0, 0, 1, 1, 1, -1]))
    assert s[6] == 0.0 and (s[:6] > 0.9).all()
    assert (page_silhouettes(dist, np.array([0, 0, 0, 0, 0, 0, -1])) == 0).all()


def _runs(*groups: tuple[float, int, float]) -> np.ndarray:
    """Points on a line: (start, count, step) runs."""
    return np.concatenate([start + step * np.arange(n) for start, n, step in groups])[:, None]


def test_select_eps_keeps_the_smallest_cut_within_one_standard_error(monkeypatch) -> None:
    # Three runs: the knee splits the first two (k = 3), the merge tree's next cut joins
    # them (k = 2). Which cut wins depends only on the silhouettes; they are faked here to
    # pin the rule: the best mean wins unless a smaller eps is within one standard error.
    X = _runs((0.0, 10, 0.05), (0.8, 10, 0.05), (5.0, 10, 0.05))
    dist = np.abs(X - X.T)
    heights, smaller = merge_heights(X, k_distances(X))
    spread = np.tile([-0.2, 0.2], 15)

    def fake(means: dict[int, float]) -> None:
        def silhouettes(d: np.ndarray, labels: np.ndarray) -> np.ndarray:
            return means[int(labels.max()) + 1] + spread
        monkeypatch.setattr(clustering, "page_silhouettes", silhouettes)

    knee = 0.15
    fake({3: 0.56, 2: 0.57, 1: 0.0})      # standard error 0.037: 0.56 is as good
    assert select_eps(dist, heights, smaller, knee, big_share=1.0) == knee
    fake({3: 0.50, 2: 0.57, 1: 0.0})      # clearly better joined
    joined = select_eps(dist, heights, smaller, knee, big_share=1.0)
    assert joined == pytest.approx(0.35)   # the merge of the first two runs: 0.45 → 0.8


def test_select_eps_stops_below_a_merge_of_two_big_groups() -> None:
    # A blog: posts (45 pages) and listings (45) 0.47 apart, each spread out, a login wall
    # far away. The silhouettes alone join posts and listings (each is nearer the other than
    # the login wall); the range ends below a merge of two groups of 20% of the pages.
    rng = np.random.default_rng(9)
    spread = [0.03, 0.15]
    posts, listings = rng.normal(0, spread, (45, 2)), rng.normal(0, spread, (45, 2))
    X = np.vstack([posts, listings + np.array([0.47, 0]),
                   rng.normal(0, 0.02, (10, 2)) + np.array([0.0, 1.4])])
    dist = np.linalg.norm(X[:, None] - X[None, :], axis=2)
    kd = k_distances(X)
    heights, smaller = merge_heights(X, kd)
    knee = knee_eps(kd)

    def clusters(eps: float) -> tuple[int, int]:
        labels = PageClusterer(eps=eps).fit_predict(X)
        return len(set(labels[:90]) - {-1}), int(labels.max()) + 1

    assert clusters(select_eps(dist, heights, smaller, knee, big_share=1.0)) == (1, 2)
    assert clusters(select_eps(dist, heights, smaller, knee)) == (2, 3)
    assert PageClusterer().fit(X).n_clusters_ == 3


def test_type_merges_are_merges_of_two_groups_the_urls_tell_apart() -> None:
    # pages 0-5 topics, 6-10 a member's post lists, 11-15 topics of another template
    sections = ["forum"] * 6 + ["member"] * 5 + ["forum"] * 5
    chain = [(i, i + 1) for i in (*range(5), *range(6, 10), *range(11, 15))]
    a, b = (np.array(x) for x in zip(*chain, (0, 11), (0, 6), strict=True))
    apart = type_merges(a, b, sections, min_size=4)
    assert apart.tolist() == [False] * 13 + [False, True]   # one section joins; two do not
    assert not type_merges(a, b, sections, min_size=6).any()   # the post lists: 5 pages
    # a group not nearly all in one section is no page type by its URLs: a WordPress's
    # archives, one template under category/, author/ and tag/
    mixed = ["category", "author", "tag", "category", "author", "tag", *sections[6:]]
    assert not type_merges(a, b, mixed, min_size=4)[-1]
    one_off = ["forum"] * 4 + ["account"] * 2 + sections[6:]   # 9 of 11: under 0.9
    assert not type_merges(a, b, one_off, min_size=4)[-1]
    assert type_merges(a, b, one_off, min_size=4, purity=0.8)[-1]


def test_select_eps_stops_below_a_merge_of_two_sections() -> None:
    # A real django-machina: topics (60 pages) and members' post lists (15) 0.47 apart,
    # profiles far away. The silhouettes join topics and post lists, and the post lists
    # are under 20% of the pages; their URLs tell them apart (`type_merges`), and with
    # `type_share` the range ends below that merge. Fragments of one section still join.
    rng = np.random.default_rng(9)
    spread = [0.03, 0.15]
    X = np.vstack([rng.normal(0, spread, (60, 2)),
                   rng.normal(0, spread, (15, 2)) + np.array([0.47, 0]),
                   rng.normal(0, 0.02, (10, 2)) + np.array([0.0, 1.4])])
    sections = ["forum"] * 60 + ["member"] * 25

    def clusters(model: PageClusterer) -> tuple[int, int]:
        labels = model.labels_
        return len(set(labels[:75]) - {-1}), model.n_clusters_

    assert clusters(PageClusterer().fit(X, sections)) == (1, 2)          # off by default
    assert clusters(PageClusterer(type_share=0.1).fit(X, sections)) == (2, 3)
    assert clusters(PageClusterer(type_share=0.1).fit(X)) == (1, 2)     # no URLs given
    one = ["forum"] * 75 + sections[75:]
    assert clusters(PageClusterer(type_share=0.1).fit(X, one)) == (1, 2)
    assert clusters(PageClusterer(type_share=0.2).fit(X, sections)) == (1, 2)  # 15 < 17
    with pytest.raises(ValueError, match="85 pages but 3 sections"):
        PageClusterer(type_share=0.1).fit(X, sections[:3])
