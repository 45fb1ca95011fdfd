"""Whole crawls of a local edge-case site, then assertions on the WARCs, database and logs."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from warcio.archiveiterator import ArchiveIterator

from archiver.crawl import Crawl
from archiver.profile import profile_from_dict
from archiver.warccheck import check_file
from tests.sites import EdgeSite, serve_wsgi

WARCIO = str(Path(sys.executable).with_name("warcio"))


def make_profile(base: str, out: Path, **extra):
    data = {"name": "edge", "seeds": [base + "/"],
            "politeness": {"delay": 0, "retries": 3},
            "limits": {"max_page_bytes": 100_000, "max_requests": 500},
            "output": {"dir": str(out)}}
    for key, value in extra.items():
        data.setdefault(key, {}).update(value) if isinstance(value, dict) else data.update(
            {key: value})
    return profile_from_dict(data)


def records(folder: Path) -> list:
    out = []
    for path in sorted((folder / "warcs").glob("*.warc.gz")):
        with path.open("rb") as fh:
            for rec in ArchiveIterator(fh):
                out.append((path.name, rec.rec_type, dict(rec.rec_headers.headers),
                            rec.http_headers, rec.content_stream().read()))
    return out


@pytest.fixture(scope="module")
def edge_crawl(tmp_path_factory):
    site = EdgeSite()
    out = tmp_path_factory.mktemp("edge") / "job"
    with serve_wsgi(site) as base:
        result = Crawl(make_profile(base, out), retry_base=0.05).run()
    return site, base, out, result


def test_crawl_archives_every_reachable_page_once(edge_crawl):
    site, _, out, result = edge_crawl
    assert result.stop_reason == "frontier-empty"
    recs = records(out)
    captured = Counter(urlsplit(h["WARC-Target-URI"]).path for _, t, h, _, _ in recs
                       if t in ("response", "revisit"))
    assert set(captured) == site.archivable_paths()
    assert all(n == 1 for n in captured.values()), captured


def test_every_warc_is_valid(edge_crawl):
    _, _, out, _ = edge_crawl
    files = sorted((out / "warcs").glob("*"))
    assert files and all(f.name.endswith(".warc.gz") for f in files)
    for f in files:
        assert check_file(f) == []
        assert subprocess.run([WARCIO, "check", str(f)]).returncode == 0


def test_robots_disallow_is_honoured_and_robots_archived(edge_crawl):
    site, _, out, _ = edge_crawl
    assert "/private/secret" not in site.hits
    conn = sqlite3.connect(out / "crawl.sqlite3")
    (reason,) = conn.execute("SELECT reason FROM url WHERE url LIKE '%/private/secret'").fetchone()
    assert reason == "robots"
    bodies = [b for _, t, h, _, b in records(out)
              if t == "response" and h["WARC-Target-URI"].endswith("/robots.txt")]
    assert bodies == [b"User-agent: *\nDisallow: /private/\n"]


def test_redirect_chain_archived_hop_by_hop_and_scope_kept(edge_crawl):
    site, _, out, _ = edge_crawl
    statuses = {urlsplit(h["WARC-Target-URI"]).path: http.get_statuscode()
                for _, t, h, http, _ in records(out) if t == "response"}
    assert statuses["/r1"] == "301" and statuses["/r2"] == "301" and statuses["/r3"] == "200"
    assert statuses["/away"] == "302"
    conn = sqlite3.connect(out / "crawl.sqlite3")
    (reason,) = conn.execute("SELECT reason FROM url WHERE url = ?", (site.external,)).fetchone()
    assert reason.startswith("redirect-out-of-scope") or reason.startswith("out-of-scope")
    fetched_hosts = {urlsplit(u).hostname for (u,) in conn.execute(
        "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id")}
    assert fetched_hosts == {"127.0.0.1"}


def test_size_cap_truncates_and_marks_record(edge_crawl):
    _, _, out, _ = edge_crawl
    (big,) = [(h, b) for _, t, h, _, b in records(out)
              if t == "response" and h["WARC-Target-URI"].endswith("/big")]
    headers, body = big
    assert headers.get("WARC-Truncated") == "length"
    assert len(body) <= 100_000


def test_retries_on_503_and_429(edge_crawl):
    site, _, out, _ = edge_crawl
    assert site.hits["/flaky503"] == 3 and site.hits["/flaky429"] == 2
    statuses = {urlsplit(h["WARC-Target-URI"]).path: http.get_statuscode()
                for _, t, h, http, _ in records(out) if t == "response"}
    assert statuses["/flaky503"] == "200" and statuses["/flaky429"] == "200"
    conn = sqlite3.connect(out / "crawl.sqlite3")
    assert conn.execute("SELECT COUNT(*) FROM event WHERE kind = 'retry'").fetchone()[0] == 3


def test_duplicate_payload_written_as_revisit(edge_crawl):
    _, _, out, _ = edge_crawl
    dup = {urlsplit(h["WARC-Target-URI"]).path: (t, h) for _, t, h, _, _ in records(out)
           if urlsplit(h.get("WARC-Target-URI", "")).path in ("/dup-a", "/dup-b")
           and t in ("response", "revisit")}
    kinds = sorted(t for t, _ in dup.values())
    assert kinds == ["response", "revisit"]
    revisit = next(h for t, h in dup.values() if t == "revisit")
    original = next(h for t, h in dup.values() if t == "response")
    assert revisit["WARC-Refers-To-Target-URI"] == original["WARC-Target-URI"]
    assert revisit["WARC-Refers-To-Date"] == original["WARC-Date"]


def test_gzip_body_stays_encoded_in_warc(edge_crawl):
    _, _, out, _ = edge_crawl
    (body,) = [b for _, t, h, http, b in records(out) if t == "response"
               and h["WARC-Target-URI"].endswith("/gz")]
    assert b"gzip encoded body" in body  # content_stream() undoes Content-Encoding ...
    raw = []
    for path in (out / "warcs").glob("*.warc.gz"):
        with path.open("rb") as fh:
            raw += [rec.raw_stream.read() for rec in ArchiveIterator(fh)
                    if rec.rec_type == "response"
                    and rec.rec_headers.get_header("WARC-Target-URI").endswith("/gz")]
    assert len(raw) == 1 and raw[0][:2] == b"\x1f\x8b"  # ... but the record holds gzip bytes


def test_request_response_pairs_and_metadata(edge_crawl):
    _, _, out, _ = edge_crawl
    recs = records(out)
    ids = {h["WARC-Record-ID"]: t for _, t, h, _, _ in recs}
    for _, t, h, _, _ in recs:
        if t == "warcinfo":
            continue
        assert "WARC-Warcinfo-ID" in h
        if t in ("request", "metadata"):
            assert ids[h["WARC-Concurrent-To"]] in ("response", "revisit")
    (meta,) = [b for _, t, h, _, b in recs if t == "metadata"
               and urlsplit(h["WARC-Target-URI"]).path == "/"]
    assert b"outlink: " in meta and b"/p/3 L " in meta
    resources = {h["WARC-Target-URI"] for _, t, h, _, _ in recs if t == "resource"}
    assert any(u.endswith("crawl.log") for u in resources)
    assert any(u.endswith("profile.yaml") for u in resources)


def test_reports_and_crawl_log_written(edge_crawl):
    _, _, out, _ = edge_crawl
    assert (out / "report.json").exists() and (out / "report.html").exists()
    log = (out / "crawl.log").read_text()
    assert " -9998 " in log  # robots-precluded line, Heritrix code
    assert "/r1 " in log


def test_report_names_the_closed_warc_files(edge_crawl):
    """report.json/html are written after the last WARC is closed and renamed."""
    import json

    _, _, out, _ = edge_crawl
    report = json.loads((out / "report.json").read_text())
    on_disk = sorted(p.name for p in (out / "warcs").iterdir())
    assert [w["file"] for w in report["warcs"]] == on_disk
    assert all(not w["file"].endswith(".open") for w in report["warcs"])
    assert all(w["state"] == "closed" and w["size"] == w["disk_size"] for w in report["warcs"])
    assert ".warc.gz.open" not in (out / "report.html").read_text()
    # The copy archived in the WARC is the snapshot taken while that file was open.
    archived = [b for _, t, h, _, b in records(out)
                if t == "resource" and h["WARC-Target-URI"].endswith(":report.json")]
    assert len(archived) == 1 and json.loads(archived[0])["format"] == "archiver.report"


def test_second_run_resumes_without_refetching(edge_crawl, tmp_path):
    site, base, out, _ = edge_crawl
    before = dict(site.hits)
    # rerun on the finished job with the same profile: the frontier is empty, nothing fetched
    result = Crawl(make_profile(base, out), retry_base=0.05).run()
    assert result.resumed and result.stop_reason == "frontier-empty"
    assert site.hits == before


class FlakyRobotsSite:
    """robots.txt answers 503 twice, then allows everything; two pages."""

    def __init__(self) -> None:
        self.robots_hits = 0

    def __call__(self, environ, start):
        path = environ["PATH_INFO"]
        if path == "/robots.txt":
            self.robots_hits += 1
            if self.robots_hits <= 2:
                start("503 Service Unavailable", [("Content-Type", "text/plain")])
                return [b"down"]
            start("200 OK", [("Content-Type", "text/plain")])
            return [b"User-agent: *\nDisallow:\n"]
        start("200 OK", [("Content-Type", "text/html")])
        return [b'<html><body><a href="/two">two</a></body></html>']


def test_unreachable_robots_txt_delays_the_crawl_instead_of_skipping_it(tmp_path):
    site = FlakyRobotsSite()
    with serve_wsgi(site) as base:
        result = Crawl(make_profile(base, tmp_path / "job"), retry_base=0.05,
                       robots_retry=0.2).run()
    assert result.stop_reason == "frontier-empty"
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    states = dict(conn.execute("SELECT url, state FROM url WHERE via != 'robots'").fetchall())
    assert set(states.values()) == {"done"} and len(states) == 2
    assert site.robots_hits == 3


def _home_linking(names: str):
    """A site whose home page links /a, /b, ... (one page per letter of `names`, in that
    order) and whose other pages link nothing."""
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html")])
        links = "".join(f'<a href="/{c}">{c}</a>' for c in names) \
            if environ["PATH_INFO"] == "/" else ""
        return [f"<html><body><p>x</p>{links}</body></html>".encode()]

    return app


def test_a_popped_url_is_rejudged_and_skipped_when_the_strategy_changed_its_mind(
        tmp_path, monkeypatch):
    """Between two periodic re-rankings a learning strategy may learn that links it queued
    are not worth following (harvest evidence, duplicate views). The loop asks again when
    it pops such a URL: /b, queued as followed and now judged low-value, is not fetched and
    keeps the strategy's reason; /a and /c are fetched."""
    from archiver import strategies
    from archiver.strategies import Decision

    class ChangesItsMind(strategies.REGISTRY["bfs"]):   # type: ignore[misc,valid-type]
        rescore_interval = 1000

        def decide(self, visit, links):
            return [Decision(link.url, True, 1.0, "good") for link in links]

        def rescore(self, queued):
            for q in queued:
                bad = q.url.endswith("/b")
                yield q.id, Decision(q.url, not bad, 1.0, "low-value:-1" if bad else "good",
                                     -1 if bad else None)

    monkeypatch.setitem(strategies.REGISTRY, "bfs", ChangesItsMind)
    with serve_wsgi(_home_linking("abc")) as base:
        Crawl(make_profile(base, tmp_path / "job")).run()
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    rows = {urlsplit(u).path: (s, r, c) for u, s, r, c in conn.execute(
        "SELECT url, state, reason, cluster FROM url WHERE url != ?", (base + "/",))}
    assert rows["/b"] == ("skipped", "strategy:low-value:-1", -1)
    assert rows["/a"][0] == rows["/c"][0] == "done"
    fetched = {urlsplit(h["WARC-Target-URI"]).path for _, t, h, _, _ in records(tmp_path / "job")
               if t in ("response", "revisit")}
    assert "/b" not in fetched and {"/a", "/c"} <= fetched


