"""The real-CMS benchmark's accounting (`benchmarks.realsite.bench`): where a crawl's requests
went before it had 95% of the UCC, and how many of them were the learning sample. Checked on
made-up captures and a job database built row by row, without any CMS installed."""

from __future__ import annotations

from pathlib import Path

from archiver.evaluation.captures import Capture
from benchmarks.realsite.bench import sample_requests, score, spending
from tests.jobfactory import JobBuilder


class Site:
    """A made-up site: /t/N is the UCC page N, /t/N?sort=x another view of it; /list/N and
    /login are not UCC."""

    @staticmethod
    def entity_of(url: str) -> str | None:
        path = url.split("?")[0]
        return path if path.startswith("/t/") else None

    @staticmethod
    def page_type(url: str) -> str:
        return url.split("/")[1].split("?")[0]


def caps(*items: tuple[str, int]) -> list[Capture]:
    return [Capture(i, url, status, "response", "text/html", "", False, None, None)
            for i, (url, status) in enumerate(items)]


def test_spending_tells_the_sample_new_content_repeats_failures_and_other_types_apart() -> None:
    crawl = caps(("/list/1", 200), ("/t/1", 200), ("/login", 200),      # the sample: 3
                 ("/t/2", 200), ("/t/1?sort=x", 200), ("/t/3", 302),    # a redirect
                 ("/t/3/", 404), ("/list/2", 200), ("/t/3", 200), ("/t/9", 200))
    spent = spending(crawl, Site, {"/t/1", "/t/2", "/t/3"}, sample=3)
    assert spent == {"sample: new UCC": 1, "sample: other": 2, "new UCC": 2,
                     "UCC again": 1, "not 2xx": 2, "list": 1, "t": 1}
    # /t/9 is no UCC page of the site's list: counted by its type, as any other page
    assert sum(spent.values()) == len(crawl)


def test_score_counts_spending_up_to_the_request_that_reached_95_percent() -> None:
    pages = {f"/t/{i}" for i in range(20)}
    crawl = caps(("/list/1", 200), *((f"/t/{i}", 200) for i in range(19)), ("/login", 200),
                 ("/t/19", 200), ("/list/2", 200))
    s = score(crawl, Site, pages, budget=100, sample=2)
    assert s["reached"][0.95] == 20          # the 19th page, at request 20
    assert s["spent"] == {"sample: other": 1, "sample: new UCC": 1, "new UCC": 18}
    never = score(crawl[:10], Site, pages, budget=100)   # 95% never reached: all of it
    assert sum(never["spent"].values()) == 10


def test_sample_requests_counts_the_fetches_up_to_the_fitted_model(tmp_path: Path) -> None:
    job = JobBuilder(tmp_path, name="learned")
    for i in range(5):
        job.fetch(job.url(f"https://forum.example.org/p/{i}"), warc_id=None)
    job.conn.execute("UPDATE job SET learned_after_fetch = 3 WHERE id = 1")
    assert sample_requests(job.finish()) == 3
    bfs = JobBuilder(tmp_path, name="plain", strategy="bfs")
    bfs.fetch(bfs.url("https://forum.example.org/"), warc_id=None)
    assert sample_requests(bfs.finish()) == 0                # no model: no sample
    assert sample_requests(tmp_path / "wget-folder") == 0     # no database at all


def _python_helpers() -> list[tuple[str, str]]:
    import importlib
    import pkgutil

    import benchmarks.realsite as realsite

    found = []
    for info in sorted(pkgutil.iter_modules(realsite.__path__), key=lambda m: m.name):
        helper = getattr(importlib.import_module(f"benchmarks.realsite.{info.name}"),
                         "HELPER", None)
        if isinstance(helper, str) and not helper.lstrip().startswith("<?php"):
            found.append((info.name, helper))
    return found


def test_every_python_helper_script_names_only_what_it_defines_or_imports() -> None:
    """A site's helper.py runs in the site's own venv only when the site is built, so a
    name it forgot to import fails there, not here: machina's used `json` (in the shared
    `helpertext.MAIN`) without importing it, and a fresh build stopped with a NameError
    (2026-11-28). ruff's undefined-name check reads each script as written."""
    import subprocess
    import sys

    helpers = _python_helpers()
    assert len(helpers) >= 15
    for name, text in helpers:
        done = subprocess.run(
            [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select",
             "F821,F822,F823", "--stdin-filename", f"{name}_helper.py", "-"],
            input=text, capture_output=True, text=True)
        assert done.returncode == 0, f"{name}: {done.stdout}"
