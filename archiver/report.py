"""The crawl report written into a job folder at the end of every crawl.

`write_reports(job_dir)` reads the job database read-only and writes `report.json`,
`report.html` (templates/report.html: static, offline, SVG charts) and Heritrix-style
plain-text reports in `reports/` (hosts, mimetype, responsecode and seeds reports, in the
column formats of Heritrix 3's HostsReport, MimetypesReport, ResponseCodeReport, SeedsReport).
The admin's job page shows the same `collect()` dict.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import quote

from archiver import __version__, db
from archiver.admin import TEMPLATES_DIR, formatting, queries
from archiver.admin.jobs import effective_state, is_running
from archiver.crawllog import ROBOTS_PRECLUDED, error_code
from archiver.errors import JobError

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
STOP_REASONS = {
    "frontier-empty": "nothing left to fetch in scope",
    "strategy-done": "the strategy had nothing more worth following",
    "max_requests": "request budget reached (limits.max_requests)",
    "max_bytes": "byte budget reached (limits.max_bytes)",
    "max_duration": "time budget reached (limits.max_duration)",
    "signal": "stopped by a signal (Ctrl-C or kill); run the crawl again to resume",
}


def collect(conn: sqlite3.Connection, job_dir: Path, now: float | None = None) -> dict[str, Any]:
    """Everything the report and the admin's job page show, as a JSON-ready dict."""
    now = time.time() if now is None else now
    job = queries.job(conn)
    if job is None:
        raise JobError(f"{job_dir}: the crawl database has no job yet; start it with "
                       "archiver crawl PROFILE")
    # At the end of a crawl the crawler still holds the lock while it writes this report:
    # only a job the database calls running is live.
    running = job["state"] == "running" and is_running(job_dir)
    state = effective_state(job["state"], running)
    end = job["finished_at"] or (now if state == "running" else job["updated_at"])
    elapsed = max(float(end) - float(job["started_at"]), 0.0)
    # The two big grouped passes (page ⋈ fetch, fetch ⋈ url) are independent: run the first
    # on its own read-only connection in a thread (sqlite3 releases the GIL while it steps).
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending_grid = pool.submit(_page_grid, job_dir)
        cube = queries.fetch_cube(conn)
        totals: dict[str, Any] = dict(queries.totals(conn, cube))
        rest = {"status_codes": queries.status_codes(conn), "mimetypes": queries.mimetypes(conn),
                "hosts": queries.hosts(conn, cube), "depths": queries.depths(conn, cube),
                "skipped": queries.reasons(conn, "skipped"),
                "failed": queries.reasons(conn, "failed")}
        grid = pending_grid.result()
    totals["pages_per_second"] = round(totals["requests"] / elapsed, 3) if elapsed else 0.0
    clusters = queries.clusters(conn, grid)
    harvest = queries.harvest(conn, grid)
    labels = {c["id"]: c["label"] for c in clusters}
    for series in harvest["series"]:
        if series["cluster"] is not None:
            series["name"] = labels.get(series["cluster"], series["name"])
    totals["valuable"] = harvest["valuable"]
    return {
        "format": "archiver.report",
        "format_version": FORMAT_VERSION,
        "generated_at": now,
        "generator": f"archiver {__version__}",
        "job": {**job, "db_state": job["state"], "state": state, "running": running,
                "resumable": state == "interrupted", "duration": elapsed,
                "stop_reason_text": STOP_REASONS.get(job["stop_reason"] or "", "")},
        "totals": totals,
        **rest,
        "skipped_by_category": queries.by_category(rest["skipped"]),
        "warcs": warc_files(conn, job_dir),
        "clusters": clusters,
        "cluster_edges": queries.cluster_edges(conn),
        "harvest": harvest,
        "seeds": queries.seeds(conn),
        "no_response": [dict(r) for r in conn.execute(
            "SELECT error, COUNT(*) AS count FROM fetch WHERE status IS NULL"
            " GROUP BY error ORDER BY count DESC").fetchall()],
    }


def _page_grid(job_dir: Path) -> dict[str, Any]:
    conn = db.connect(job_dir / "crawl.sqlite3", readonly=True)
    try:
        return queries.page_grid(conn)
    finally:
        conn.close()


def warc_files(conn: sqlite3.Connection, job_dir: Path) -> list[dict[str, Any]]:
    """The database's WARC files with their size on disk, plus stray files found on disk."""
    folder = job_dir / "warcs"
    out = []
    for row in queries.warc_files(conn):
        path = folder / row["name"]
        if not path.exists():
            path = folder / (row["name"] + ".open")
        out.append({**row, "file": path.name if path.exists() else None,
                    "disk_size": path.stat().st_size if path.exists() else None})
    known = {w["file"] for w in out}
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.name.endswith((".warc.gz", ".warc", ".warc.gz.open", ".warc.open")) \
                    and path.name not in known:
                out.append({"id": None, "name": path.name.removesuffix(".open"),
                            "state": "not in database", "created_at": None, "closed_at": None,
                            "size": None, "records": None, "file": path.name,
                            "disk_size": path.stat().st_size})
    return out


