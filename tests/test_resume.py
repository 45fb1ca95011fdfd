"""Resume after kill -9: a crawl subprocess is killed at random moments several times and
resumed each time; at the end every reachable page is archived exactly once and every WARC
is valid."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from warcio.archiveiterator import ArchiveIterator

from archiver.warccheck import check_file
from tests.sites import EdgeSite, serve_wsgi

ROOT = Path(__file__).resolve().parents[1]


def _run(profile: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with (profile.parent / "stderr.log").open("ab") as log:
        return subprocess.Popen([sys.executable, "-m", "archiver", "crawl", str(profile)],
                                cwd=profile.parent, env=env, stdout=subprocess.DEVNULL,
                                stderr=log)


def test_kill_9_and_resume_archives_everything_exactly_once(tmp_path: Path) -> None:
    site = EdgeSite(n_pages=300)
    rng = random.Random(20261122)
    with serve_wsgi(site) as base:
        profile = tmp_path / "edge.yaml"
        profile.write_text(yaml.safe_dump({
            "name": "edge", "seeds": [base + "/"],
            "politeness": {"delay": 0.004, "retries": 3},
            "limits": {"max_page_bytes": 100_000},
            "output": {"dir": str(tmp_path / "job")}}))
        kills = 0
        for _ in range(5):
            proc = _run(profile)
            time.sleep(rng.uniform(0.6, 1.6))
            if proc.poll() is not None:
                break
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
        proc = _run(profile)
        proc.wait(timeout=300)
        assert proc.returncode == 0, (tmp_path / "stderr.log").read_text()
    assert kills >= 3, "the crawl finished too fast to be killed: make the site bigger"
    warcs = sorted((tmp_path / "job" / "warcs").iterdir())
    captured: Counter[str] = Counter()
    for path in warcs:
        assert path.name.endswith(".warc.gz"), path
        assert check_file(path) == [], path
        with path.open("rb") as fh:
            for rec in ArchiveIterator(fh):
                if rec.rec_type in ("response", "revisit"):
                    captured[urlsplit(rec.rec_headers.get_header("WARC-Target-URI")).path] += 1
    assert set(captured) == site.archivable_paths()
    assert [p for p, n in captured.items() if n > 1] == []


def _wait_for_fetches(job: Path, n: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    import sqlite3

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with sqlite3.connect(f"file:{job / 'crawl.sqlite3'}?mode=ro", uri=True) as conn:
                if conn.execute("SELECT COUNT(*) FROM fetch").fetchone()[0] >= n:
                    return
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    raise AssertionError("the crawl did not get going")


def _profile(tmp_path: Path, base: str) -> Path:
    profile = tmp_path / "edge.yaml"
    profile.write_text(yaml.safe_dump({
        "name": "edge", "seeds": [base + "/"], "politeness": {"delay": 0.02},
        "output": {"dir": str(tmp_path / "job")}}))
    return profile


def test_sigterm_stops_cleanly_and_the_job_resumes(tmp_path: Path) -> None:
    import sqlite3

    site = EdgeSite(n_pages=200)
    with serve_wsgi(site) as base:
        profile = _profile(tmp_path, base)
        proc = _run(profile)
        _wait_for_fetches(tmp_path / "job", 20, proc)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        warcs = list((tmp_path / "job" / "warcs").iterdir())
        assert warcs and not [w for w in warcs if w.name.endswith(".open")]  # files closed
        assert all(check_file(w) == [] for w in warcs)
        conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
        state, reason = conn.execute("SELECT state, stop_reason FROM job").fetchone()
        conn.close()
        assert (state, reason) == ("interrupted", "signal:SIGTERM")
        proc = _run(profile)
        assert proc.wait(timeout=300) == 0
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    assert conn.execute("SELECT state, runs FROM job").fetchone() == ("finished", 2)


def test_second_signal_stops_at_once_and_stays_resumable(tmp_path: Path) -> None:
    site = EdgeSite(n_pages=200)
    with serve_wsgi(site) as base:
        profile = _profile(tmp_path, base)
        proc = _run(profile)
        _wait_for_fetches(tmp_path / "job", 20, proc)
        proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) in (0, 130)
        proc = _run(profile)
        assert proc.wait(timeout=300) == 0
    warcs = sorted((tmp_path / "job" / "warcs").iterdir())
    assert all(w.name.endswith(".warc.gz") and check_file(w) == [] for w in warcs)
