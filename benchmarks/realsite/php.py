"""What the real-CMS benchmarks share: a server process (PHP's built-in server, or any other) on
a free loopback port, the same-host links of a page (for the sites' smoke tests), and the
check of a Python site's own venv."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import lxml.html
import requests

# How the helpers run a site's venv python: isolated (-I); a Python 2 venv, which has no -I,
# without the PYTHON* variables and the user site (-E -s)
ISOLATED = ("-I",)
PYTHON2 = ("-E", "-s")


def _flags(python2: bool) -> list[str]:
    return list(PYTHON2 if python2 else ISOLATED)


def venv_missing(venv: Path, package: str, version: str, variable: str, install: str,
                 python2: bool = False) -> str | None:
    """None if `venv` holds `package` at `version` and waitress, else how to make it (the
    Python sites run from a venv of their own, named by the environment `variable`;
    `python2`: a Python 2.7 venv, read by pkg_resources, as it has no importlib.metadata)."""
    python = venv / "bin" / "python"
    if python.exists():
        check = ("import pkg_resources as r; v = lambda p: r.get_distribution(p).version; "
                 if python2 else "import importlib.metadata as m; v = m.version; ")
        done = subprocess.run([str(python), *_flags(python2), "-c",
                               f"{check}print('%s %s' % (v({package!r}), v('waitress')))"],
                              capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.split()[0] == version:
            return None
    return (f"needs {package} {version} and waitress in a venv of their own "
            f"({variable}, now {venv}): {install}")


@contextlib.contextmanager
def process_server(command: Callable[[int], Sequence[str]], log_path: Path, seed_path: str,
                   env: Callable[[str], Mapping[str, str]], cwd: Path | None = None,
                   name: str = "the server") -> Iterator[str]:
    """Run `command(port)` on a free 127.0.0.1 port, in a process group of its own; `env`
    gives its environment from its origin ("http://127.0.0.1:PORT"). Yields the URL origin +
    `seed_path` once it answers 200; stops the whole group on exit."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = f"http://127.0.0.1:{port}"
    log = open(log_path, "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(list(command(port)), env=dict(env(server)), cwd=cwd, stdout=log,
                            stderr=log, start_new_session=True)  # its own group, with workers
    seed = server + seed_path
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(seed, timeout=10).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not come up; see {log_path}")
            time.sleep(0.2)
        yield seed
    finally:
        with contextlib.suppress(ProcessLookupError):  # workers outlive a SIGTERM to the master
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()


@contextlib.contextmanager
def php_server(docroot: Path, router: Path, log_path: Path, seed_path: str,
               env: Callable[[str], Mapping[str, str]], workers: int = 2) -> Iterator[str]:
    """`php -S` on a free 127.0.0.1 port with this document root and router script; `env`
    gives the server's environment from its origin ("http://127.0.0.1:PORT"). Yields the URL
    origin + `seed_path` once it answers 200; stops the server and its workers on exit."""
    with process_server(
            lambda port: ["php", "-S", f"127.0.0.1:{port}", "-t", str(docroot), str(router)],
            log_path, seed_path,
            lambda server: {**env(server), "PHP_CLI_SERVER_WORKERS": str(workers)},
            name="php -S") as seed:
        yield seed


def same_host_links(html: bytes, base: str) -> set[str]:
    """The page's <a href> targets on base's host, without fragments."""
    host = urlsplit(base).netloc
    hrefs = {urljoin(base, a).split("#")[0] for a in lxml.html.fromstring(html).xpath("//a/@href")}
    return {h for h in hrefs if urlsplit(h).netloc == host}


def reuse_or_clear(folder: Path, params: Mapping[str, object], helper: str, what: str,
                   stale_days: float | None = None) -> bool:
    """A site's build folder: True when it already holds a site built with `params` (its
    build.json marker) less than `stale_days` ago (None: at any time), else emptied for a
    fresh build (refused when it is not empty and has no `helper` file, i.e. is not a site
    of ours; `what` names the site in the error)."""
    marker = folder / "build.json"
    if marker.exists():
        old = json.loads(marker.read_text())
        fresh = stale_days is None or time.time() - old["built_at"] < stale_days * 86400
        if old["params"] == params and fresh:
            return True
    if folder.exists() and any(folder.iterdir()):
        if not (folder / helper).exists():
            raise ValueError(f"{folder} is not empty and is not a {what} of ours")
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return False


