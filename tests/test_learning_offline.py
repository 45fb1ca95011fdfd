"""SOUrCe learning replayed from WARCs (`archiver.learning.offline`): learn from the archive
of an earlier crawl, then harvest the live site with zero sample fetches."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from archiver.crawl import Crawl
from archiver.job import JobFolder
from archiver.learning.model import MANIFEST
from archiver.learning.offline import learn_from_warcs, read_responses
from archiver.zoo import make_site, serve
from tests.test_source_strategy import _profile


@pytest.mark.slow
def test_learn_from_warcs_then_harvest_without_sampling(tmp_path: Path) -> None:
    site = make_site("forum", 0, "small", 0)
    with serve(site) as served:
        seeds = [served.url + p for p in site.seeds()]
        Crawl(_profile("bfs", tmp_path / "first", seeds, 200)).run()
        warcs = sorted((tmp_path / "first" / "warcs").glob("*.warc.gz"))
        assert len(read_responses(warcs)) > 100

        profile = _profile("source-ucc", tmp_path / "second", seeds, 60, sample_size=40)
        strategy = learn_from_warcs(profile, warcs)
        assert strategy.model is not None and strategy.model.n_clusters_ >= 2
        assert len(strategy.model.urls_) >= 20        # sampled from the archive, not fetched
        strategy.save(JobFolder(profile.output.dir).model_dir)

        crawl = Crawl(profile)
        result = crawl.run()
    assert result.stats.requests == 60
    conn = sqlite3.connect(tmp_path / "second" / "crawl.sqlite3")
    assert conn.execute("SELECT phase FROM job").fetchone()[0] == "harvest"
    # every fetched page was classified by the loaded model: none was a sample fetch
    pages = conn.execute("SELECT COUNT(*), COUNT(cluster) FROM page").fetchone()
    assert pages[0] > 0 and pages[0] == pages[1]


@pytest.mark.slow
def test_cli_learn_from_warc_then_harvest(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    from archiver.cli import main

    site = make_site("forum", 0, "small", 0)
    with serve(site) as served:
        seeds = [served.url + p for p in site.seeds()]
        Crawl(_profile("bfs", tmp_path / "first", seeds, 150)).run()
        warcs = [str(p) for p in sorted((tmp_path / "first" / "warcs").glob("*.warc.gz"))]
        path = tmp_path / "p.yaml"
        path.write_text(yaml.safe_dump({
            "name": "offline", "seeds": seeds, "politeness": {"delay": 0, "retries": 0},
            "limits": {"max_requests": 40}, "output": {"dir": str(tmp_path / "job")},
            "strategy": {"name": "source-ucc", "sample_size": 40}}))
        assert main(["harvest", str(path)]) == 2                 # nothing learned yet
        assert "archiver learn" in capsys.readouterr().err
        assert main(["learn", str(path), "--from-warc", *warcs]) == 0
        out = capsys.readouterr().out.splitlines()
        assert "archived pages" in out[0]
        # the cluster summary: what Score(C) is made of, best first
        assert out[1].split() == ["cluster", "pages", "Score(C)", "hub", "auth", "DSim",
                                  "content", "pattern"]
        end = next(i for i, line in enumerate(out) if line.startswith("content:"))
        rows = [line.split() for line in out[2:end] if line.split()[0] != "-1"]
        assert len(rows) >= 2 and all(0 < float(r[6]) <= 1 for r in rows)
        assert [float(r[2]) for r in rows] == sorted((float(r[2]) for r in rows), reverse=True)
        topics = [r for r in rows if r[-1].startswith("/viewtopic")]
        assert topics and float(topics[0][6]) > 0.7        # posts, not links
        assert "multiplied by min(1, content / 0.5)" in out[end]
        assert out[end + 1].startswith("url patterns: ")          # the navigation table's split
        assert main(["harvest", str(path)]) == 0
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    assert conn.execute("SELECT requests, phase FROM job").fetchone() == (40, "harvest")
    assert conn.execute("SELECT COUNT(*) FROM page WHERE cluster IS NULL").fetchone()[0] == 0


@pytest.mark.slow
def test_cli_live_learn_stops_after_fitting(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    from archiver.cli import main

    site = make_site("forum", 0, "small", 0)
    with serve(site) as served:
        path = tmp_path / "p.yaml"
        path.write_text(yaml.safe_dump({
            "name": "live", "seeds": [served.url + p for p in site.seeds()],
            "politeness": {"delay": 0, "retries": 0}, "limits": {"max_requests": 200},
            "output": {"dir": str(tmp_path / "job")},
            "strategy": {"name": "source-ucc", "sample_size": 30}}))
        assert main(["learn", str(path)]) == 0
        out = capsys.readouterr().out
        assert "content" in out                             # the cluster summary
        assert "\ncontent (never judged exhausted): cluster " in out
        assert "\nquery modes: " in out
        conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
        learned = conn.execute("SELECT requests FROM job").fetchone()[0]
        assert learned < 200 and (JobFolder(tmp_path / "job").model_dir / MANIFEST).exists()
        assert conn.execute("SELECT COUNT(*) FROM page WHERE cluster IS NOT NULL"
                            ).fetchone()[0] <= 1   # at most the page that ended learning
        conn.close()
        assert main(["harvest", str(path), "--max-requests", str(learned + 20)]) == 0
        conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
        assert conn.execute("SELECT requests FROM job").fetchone()[0] == learned + 20
        assert conn.execute("SELECT COUNT(*) FROM page WHERE cluster IS NOT NULL"
                            ).fetchone()[0] >= 19


def test_archived_x_robots_tag_is_kept_for_the_page(tmp_path: Path) -> None:
    """Learning from a WARC sees a page's X-Robots-Tag as a live crawl does."""
    from tests.test_warc import exchange, make_sink

    with make_sink(tmp_path) as sink:
        sink.write_exchange(exchange("http://s.test/diff", response_headers=(
            ("Content-Type", "text/html"), ("X-Robots-Tag", "noindex"),
            ("x-robots-tag", "nofollow"))))
        sink.write_exchange(exchange("http://s.test/a"))
    got = read_responses(sorted(tmp_path.glob("*.warc.gz")))
    assert got["http://s.test/diff"].robots == ("noindex", "nofollow")
    assert got["http://s.test/a"].robots == ()