@pytest.mark.parametrize("share", [0.5, 0.0])
def test_a_popped_url_judged_far_below_its_queue_priority_is_requeued_there(
        tmp_path, monkeypatch, share):
    """Between two periodic re-rankings a learning strategy may learn that a kind of link
    it ranked first leads to little (a forum's "last post" links, each a redirect to a
    thread already fetched). A popped URL whose priority, judged again, has fallen below
    `requeue_share` of its queued priority is put back at the new one, not fetched: /a
    and /b, queued at 1.0 and now worth 0.1, come after /c (0.5); /d, now 0.6, is fetched
    at its turn; /f, now below 0, comes last. /e, queued below 0 (a file, after every page)
    and judged further below, is fetched at its turn: a share of a negative priority is
    above it, and requeueing it there would never end. With the share 0 the popped URLs
    are fetched in their queued order."""
    from archiver import strategies
    from archiver.strategies import Decision

    first = {"a": 1.0, "b": 0.9, "c": 0.5, "d": 0.8, "e": -0.5, "f": 0.7}
    now = {"a": 0.1, "b": 0.1, "c": 0.5, "d": 0.6, "e": -1.0, "f": -0.6}

    class Drifts(strategies.REGISTRY["bfs"]):   # type: ignore[misc,valid-type]
        rescore_interval = 1000
        requeue_share = share

        def decide(self, visit, links):
            return [Decision(link.url, True, first[urlsplit(link.url).path[1:]], "first")
                    for link in links]

        def rescore(self, queued):
            for q in queued:
                yield q.id, Decision(q.url, True, now[urlsplit(q.url).path[1:]], "now")

    monkeypatch.setitem(strategies.REGISTRY, "bfs", Drifts)
    with serve_wsgi(_home_linking("abcdef")) as base:     # (a URL requeued for ever: stop)
        result = Crawl(make_profile(base, tmp_path / "job", limits={"max_duration": 30})).run()
    assert result.stop_reason == "frontier-empty"
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    order = [urlsplit(u).path for (u,) in conn.execute(
        "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id WHERE u.via != 'robots' "
        "ORDER BY f.id")]
    if share:
        assert order == ["/", "/d", "/c", "/a", "/b", "/e", "/f"]
    else:
        assert order == ["/", "/a", "/b", "/d", "/f", "/c", "/e"]


