"""SourceModel: learning end to end, and the bundle stored as data (JSON + npz + jsonl)."""

from __future__ import annotations

import json
import pickle
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from archiver.errors import ModelFormatError
from archiver.learning.features import canonical_apath, leaf_xpaths, text_chars
from archiver.learning.model import FORMAT_VERSION, SourceModel
from archiver.learning.sampling import SiteSampler
from tests.test_learning_sites import HOST, Forum, sample_site


@pytest.fixture(scope="module")
def learned() -> tuple[Forum, SourceModel]:
    site = Forum(seed=21, n_topics=80, n_users=30)
    s = sample_site(site, SiteSampler(250, saturation=0.0, random_state=0))
    texts = [text_chars(s.pages[u].tree) for u in s.urls]
    model = SourceModel().fit(s.urls, s.bags, s.sampler.groups_, s.sampler.aliases_,
                              info={"stop_reason": s.sampler.stop_reason()}, texts=texts)
    return site, model


def test_round_trip_keeps_predictions_scores_and_assignments(learned, tmp_path) -> None:
    site, model = learned
    folder = model.save(tmp_path / "model")
    assert sorted(p.name for p in folder.iterdir()) == ["arrays.npz", "manifest.json",
                                                         "pages.jsonl"]
    pages = [json.loads(line) for line in (folder / "pages.jsonl").read_text().splitlines()]
    assert [p["url"] for p in pages] == model.urls_
    assert [p["cluster"] for p in pages] == model.labels_.tolist()
    assert -1 in model.labels_.tolist() or model.labels_.min() >= 0
    loaded = SourceModel.load(folder)
    assert loaded.eps_ == model.eps_ and loaded.n_clusters_ == model.n_clusters_
    assert loaded.info == model.info and "stop_reason" in loaded.info
    probe = [site.fetch(HOST + p) for p in ("/", "/topic/1", "/topic/70?page=2", "/user/3",
                                            "/login?from=/x", "/topic/9/print")]
    trees = [p.tree for p in probe if p is not None]
    assert [loaded.classify(t) for t in trees] == [model.classify(t) for t in trees]
    a, b = model.scorer(), loaded.scorer()
    page = probe[1]
    assert page is not None
    links = [k for k in page.links if k.kind == "link"]
    apaths = [canonical_apath(k.anchor_path) for k in links]
    urls = [k.url for k in links]
    c = model.classify(page.tree)
    assert np.array_equal(a.score(c, apaths)[0], b.score(c, apaths)[0])
    assert np.array_equal(a.score(c, apaths, urls)[0], b.score(c, apaths, urls)[0])
    assert loaded.navigation_.sub_keys_ == model.navigation_.sub_keys_
    assert loaded.navigation_.patterns_.to_json() == model.navigation_.patterns_.to_json()
    assert all(loaded.navigation_.url_key(u) == model.navigation_.url_key(u) for u in urls)
    np.testing.assert_array_equal(a.hub_, b.hub_)


def test_save_is_atomic_and_replaces_an_old_model(learned, tmp_path) -> None:
    _, model = learned
    folder = tmp_path / "m"
    model.save(folder)
    (folder / "stale.txt").write_text("old")
    model.save(folder)
    assert not (folder / "stale.txt").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["m"]       # no temp dirs left


def _bundle(model: SourceModel, tmp_path: Path) -> Path:
    return model.save(tmp_path / "bundle")


def _edit_manifest(folder: Path, **changes) -> None:
    m = json.loads((folder / "manifest.json").read_text())
    m.update(changes)
    (folder / "manifest.json").write_text(json.dumps(m))


def _rewrite_arrays(folder: Path, **changes) -> None:
    with np.load(folder / "arrays.npz") as npz:
        arrays = {k: npz[k] for k in npz.files}
    arrays.update(changes)
    np.savez(folder / "arrays.npz", **arrays)


def test_refuses_pickled_arrays(learned, tmp_path) -> None:
    folder = _bundle(learned[1], tmp_path)
    _rewrite_arrays(folder, labels=np.array([{"evil": 1}], dtype=object))
    with pytest.raises(ModelFormatError, match="arrays"):
        SourceModel.load(folder)


def test_refuses_a_pickle_in_place_of_the_manifest(learned, tmp_path) -> None:
    folder = _bundle(learned[1], tmp_path)
    (folder / "manifest.json").write_bytes(pickle.dumps({"format": "archiver.source-model"}))
    with pytest.raises(ModelFormatError, match="not a JSON manifest"):
        SourceModel.load(folder)


