"""Admin pages for jobs: the jobs list, a job's coverage page, live stats, URL lookups."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    g,
    jsonify,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from archiver import db, report
from archiver.admin import formatting, jobs, lookup, queries
from archiver.errors import ArchiverError

bp = Blueprint("jobs", __name__)


def init_app(app: Flask) -> None:
    """Close the request's read-only connections at teardown; render errors with error.html."""

    @app.teardown_appcontext
    def close_connections(_exc: BaseException | None) -> None:
        for conn in g.pop("job_dbs", {}).values():
            conn.close()

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> tuple[str, int]:
        return render_template("error.html", error=err), err.code or 500


def open_job(name: str) -> tuple[Path, sqlite3.Connection]:
    """The folder and a read-only connection (one per request) of job `name`, or 404."""
    job_dir = jobs.resolve(current_app.config["JOBS_DIR"], name)
    if job_dir is None:
        abort(404, f"Job {name!r} doesn't exist.")
    conns: dict[str, sqlite3.Connection] = g.setdefault("job_dbs", {})
    if name not in conns:
        try:
            conns[name] = db.connect(job_dir / jobs.DB_NAME, readonly=True)
        except (ArchiverError, sqlite3.Error) as err:
            abort(500, f"Job {name!r}: cannot open its database: {err}")
    return job_dir, conns[name]


def job_or_404(conn: sqlite3.Connection, name: str) -> dict[str, Any]:
    """The job row of an open database, or 404 while the crawl has not written it yet."""
    job = queries.job(conn)
    if job is None:
        abort(404, f"Job {name!r} has no job record yet.")
    return job


def replay_url(name: str, fetched_at: float, url: str) -> str | None:
    """The pywb replay link of an archived URL, from REPLAY_URL_TEMPLATE."""
    template = str(current_app.config["REPLAY_URL_TEMPLATE"] or "")
    if not template:
        return None
    built = (template.replace("{collection}", name)
             .replace("{timestamp}", formatting.warc_timestamp(fetched_at))
             .replace("{url}", url))
    return formatting.web_url(built)


def job_report(name: str, job_dir: Path, conn: sqlite3.Connection) -> dict[str, Any]:
    """`report.collect` for the job page, cached for a stopped job until its database changes.

    A stopped crawl's database is constant, so its page is computed once; a running crawl's
    is recomputed on every view (its live numbers also come from stats.json).
    """
    cache: dict[Path, tuple[tuple[int, ...], dict[str, Any]]] = \
        current_app.extensions.setdefault("archiver.reports", {})
    signature = _signature(job_dir)
    hit = cache.get(job_dir)
    if hit is not None and hit[0] == signature and not jobs.is_running(job_dir):
        return hit[1]
    try:
        data = report.collect(conn, job_dir)
    except ArchiverError as err:
        abort(404, str(err))
    if not data["job"]["running"]:
        cache[job_dir] = (signature, data)
    return data


def _signature(job_dir: Path) -> tuple[int, ...]:
    """(mtime, size) of the database and its WAL: any committed write changes one of them."""
    out: list[int] = []
    for name in (jobs.DB_NAME, jobs.DB_NAME + "-wal"):
        try:
            st = (job_dir / name).stat()
        except OSError:
            out += [0, 0]
        else:
            out += [st.st_mtime_ns, st.st_size]
    return tuple(out)


def _links(name: str) -> dict[str, Any]:
    """URL builders handed to the shared report sections (None in the static report)."""
    return {
        "url": lambda u: url_for("jobs.url_lookup", name=name, u=u),
        "reason": lambda state, reason: url_for("jobs.urls", name=name, state=state,
                                                reason=reason),
        "cluster": lambda cid: url_for("jobs.pages", name=name, cluster=cid),
        "warcs": url_for("files.warcs", name=name),
    }


def _job_summary(job_dir: Path) -> dict[str, Any]:
    """One jobs-list row; a broken database becomes a row with an error."""
    entry: dict[str, Any] = {"name": job_dir.name}
    try:
        conn = db.connect(job_dir / jobs.DB_NAME, readonly=True)
    except (ArchiverError, sqlite3.Error) as err:
        return {**entry, "error": str(err)}
    try:
        job = queries.job(conn)
        if job is None:
            return {**entry, "error": "no job row yet (crawl starting?)"}
        running = job["state"] == "running" and jobs.is_running(job_dir)
        state = jobs.effective_state(job["state"], running)
        end = job["finished_at"] or (time.time() if state == "running" else job["updated_at"])
        return {**entry, **job, **queries.live_totals(conn), "state": state,
                "running": running, "resumable": state == "interrupted",
                "duration": max(end - job["started_at"], 0.0),
                "stop_reason_text": report.STOP_REASONS.get(job["stop_reason"] or "", "")}
    except sqlite3.Error as err:
        return {**entry, "error": f"unreadable crawl database: {err}"}
    finally:
        conn.close()