def test_the_strategy_can_ask_for_a_re_ranking_before_the_interval_is_up(
        tmp_path, monkeypatch):
    """A learning strategy whose values moved (a cluster's pages stopped bringing anything)
    says so after a page (`rescore_due`), and the queue is re-ranked then, not at the next
    `rescore_interval` pages: /d, last by the first ranking and first by the second, is
    fetched right after the page that made the strategy ask."""
    from archiver import strategies
    from archiver.strategies import Decision

    class AsksOnce(strategies.REGISTRY["bfs"]):   # type: ignore[misc,valid-type]
        rescore_interval = 1000
        asked = 0

        def decide(self, visit, links):
            return [Decision(link.url, True, 1.0 - 0.1 * n, "first") for n, link
                    in enumerate(links)]

        def rescore(self, queued):
            for q in queued:
                yield q.id, Decision(q.url, True, 2.0 if q.url.endswith("/d") else 0.5,
                                     "second")

        def rescore_due(self):
            AsksOnce.asked += 1
            return AsksOnce.asked == 2          # after the second page, once

    monkeypatch.setitem(strategies.REGISTRY, "bfs", AsksOnce)
    with serve_wsgi(_home_linking("abcd")) as base:
        Crawl(make_profile(base, tmp_path / "job")).run()
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    order = [urlsplit(u).path for (u,) in conn.execute(
        "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id WHERE u.via != 'robots' "
        "ORDER BY f.id")]
    assert order == ["/", "/a", "/d", "/b", "/c"]
    assert conn.execute("SELECT COUNT(*) FROM event WHERE kind = 'rescore'").fetchone() == (1,)


