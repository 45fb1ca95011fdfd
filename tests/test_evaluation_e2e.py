"""End to end: bfs and wget on one small zoo site, scored from their WARCs, in under a minute."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from archiver.evaluation import EvaluationError, evaluate
from archiver.evaluation.crawlers import WGET_PATH
from archiver.evaluation.runner import budget_requests, known_crawlers
from archiver.evaluation.tables import markdown

HAVE_WGET = shutil.which(WGET_PATH) is not None


def test_budget_requests() -> None:
    assert budget_requests(0.25, 513) == 129
    assert budget_requests(40, 513) == 40
    for bad in (0, -1, 0.0, True):
        with pytest.raises(EvaluationError):
            budget_requests(bad, 10)


def test_every_registered_strategy_is_a_crawler() -> None:
    from archiver.strategies import REGISTRY

    assert known_crawlers() == [*sorted(REGISTRY), "wget"]
    with pytest.raises(EvaluationError, match="unknown crawler 'no-such'"):
        evaluate(["forum"], [0], crawlers=["no-such"], out=None)
    with pytest.raises(EvaluationError, match="unknown zoo family 'shop'"):
        evaluate(["shop"], [0], crawlers=["bfs"], out=None)


def test_arguments_feed_evaluate() -> None:
    import argparse

    from archiver.evaluation.arguments import add_arguments, evaluate_kwargs

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--families", "forum", "--variants", "0", "--budget", "40",
                              "--crawlers", "bfs", "wget", "--out", "x/y"])
    kwargs = evaluate_kwargs(args)
    assert kwargs["families"] == ["forum"] and kwargs["budget"] == 40
    assert isinstance(kwargs["budget"], int)
    assert parser.parse_args(["--budget", "0.5"]).budget == 0.5
    with pytest.raises(SystemExit):
        parser.parse_args(["--budget", "-1"])


@pytest.mark.slow
def test_bfs_and_wget_on_a_small_forum(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    crawlers = ["bfs", "wget"] if HAVE_WGET else ["bfs"]
    out = tmp_path / "results" / "zoo"
    results = evaluate(["forum"], [0], "small", 0.25, crawlers, out, work_dir=tmp_path / "runs")

    (site,) = results["sites"]
    assert site["site"] == "forum-v0" and site["budget"] == budget_requests(0.25, site["urls"])
    mirror = site["mirror"]
    assert mirror["stop"] == "frontier-empty"
    assert mirror["acebot"]["bigrams"] == 1.0 and mirror["acebot"]["external_links"] == 1.0
    assert mirror["source"]["recall"] > 0.9           # a full BFS finds the content
    bfs = site["runs"]["bfs"]
    assert bfs["requests"] == site["run_length"] and bfs["scored_requests"] == site["budget"]
    for key in ("valid_ratio", "recall", "f", "entropy"):
        assert 0 <= bfs["source"][key] <= (1 if key != "entropy" else 10)
    assert 0 < bfs["acebot"]["bigrams"] < 1
    assert bfs["curve"][-1][0] == bfs["requests"]
    if HAVE_WGET:
        wget = site["runs"]["wget"]
        assert wget["requests"] >= site["run_length"]  # stopped after enough downloads
        assert wget["scored_requests"] == site["budget"]
        assert 0 < wget["source"]["valid_ratio"] < 1

    saved = json.loads(out.with_name("zoo.json").read_text())
    assert saved["sites"][0]["runs"].keys() == site["runs"].keys()
    md = out.with_name("zoo.md").read_text()
    assert "## SOUrCe" in md and "## iRobot" in md and "| forum-v0 | bfs |" in md
    assert md == markdown(results)
    assert out.with_name("zoo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list((tmp_path / "runs" / "forum-v0" / "bfs" / "warcs").glob("*.warc.gz"))


@pytest.mark.skipif(not HAVE_WGET, reason="needs wget")
def test_wget_keeps_pages_below_a_page_path(tmp_path: Path) -> None:
    """/questions and /questions/317/slug both exist: wget must archive the second too."""
    from urllib.parse import urlsplit

    from archiver.evaluation.captures import read_captures
    from archiver.evaluation.crawlers import run_wget
    from archiver.zoo import make_site, serve

    site = make_site("qa", 0, "demo")
    with serve(site) as served:
        run = run_wget([served.url + p for p in site.seeds()], tmp_path / "wget", 80)
    kinds = set()
    for cap in read_captures(run.warcs, keep_payload=False):
        parts = urlsplit(cap.url)
        truth = site.truth(parts.path + ("?" + parts.query if parts.query else ""))
        kinds.add(getattr(truth, "page_type", None))
    assert "question" in kinds, sorted(map(str, kinds))


def test_learn_first_runs_the_budget_after_learning(tmp_path: Path) -> None:
    """SOUrCe §5.4's set-up: learn on its own, then `max_requests` harvest requests."""
    from archiver.evaluation.captures import read_captures
    from archiver.evaluation.crawlers import run_archiver
    from archiver.evaluation.truth import zoo_truth
    from archiver.job import JobFolder
    from archiver.learning.model import MANIFEST
    from archiver.zoo import make_site, serve

    site = make_site("forum", 0, "small")
    with serve(site) as served:
        truth = zoo_truth(site, "127.0.0.1")
        example = served.url + truth.target_examples["detail"]
        run = run_archiver("source-target", [served.url + p for p in site.seeds()],
                           tmp_path / "t", 30, learn_first=True,
                           options={"sample_size": 60, "target_example": example})
    assert run.stop == "max_requests", run.stop
    assert 20 <= run.learning_requests <= 200
    assert (JobFolder(tmp_path / "t").model_dir / MANIFEST).exists()
    caps = [c for c in read_captures(run.warcs, parse=False)
            if not c.url.endswith("/robots.txt")]
    robots = 1
    assert len(caps) + robots == run.learning_requests + 30
