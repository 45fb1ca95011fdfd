"""Build crawl job folders for tests and benchmarks without crawling.

`demo_job(root)` writes a small, realistic finished job (seeds, redirects, clusters, skipped
and failed URLs, hostile titles and URLs, real WARC files); `JobBuilder` adds rows one by one;
`fill_synthetic(conn, n_pages)` bulk-loads a large crawl for the admin benchmark.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from archiver import db

T0 = 1_700_000_000.0  # 2023-11-14T22:13:20Z
XSS_TITLE = "<script>alert(1)</script>"
HOSTILE_URL = 'https://forum.example.org/search?q="><script>alert(2)</script>'
JS_URL = "javascript:alert(3)"


@dataclass
class JobBuilder:
    """Fill one job folder's database row by row (through `archiver.db.connect`)."""

    root: Path
    name: str = "demo"
    strategy: str = "source-ucc"
    state: str = "finished"
    stop_reason: str | None = "frontier-empty"
    conn: sqlite3.Connection = field(init=False)
    clock: float = field(init=False, default=T0)

    def __post_init__(self) -> None:
        self.dir = self.root / self.name
        (self.dir / "warcs").mkdir(parents=True, exist_ok=True)
        self.conn = db.connect(self.dir / "crawl.sqlite3")
        self.conn.execute(
            "INSERT INTO job (id, name, strategy, profile_path, profile_sha256, profile_yaml,"
            " archiver_version, state, stop_reason, started_at, updated_at) "
            "VALUES (1, ?, ?, ?, ?, ?, '0.1.0', 'running', NULL, ?, ?)",
            (self.name, self.strategy, f"configs/{self.name}.yaml", "ab" * 32,
             f"name: {self.name}\n", T0, T0))

    def tick(self, seconds: float = 0.5) -> float:
        """Advance the fake clock and return it."""
        self.clock += seconds
        return self.clock

    def url(self, url: str, *, state: str = "done", reason: str = "", depth: int = 0,
            parent: int | None = None, via: str = "link", anchor_text: str = "",
            cluster: int | None = None) -> int:
        """Insert a url row; returns its id."""
        host = url.split("/")[2] if "://" in url else ""
        cur = self.conn.execute(
            "INSERT INTO url (url, canon, host, depth, hops, parent_id, via, anchor_text, state,"
            " reason, cluster, discovered_at, fetched_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (url, url, host, depth, "L" * depth, parent, via, anchor_text, state, reason,
             cluster, self.tick(0.01), self.clock if state == "done" else None))
        return int(cur.lastrowid or 0)

    def fetch(self, url_id: int, *, status: int | None = 200, ctype: str = "text/html",
              nbytes: int = 1000, record_type: str = "response", warc_id: int | None = 1,
              error: str = "") -> int:
        """Insert the fetch row of a url."""
        cur = self.conn.execute(
            "INSERT INTO fetch (url_id, fetched_at, status, content_type, bytes, duration,"
            " record_type, payload_digest, warc_file_id, warc_offset, warc_length, error)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (url_id, self.tick(), status, ctype, nbytes, 0.1, record_type,
             f"sha1:{url_id:032d}" if record_type else "", warc_id if record_type else None,
             url_id * 100 if record_type else None, 90 if record_type else None, error))
        return int(cur.lastrowid or 0)

    def page(self, url_id: int, title: str, cluster: int | None = None, n_links: int = 10,
             n_followed: int = 5) -> None:
        """Insert the parsed page of a fetched url."""
        self.conn.execute(
            "INSERT INTO page (url_id, title, cluster, n_links, n_followed) VALUES (?,?,?,?,?)",
            (url_id, title, cluster, n_links, n_followed))

    def link(self, from_id: int, to_id: int, *, follow: bool, reason: str = "",
             text: str = "", score: float = 0.0) -> None:
        """Insert one outlink decision."""
        self.conn.execute(
            "INSERT OR IGNORE INTO link (from_id, to_id, anchor_path, text, follow, score, reason)"
            " VALUES (?,?,?,?,?,?,?)",
            (from_id, to_id, "/html/body/div[@class='nav']/a", text, int(follow), score, reason))

    def cluster(self, cid: int, label: str, size: int, score: float, **info: object) -> None:
        """Insert a learned cluster."""
        self.conn.execute("INSERT INTO cluster (id, label, size, score, info) VALUES (?,?,?,?,?)",
                          (cid, label, size, score, json.dumps(info)))

    def edge(self, src: int, dst: int, weight: float) -> None:
        """Insert a learned navigation edge."""
        self.conn.execute("INSERT INTO cluster_edge (src, dst, weight) VALUES (?,?,?)",
                          (src, dst, weight))

    def warc(self, name: str, *, records: list[tuple[str, bytes]], state: str = "closed") -> int:
        """Write a real WARC file (warcinfo, then a request/response pair per URL) and its
        warc_file row; the file passes `warcio check` and `archiver check`."""
        buf = io.BytesIO()
        writer = WARCWriter(buf, gzip=True)
        info = writer.create_warcinfo_record(name, {"software": "tests.jobfactory",
                                                    "isPartOf": self.name})
        writer.write_record(info)
        info_id = info.rec_headers.get_header("WARC-Record-ID")
        for url, body in records:
            linked = {"WARC-Warcinfo-ID": info_id}
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html"),
                                               ("Content-Length", str(len(body)))],
                                    protocol="HTTP/1.1")
            response = writer.create_warc_record(  # a length: no warcio temp buffer
                url, "response", payload=io.BytesIO(body), length=len(body),
                http_headers=http, warc_headers_dict=linked)
            host = url.split("/")[2]
            request = writer.create_warc_record(
                url, "request", payload=io.BytesIO(b""), length=0,
                http_headers=StatusAndHeaders("GET / HTTP/1.1", [("Host", host)],
                                              is_http_request=True),
                warc_headers_dict={**linked, "WARC-Concurrent-To":
                                   response.rec_headers.get_header("WARC-Record-ID")})
            writer.write_record(response)
            writer.write_record(request)
        data = buf.getvalue()
        on_disk = self.dir / "warcs" / (name + (".open" if state == "open" else ""))
        on_disk.write_bytes(data)
        cur = self.conn.execute(
            "INSERT INTO warc_file (name, state, created_at, closed_at, size, records)"
            " VALUES (?,?,?,?,?,?)",
            (name, state, T0, None if state == "open" else T0 + 60, len(data),
             1 + 2 * len(records)))
        return int(cur.lastrowid or 0)

    def event(self, kind: str, message: str, url: str = "", level: str = "info") -> None:
        """Insert an event row."""
        self.conn.execute("INSERT INTO event (at, level, kind, url, message) VALUES (?,?,?,?,?)",
                          (self.tick(0), level, kind, url, message))

    def finish(self) -> Path:
        """Set the final job state, close the database, and return the job folder."""
        finished = self.tick() if self.state == "finished" else None
        self.conn.execute(
            "UPDATE job SET state = ?, stop_reason = ?, finished_at = ?, updated_at = ?"
            " WHERE id = 1", (self.state, self.stop_reason, finished, self.clock))
        self.conn.close()
        return self.dir