def test_the_periodic_re_ranking_counts_requests_not_pages(tmp_path, monkeypatch):
    """The queue is re-ranked every `rescore_interval` requests, redirects included: what a
    learning strategy learns from a run of redirects to pages it already has (their cost)
    reaches the queue without waiting for pages. The home page links /r1../r4, each a
    redirect back home, ranked first, then /c and /d; the re-ranking puts /d first, so it
    comes before /r3 (counting pages, it came last: the zoo forum's in-post links, 376
    redirects, 62 new pages, were never re-ranked below the member profiles)."""
    from archiver import strategies
    from archiver.strategies import Decision

    names = ["r1", "r2", "r3", "r4", "c", "d"]

    class Ranks(strategies.REGISTRY["bfs"]):   # type: ignore[misc,valid-type]
        rescore_interval = 4

        def decide(self, visit, links):
            return [Decision(link.url, True, 1.0 - 0.1 * names.index(urlsplit(link.url)
                                                                    .path[1:]), "first")
                    for link in links]

        def rescore(self, queued):
            for q in queued:
                yield q.id, Decision(q.url, True, 2.0 if q.url.endswith("/d") else 0.1,
                                     "second")

    def app(environ, start_response):
        path = environ["PATH_INFO"]
        if path.startswith("/r"):
            start_response("302 Found", [("Location", "/"), ("Content-Length", "0")])
            return [b""]
        start_response("200 OK", [("Content-Type", "text/html")])
        links = "".join(f'<a href="/{n}">{n}</a>' for n in names) if path == "/" else ""
        return [f"<html><body><p>x</p>{links}</body></html>".encode()]

    monkeypatch.setitem(strategies.REGISTRY, "bfs", Ranks)
    with serve_wsgi(app) as base:
        Crawl(make_profile(base, tmp_path / "job")).run()
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    order = [urlsplit(u).path for (u,) in conn.execute(
        "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id WHERE u.via != 'robots' "
        "ORDER BY f.id")]
    assert order[:2] == ["/", "/r1"] and sorted(order) == sorted(["/", *(f"/{n}" for n in names)])
    assert order.index("/d") < order.index("/r3")   # counting pages: after /c, last


