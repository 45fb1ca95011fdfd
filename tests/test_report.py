"""The crawl report: report.json, the static report.html, and Heritrix-style text reports."""

from __future__ import annotations

import fcntl
import json
import re
from pathlib import Path

import pytest

from archiver import db
from archiver.admin import queries
from archiver.errors import JobError
from archiver.report import collect, heritrix_reports, summary_lines, write_reports
from tests.jobfactory import HOSTILE_URL, JS_URL, XSS_TITLE, JobBuilder, demo_job


@pytest.fixture
def job(tmp_path: Path) -> Path:
    return demo_job(tmp_path / "crawls")


def test_write_reports_writes_every_file(job: Path) -> None:
    report = write_reports(job)
    for name in ("report.json", "report.html", "reports/hosts-report.txt",
                 "reports/mimetype-report.txt", "reports/responsecode-report.txt",
                 "reports/seeds-report.txt"):
        assert (job / name).is_file(), name
    assert json.loads((job / "report.json").read_text()) == json.loads(json.dumps(report))
    assert not [p for p in job.rglob(".*") if p.name != ".lock"], "temp files left behind"


def test_report_content(job: Path) -> None:
    report = write_reports(job)
    assert report["format"] == "archiver.report"
    j, t = report["job"], report["totals"]
    assert (j["name"], j["strategy"], j["state"], j["stop_reason"]) == \
        ("demo", "source-ucc", "finished", "frontier-empty")
    assert j["duration"] > 0 and j["finished_at"] > j["started_at"]
    assert t["requests"] == 15 and t["pages"] == 10 and t["skipped"] == 19
    assert t["failed"] == 2 and t["queued"] == 1 and t["revisits"] == 1
    assert t["bytes"] == sum(m["bytes"] for m in report["mimetypes"])
    assert t["pages_per_second"] == pytest.approx(t["requests"] / j["duration"], rel=1e-2)
    assert {s["status"]: s["count"] for s in report["status_codes"]} == \
        {200: 11, 301: 1, 404: 1, 503: 1, None: 1}
    robots = next(g for g in report["skipped"] if g["reason"] == "robots")
    assert robots["count"] == 12 and len(robots["examples"]) == 10
    assert robots["category"] == "robots"
    cats = {c["category"]: c["count"] for c in report["skipped_by_category"]}
    assert cats == {"robots": 12, "scope": 4, "trap rule": 1, "low score": 1, "budget": 1}
    assert {f["reason"] for f in report["failed"]} == \
        {"http 503 after 3 retries", "fetch-error: connection refused"}
    assert [w["records"] for w in report["warcs"]] == [3, 3]  # warcinfo + request + response
    assert report["warcs"][1]["file"].endswith(".warc.gz.open")
    topic = next(c for c in report["clusters"] if c["label"] == "topic")
    assert (topic["pages"], topic["followed"], topic["skipped_links"]) == (6, 24, 48)
    assert (topic["dsim"], topic["content"]) == (0.35, 0.78)
    profile = next(c for c in report["clusters"] if c["id"] == 2)
    assert (profile["dsim"], profile["content"]) == (None, None)   # a model without them
    html = (job / "report.html").read_text()
    assert "DSim / content" in html and "0.350 / 0.78" in html and "– / –" in html
    assert "<code>strategy.always_follow</code> for a low score" in html   # the remedy
    assert report["seeds"][0]["redirect"] == "https://forum.example.org/"
    assert {h["host"] for h in report["hosts"]} == {"forum.example.org", "cdn.example.org"}


def test_harvest_curve(job: Path) -> None:
    harvest = write_reports(job)["harvest"]
    assert harvest["model"] and harvest["requests"] == 15
    overall = harvest["series"][0]
    xs = [p[0] for p in overall["points"]]
    ys = [p[1] for p in overall["points"]]
    assert xs == sorted(xs) and xs[0] == 0 and xs[-1] == 15
    assert ys == sorted(ys) and ys[-1] == harvest["valuable"]
    # 2xx pages in non-outlier clusters: home (index), topics 1-6, alice (profile)
    assert harvest["valuable"] == 8
    per_cluster = {s["name"]: s["points"][-1][1] for s in harvest["series"][1:]}
    assert per_cluster == {"topic": 6, "index": 1, "profile <b>": 1}


