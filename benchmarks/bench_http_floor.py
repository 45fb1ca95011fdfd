"""CPU of one HTTP GET per client stack on loopback, against the bare floor, in one run.

Issue #2 asks that archiver's CPU per page be at most 2x the bare floor (lxml parse + warcio
gzip write of the same bodies, in one process; see bench_crawl.py) and that HTTP go through
`requests`. This benchmark asks whether that target is reachable at all: it measures what
fetching a page costs in CPU alone, with nothing else archiver does, for each client stack:
- requests `Session.get(url, stream=True, allow_redirects=False)` + `raw.read(decode_content=
  False)`, on a session configured like Fetcher's (trust_env off, no retries) and on a default
  `requests.Session()` (trust_env on: proxy variables and ~/.netrc are looked up per request);
- requests `HTTPAdapter.send` of a request prepared like `Fetcher._prepare` does (the path
  archiver/fetcher.py takes), then the same raw read;
- urllib3 `HTTPConnectionPool.urlopen(preload_content=False, retries=False, redirect=False)` +
  `read(decode_content=False)` (requests' own transport);
- `http.client.HTTPConnection` keep-alive request/getresponse/read;
- archiver's own `Fetcher.fetch` (fetch only: no robots.txt, no crawl loop, no WARC);
and the floor. Every client keeps one connection alive for the whole site (opened by a warm-up
GET before timing). CPU is user+system time of this process from os.times(), so the server
(nginx when installed, else http.server, in its own process) is not counted. For each client
the lower bound on archiver's ratio is (client GET + floor) / floor: the ratio archiver would
have if everything else it does (SQLite state, link extraction, scope rules, request and
metadata WARC records) cost nothing. The site, the server and the floor are bench_crawl.py's.
Medians over --runs runs; ratios are taken within each run, then their median reported; the
order of the measurements rotates from run to run.

    python benchmarks/bench_http_floor.py --runs 5 --out benchmarks/results/http-floor.txt
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from urllib.parse import urlsplit

import requests
import urllib3
from requests.adapters import HTTPAdapter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from archiver.fetcher import Fetcher
from benchmarks.bench_crawl import emit, generate_site, run_floor, start_server

USER_AGENT = "archiver-bench/0.1"
TIMEOUT = (10.0, 30.0)  # Fetcher's default (connect, read) timeouts

# A client takes the site's URLs and returns (2xx responses, body bytes read).
Client = Callable[[list[str]], tuple[int, int]]


def _session() -> requests.Session:
    """A session configured like Fetcher's: no environment, no retries, its headers."""
    session = requests.Session()
    session.trust_env = False
    for prefix in ("http://", "https://"):
        session.mount(prefix, HTTPAdapter(max_retries=0))
    session.headers.update({"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"})
    return session


def _requests_client(send: Callable[[str], requests.Response]) -> Client:
    """A client that sends each URL with `send` and reads the raw body as archiver does."""
    def run(urls: list[str]) -> tuple[int, int]:
        ok = size = 0
        for url in urls:
            resp = send(url)
            body = resp.raw.read(decode_content=False)
            resp.close()
            ok += resp.status_code == 200
            size += len(body)
        return ok, size
    return run


def session_get(session: requests.Session) -> Client:
    return _requests_client(lambda url: session.get(
        url, stream=True, allow_redirects=False, timeout=TIMEOUT))


def adapter_send(session: requests.Session) -> Client:
    """Fetcher.fetch's request path: _prepare's steps, then the adapter's send."""
    def send(url: str) -> requests.Response:
        prepared = requests.PreparedRequest()
        prepared.prepare_method("GET")
        prepared.prepare_url(url, None)
        prepared.prepare_headers(session.headers)
        if len(session.cookies):
            prepared.prepare_cookies(session.cookies)
        prepared.prepare_body(None, None, None)
        prepared.prepare_auth(None, url)
        return session.get_adapter(prepared.url or url).send(
            prepared, stream=True, verify=True, proxies={}, timeout=TIMEOUT)
    return _requests_client(send)


def urllib3_pool(pool: urllib3.HTTPConnectionPool) -> Client:
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"}

    def run(urls: list[str]) -> tuple[int, int]:
        ok = size = 0
        for url in urls:
            resp = pool.urlopen("GET", urlsplit(url).path, headers=headers,
                                preload_content=False, retries=False, redirect=False)
            body = resp.read(decode_content=False)
            resp.release_conn()
            ok += resp.status == 200
            size += len(body)
        return ok, size
    return run


def http_client(conn: http.client.HTTPConnection) -> Client:
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"}

    def run(urls: list[str]) -> tuple[int, int]:
        ok = size = 0
        for url in urls:
            conn.request("GET", urlsplit(url).path, headers=headers)
            resp = conn.getresponse()
            body = resp.read()
            ok += resp.status == 200
            size += len(body)
        return ok, size
    return run


def fetcher_fetch(fetcher: Fetcher) -> Client:
    def run(urls: list[str]) -> tuple[int, int]:
        ok = size = 0
        for url in urls:
            ex = fetcher.fetch(url)
            ok += ex.status == 200
            size += len(ex.body)
        return ok, size
    return run


def cpu_seconds() -> float:
    """User+system CPU time of this process (not its children)."""
    t = os.times()
    return t.user + t.system