def _display(row: dict[str, Any]) -> dict[str, str]:
    """The formatted numbers the live script writes into [data-stat] elements."""
    requests, elapsed = row.get("requests", 0), row.get("duration", 0.0)
    return {
        "state": row.get("state", ""), "requests": formatting.number(requests),
        "bytes": formatting.filesize(row.get("bytes")),
        "warcs": formatting.number(row.get("warcs")),
        "duration": formatting.duration(elapsed),
        "pages_per_second": f"{requests / elapsed:.2f}" if elapsed else "0.00",
        "queued": formatting.number(row.get("queued")), "done": formatting.number(row.get("done")),
        "skipped": formatting.number(row.get("skipped")),
        "failed": formatting.number(row.get("failed")),
        "updated": formatting.timestamp(row.get("updated_at")),
    }


@bp.get("/")
def index() -> str:
    """The jobs list."""
    rows = [_job_summary(d) for d in jobs.job_dirs(current_app.config["JOBS_DIR"])]
    running = any(r.get("running") for r in rows)
    return render_template("jobs/list.html", jobs=rows, running=running,
                           poll_url=url_for("jobs.jobs_json") if running else None,
                           jobs_dir=current_app.config["JOBS_DIR"])


@bp.get("/jobs.json")
def jobs_json() -> Response:
    """Every job's live numbers; `display` is keyed '<job>.<stat>' for the list page."""
    rows = [_job_summary(d) for d in jobs.job_dirs(current_app.config["JOBS_DIR"])]
    display = {f"{r['name']}.{k}": v for r in rows if "error" not in r
               for k, v in _display(r).items()}
    return jsonify(running=any(r.get("running") for r in rows), jobs=rows, display=display)


@bp.get("/jobs/<name>/")
def detail(name: str) -> str:
    """A job's coverage page: the crawl report, live, with links into the data."""
    job_dir, conn = open_job(name)
    data = job_report(name, job_dir, conn)
    running = data["job"]["running"]
    return render_template(
        "jobs/detail.html", name=name, report=data, links=_links(name),
        profile_yaml=queries.profile_yaml(conn),
        present={p.relative_to(job_dir).as_posix() for p in (
            *[job_dir / n for n in ("report.html", "report.json", "crawl.log")],
            *sorted((job_dir / "reports").glob("*.txt"))) if p.is_file()},
        poll_url=url_for("jobs.stats", name=name) if running else None,
        display=_display({**data["job"], **data["totals"], "warcs": len(data["warcs"])}))


@bp.get("/jobs/<name>/stats.json")
def stats(name: str) -> Response:
    """A running job's live numbers (polled by the job page)."""
    job_dir = jobs.resolve(current_app.config["JOBS_DIR"], name)
    if job_dir is None:
        abort(404, f"Job {name!r} doesn't exist.")
    row = _job_summary(job_dir)
    if "error" in row:
        abort(500, row["error"])
    return jsonify(running=row["running"], state=row["state"], job=row, display=_display(row))


@bp.get("/jobs/<name>/url")
def url_lookup(name: str) -> str:
    """Why was (or wasn't) this URL archived?"""
    _job_dir, conn = open_job(name)
    raw = request.args.get("u", "").strip()
    found = lookup.find_url(conn, raw) if raw else None
    replay = None
    if found and found["fetch"] and found["fetch"]["record_type"]:
        replay = replay_url(name, found["fetch"]["fetched_at"], found["url"])
    return render_template("jobs/url.html", name=name, query=raw, found=found, replay=replay,
                           host_seen=lookup.host_seen(conn, raw) if raw and not found else None,
                           links=_links(name))


@bp.get("/jobs/<name>/urls")
def urls(name: str) -> str:
    """All URLs skipped (or failed) for one reason, a page at a time."""
    _job_dir, conn = open_job(name)
    state = request.args.get("state", "skipped")
    if state not in ("skipped", "failed", "queued"):
        abort(400, "state must be skipped, failed or queued")
    reason = request.args.get("reason", "")
    after = request.args.get("after", 0, type=int)
    rows = lookup.urls_with_reason(conn, state, reason, after)
    more = (url_for("jobs.urls", name=name, state=state, reason=reason, after=rows[-1]["id"])
            if len(rows) == lookup.PAGE_SIZE else None)
    return render_template("jobs/urls.html", name=name, state=state, reason=reason, rows=rows,
                           category=queries.category(state, reason), more=more,
                           links=_links(name))


@bp.get("/jobs/<name>/pages")
def pages(name: str) -> str:
    """Archived pages (optionally of one cluster) with replay links, a page at a time."""
    _job_dir, conn = open_job(name)
    cluster = request.args.get("cluster", None, type=int)
    after = request.args.get("after", 0, type=int)
    rows = lookup.archived_pages(conn, after, cluster=cluster)
    for row in rows:
        row["replay"] = replay_url(name, row["fetched_at"], row["url"])
    more = (url_for("jobs.pages", name=name, cluster=cluster, after=rows[-1]["id"])
            if len(rows) == lookup.PAGE_SIZE else None)
    return render_template("jobs/pages.html", name=name, rows=rows, cluster=cluster, more=more,
                           links=_links(name))
