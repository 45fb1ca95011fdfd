"""Run one crawler on a served site into a folder of WARCs: an archiver strategy, or wget.

`wget --mirror` is the generic crawler of the papers (ACEBot §4 compares with GNU wget; iRobot
§6.3 and SOUrCe §5.3 with a breadth-first "generic crawler"). wget has no request-count
limit, so it is stopped once it has logged `max_requests` downloads and the scorer cuts its
request sequence (WARC order) at the budget.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archiver.evaluation.captures import warc_paths

logger = logging.getLogger(__name__)

WGET = "wget"
WGET_PATH = "/usr/bin/wget"
# One line per download (or per failed URL) in `wget --no-verbose` output; a redirect chain is
# one line, so a line count never overstates the requests made.
_WGET_ENTRY = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (URL:|ERROR )")
# Anything not on loopback goes to this closed port: a mirror never leaves the machine, even
# when a page or a redirect points off-site.
_DEAD_PROXY = "http://127.0.0.1:9"
LEARNING_CAP = 20_000      # requests a separate learning phase may take at most


@dataclass(frozen=True, slots=True)
class CrawlRun:
    """What one crawler run left behind."""

    crawler: str               # "bfs", "wget", "source-target:detail", ...
    folder: Path
    warcs: tuple[Path, ...]    # in write order
    seconds: float
    stop: str                  # why it ended: frontier-empty, max_requests, limit, crashed: ...
    learning_requests: int = 0  # requests of a separate learning phase before the budget


def run_archiver(strategy: str, seeds: Sequence[str], folder: Path, max_requests: int, *,
                 options: Mapping[str, Any] | None = None, name: str | None = None,
                 learn_first: bool = False, scope: Mapping[str, Any] | None = None
                 ) -> CrawlRun:
    """Crawl `seeds` with the archiver strategy `strategy`, at most `max_requests` requests.

    No politeness delay and no retries (wget gets `--tries=1`), so both crawlers spend
    exactly one request per URL; everything else is the profile default (robots obeyed).
    `options` are extra `strategy:` keys (sample_size, target_example, params), `scope`
    extra `scope:` keys (sitemaps, max_depth). A crash is
    a result, not an abort: the run reports it and keeps the WARCs written so far.

    `learn_first` (a learning strategy): run the learning phase on its own first, as
    `archiver learn` does, then resume the same job as `archiver harvest` for `max_requests`
    more requests; `CrawlRun.learning_requests` says how many requests learning took (SOUrCe
    §5.4 learns from training data D and then gives the crawl a budget of #(All Target)).
    """
    from archiver.crawl import Crawl, run_learning
    from archiver.profile import profile_from_dict

    label = name or strategy

    def profile(limit: int) -> Any:
        return profile_from_dict({
            "name": "eval-" + re.sub(r"[^A-Za-z0-9._-]", "-", label),
            "seeds": list(seeds),
            "politeness": {"delay": 0, "retries": 0},
            "limits": {"max_requests": limit},
            "output": {"dir": str(folder)},
            "strategy": {"name": strategy, **(options or {})},
            **({"scope": dict(scope)} if scope else {}),
        }, source=f"<evaluation {label}>")

    start = time.monotonic()
    learned = 0
    try:
        if learn_first:
            learned = run_learning(profile(LEARNING_CAP)).stats.requests
        stop = Crawl(profile(learned + max_requests)).run().stop_reason
    except Exception as err:  # a crawler bug must not abort the comparison
        logger.exception("%s crashed on %s", label, seeds[0])
        stop = f"crashed: {type(err).__name__}: {err}"
    return CrawlRun(label, folder, tuple(warc_paths(folder)), time.monotonic() - start, stop,
                    learned)


# --adjust-extension saves /questions as questions.html: without it, /questions/317/...
# cannot be saved (questions is a file, not a folder), so wget neither keeps nor parses it.
MIRROR = ("--mirror", "--adjust-extension")


def run_wget(seeds: Sequence[str], folder: Path, max_requests: int, *,
             wget: str = WGET_PATH, timeout: float = 600.0,
             flags: Sequence[str] = MIRROR) -> CrawlRun:
    """Mirror `seeds` with `wget --mirror --warc-file` (or what `flags` ask instead, e.g.
    ``--page-requisites``), stopped after `max_requests` downloads.

    Downloaded files go to a scratch folder that is deleted afterwards; only the WARC stays.
    """
    folder.mkdir(parents=True, exist_ok=True)
    files = folder / "files"
    cmd = [wget, *flags, f"--warc-file={folder / 'wget'}",
           "--no-warc-keep-log", "-P", str(files), "--no-verbose", "--tries=1", "--timeout=30",
           *seeds]
    env = dict(os.environ, http_proxy=_DEAD_PROXY, https_proxy=_DEAD_PROXY,
               no_proxy="127.0.0.1,localhost,::1")
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env, text=True, errors="replace")
    timer = threading.Timer(timeout, proc.terminate)
    timer.start()
    entries, stop = 0, ""
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if _WGET_ENTRY.match(line):
                entries += 1
                if entries >= max_requests:
                    stop = "limit"
                    proc.terminate()
                    break
        code = proc.wait(timeout=30)
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()
    seconds = time.monotonic() - start
    if not stop:
        stop = ("timeout" if seconds >= timeout
                else "finished" if code in (0, 8) else f"exit {code}")  # 8: some URL errored
    shutil.rmtree(files, ignore_errors=True)
    return CrawlRun(WGET, folder, tuple(warc_paths(folder)), seconds, stop)


def wget_version(wget: str = WGET_PATH) -> str:
    """First line of `wget --version` ('' if wget is missing)."""
    try:
        out = subprocess.run([wget, "--version"], capture_output=True, text=True, timeout=10,
                             check=False).stdout
    except OSError:
        return ""
    return out.splitlines()[0] if out else ""
