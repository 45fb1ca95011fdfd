"""Replay: the crawl's WARCs are indexed by pywb (`wb-manager`) and captured pages come back
through pywb's replay, including a gzip-encoded page and a revisit record."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin

import pytest
import requests

from archiver.crawl import Crawl
from archiver.requisites import css_urls
from tests.sites import EdgeSite, serve_wsgi
from tests.test_crawl import make_profile
from tests.test_requisites import StyledSite

BIN = Path(sys.executable).parent
WB_MANAGER = BIN / "wb-manager"
WAYBACK = BIN / "wayback"

pytestmark = pytest.mark.skipif(not WB_MANAGER.exists(), reason="pywb (test extra) not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _wayback(tmp: Path, collection: str, job: Path) -> Iterator[str]:
    """pywb's wayback serving `job`'s WARCs as `collection`; yields its root URL."""
    pywb_dir = tmp / "pywb"
    pywb_dir.mkdir()
    subprocess.run([str(WB_MANAGER), "init", collection], cwd=pywb_dir, check=True,
                   capture_output=True)
    warcs = [str(p) for p in sorted((job / "warcs").glob("*.warc.gz"))]
    subprocess.run([str(WB_MANAGER), "add", collection, *warcs], cwd=pywb_dir, check=True,
                   capture_output=True)
    port = _free_port()
    proc = subprocess.Popen([str(WAYBACK), "-p", str(port), "-b", "127.0.0.1"], cwd=pywb_dir,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    root = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                requests.get(root + "/", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        yield root
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(pywb_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("replay")
    site = EdgeSite(n_pages=5)
    with serve_wsgi(site) as base:
        Crawl(make_profile(base, tmp / "job"), retry_base=0.05).run()
    with _wayback(tmp, "edge", tmp / "job") as root:
        yield root, base


def _replay(root: str, url: str, collection: str = "edge") -> requests.Response:
    # id_ : the archived payload as captured, without pywb's rewriting
    return requests.get(f"{root}/{collection}/2026id_/{url}", timeout=10)


def test_captured_page_replays(replay):
    root, base = replay
    resp = _replay(root, base + "/p/3")
    assert resp.status_code == 200
    assert b"content of page 3" in resp.content


def test_gzip_encoded_page_replays_decoded(replay):
    root, base = replay
    resp = _replay(root, base + "/gz")
    assert resp.status_code == 200
    assert b"gzip encoded body" in resp.content


def test_revisit_resolves_to_original_payload(replay):
    root, base = replay
    a, b = _replay(root, base + "/dup-a"), _replay(root, base + "/dup-b")
    assert a.status_code == b.status_code == 200
    assert b"identical payload" in b.content and a.content == b.content


def test_redirect_replays_as_redirect(replay):
    root, base = replay
    resp = requests.get(f"{root}/edge/2026id_/{base}/r1", timeout=10, allow_redirects=False)
    assert resp.status_code in (301, 302, 307)


def test_stylesheet_requisites_replay_where_pywb_rewrites_them(tmp_path):
    """With `scope.embeds`, a replayed stylesheet's references (an imported stylesheet, a
    font), resolved as a browser resolves them against the replayed stylesheet, come back
    from the archive, as do the page's srcset candidates and style-attribute images."""
    with serve_wsgi(StyledSite()) as base:
        Crawl(make_profile(base, tmp_path / "job", scope={"embeds": True}),
              retry_base=0.05).run()
    with _wayback(tmp_path, "styled", tmp_path / "job") as root:
        css_url = f"{root}/styled/2026cs_/{base}/s.css"
        css = requests.get(css_url, timeout=10)
        assert css.status_code == 200
        refs = [urljoin(css.url, ref) for ref in css_urls(css.text)]
        assert [ref.rsplit("/", 1)[1] for ref in refs[:2]] == ["base.css", "f.woff2"]
        for ref in refs[:2]:
            assert requests.get(ref, timeout=10).status_code == 200, ref
        for path in ("/i/x-300.jpg", "/i/x-900.jpg", "/i/banner.png"):
            resp = _replay(root, base + path, "styled")
            assert resp.status_code == 200 and resp.content == b"\x89PNG " + path.encode()