@pytest.mark.parametrize(("changes", "message"), [
    ({"format_version": FORMAT_VERSION + 1}, "newer than supported"),
    ({"format": "archiver.kb"}, "is not 'archiver.source-model'"),
    ({"format_version": "1"}, "invalid format_version"),
    ({"vocabulary": ["/html/body/p"]}, "idf has shape"),
    ({"n_clusters": 1}, "labels outside|navigation arrays|dsim"),
    ({"eps": -0.5}, "eps must be > 0"),
    ({"params": {"min_pts": 4}}, "missing or invalid field"),
])
def test_refuses_malformed_or_newer_manifests(learned, tmp_path, changes, message) -> None:
    folder = _bundle(learned[1], tmp_path)
    _edit_manifest(folder, **changes)
    with pytest.raises(ModelFormatError, match=message) as err:
        SourceModel.load(folder)
    assert str(folder) in str(err.value)


def test_refuses_inconsistent_arrays_and_pages(learned, tmp_path) -> None:
    folder = _bundle(learned[1], tmp_path)
    _rewrite_arrays(folder, labels=np.full(len(learned[1].urls_), 99))
    with pytest.raises(ModelFormatError, match="labels outside"):
        SourceModel.load(folder)
    folder = learned[1].save(tmp_path / "b2")
    lines = (folder / "pages.jsonl").read_text().splitlines()
    (folder / "pages.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(ModelFormatError, match="pages"):
        SourceModel.load(folder)
    folder = learned[1].save(tmp_path / "b3")
    (folder / "arrays.npz").write_bytes(b"not a zip")
    with pytest.raises(ModelFormatError, match="arrays"):
        SourceModel.load(folder)
    with pytest.raises(ModelFormatError, match="no model manifest"):
        SourceModel.load(tmp_path / "nowhere")


def test_unfitted_model_says_how_to_fix_it() -> None:
    with pytest.raises(RuntimeError, match="not fitted; call fit"):
        SourceModel().scorer()


def test_classify_accepts_a_tree_or_a_bag(learned) -> None:
    site, model = learned
    page = site.fetch(HOST + "/topic/2")
    assert page is not None and page.tree is not None
    assert model.classify(page.tree) == model.classify(leaf_xpaths(page.tree))


def test_a_tiny_sample_learns_a_model_of_outliers_only() -> None:
    bags = [{"/html/body/p": 1}, {"/html/body/div": 2}]
    model = SourceModel().fit(["http://s/a", "http://s/b"], bags, {"http://s/a": {}})
    assert model.n_clusters_ == 0 and model.labels_.tolist() == [-1, -1]
    assert model.classify({"/html/body/p": 1}) == -1
    scores, levels = model.scorer().score(-1, ["/html/body/a"])
    assert scores.tolist() == [0.0] and levels == ["none"]


def test_bundles_without_collapse_load_as_trained(learned, tmp_path) -> None:
    """Bundles saved before `collapse` existed were trained on raw XPaths."""
    _, model = learned
    assert model.collapse and model.vectorizer_.collapse
    folder = _bundle(model, tmp_path)
    assert SourceModel.load(folder).vectorizer_.collapse
    m = json.loads((folder / "manifest.json").read_text())
    del m["params"]["collapse"]
    (folder / "manifest.json").write_text(json.dumps(m))
    assert not SourceModel.load(folder).vectorizer_.collapse


def test_bundles_keep_their_type_share_and_old_ones_load_without_it(learned, tmp_path,
                                                                     ) -> None:
    """A bundle saved before `type_share` existed was clustered without the URL guard."""
    _, model = learned
    assert model.type_share == 0.1 and model.params()["type_share"] == 0.1
    folder = _bundle(model, tmp_path)
    assert SourceModel.load(folder).type_share == 0.1
    m = json.loads((folder / "manifest.json").read_text())
    del m["params"]["type_share"]
    (folder / "manifest.json").write_text(json.dumps(m))
    assert SourceModel.load(folder).type_share == 0.0


def _cluster_of(model: SourceModel, url: str) -> int:
    return int(model.labels_[model.urls_.index(url)])


def test_content_shares_are_learned_saved_and_loaded(learned, tmp_path) -> None:
    _, model = learned
    # the cluster most of the sampled pages of each type are in
    board, topic = (Counter(_cluster_of(model, u) for u in model.urls_
                            if u.startswith(HOST + p)).most_common(1)[0][0]
                    for p in ("/board/", "/topic/"))
    assert board >= 0 and topic >= 0 and board != topic
    # A board is a list of topic links; a topic is posts.
    assert model.content_[board] < 0.3 < 0.8 < model.content_[topic]
    assert np.all((model.content_ > 0) & (model.content_ <= 1))
    folder = _bundle(model, tmp_path)
    m = json.loads((folder / "manifest.json").read_text())
    assert [c["content"] for c in m["clusters"]] == pytest.approx(model.content_.tolist())
    loaded = SourceModel.load(folder)
    np.testing.assert_array_equal(loaded.content_, model.content_)
    a, b = model.scorer(content=True), loaded.scorer(content=True)
    np.testing.assert_array_equal(a.cluster_scores(), b.cluster_scores())
    assert not np.array_equal(a.cluster_scores(), model.scorer().cluster_scores())


def test_bundles_without_content_load_with_factor_one(learned, tmp_path) -> None:
    """Bundles saved before the content share existed score as eq. 11 did."""
    _, model = learned
    folder = _bundle(model, tmp_path)
    with np.load(folder / "arrays.npz") as npz:
        arrays = {k: npz[k] for k in npz.files if k != "content"}
    np.savez(folder / "arrays.npz", **arrays)
    m = json.loads((folder / "manifest.json").read_text())
    for c in m["clusters"]:
        del c["content"]
    (folder / "manifest.json").write_text(json.dumps(m))
    old = SourceModel.load(folder)
    assert old.content_.tolist() == [1.0] * model.n_clusters_
    np.testing.assert_array_equal(old.scorer(content=True).cluster_scores(),
                                  model.scorer().cluster_scores())
    assert SourceModel.load(old.save(tmp_path / "resaved")).content_.tolist() == \
        [1.0] * model.n_clusters_


def test_refuses_content_shares_of_the_wrong_shape_or_range(learned, tmp_path) -> None:
    _, model = learned
    folder = _bundle(model, tmp_path)
    _rewrite_arrays(folder, content=np.ones(model.n_clusters_ + 1))
    with pytest.raises(ModelFormatError, match="content"):
        SourceModel.load(folder)
    _rewrite_arrays(folder, content=np.full(model.n_clusters_, 1.5))
    with pytest.raises(ModelFormatError, match="content"):
        SourceModel.load(folder)


def test_a_model_fitted_without_texts_has_no_content_factor(learned) -> None:
    _, model = learned
    bare = SourceModel().fit(model.urls_, [{"/html/body/p": 1}] * len(model.urls_), {})
    assert bare.content_.tolist() == [1.0] * bare.n_clusters_
    with pytest.raises(ValueError, match="text counts"):
        SourceModel().fit(model.urls_, [{"/html/body/p": 1}] * len(model.urls_), {},
                          texts=[(1, 2)])


def test_bundles_without_url_patterns_load_unsplit(learned, tmp_path) -> None:
    """Bundles saved before URL patterns existed load with no pair split (eq. 5 alone)."""
    _, model = learned
    assert model.navigation_.sub_keys_, "the generated forum should sample some destinations"
    folder = _bundle(model, tmp_path)
    with np.load(folder / "arrays.npz") as npz:
        arrays = {k: npz[k] for k in npz.files if k != "nav_sub_counts"}
    np.savez(folder / "arrays.npz", **arrays)
    m = json.loads((folder / "manifest.json").read_text())
    del m["navigation_sub_keys"], m["url_patterns"]
    (folder / "manifest.json").write_text(json.dumps(m))
    old = SourceModel.load(folder)
    assert old.navigation_.sub_keys_ == [] and old.navigation_.url_key("/topic/1") == ""


def test_refuses_url_pattern_rows_that_do_not_match(learned, tmp_path) -> None:
    _, model = learned
    folder = _bundle(model, tmp_path)
    _rewrite_arrays(folder, nav_sub_counts=np.ones((1, model.n_clusters_ + 1)))
    with pytest.raises(ModelFormatError, match="nav_sub_counts"):
        SourceModel.load(folder)
    folder = _bundle(model, tmp_path / "b")
    _edit_manifest(folder, url_patterns={"tree": "x"})
    with pytest.raises(ModelFormatError, match="url patterns"):
        SourceModel.load(folder)


def test_distinct_link_counts_are_saved_and_old_bundles_count_every_link(learned, tmp_path
                                                                          ) -> None:
    """The distinct URLs of each (cluster, Apath) pair (`LinkScorer`, ``distinct``) survive
    a save; a bundle saved before they were counted takes every link as distinct, and one
    whose counts do not match its pairs is refused with the array named."""
    _, model = learned
    nav = model.navigation_
    assert np.all(nav.distinct_sizes_ <= nav.sizes_)
    assert np.any(nav.distinct_sizes_ < nav.sizes_), "the forum's menus repeat on every page"
    folder = _bundle(model, tmp_path)
    loaded = SourceModel.load(folder)
    np.testing.assert_array_equal(loaded.navigation_.distinct_sizes_, nav.distinct_sizes_)
    np.testing.assert_array_equal(loaded.scorer(distinct=True).cluster_scores(),
                                  model.scorer(distinct=True).cluster_scores())
    with np.load(folder / "arrays.npz") as npz:
        arrays = {k: npz[k] for k in npz.files if k != "nav_distinct_sizes"}
    np.savez(folder / "arrays.npz", **arrays)
    old = SourceModel.load(folder)
    np.testing.assert_array_equal(old.navigation_.distinct_sizes_, nav.sizes_)
    np.testing.assert_array_equal(old.scorer(distinct=True).cluster_scores(),
                                  model.scorer().cluster_scores())
    _rewrite_arrays(folder, nav_distinct_sizes=np.ones(len(nav.keys_) + 1))
    with pytest.raises(ModelFormatError, match="nav_distinct_sizes"):
        SourceModel.load(folder)
