"""The admin's routes and templates, through Flask's test client (security: test_admin_security)."""

from __future__ import annotations

import json
import sqlite3
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient

from archiver import db
from archiver.admin import TEMPLATES_DIR, create_app
from archiver.report import write_reports
from tests.jobfactory import JobBuilder, hold_lock, jobs_folder

BASE = "https://forum.example.org"


@pytest.fixture
def jobs_dir(tmp_path: Path) -> Path:
    return jobs_folder(tmp_path / "crawls")


@pytest.fixture
def app(jobs_dir: Path, tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "JOBS_DIR": jobs_dir, "KB_DIR": tmp_path / "kb",
                       "REPLAY_URL_TEMPLATE": "http://wb.test/{collection}/{timestamp}/{url}"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def rendered(app: Flask) -> Iterator[list[str]]:
    names: list[str] = []

    def record(sender: Flask, template: Any, context: dict[str, Any], **extra: Any) -> None:
        names.append(template.name)

    template_rendered.connect(record, app)
    yield names
    template_rendered.disconnect(record, app)


def text(client: FlaskClient, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def test_every_route_and_template(client: FlaskClient, jobs_dir: Path,
                                  rendered: list[str]) -> None:
    write_reports(jobs_dir / "demo")
    warc = "demo-20231114221320-00000.warc.gz"
    for url in ("/", "/jobs/demo/", "/jobs/live/", "/jobs/plain/",
                f"/jobs/demo/url?u={BASE}/t/1", "/jobs/demo/url",
                "/jobs/demo/urls?state=skipped&reason=robots", "/jobs/demo/pages",
                "/jobs/demo/pages?cluster=1", "/jobs/demo/warcs/", "/kb/", "/jobs/nope/"):
        client.get(url)
    for url in ("/jobs.json", "/jobs/demo/stats.json", f"/jobs/demo/warcs/{warc}",
                "/jobs/demo/report.html", "/jobs/demo/report.json",
                "/jobs/demo/reports/hosts-report.txt"):
        with client.get(url) as response:  # closes the files send_file opened
            assert response.status_code == 200, url
    pages = {p.relative_to(TEMPLATES_DIR).as_posix() for p in TEMPLATES_DIR.rglob("*.html")
             if not p.name.startswith("_")}
    # report.html is rendered by archiver.report (write_reports above), base.html is extended
    assert pages - {"report.html", "base.html"} == set(rendered)


def test_jobs_list(client: FlaskClient, jobs_dir: Path) -> None:
    with hold_lock(jobs_dir / "live"):
        html = text(client, "/")
        data = client.get("/jobs.json").get_json()
    for name in ("demo", "live", "crashed", "plain"):
        assert f'href="/jobs/{name}/"' in html
    states = {j["name"]: j["state"] for j in data["jobs"]}
    assert states == {"demo": "finished", "live": "running", "crashed": "interrupted",
                      "plain": "finished"}
    assert data["running"] and "resumable" in html and "frontier-empty" in html
    assert 'data-poll="/jobs.json"' in html  # refreshes itself while a crawl runs
    demo = next(j for j in data["jobs"] if j["name"] == "demo")
    assert (demo["requests"], demo["warcs"], demo["strategy"]) == (15, 2, "source-ucc")
    assert data["display"]["demo.requests"] == "15"


def test_jobs_list_without_running_job_does_not_poll(client: FlaskClient) -> None:
    html = text(client, "/")
    assert "data-poll" not in html and "<script" not in html


def test_broken_database_is_a_row_not_a_crash(client: FlaskClient, jobs_dir: Path) -> None:
    (jobs_dir / "broken").mkdir()
    (jobs_dir / "broken" / "crawl.sqlite3").write_bytes(b"not a database" * 100)
    html = text(client, "/")
    assert "broken" in html and "error" in html


def test_job_page_shows_coverage(client: FlaskClient) -> None:
    html = text(client, "/jobs/demo/")
    for needle in ("source-ucc", "frontier-empty", "Harvest curve", "Learned sitemap",
                   "robots", "trap:repeated-segment", "http 503 after 3 retries",
                   "forum.example.org", "text/html", "topic", "<svg"):
        assert needle in html, needle
    assert '<span data-stat="requests">15</span></span><span class="k">requests' in html
    assert "data-poll" not in html
    assert "/jobs/demo/urls?state=skipped&amp;reason=robots" in html
    assert "/jobs/demo/url?u=https" in html


def test_running_job_page_polls_stats(client: FlaskClient, jobs_dir: Path) -> None:
    live = jobs_dir / "live"
    with hold_lock(live):
        html = text(client, "/jobs/live/")
        assert 'data-poll="/jobs/live/stats.json"' in html and 'data-stat="requests"' in html
        before = client.get("/jobs/live/stats.json").get_json()
        conn = db.connect(live / "crawl.sqlite3")  # the crawl writes while the admin reads
        url_id = conn.execute("INSERT INTO url (url, canon, host, depth, via, state,"
                              " discovered_at) VALUES ('https://forum.example.org/new',"
                              " 'https://forum.example.org/new', 'forum.example.org', 1,"
                              " 'link', 'done', 0)").lastrowid
        conn.execute("INSERT INTO fetch (url_id, fetched_at, status, bytes) VALUES (?, 1, 200,"
                     " 10)", (url_id,))
        after = client.get("/jobs/live/stats.json").get_json()
        conn.close()
    assert before["running"] and before["state"] == "running"
    assert after["job"]["requests"] == before["job"]["requests"] + 1
    assert after["display"]["requests"] == "16"
    stopped = client.get("/jobs/live/stats.json").get_json()
    assert not stopped["running"] and stopped["state"] == "interrupted"


def test_url_lookup_archived(client: FlaskClient) -> None:
    html = text(client, f"/jobs/demo/url?u={BASE}/t/2")
    assert "Archived" in html and "demo-20231114221320-00000.warc.gz" in html
    assert "response" in html and "http://wb.test/demo/2023111422" in html
    assert "Topic 2" in html and "strategy:score" in html  # the link that led to it


def test_url_lookup_answers_why(client: FlaskClient) -> None:
    robots = text(client, f"/jobs/demo/url?u={BASE}/private/3")
    assert "Skipped" in robots and "robots" in robots
    failed = text(client, f"/jobs/demo/url?u={BASE}/t/500")
    assert "Failed" in failed and "http 503 after 3 retries" in failed
    assert "http 503, retry 1" in failed  # its events
    queued = text(client, f"/jobs/demo/url?u={BASE}/t/9")
    assert "Queued" in queued
    low = text(client, f"/jobs/demo/url?u={BASE}/login")
    assert "low score" in low and "Log in" in low and "skipped" in low
    revisit = text(client, f"/jobs/demo/url?u={BASE}/t/8")
    assert "revisit" in revisit


def test_url_lookup_never_seen(client: FlaskClient) -> None:
    same_host = text(client, f"/jobs/demo/url?u={BASE}/never-linked")
    assert "Never seen" in same_host and "Other URLs on this host" in same_host
    other = text(client, "/jobs/demo/url?u=https://elsewhere.example/")
    assert "Never seen" in other and "No URL on this host" in other


def test_url_lookup_finds_spelling_variants(client: FlaskClient) -> None:
    html = text(client, f"/jobs/demo/url?u={BASE}/t/2%23comments")  # fragment dropped
    assert "Archived" in html


def test_reason_listing_pages(client: FlaskClient, jobs_dir: Path) -> None:
    html = text(client, "/jobs/demo/urls?state=skipped&reason=robots")
    assert html.count(f"{BASE}/private/") >= 12 and "Next page" not in html
    text(client, "/jobs/demo/urls?state=bogus&reason=x", 400)
    builder = JobBuilder(jobs_dir, name="many")
    for i in range(150):
        builder.url(f"{BASE}/x/{i}", state="skipped", reason="robots")
    builder.finish()
    first = text(client, "/jobs/many/urls?state=skipped&reason=robots")
    assert "Next page" in first and f"{BASE}/x/99<" in first and f"{BASE}/x/100<" not in first
    second = text(client, "/jobs/many/urls?state=skipped&reason=robots&after=100")
    assert f"{BASE}/x/100<" in second and "Next page" not in second


def test_archived_pages_with_replay_links(client: FlaskClient) -> None:
    html = text(client, "/jobs/demo/pages")
    assert 'href="http://wb.test/demo/20231114' in html and "Example Forum" in html
    only_topics = text(client, "/jobs/demo/pages?cluster=1")
    assert "Topic 1" in only_topics and "Example Forum" not in only_topics


def test_warc_list_with_validation(client: FlaskClient, app: Flask,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Path] = []

    def check_file(path: Path) -> list[str]:
        calls.append(path)
        return []

    monkeypatch.setitem(sys.modules, "archiver.warccheck",
                        types.SimpleNamespace(check_file=check_file))
    html = text(client, "/jobs/demo/warcs/")
    assert "demo-20231114221320-00000.warc.gz" in html and "badge valid" in html
    assert "being written" in html  # the .open file is not checked
    text(client, "/jobs/demo/warcs/")
    assert len(calls) == 1  # cached by (path, mtime, size)


def test_warc_validation_with_the_real_checker(client: FlaskClient) -> None:
    pytest.importorskip("archiver.warccheck")
    assert "badge valid" in text(client, "/jobs/demo/warcs/")


def test_warc_invalid_unchecked_and_unavailable(client: FlaskClient, app: Flask,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "archiver.warccheck", types.SimpleNamespace(
        check_file=lambda path: [f"{path.name}: offset 0: broken"]))
    app.config["WARC_CHECK_INLINE_BYTES"] = 0
    html = text(client, "/jobs/demo/warcs/")
    assert "check now" in html and "badge invalid" not in html
    response = client.get("/jobs/demo/check/demo-20231114221320-00000.warc.gz")
    assert response.status_code == 302
    html = text(client, "/jobs/demo/warcs/")
    assert "badge invalid" in html and "offset 0: broken" in html
    monkeypatch.setitem(sys.modules, "archiver.warccheck", None)  # import fails
    assert client.get("/jobs/plain/check/plain-20231114221320-00000.warc.gz").status_code == 501
    app.config["WARC_CHECK_INLINE_BYTES"] = 10**9
    assert "unavailable" in text(client, "/jobs/plain/warcs/")


def test_warc_download_and_report_files(client: FlaskClient, jobs_dir: Path) -> None:
    name = "demo-20231114221320-00000.warc.gz"
    response = client.get(f"/jobs/demo/warcs/{name}")
    assert response.data == (jobs_dir / "demo" / "warcs" / name).read_bytes()
    assert "attachment" in response.headers["Content-Disposition"]
    response.close()
    text(client, "/jobs/demo/report.json", 404)  # written when the crawl ends
    write_reports(jobs_dir / "demo")
    response = client.get("/jobs/demo/report.json")
    assert json.loads(response.data)["job"]["name"] == "demo"
    response.close()
    response = client.get("/jobs/demo/reports/seeds-report.txt")
    assert response.mimetype == "text/plain" and b"CRAWLED" in response.data
    response.close()
    assert "report.html" in text(client, "/jobs/demo/")  # linked once it exists


def test_knowledge_base_view(client: FlaskClient, jobs_dir: Path, tmp_path: Path) -> None:
    assert "No knowledge base" in text(client, "/kb/")
    bundle = tmp_path / "kb" / "phpbb" / "b1"
    bundle.mkdir(parents=True)
    (bundle / "manifest.json").write_text(json.dumps({
        "format": "archiver.kb", "format_version": 1, "archiver_version": "0.1.0",
        "cms_family": "phpbb", "strategy": "source-ucc", "clusters": [{}, {}],
        "vocabulary": ["/html", "/html/body"], "params": {"eps": 0.3}}))
    (tmp_path / "kb" / "phpbb" / "bad").mkdir()
    (jobs_dir / "demo" / "model").mkdir()
    (jobs_dir / "demo" / "model" / "manifest.json").write_text(json.dumps(
        {"cms_family": "phpbb", "bundle": "b1", "clusters": [{}, {}, {}]}))
    html = text(client, "/kb/")
    assert "phpbb" in html and "b1" in html and "unreadable" in html
    assert 'href="/jobs/demo/"' in html and "archiver.kb v1" in html


def test_read_only_connection_refuses_writes(app: Flask) -> None:
    from archiver.admin import views

    with app.test_request_context("/jobs/demo/"):
        _job_dir, conn = views.open_job("demo")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("INSERT INTO event (at, level, kind) VALUES (0, 'info', 'x')")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("UPDATE job SET state = 'finished'")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("DELETE FROM url")


def test_admin_never_changes_a_job(client: FlaskClient, jobs_dir: Path) -> None:
    db_file = jobs_dir / "demo" / "crawl.sqlite3"
    before = db_file.read_bytes()
    for url in ("/", "/jobs/demo/", "/jobs/demo/stats.json", f"/jobs/demo/url?u={BASE}/"):
        client.get(url)
    assert db_file.read_bytes() == before


def test_job_page_is_cached_until_the_database_changes(client: FlaskClient, app: Flask,
                                                       jobs_dir: Path) -> None:
    text(client, "/jobs/demo/")
    assert len(app.extensions["archiver.reports"]) == 1
    conn = db.connect(jobs_dir / "demo" / "crawl.sqlite3")
    conn.execute("UPDATE job SET stop_reason = 'max_requests' WHERE id = 1")
    conn.close()
    assert "max_requests" in text(client, "/jobs/demo/")