def test_the_strategy_is_told_the_link_that_was_followed_not_the_first_one_seen(
        tmp_path, monkeypatch):
    """/a is shown first by the home page's menu, whose links the strategy skips, and then
    by /b's text, whose links it follows: /a is fetched for /b's link, and the strategy is
    told so before the page is described (a learning strategy counts what a page turned out
    to be against the kind of link that led to it). A seed has no link; a redirect's target
    has the redirecting URL."""
    from archiver import strategies
    from archiver.strategies import Decision

    told: dict[str, tuple[str, str]] = {}
    described: list[str] = []

    class Records(strategies.REGISTRY["bfs"]):   # type: ignore[misc,valid-type]
        def fetched_by(self, url, parent_url, anchor_path):
            told[urlsplit(url).path] = (urlsplit(parent_url).path, anchor_path)

        def describe(self, visit):
            assert urlsplit(visit.page.url).path in told     # told first
            described.append(visit.page.url)
            return super().describe(visit)

        def decide(self, visit, links):
            return [Decision(link.url, "/nav" not in link.anchor_path, 1.0, "menu")
                    for link in links]

    def app(environ, start_response):
        path = environ["PATH_INFO"]
        if path == "/r":
            start_response("302 Found", [("Location", "/c")])
            return [b""]
        start_response("200 OK", [("Content-Type", "text/html")])
        body = {"/": '<nav><a href="/a">a</a></nav><main><a href="/b">b</a></main>',
                "/b": '<main><a href="/a">a</a><a href="/r">r</a></main>'}.get(path, "")
        return [f"<html><body><p>x</p>{body}</body></html>".encode()]

    monkeypatch.setitem(strategies.REGISTRY, "bfs", Records)
    with serve_wsgi(app) as base:
        Crawl(make_profile(base, tmp_path / "job")).run()
    assert told["/"] == ("", "")
    assert told["/a"][0] == "/b" and "/main" in told["/a"][1]
    assert told["/r"][0] == "/b" and told["/c"] == ("/r", "")
    assert len(described) == 4