def demo_job(root: Path, name: str = "demo", *, state: str = "finished",
             with_model: bool = True) -> Path:
    """A small realistic job: a forum crawl with clusters, skips, failures and hostile input."""
    b = JobBuilder(root, name=name, state=state,
                   stop_reason="frontier-empty" if state == "finished" else None)
    base = "https://forum.example.org"
    warc1 = b.warc(f"{name}-20231114221320-00000.warc.gz",
                   records=[(f"{base}/", b"<html><title>Forum</title></html>")])
    b.warc(f"{name}-20231114221420-00001.warc.gz", state="open",
           records=[(f"{base}/t/1", b"<html></html>")])
    if with_model:
        b.cluster(0, "index", 3, 0.2, example_urls=[f"{base}/"], top_xpaths=["/html/body/ul"],
                  hub=0.9, authority=0.1, dsim=0.41, content=0.14)
        b.cluster(1, "topic", 40, 0.9, example_urls=[f"{base}/t/1", f"{base}/t/2"],
                  top_xpaths=["/html/body/div[@class='post']"], hub=0.2, authority=0.8,
                  dsim=0.35, content=0.78)
        b.cluster(2, "profile <b>", 10, 0.4, example_urls=[HOSTILE_URL], hub=0.1,
                  authority=0.3)
        b.edge(0, 1, 0.7)
        b.edge(0, 0, 0.2)
        b.edge(1, 2, 0.3)
        b.edge(1, 1, 0.5)
    cl = (lambda c: c) if with_model else (lambda c: None)

    seed = b.url(f"{base}", via="seed", state="done")
    b.fetch(seed, status=301, ctype="text/html", nbytes=0, warc_id=warc1)
    home = b.url(f"{base}/", via="redirect", parent=seed, cluster=cl(0))
    b.fetch(home, warc_id=warc1)
    b.page(home, "Example Forum", cluster=cl(0), n_links=30, n_followed=20)
    login = b.url(f"{base}/login", state="skipped", reason="strategy:low-score", depth=1,
                  parent=home, anchor_text="Log in")
    b.url("https://other.example.com/x", state="skipped", reason="out-of-scope:host", depth=1,
          parent=home)
    b.url(HOSTILE_URL, state="skipped", reason="excluded:/search", depth=1, parent=home,
          anchor_text="<img src=x onerror=alert(4)>")
    b.url(JS_URL, state="skipped", reason="out-of-scope:scheme", depth=1, parent=home)
    for i in range(12):
        b.url(f"{base}/private/{i}", state="skipped", reason="robots", depth=1, parent=home)
    b.url(f"{base}/cal/2023/11/cal/2023/11", state="skipped", reason="trap:repeated-segment",
          depth=2, parent=home)
    b.url(f"{base}/t/99?page=500", state="skipped", reason="budget", depth=3, parent=home)
    b.url(f"{base}/deep", state="skipped", reason="too-deep", depth=31, parent=home)
    for i in range(1, 9):
        topic = b.url(f"{base}/t/{i}", depth=1, parent=home, cluster=cl(1),
                      anchor_text=f"Topic {i}")
        b.fetch(topic, nbytes=5000 + i, record_type="revisit" if i == 8 else "response")
        title = XSS_TITLE if i == 3 else f"Topic {i}"
        b.page(topic, title, cluster=cl(1 if i < 7 else -1), n_links=12, n_followed=4)
        b.link(home, topic, follow=True, reason="strategy:score", text=f"Topic {i}", score=0.9)
    b.link(home, login, follow=False, reason="strategy:low-score", text="Log in", score=0.01)
    user = b.url(f"{base}/u/alice", depth=2, parent=home, cluster=cl(2))
    b.fetch(user, nbytes=3000)
    b.page(user, "alice's profile", cluster=cl(2), n_links=5, n_followed=1)
    css = b.url(f"{base}/style.css", depth=1, parent=home, via="embed")
    b.fetch(css, ctype="text/css", nbytes=800)
    gone = b.url(f"{base}/t/404", depth=1, parent=home)
    b.fetch(gone, status=404, nbytes=200)
    bad = b.url(f"{base}/t/500", state="failed", reason="http 503 after 3 retries", depth=1,
                parent=home)
    b.fetch(bad, status=503, nbytes=100)
    down = b.url("https://cdn.example.org/a.png", state="failed",
                 reason="fetch-error: connection refused", depth=1, parent=home, via="embed")
    b.fetch(down, status=None, ctype="", nbytes=0, record_type="", error="connection refused")
    b.url(f"{base}/t/9", state="queued", depth=1, parent=home)
    b.event("retry", "http 503, retry 1", url=f"{base}/t/500", level="warning")
    b.event("stop", "crawl stopped: frontier-empty")
    return b.finish()