def heritrix_reports(report: dict[str, Any]) -> dict[str, str]:
    """The Heritrix-style plain-text reports: file name → text."""
    hosts = ["[#urls] [#bytes] [host] [#robots] [#remaining] [#novel-urls] [#novel-bytes] "
             "[#dup-by-hash-urls] [#dup-by-hash-bytes] [#not-modified-urls] "
             "[#not-modified-bytes]"]
    for h in report["hosts"]:
        fields = (h["fetched"], h["bytes"], quote(h["host"], safe="*") or "-", h["robots"],
                  h["remaining"], h["novel_urls"], h["novel_bytes"], h["dup_urls"],
                  h["dup_bytes"], h["not_modified_urls"], h["not_modified_bytes"])
        hosts.append("".join(f"{f} " for f in fields))  # Heritrix ends each field with a space
    mimes = ["[#urls] [#bytes] [mime-types]"]
    mimes += [f"{m['count']} {m['bytes']} {m['content_type'] or 'no-type'}"
              for m in report["mimetypes"]]
    codes: dict[int, int] = {}
    for s in report["status_codes"]:
        if s["status"] is not None:
            codes[s["status"]] = codes.get(s["status"], 0) + s["count"]
    for e in report["no_response"]:  # Heritrix's negative codes, as in crawl.log
        code = error_code(e["error"] or "")
        codes[code] = codes.get(code, 0) + e["count"]
    robots = sum(r["count"] for r in report["skipped"] if r["reason"] == "robots")
    if robots:
        codes[ROBOTS_PRECLUDED] = robots
    responses = ["[#urls] [rescode]"]
    responses += [f"{n} {code}" for code, n in sorted(codes.items(), key=lambda kv: -kv[1])]
    seeds = ["[code] [status] [seed] [redirect]"]
    for s in sorted(report["seeds"], key=lambda s: -(s["status"] or 0)):
        code = s["status"] if s["status"] is not None else 0
        crawled = "CRAWLED" if code > 0 else "NOTCRAWLED"
        seeds.append(" ".join(str(p) for p in (code, crawled, s["url"], s["redirect"]) if p))
    return {"hosts-report.txt": _lines(hosts), "mimetype-report.txt": _lines(mimes),
            "responsecode-report.txt": _lines(responses), "seeds-report.txt": _lines(seeds)}


def render_html(report: dict[str, Any]) -> str:
    """The static HTML report (templates/report.html), autoescaped and fully offline."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader(TEMPLATES_DIR), undefined=StrictUndefined,
                      autoescape=select_autoescape(["html", "svg", "xml"]))
    formatting.configure(env)
    return env.get_template("report.html").render(report=report, links=None)


def read_report(job_dir: Path) -> dict[str, Any]:
    """`collect` over the job database of `job_dir`, opened read-only."""
    job_dir = Path(job_dir)
    conn = db.connect(job_dir / "crawl.sqlite3", readonly=True)
    try:
        return collect(conn, job_dir)
    finally:
        conn.close()


def report_json(report: dict[str, Any]) -> str:
    """The text of report.json."""
    return json.dumps(report, indent=2, sort_keys=True) + "\n"


def write_reports(job_dir: Path, report: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write report.json, report.html and reports/*.txt into `job_dir`; return the report.

    `report`, collected earlier (the crawl's snapshot before its last WARC file is closed),
    is reused with only its list of WARC files read again, not collected a second time.
    """
    job_dir = Path(job_dir)
    if report is None:
        report = read_report(job_dir)
    else:
        conn = db.connect(job_dir / "crawl.sqlite3", readonly=True)
        try:
            report = {**report, "warcs": warc_files(conn, job_dir)}
        finally:
            conn.close()
    _write(job_dir / "report.json", report_json(report))
    _write(job_dir / "report.html", render_html(report))
    (job_dir / "reports").mkdir(exist_ok=True)
    for name, text in heritrix_reports(report).items():
        _write(job_dir / "reports" / name, text)
    logger.info("reports written to %s", job_dir)
    return report


def summary_lines(report: dict[str, Any]) -> list[str]:
    """A few lines for the terminal at the end of a crawl."""
    job, t = report["job"], report["totals"]
    stop = job["stop_reason"] or "-"
    if job["stop_reason_text"]:
        stop += f" ({job['stop_reason_text']})"
    warcs = report["warcs"]
    lines = [
        f"job {job['name']} ({job['strategy']}): {job['state']}, stopped: {stop}",
        f"{t['requests']:,} requests, {formatting.filesize(t['bytes'])}, "
        f"{formatting.duration(job['duration'])}, {t['pages_per_second']:.2f} pages/s",
        f"{t['pages']:,} HTML pages, {t['valuable']:,} valuable; {t['skipped']:,} URLs skipped, "
        f"{t['failed']:,} failed, {t['queued']:,} still queued",
        f"{len(warcs)} WARC file(s), "
        f"{formatting.filesize(sum(w['disk_size'] or 0 for w in warcs))}",
    ]
    top = report["skipped_by_category"][:4]
    if top:
        lines.append("skipped: " + ", ".join(f"{c['category']} {c['count']:,}" for c in top))
    deep = next((g for g in report["skipped"] if g["reason"] == "too-deep"), None)
    if deep is not None:
        # The depth cap is the one scope rule that cuts into content rather than around it:
        # a blog's "older posts" or a board's "next page" chain adds a hop per page (a real
        # WordPress at 2,000 posts lost 12 posts at the default 30; benchmarks/results/
        # realsite-wordpress.md). Say so, and how to follow them.
        example = deep["examples"][0]["url"] if deep["examples"] else ""
        lines.append(f"{deep['count']:,} URLs were more link hops from a seed than "
                     f"scope.max_depth allows (e.g. {example}); raise scope.max_depth in "
                     "the profile and run the job again to follow them")
    return lines


def _lines(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str) -> None:
    """Write atomically (temp file + rename): a reader never sees half a report."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; reports are meant to be shared
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