def test_harvest_without_model_counts_2xx_html_pages(tmp_path: Path) -> None:
    report = write_reports(demo_job(tmp_path, with_model=False))
    assert not report["harvest"]["model"] and report["clusters"] == []
    assert len(report["harvest"]["series"]) == 1
    assert report["harvest"]["valuable"] == 10  # every 2xx page (outliers included)


def test_heritrix_text_reports(job: Path) -> None:
    write_reports(job)
    hosts = (job / "reports/hosts-report.txt").read_text().splitlines()
    assert hosts[0] == ("[#urls] [#bytes] [host] [#robots] [#remaining] [#novel-urls] "
                        "[#novel-bytes] [#dup-by-hash-urls] [#dup-by-hash-bytes] "
                        "[#not-modified-urls] [#not-modified-bytes]")
    fields = hosts[1].split(" ")
    assert fields[:6] == ["14", "45136", "forum.example.org", "12", "1", "13"] and \
        fields[-1] == ""  # Heritrix ends every field with a space
    assert len(fields) == 12
    mime = (job / "reports/mimetype-report.txt").read_text().splitlines()
    assert mime[0] == "[#urls] [#bytes] [mime-types]" and "13 44336 text/html" in mime
    codes = (job / "reports/responsecode-report.txt").read_text().splitlines()
    assert codes[0] == "[#urls] [rescode]"
    assert codes[1:] == ["12 -9998", "11 200", "1 301", "1 404", "1 503", "1 -2"]
    seeds = (job / "reports/seeds-report.txt").read_text().splitlines()
    assert seeds == ["[code] [status] [seed] [redirect]",
                     "301 CRAWLED https://forum.example.org https://forum.example.org/"]


def test_report_html_is_static_offline_and_escaped(job: Path) -> None:
    write_reports(job)
    html = (job / "report.html").read_text()
    assert "<script" not in html.lower()
    assert not re.search(r'(src|href)="(https?:)?//', html), "external resource"
    assert re.findall(r"<link[^>]*>", html) == ['<link rel="icon" href="data:,">']
    assert "@import" not in html and not re.search(r"url\((?!#)", html)  # only url(#marker)
    assert "<svg" in html and "Harvest curve" in html
    assert HOSTILE_URL not in html and "alert(2)" in html  # shown, escaped
    assert "&lt;img src=x onerror=alert(4)&gt;" in html
    assert "<b>" not in html and "profile &lt;b&gt;" in html
    assert f'href="{JS_URL}' not in html
    assert "Content-Security-Policy" in html


def test_xss_title_never_raw(tmp_path: Path) -> None:
    job = demo_job(tmp_path)
    write_reports(job)
    for path in (job / "report.html", job / "report.json", *(job / "reports").iterdir()):
        assert XSS_TITLE not in path.read_text() or path.suffix == ".json"


def test_summary_lines(job: Path) -> None:
    lines = summary_lines(write_reports(job))
    assert lines[0].startswith("job demo (source-ucc): finished, stopped: frontier-empty")
    assert "15 requests" in lines[1] and "pages/s" in lines[1]
    assert any(line.startswith("skipped: robots 12") for line in lines)
    # the one URL beyond max_depth is named, with the profile key that would follow it
    assert lines[-1] == ("1 URLs were more link hops from a seed than scope.max_depth "
                         "allows (e.g. https://forum.example.org/deep); raise "
                         "scope.max_depth in the profile and run the job again to follow them")
    assert 3 <= len(lines) <= 7


def test_summary_lines_say_nothing_of_depth_when_nothing_was_too_deep(tmp_path: Path) -> None:
    lines = summary_lines(write_reports(JobBuilder(tmp_path, name="shallow").finish()))
    assert not any("max_depth" in line for line in lines)