def loopback_path(url: str) -> tuple[str, list[str]] | None:
    """The sites' `page_type` starts alike: a URL's path ("/" when empty) and its unquoted
    segments, or None when it is on another host than 127.0.0.1 or localhost (a relative
    URL is on the site)."""
    parts = urlsplit(url)
    if parts.hostname not in (None, "127.0.0.1", "localhost"):
        return None
    path = parts.path or "/"
    return path, [unquote(s) for s in path.split("/") if s]


def entity_rows(folder: Path) -> list[dict[str, Any]]:
    """The rows a Python site's helper wrote to entities.jsonl at build time (one JSON
    object per UCC page, with its "path")."""
    return [json.loads(line) for line in (folder / "entities.jsonl").read_text().splitlines()]


def entity_urls(folder: Path, server: str = "") -> set[str]:
    """The URLs of a Python site's UCC pages (`entity_rows`' paths), absolute under `server`
    (e.g. "http://127.0.0.1:8123") when given: what each such site's `entities` returns."""
    return {server.rstrip("/") + r["path"] for r in entity_rows(folder)}


def run_checked(command: Sequence[str], cwd: Path, stdin: str | None = None,
                env: Mapping[str, str] | None = None, name: str | None = None) -> str:
    """Run a build command and return what it printed; a RuntimeError naming it (`name`, by
    default the command's first three words) with its output when it fails."""
    done = subprocess.run(list(command), input=stdin, capture_output=True, text=True, cwd=cwd,
                          env=None if env is None else dict(env))
    if done.returncode != 0:
        name = name or " ".join(command[:3])
        raise RuntimeError(f"{name} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def run_php(script: Path, *args: str, cwd: Path, stdin: str | None = None,
            env: Mapping[str, str] | None = None) -> str:
    """Run a PHP command-line script (the sites' build helpers and maintenance scripts) and
    return what it printed; a RuntimeError with its output when it fails."""
    return run_checked(["php", str(script), *args], cwd, stdin, env,
                       name=f"{script.name} {' '.join(args)}")


# --- Python sites (FlaskBB, Askbot): a helper.py run by the site's own venv ---------------
def run_helper(venv: Path, folder: Path, *args: str, stdin: str | None = None,
               python2: bool = False) -> str:
    """Run the site's helper.py (in `folder`) with `venv`'s Python, isolated (-I; a Python
    2.7 venv with -E -s)."""
    return run_checked([str(venv / "bin" / "python"), *_flags(python2),
                        str(folder / "helper.py"), *args],
                       folder, stdin, name=f"helper.py {' '.join(args)}")


def build_helper_site(folder: Path, venv: Path, params: Mapping[str, object], what: str,
                      helper: str, generated: Callable[[dt.datetime], object],
                      prepare: Callable[[Path], object] = lambda folder: None,
                      python2: bool = False) -> Path:
    """Build a Python site in `folder`, or reuse the one there if built with `params`
    (`reuse_or_clear`; `what` names the site): `prepare(folder)` (its configuration),
    helper.py written from `helper`, then `helper.py install` and `helper.py content` fed
    the JSON of `generated(now)` (`python2`: the venv is Python 2.7's). Returns the resolved
    folder."""
    folder = folder.resolve()
    if reuse_or_clear(folder, params, "helper.py", what):
        return folder
    started = time.time()
    prepare(folder)
    (folder / "helper.py").write_text(helper)
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    run_helper(venv, folder, "install", python2=python2)
    run_helper(venv, folder, "content", stdin=json.dumps(generated(now)), python2=python2)
    (folder / "build.json").write_text(json.dumps({
        "params": dict(params), "built_at": time.time(),
        "build_seconds": round(time.time() - started, 1)}))
    return folder