class ChainSite:
    """A blog's "older posts" chain: / links /page/1, each /page/N links /page/N+1 (to
    /page/12) and its post /post/N. Counts how often each path was served."""

    LAST = 12

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()

    def __call__(self, environ, start):
        path = environ["PATH_INFO"]
        self.hits[path] += 1
        if path == "/robots.txt":
            start("404 Not Found", [("Content-Type", "text/plain")])
            return [b""]
        n = int(path.rsplit("/", 1)[1]) if path.startswith(("/page/", "/post/")) else 0
        links = "" if path.startswith("/post/") else (
            f'<a href="/page/{n + 1}">older</a> ' if n < self.LAST else "") + \
            (f'<a href="/post/{n}">post {n}</a>' if n else "")
        start("200 OK", [("Content-Type", "text/html")])
        return [f"<html><body><p>{path}</p>{links}</body></html>".encode()]


def test_a_wider_scope_on_resume_follows_what_the_old_one_left_out(tmp_path):
    """The report tells an archivist that URLs lay beyond max_depth; raising it and running
    the job again fetches them, each once (before, the second run found the frontier empty)."""
    site = ChainSite()
    with serve_wsgi(site) as base:
        out = tmp_path / "job"
        first = Crawl(make_profile(base, out, scope={"max_depth": 3})).run()
        assert first.stop_reason == "frontier-empty"
        assert "/page/4" not in site.hits and site.hits["/page/3"] == 1
        conn = sqlite3.connect(out / "crawl.sqlite3")
        assert conn.execute("SELECT COUNT(*) FROM url WHERE reason = 'too-deep'").fetchone() \
            == (2,)                                       # /page/4 and /post/3
        second = Crawl(make_profile(base, out, scope={"max_depth": 30})).run()
        assert second.resumed and second.stop_reason == "frontier-empty"
    pages = {f"/page/{n}" for n in range(1, ChainSite.LAST + 1)}
    posts = {f"/post/{n}" for n in range(1, ChainSite.LAST + 1)}
    assert set(site.hits) == {"/", "/robots.txt"} | pages | posts
    assert [p for p, n in site.hits.items() if n > 1 and p != "/robots.txt"] == []
    assert conn.execute("SELECT COUNT(*) FROM url WHERE reason = 'too-deep'").fetchone() == (0,)
    assert conn.execute("SELECT message FROM event WHERE kind = 'rescope'").fetchone()[0] == \
        ("the profile's scope changed: 2 URLs skipped before are queued, 0 queued URLs are "
         "now out of scope")


def test_a_narrower_scope_on_resume_is_obeyed_for_urls_already_queued(tmp_path):
    """The crawler never leaves a profile's scope: URLs queued by an earlier run that the
    profile now excludes are skipped, not fetched."""
    site = ChainSite()
    with serve_wsgi(site) as base:
        out = tmp_path / "job"
        first = Crawl(make_profile(base, out, limits={"max_requests": 5})).run()
        assert first.stop_reason == "max_requests"
        conn = sqlite3.connect(out / "crawl.sqlite3")
        queued = {u for (u,) in conn.execute("SELECT url FROM url WHERE state = 'queued'")}
        assert any("/post/" in u for u in queued)
        second = Crawl(make_profile(base, out, scope={"exclude": ["/post/"]})).run()
        assert second.resumed and second.stop_reason == "frontier-empty"
    assert all(urlsplit(u).path not in site.hits for u in queued if "/post/" in u)
    assert conn.execute("SELECT COUNT(*) FROM url WHERE state = 'skipped' AND reason ="
                        " 'excluded:/post/'").fetchone()[0] >= 1
    assert f"/page/{ChainSite.LAST}" in site.hits