def measure(client: Client, urls: list[str], expected_bytes: int) -> float:
    """CPU seconds of GETting every URL once; raises unless every body came back whole."""
    client(urls[:1])  # warm-up: opens the keep-alive connection outside the timing
    cpu0 = cpu_seconds()
    ok, size = client(urls)
    cpu = cpu_seconds() - cpu0
    if ok != len(urls) or size != expected_bytes:
        raise RuntimeError(f"{ok}/{len(urls)} responses were 200, "
                           f"{size}/{expected_bytes} body bytes read")
    return cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    names = {
        "http.client": "http.client.HTTPConnection keep-alive request/getresponse/read",
        "urllib3": "urllib3 HTTPConnectionPool.urlopen + read(decode_content=False)",
        "adapter": "requests HTTPAdapter.send of a prepared request + raw.read",
        "session": "requests Session.get(stream=True) + raw.read (session set up as Fetcher's)",
        "session_default": "the same on a default requests.Session() (trust_env on)",
        "fetcher": "archiver Fetcher.fetch (fetch only: no robots.txt, no WARC)",
    }
    ms: dict[str, list[float]] = {k: [] for k in ("floor", *names)}
    load_before = os.getloadavg()[0]  # other processes inflate every CPU figure alike
    with tempfile.TemporaryDirectory(prefix="archiver-bench-") as tmp:
        work = Path(tmp)
        work.chmod(0o755)  # nginx started as root serves files as `nobody` (see bench_crawl)
        paths = generate_site(work / "site", args.pages)
        expected = sum(p.stat().st_size for p in paths)
        server, base, kind = start_server(work / "site", work)
        urls = [f"{base}/{p.name}" for p in paths]
        port = urlsplit(base).port
        session, default_session = _session(), requests.Session()
        pool = urllib3.HTTPConnectionPool("127.0.0.1", port, maxsize=1,
                                          timeout=urllib3.Timeout(*TIMEOUT))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT[1])
        fetcher = Fetcher(USER_AGENT)
        clients: dict[str, Client] = {
            "http.client": http_client(conn), "urllib3": urllib3_pool(pool),
            "adapter": adapter_send(session), "session": session_get(session),
            "session_default": session_get(default_session),
            "fetcher": fetcher_fetch(fetcher)}
        order = ["floor", *clients]
        try:
            for run in range(args.runs):
                shift = run % len(order)
                for key in order[shift:] + order[:shift]:
                    cpu = (run_floor(paths, work) if key == "floor"
                           else measure(clients[key], urls, expected))
                    ms[key].append(1000 * cpu / len(paths))
                print(f"run {run + 1}: " + ", ".join(f"{k} {v[-1]:.3f}" for k, v in ms.items())
                      + " CPU ms/page", file=sys.stderr)
        finally:
            fetcher.close()
            session.close()
            default_session.close()
            pool.close()
            conn.close()
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)
    ratio = {k: [(c + f) / f for c, f in zip(ms[k], ms["floor"], strict=True)] for k in names}
    med = {k: statistics.median(v) for k, v in ms.items()}
    libs = ", ".join(f"{name} {version(name)}" for name in ("requests", "urllib3", "lxml",
                                                             "warcio"))
    table = "\n".join(
        f"| {names[k]} | {med[k]:.3f} | {statistics.median(ratio[k]):.2f} "
        f"| {', '.join(f'{x:.3f}' for x in ms[k])} |" for k in names)
    report = f"""# HTTP client CPU vs the bare floor (benchmarks/bench_http_floor.py)

Issue #2 asks for archiver CPU per page <= 2x the bare floor (lxml parse + warcio gzip write of
the same bodies, in one process) and for `requests` as the HTTP library. This measures what one
GET costs in CPU alone per client stack, on loopback, against that floor: the lower bound is
the ratio archiver would have if nothing but the GET and the floor cost anything (no SQLite
state, link extraction, scope rules, request or metadata WARC records). Reproduce with
`python benchmarks/bench_http_floor.py --runs 5 --out benchmarks/results/http-floor.txt`.

date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}
machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}
libraries: {libs}
load average (1 min) before / after the runs: {load_before:.2f} / {os.getloadavg()[0]:.2f}
site: {args.pages} generated static HTML pages ({expected / len(paths) / 1000:.1f} kB mean), \
server: {kind}, loopback, one keep-alive connection per client
runs: {args.runs} (medians below; ratios taken within each run, then the median)
CPU: user+system of this process, os.times() (resolution {1000 / os.sysconf('SC_CLK_TCK'):g} ms \
per reading, i.e. {2000 / os.sysconf('SC_CLK_TCK') / args.pages:.3f} ms/page at worst per run)

| measured | CPU ms/page | lower bound on archiver/floor = (GET + floor) / floor \
| per run, CPU ms/page |
|---|---|---|---|
| bare floor (lxml parse + warcio gzip write) | {med['floor']:.3f} | 1.00 \
| {', '.join(f'{x:.3f}' for x in ms['floor'])} |
{table}

Target (issue #2): archiver CPU / floor CPU <= 2.0. A lower bound above 2.0 means that client
alone, with everything else archiver does costing nothing, already misses it.
"""
    emit(report, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