def jobs_folder(root: Path) -> Path:
    """A jobs folder with four jobs: demo (finished, learned model), live (state running: hold
    its lock with `hold_lock` to make it look alive), crashed (running without a crawler,
    so interrupted) and plain (a finished job without a model)."""
    demo_job(root, "demo")
    demo_job(root, "live", state="running")
    demo_job(root, "crashed", state="running")
    demo_job(root, "plain", with_model=False)
    return root


@contextlib.contextmanager
def hold_lock(job_dir: Path) -> Iterator[None]:
    """Hold the job's crawl lock, as a running crawler does."""
    with (job_dir / ".lock").open("a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def fill_synthetic(conn: sqlite3.Connection, n_pages: int, *, n_clusters: int = 12,
                   seed: int = 0) -> None:
    """Bulk-load a crawl of `n_pages` HTML pages (plus skips and failures) for benchmarks."""
    rng = random.Random(seed)
    conn.execute(
        "INSERT INTO job (id, name, strategy, profile_path, profile_sha256, profile_yaml,"
        " archiver_version, state, stop_reason, started_at, updated_at, finished_at)"
        " VALUES (1, 'big', 'source-ucc', 'configs/big.yaml', '', '', '0.1.0', 'finished',"
        " 'max_requests', ?, ?, ?)", (T0, T0 + n_pages, T0 + n_pages))
    for cid in range(-1, n_clusters):
        conn.execute("INSERT INTO cluster (id, label, size, score, info) VALUES (?,?,?,?,?)",
                     (cid, f"type-{cid}", rng.randint(5, 200), rng.random(),
                      json.dumps({"example_urls": [f"https://big.example/{cid}/1"]})))
        for dst in rng.sample(range(n_clusters), 3):
            conn.execute("INSERT OR IGNORE INTO cluster_edge VALUES (?,?,?)",
                         (cid, dst, round(rng.random(), 3)))
    conn.execute("INSERT INTO warc_file (name, state, created_at, size, records)"
                 " VALUES ('big-00000.warc.gz', 'closed', ?, 1000000000, ?)", (T0, 2 * n_pages))
    reasons = ["robots", "out-of-scope:host", "strategy:low-score", "trap:repeated-segment",
               "budget", "too-deep", "excluded:/logout"]
    conn.execute("BEGIN")
    urls, fetches, pages = [], [], []
    uid = 0
    for i in range(n_pages):
        uid += 1
        host = f"h{i % 5}.big.example"
        parent = None if i == 0 else max(1, uid // 20)
        urls.append((uid, f"https://{host}/p/{i}", f"https://{host}/p/{i}", host, i % 17,
                     "seed" if i == 0 else "link", parent, "done", "", T0 + i))
        status = 200 if i % 20 else rng.choice([301, 404, 500])
        fetches.append((uid, T0 + i, status, "text/html", rng.randint(500, 50_000),
                        "response", 1))
        pages.append((uid, f"Page {i}", rng.randrange(-1, n_clusters), 20, 7))
        if i % 9 == 0:  # an embedded image every ninth page
            uid += 1
            url = f"https://{host}/img/{i}.png"
            urls.append((uid, url, url, host, i % 17 + 1, "embed", uid - 1, "done", "", T0 + i))
            fetches.append((uid, T0 + i, 200, "image/png", rng.randint(500, 50_000),
                            "response", 1))
        if i % 2 == 0:  # one skipped URL every second page
            uid += 1
            urls.append((uid, f"https://{host}/s/{i}", f"https://{host}/s/{i}", host, i % 17 + 1,
                         "link", uid - 1, "skipped", reasons[i % len(reasons)], T0 + i))
        if i % 100 == 0:
            uid += 1
            urls.append((uid, f"https://{host}/f/{i}", f"https://{host}/f/{i}", host, 2,
                         "link", uid - 1, "failed", "fetch-error: timeout", T0 + i))
    conn.executemany("INSERT INTO url (id, url, canon, host, depth, via, parent_id, state,"
                     " reason, discovered_at) VALUES (?,?,?,?,?,?,?,?,?,?)", urls)
    conn.executemany("INSERT INTO fetch (url_id, fetched_at, status, content_type, bytes,"
                     " record_type, warc_file_id) VALUES (?,?,?,?,?,?,?)", fetches)
    conn.executemany("INSERT INTO page (url_id, title, cluster, n_links, n_followed)"
                     " VALUES (?,?,?,?,?)", pages)
    conn.execute("COMMIT")