def _skips_posts(strategies):
    """bfs that skips every /post/ link, at decide time and at every re-ranking."""
    from archiver.strategies import Decision

    class SkipsPosts(strategies.REGISTRY["bfs"]):   # type: ignore[misc,valid-type]
        rescore_interval = 1

        def decide(self, visit, links):
            return [Decision(link.url, "/post/" not in link.url, 0.5, "low-value:3", 3)
                    for link in links]

        def rescore(self, queued):
            for q in queued:
                yield q.id, Decision(q.url, "/post/" not in q.url, 0.5, "low-value:3", 3)

    return SkipsPosts


def test_always_follow_overrules_the_strategy_and_widens_a_finished_job(tmp_path, monkeypatch):
    """An archivist who sees in the report that the strategy left a kind of page unfetched
    names it in strategy.always_follow and runs the job again: those URLs are fetched, each
    once, and nothing fetched before is fetched again; the reason keeps both verdicts."""
    from archiver import strategies

    monkeypatch.setitem(strategies.REGISTRY, "bfs", _skips_posts(strategies))
    site = ChainSite()
    with serve_wsgi(site) as base:
        out = tmp_path / "job"
        Crawl(make_profile(base, out)).run()
        assert not [p for p in site.hits if p.startswith("/post/")]
        conn = sqlite3.connect(out / "crawl.sqlite3")
        assert conn.execute("SELECT COUNT(*) FROM url WHERE reason = 'strategy:low-value:3'"
                            ).fetchone() == (ChainSite.LAST,)
        again = Crawl(make_profile(base, out, strategy={"always_follow": ["/post/[0-9]+$"]}))
        assert again.run().stop_reason == "frontier-empty"
    posts = {f"/post/{n}" for n in range(1, ChainSite.LAST + 1)}
    assert {p for p in site.hits if p.startswith("/post/")} == posts
    assert [p for p, n in site.hits.items() if n > 1 and p != "/robots.txt"] == []
    assert conn.execute("SELECT COUNT(*) FROM url WHERE state = 'skipped'").fetchone() == (0,)


def test_always_follow_holds_at_decide_time_and_at_every_re_ranking(tmp_path, monkeypatch):
    from archiver import strategies

    monkeypatch.setitem(strategies.REGISTRY, "bfs", _skips_posts(strategies))
    site = ChainSite()
    with serve_wsgi(site) as base:
        out = tmp_path / "job"
        Crawl(make_profile(base, out, strategy={"always_follow": "/post/"})).run()
    assert {p for p in site.hits if p.startswith("/post/")} == \
        {f"/post/{n}" for n in range(1, ChainSite.LAST + 1)}
    conn = sqlite3.connect(out / "crawl.sqlite3")
    reasons = {r for (r,) in conn.execute("SELECT reason FROM url WHERE url LIKE '%/post/%'")}
    assert reasons == {""}                                  # done rows keep no reason
    decisions = [line for _, t, _, _, body in records(out) if t == "metadata"
                 for line in body.decode().splitlines() if "archiver-decision" in line
                 and "/post/" in line]
    assert decisions and all("follow 0.5" in d and "always-follow:/post/ (strategy:"
                             "low-value:3)" in d for d in decisions)


def test_a_stop_requested_by_a_signal_handler_during_a_wait_ends_the_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal handler runs on the main thread, between two bytecodes of whatever it
    interrupted, here the loop's politeness wait. With a `threading.Event` a SIGINT landing
    inside `Event.wait` made `Event.set` wait for the lock `wait` held: a hung crawl (seen
    in CI). The handler's `request_stop` is played from inside the wait's own sleep, on the
    same thread: the wait ends at once, and a wait not stopped runs out."""
    import archiver.crawl as crawl_module

    crawl = Crawl(make_profile("http://127.0.0.1:9/", tmp_path / "job"))
    real_sleep = crawl_module.time.sleep
    slept: list[float] = []

    def sleep_then_signal(seconds: float) -> None:
        slept.append(seconds)
        real_sleep(seconds)
        crawl.request_stop("signal:SIGINT")   # what cli.on_signal does

    assert crawl._stop.wait(0.02) is False
    monkeypatch.setattr(crawl_module.time, "sleep", sleep_then_signal)
    assert crawl._stop.wait(60.0) is True
    assert len(slept) == 1 and crawl._stop.is_set()
