"""Replay: the crawl's WARCs are indexed by pywb (`wb-manager`) and captured pages come back
through pywb's replay, including a gzip-encoded page and a revisit record."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from archiver.crawl import Crawl
from tests.sites import EdgeSite, serve_wsgi
from tests.test_crawl import make_profile

BIN = Path(sys.executable).parent
WB_MANAGER = BIN / "wb-manager"
WAYBACK = BIN / "wayback"

pytestmark = pytest.mark.skipif(not WB_MANAGER.exists(), reason="pywb (test extra) not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("replay")
    site = EdgeSite(n_pages=5)
    with serve_wsgi(site) as base:
        Crawl(make_profile(base, tmp / "job"), retry_base=0.05).run()
    pywb_dir = tmp / "pywb"
    pywb_dir.mkdir()
    subprocess.run([str(WB_MANAGER), "init", "edge"], cwd=pywb_dir, check=True,
                   capture_output=True)
    warcs = [str(p) for p in sorted((tmp / "job" / "warcs").glob("*.warc.gz"))]
    subprocess.run([str(WB_MANAGER), "add", "edge", *warcs], cwd=pywb_dir, check=True,
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
        yield root, base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(pywb_dir, ignore_errors=True)


def _replay(root: str, url: str) -> requests.Response:
    # id_ : the archived payload as captured, without pywb's rewriting
    return requests.get(f"{root}/edge/2026id_/{url}", timeout=10)


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
