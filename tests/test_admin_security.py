"""Admin security: escaping of crawled content, CSP, tokens, Host check, path traversal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from archiver.admin import create_app, jobs, serve
from archiver.admin.security import COOKIE
from archiver.errors import ArchiverError
from tests.jobfactory import HOSTILE_URL, JS_URL, XSS_TITLE, demo_job, jobs_folder

TOKEN = "correct-horse-battery-staple"


@pytest.fixture
def jobs_dir(tmp_path: Path) -> Path:
    return jobs_folder(tmp_path / "crawls")


@pytest.fixture
def client(jobs_dir: Path) -> FlaskClient:
    return create_app({"TESTING": True, "JOBS_DIR": jobs_dir}).test_client()


@pytest.fixture
def token_app(jobs_dir: Path) -> Flask:
    return create_app({"TESTING": True, "JOBS_DIR": jobs_dir, "TOKEN": TOKEN})


PAGES = ("/", "/jobs/demo/", "/jobs/demo/pages", "/jobs/demo/url?u=https://forum.example.org/t/3",
         "/jobs/demo/urls?state=skipped&reason=excluded:/search",
         f"/jobs/demo/url?u={HOSTILE_URL}", "/jobs/demo/warcs/")


@pytest.mark.parametrize("url", PAGES)
def test_crawled_content_is_escaped(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert XSS_TITLE not in html
    assert "<script>alert" not in html and "<img" not in html and "<b>" not in html
    assert not re.search(r'href="\s*javascript:', html, re.IGNORECASE)
    # the only scripts are the admin's own, carrying this response's CSP nonce
    nonce = re.search(r"'nonce-([^']+)'", response.headers["Content-Security-Policy"])
    assert nonce is not None
    for tag in re.findall(r"<script[^>]*>", html):
        assert f'nonce="{nonce.group(1)}"' in tag


def test_hostile_title_shown_as_text(client: FlaskClient) -> None:
    html = client.get("/jobs/demo/url?u=https://forum.example.org/t/3").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    detail = client.get("/jobs/demo/").get_data(as_text=True)
    assert "&lt;img src=x onerror=alert(4)&gt;" in detail  # an anchor text
    assert "profile &lt;b&gt;" in detail  # a cluster label, in tables and in the SVG
    assert JS_URL in detail  # shown as text, never as a link


def test_security_headers(client: FlaskClient) -> None:
    response = client.get("/jobs/demo/")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'nonce-" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("url", [
    "/jobs/../demo/", "/jobs/..%2Fcrawls%2Fdemo/", "/jobs/%2E%2E/", "/jobs/.lock/",
    "/jobs/demo/warcs/..%2Fcrawl.sqlite3", "/jobs/demo/warcs/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "/jobs/demo/warcs/../crawl.sqlite3", "/jobs/demo/reports/..%2Fcrawl.sqlite3",
    "/jobs/demo/reports/../../../etc/passwd", "/jobs/demo/check/..%2Fcrawl.sqlite3",
    "/jobs/demo/crawl.sqlite3", "/jobs/demo/.lock", "/jobs/demo/warcs/.hidden",
])
def test_file_routes_cannot_escape_the_jobs_folder(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code in (404, 405), (url, response.status_code)
    assert b"SQLite format" not in response.data and b"root:" not in response.data


def test_symlink_out_of_the_job_is_refused(client: FlaskClient, jobs_dir: Path,
                                           tmp_path: Path) -> None:
    secret = tmp_path / "secret.warc.gz"
    secret.write_bytes(b"secret")
    (jobs_dir / "demo" / "warcs" / "link.warc.gz").symlink_to(secret)
    assert client.get("/jobs/demo/warcs/link.warc.gz").status_code == 404
    outside = demo_job(tmp_path / "elsewhere", "other")
    (jobs_dir / "other").symlink_to(outside)
    assert client.get("/jobs/other/").status_code == 404


def test_resolve_and_safe_child(jobs_dir: Path) -> None:
    for name in ("..", "../crawls/demo", "demo/..", ".", "", "a\\b", "demo\0"):
        assert jobs.resolve(jobs_dir, name) is None, name
    assert jobs.resolve(jobs_dir, "demo") == (jobs_dir / "demo").resolve()
    warcs = jobs_dir / "demo" / "warcs"
    assert jobs.safe_child(warcs, "../crawl.sqlite3") is None
    assert jobs.safe_child(warcs, "demo-20231114221320-00000.warc.gz") is not None


def test_token_required_for_every_request(token_app: Flask) -> None:
    client = token_app.test_client()
    for url in ("/", "/jobs/demo/", "/jobs/demo/stats.json", "/jobs.json", "/kb/",
                "/jobs/demo/warcs/demo-20231114221320-00000.warc.gz", "/nope"):
        response = client.get(url)
        assert response.status_code == 401, url
        assert b"demo" not in response.data or url.startswith("/jobs/demo") is False
    assert client.get("/", headers={"Authorization": "Bearer wrong-token"}).status_code == 403
    assert client.get("/", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert client.get("/jobs/demo/", headers={"X-Archiver-Token": TOKEN}).status_code == 200


def test_token_in_query_moves_into_a_cookie(token_app: Flask) -> None:
    client = token_app.test_client()
    response = client.get(f"/jobs/demo/?token={TOKEN}&x=1")
    assert response.status_code == 302
    assert response.headers["Location"] == "/jobs/demo/?x=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/jobs/demo/").status_code == 200  # the cookie carries it now
    client.delete_cookie(COOKIE)
    assert client.get("/jobs/demo/").status_code == 401


def test_token_allows_any_host_name(token_app: Flask) -> None:
    client = token_app.test_client()
    response = client.get("/", headers={"Host": "archive.example.org",
                                        "Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200


@pytest.mark.parametrize(("host", "status"), [
    ("localhost", 200), ("127.0.0.1:8080", 200), ("[::1]:8080", 200), ("127.1.2.3", 200),
    ("evil.example", 403), ("192.168.1.10:8080", 403), ("localhost.evil.example", 403),
])
def test_without_token_only_loopback_host_names(client: FlaskClient, host: str,
                                                status: int) -> None:
    assert client.get("/", headers={"Host": host}).status_code == status


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "archive.example.org", ""])
def test_non_loopback_bind_requires_a_token(host: str, jobs_dir: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(serve.TOKEN_ENV, raising=False)
    with pytest.raises(ArchiverError, match="without a token"):
        serve.run_admin(jobs_dir, host, 0)
    serve.check_bind(host, TOKEN)  # with a token it is allowed


def test_loopback_bind_needs_no_token_and_short_tokens_are_refused() -> None:
    serve.check_bind("127.0.0.1", None)
    serve.check_bind("localhost", None)
    serve.check_bind("::1", None)
    with pytest.raises(ArchiverError, match="too short"):
        serve.check_bind("0.0.0.0", "abc")


def test_run_admin_reads_the_token_from_the_environment(
        jobs_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    class FakeServer:
        port = 1234

        def serve_forever(self) -> None:
            seen["served"] = True

        def server_close(self) -> None:
            seen["closed"] = True

    def fake_make_server(host: str, port: int, app: Flask, threaded: bool) -> FakeServer:
        seen["token"] = app.config["TOKEN"]
        seen["host"] = host
        return FakeServer()

    monkeypatch.setenv(serve.TOKEN_ENV, TOKEN)
    monkeypatch.setattr("werkzeug.serving.make_server", fake_make_server)
    serve.run_admin(jobs_dir, "0.0.0.0", 0)
    assert seen == {"token": TOKEN, "host": "0.0.0.0", "served": True, "closed": True}
