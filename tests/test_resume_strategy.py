"""A resumed learning crawl goes on as if it had never stopped: the strategy gets back what
the earlier runs taught it by replaying their fetches from the job's database and WARCs
(`archiver.replay`, `Crawl._replay`)."""

from __future__ import annotations

import logging
import math
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from archiver.crawl import Crawl, CrawlResult
from archiver.db import MIGRATIONS, connect
from archiver.errors import JobError
from archiver.warccheck import check_file
from archiver.zoo import make_site, serve
from tests.test_source_strategy import BUDGET, _example, _profile


def _committed(job: Path) -> int:
    """Fetches committed so far by a running crawl of `job` (0 before its database)."""
    if not (job / "crawl.sqlite3").exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{job / 'crawl.sqlite3'}?mode=ro", uri=True, timeout=1)
        try:
            return int(conn.execute("SELECT count(*) FROM fetch").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.OperationalError:       # being created or locked: not there yet
        return 0


def _fetched(job: Path) -> list[str]:
    conn = sqlite3.connect(job / "crawl.sqlite3")
    try:
        return [r[0] for r in conn.execute(
            "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id ORDER BY f.id")]
    finally:
        conn.close()


def _run(profile_args: tuple, every: int | None) -> CrawlResult:
    """One run of the crawl, stopped after `every` requests (None: to its end)."""
    crawl = Crawl(_profile(*profile_args[:4], **profile_args[4]))
    if every is not None:
        def stop(stats, crawl=crawl):  # type: ignore[no-untyped-def]
            if stats.requests >= every:
                crawl.request_stop("test")
        crawl.on_progress = stop
    return crawl.run()


@pytest.fixture(scope="module")
def forum():  # type: ignore[no-untyped-def]
    site = make_site("forum", 0, "small")
    with serve(site) as served:
        yield site, served


def _args(site, served, job: Path, name: str = "source-target") -> tuple:  # type: ignore[no-untyped-def]
    budget = math.ceil(BUDGET * site.manifest(with_digest=False)["counts"]["urls"])
    kw = {"sample_size": max(20, budget // 5)}
    if name == "source-target":
        kw["target_example"] = served.url + _example(site, "detail")
    return (name, job, [served.url + p for p in site.seeds()], budget, kw)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["source-target", "source-ucc"])
def test_an_interrupted_crawl_fetches_what_an_uninterrupted_one_does(forum, tmp_path, name
                                                                       ) -> None:
    """Stopped every 15 requests (in the sample, at the fit, while harvesting) and resumed:
    the same URLs in the same order. Without the replay the resumed harvest judged every
    link of a page fetched before the stop as a link of an outlier page (small forum,
    source-target, 8 stops: valid ratio 0.838 -> 0.592)."""
    site, served = forum
    whole = _args(site, served, tmp_path / "whole", name)
    assert _run(whole, None).stop_reason == "max_requests"
    parts = _args(site, served, tmp_path / "parts", name)
    runs = 0
    while _run(parts, 15).stop_reason == "test":
        runs += 1
    assert runs >= 6
    assert _fetched(tmp_path / "parts") == _fetched(tmp_path / "whole")
    assert (tmp_path / "parts/model/manifest.json").read_bytes() == \
        (tmp_path / "whole/model/manifest.json").read_bytes()


@pytest.mark.slow
def test_a_lost_model_is_fitted_again_from_the_replayed_sample(forum, tmp_path, caplog
                                                                ) -> None:
    site, served = forum
    whole = _args(site, served, tmp_path / "whole")
    _run(whole, None)
    parts = _args(site, served, tmp_path / "parts")
    _run(parts, 60)                                    # past the fit (sample size 26)
    assert (tmp_path / "parts/model/manifest.json").exists()
    shutil.rmtree(tmp_path / "parts/model")
    with caplog.at_level(logging.WARNING, logger="archiver.crawl"):
        _run(parts, None)
    assert "fitting it again from the replayed sample" in caplog.text
    assert _fetched(tmp_path / "parts") == _fetched(tmp_path / "whole")


@pytest.mark.slow
def test_a_missing_warc_stops_the_resume_with_the_file_named(forum, tmp_path) -> None:
    site, served = forum
    job = tmp_path / "job"
    args = _args(site, served, job)
    _run(args, 40)
    warc = sorted((job / "warcs").glob("*.warc.gz"))[0]
    warc.unlink()
    with pytest.raises(JobError, match="cannot read this job's WARC") as err:
        _run(args, None)
    assert str(warc) in str(err.value) and "new --out folder" in str(err.value)


@pytest.mark.slow
def test_a_job_learned_from_warcs_resumes_its_harvest_too(forum, tmp_path) -> None:
    """`archiver learn --from-warc` saves a model before the job's first fetch; its
    harvest, stopped and resumed, fetches what it fetches in one go."""
    from archiver.learning.offline import learn_from_warcs

    site, served = forum
    _run(_args(site, served, tmp_path / "old"), None)        # an earlier crawl's WARCs
    warcs = sorted((tmp_path / "old" / "warcs").glob("*.warc.gz"))
    for name in ("whole", "parts"):
        args = _args(site, served, tmp_path / name)
        strategy = learn_from_warcs(_profile(*args[:4], **args[4]), warcs)
        strategy.save(tmp_path / name / "model")
    _run(_args(site, served, tmp_path / "whole"), None)
    runs = 0
    while _run(_args(site, served, tmp_path / "parts"), 15).stop_reason == "test":
        runs += 1
    assert runs >= 4
    assert _fetched(tmp_path / "parts") == _fetched(tmp_path / "whole")


def test_a_database_of_schema_1_gains_the_fit_point(tmp_path: Path) -> None:
    path = tmp_path / "crawl.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0] + ";PRAGMA user_version=1;")
    old.close()
    conn = connect(path)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(job)")]
    assert "learned_after_fetch" in columns
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    conn.close()


@pytest.mark.slow
def test_kill_9_while_learning_and_harvesting_changes_nothing(forum, tmp_path) -> None:
    """`archiver crawl` killed with SIGKILL at random moments (the URL in flight is fetched
    again) fetches what an uninterrupted run fetches, and leaves valid WARCs. The moments
    are points in the crawl (fetches committed), not in time: a kill after a random sleep
    missed a crawl that had already ended on a loaded machine."""
    site, served = forum
    _, _, seeds, budget, kw = _args(site, served, tmp_path, "source-ucc")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    rng = random.Random(7)
    kills = 0

    def crawl(name: str, kill_at: int | None) -> bool:
        """Run `archiver crawl` on job `name` to its end, or kill it once `kill_at`
        fetches are committed; whether it was killed."""
        proc = subprocess.Popen([sys.executable, "-m", "archiver", "crawl",
                                 str(tmp_path / f"{name}.yaml")],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while kill_at is not None and proc.poll() is None:
            if _committed(tmp_path / name) >= kill_at:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                return True
            time.sleep(0.02)
        assert proc.wait(timeout=300) == 0
        return False

    for name in ("whole", "killed"):
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump({
            "name": name, "seeds": seeds, "politeness": {"delay": 0, "retries": 0},
            "limits": {"max_requests": budget}, "output": {"dir": str(tmp_path / name)},
            "strategy": {"name": "source-ucc", **kw}}))
    crawl("whole", None)
    sample, total = kw["sample_size"], len(_fetched(tmp_path / "whole"))
    assert total > sample + 10
    # two kills while learning (at most sample_size fetches), two while harvesting
    for point in sorted(rng.sample(range(2, sample), 2) + rng.sample(range(sample, total), 2)):
        kills += crawl("killed", point)
    crawl("killed", None)
    assert kills == 4
    assert _fetched(tmp_path / "killed") == _fetched(tmp_path / "whole")
    for warc in (tmp_path / "killed" / "warcs").iterdir():
        assert warc.name.endswith(".warc.gz") and check_file(warc) == [], warc