def write_files(files: Mapping[str, str]) -> Callable[[Path], None]:
    """A `build_helper_site` ``prepare`` that writes `files` (path in the folder -> text):
    the small Django project a deployment writes around the application."""
    def prepare(folder: Path) -> None:
        for name, text in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    return prepare


@contextlib.contextmanager
def serve_helper(venv: Path, folder: Path, workers: int, name: str, python2: bool = False
                 ) -> Iterator[str]:
    """Serve a site built by `build_helper_site` (`helper.py serve PORT WORKERS`: waitress
    with `workers` threads, read-only) on a free port; yields the home URL."""
    folder = folder.resolve()
    with process_server(
            lambda port: [str(venv / "bin" / "python"), *_flags(python2),
                          str(folder / "helper.py"), "serve", str(port), str(workers)],
            folder / "server.log", "/", lambda server: dict(os.environ), folder,
            name) as seed:
        yield seed


def smoke_fetch(urls: Sequence[str], page_type: Callable[[str], str],
                follow_redirects: bool = True) -> dict[str, int]:
    """The sites' smoke tests: fetch each URL once (duplicates skipped) and print its status,
    time, size and page type. Returns URL → status."""
    statuses = {}
    for url in dict.fromkeys(urls):
        t0 = time.monotonic()
        resp = requests.get(url, timeout=60, allow_redirects=follow_redirects)
        print(f"{resp.status_code} {time.monotonic() - t0:5.2f}s {len(resp.content):7d} B "
              f"{page_type(url):11} {url}")
        statuses[url] = resp.status_code
    return statuses


def print_link_types(pages: Sequence[tuple[str, set[str]]], page_type: Callable[[str], str]
                     ) -> None:
    """The sites' smoke tests: how many same-host links each named page has, by page type."""
    for name, links in pages:
        print(f"{len(links)} distinct same-host links on {name}: "
              f"{dict(Counter(page_type(u) for u in links).most_common())}")


@dataclass(frozen=True)
class Smoke:
    """A Python site's smoke test under way (`smoke_site`): its build folder, home URL,
    origin, UCC URLs and the home page's same-host links."""

    folder: Path
    seed: str
    server: str
    ucc: list[str]
    home_links: set[str]


@contextlib.contextmanager
def smoke_site(site: Any, size_option: str, default_size: int,
               argv: Sequence[str] | None) -> Iterator[Smoke | None]:
    """The Python sites' smoke tests start alike: build the site module `site` as
    `smoke_build` does, print its content figures (`site.stats`), serve it, print its UCC by
    page type and read the home page's links (after a redirect, as Askbot's to
    /questions/). Yields None, having said what is missing, when its venv is not there."""
    folder = smoke_build(site.__doc__, size_option, default_size, site.build, argv,
                         check=site.available)
    if folder is None:
        yield None
        return
    print(f"content: {site.stats(folder)}")
    with site.serve(folder) as seed:
        server = seed.rstrip("/")
        ucc = sorted(site.entities(folder, server))
        print(f"seed: {seed}\nentities: {len(ucc)} "
              f"{Counter(site.page_type(u) for u in ucc)}")
        home = requests.get(seed, timeout=30)
        yield Smoke(folder, seed, server, ucc, same_host_links(home.content, home.url))


def smoke_build(doc: str, size_option: str, default_size: int,
                build: Callable[[Path, int, int], object], argv: Sequence[str] | None,
                check: Callable[[], str | None] = lambda: None) -> Path | None:
    """The sites' smoke tests start alike: parse `folder --<size_option> N --seed S`, say
    what `check()` finds missing (None: nothing), build the site in the folder and print the
    time and its build marker. Returns the folder, None when something is missing."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument(f"--{size_option}", type=int, default=default_size, dest="size")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if (missing := check()) is not None:
        print(missing, file=sys.stderr)
        return None
    started = time.monotonic()
    build(args.folder, args.size, args.seed)
    print(f"build: {time.monotonic() - started:.1f} s (marker: "
          f"{json.loads((args.folder / 'build.json').read_text())})")
    return Path(args.folder)