def test_interrupted_and_running_states(tmp_path: Path) -> None:
    job = demo_job(tmp_path, state="running")
    report = write_reports(job)
    assert report["job"]["state"] == "interrupted" and report["job"]["resumable"]
    with (job / ".lock").open("a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        report = write_reports(job)
    assert report["job"]["state"] == "running" and report["job"]["running"]
    assert not report["job"]["resumable"]


def test_empty_job(tmp_path: Path) -> None:
    builder = JobBuilder(tmp_path, name="empty", state="running", stop_reason=None)
    job = builder.finish()
    report = write_reports(job)
    assert report["totals"]["requests"] == 0 and report["harvest"]["series"][0]["points"] == \
        [[0, 0]]
    assert "no requests yet" in (job / "report.html").read_text()
    assert summary_lines(report)


def test_no_job_row_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "j").mkdir()
    db.connect(tmp_path / "j" / "crawl.sqlite3").close()
    with pytest.raises(JobError, match="no job yet"):
        write_reports(tmp_path / "j")


def test_heritrix_reports_from_dict_only(job: Path) -> None:
    conn = db.connect(job / "crawl.sqlite3", readonly=True)
    try:
        texts = heritrix_reports(collect(conn, job))
    finally:
        conn.close()
    assert set(texts) == {"hosts-report.txt", "mimetype-report.txt",
                          "responsecode-report.txt", "seeds-report.txt"}
    assert all(t.endswith("\n") for t in texts.values())


@pytest.mark.parametrize(("state", "reason", "expected"), [
    ("skipped", "robots", "robots"),
    ("skipped", "out-of-scope:host", "scope"),
    ("skipped", "excluded:/logout", "scope"),
    ("skipped", "redirect-out-of-scope", "scope"),
    ("skipped", "too-deep", "scope"),
    ("skipped", "trap:repeated-segment", "trap rule"),
    ("skipped", "strategy:low-score", "low score"),
    ("skipped", "budget", "budget"),
    ("skipped", "whatever", "other"),
    ("failed", "http 503 after 3 retries", "error"),
])
def test_reason_categories(state: str, reason: str, expected: str) -> None:
    assert queries.category(state, reason) == expected


def test_harvest_buckets_on_a_larger_crawl(tmp_path: Path) -> None:
    (tmp_path / "big").mkdir()
    conn = db.connect(tmp_path / "big" / "crawl.sqlite3")
    from tests.jobfactory import fill_synthetic
    fill_synthetic(conn, 3000)
    harvest = queries.harvest(conn)
    valuable = conn.execute(
        "SELECT COUNT(*) FROM fetch f JOIN page p ON p.url_id = f.url_id"
        " WHERE f.status BETWEEN 200 AND 299 AND p.cluster >= 0").fetchone()[0]
    conn.close()
    overall = harvest["series"][0]["points"]
    assert len(overall) == queries.CURVE_BUCKETS + 1
    assert overall[-1] == [harvest["requests"], valuable]
    assert len(harvest["series"]) == 1 + queries.CURVE_SERIES


def test_write_reports_reuses_a_snapshot_and_rereads_only_the_warcs(job: Path) -> None:
    from archiver.report import read_report

    snapshot = read_report(job)
    opened = [w["file"] for w in snapshot["warcs"] if w["file"].endswith(".open")]
    assert opened
    for name in opened:  # what the sink's close does to the file
        (job / "warcs" / name).rename(job / "warcs" / name.removesuffix(".open"))
    written = write_reports(job, snapshot)
    on_disk = json.loads((job / "report.json").read_text())
    assert on_disk == json.loads(json.dumps(written))
    assert not any(w["file"].endswith(".open") for w in on_disk["warcs"])
    assert {k: v for k, v in on_disk.items() if k != "warcs"} == \
        json.loads(json.dumps({k: v for k, v in snapshot.items() if k != "warcs"}))
