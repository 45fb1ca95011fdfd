"""Admin routes over a job's files: WARC list with validation, downloads, written reports.

Every file route goes through `jobs.resolve` and `jobs.safe_child`: a name with a path
separator, a leading dot, or a symlink out of the folder is a 404.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    redirect,
    render_template,
    send_file,
    url_for,
)
from werkzeug.wrappers import Response

from archiver import report
from archiver.admin import jobs, views

bp = Blueprint("files", __name__)

JOB_FILES = {"report.html": "text/html", "report.json": "application/json",
             "crawl.log": "text/plain"}


class CheckCache:
    """`archiver check` results per WARC file, keyed by (path, mtime, size)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._results: dict[tuple[str, int, int], list[str]] = {}

    @staticmethod
    def key(path: Path) -> tuple[str, int, int]:
        """The cache key: a rewritten file (new mtime or size) is checked again."""
        st = path.stat()
        return (str(path), st.st_mtime_ns, st.st_size)

    def get(self, path: Path) -> list[str] | None:
        """The cached problems of `path` (empty: valid), or None if not checked yet."""
        with self._lock:
            return self._results.get(self.key(path))

    def run(self, path: Path) -> list[str] | None:
        """Check `path` now and cache the result; None if the checker is not available."""
        try:
            from archiver.warccheck import check_file
        except ImportError:
            return None
        key = self.key(path)
        try:
            problems = list(check_file(path))
        except (OSError, ValueError) as err:  # ArchiverError subclasses both
            problems = [f"{path.name}: {err}"]
        with self._lock:
            self._results[key] = problems
        return problems


def _cache(app: Flask) -> CheckCache:
    cache = app.extensions.get("archiver.warccheck")
    if not isinstance(cache, CheckCache):
        cache = app.extensions["archiver.warccheck"] = CheckCache()
    return cache


def _validation(warc: dict[str, Any], folder: Path, budget: list[int]) -> dict[str, Any]:
    """The validation status of one WARC row; checks it now while `budget` bytes remain."""
    if not warc["file"]:
        return {"status": "missing", "problems": ["the file is not in warcs/"]}
    if warc["file"].endswith(".open"):
        return {"status": "open", "problems": []}
    path = folder / warc["file"]
    cache = _cache(current_app)
    problems = cache.get(path)
    if problems is None and (warc["disk_size"] or 0) <= budget[0]:
        budget[0] -= warc["disk_size"] or 0
        problems = cache.run(path)
        if problems is None:
            return {"status": "unavailable", "problems": ["archiver check is not installed"]}
    if problems is None:
        return {"status": "unchecked", "problems": []}
    return {"status": "invalid" if problems else "valid", "problems": problems[:20]}


@bp.get("/jobs/<name>/warcs/")
def warcs(name: str) -> str:
    """The job's WARC files: size, records, validation status, download links."""
    job_dir, conn = views.open_job(name)
    rows = report.warc_files(conn, job_dir)
    budget = [int(current_app.config["WARC_CHECK_INLINE_BYTES"])]
    for row in rows:
        row.update(_validation(row, job_dir / "warcs", budget))
    return render_template("warcs.html", name=name, warcs=rows, job=views.job_or_404(conn, name))


@bp.get("/jobs/<name>/warcs/<filename>")
def warc_file(name: str, filename: str) -> Response:
    """Download one WARC file."""
    job_dir, _conn = views.open_job(name)
    path = jobs.safe_child(job_dir / "warcs", filename)
    if path is None:
        abort(404, f"No WARC file {filename!r} in job {name!r}.")
    return send_file(path, mimetype="application/octet-stream", as_attachment=True)


@bp.get("/jobs/<name>/check/<filename>")
def check(name: str, filename: str) -> Response:
    """Validate one WARC file now (read-only), then show the WARC list."""
    job_dir, _conn = views.open_job(name)
    path = jobs.safe_child(job_dir / "warcs", filename)
    if path is None:
        abort(404, f"No WARC file {filename!r} in job {name!r}.")
    if _cache(current_app).run(path) is None:
        abort(501, "archiver check is not available in this installation.")
    return redirect(url_for("files.warcs", name=name))


@bp.get("/jobs/<name>/<any('report.html', 'report.json', 'crawl.log'):filename>")
def job_file(name: str, filename: str) -> Response:
    """The report files and crawl log written into the job folder."""
    job_dir, _conn = views.open_job(name)
    path = jobs.safe_child(job_dir, filename)
    if path is None:
        abort(404, f"Job {name!r} has no {filename} yet (written when the crawl ends).")
    return send_file(path, mimetype=JOB_FILES[filename])


@bp.get("/jobs/<name>/reports/<filename>")
def text_report(name: str, filename: str) -> Response:
    """One of the Heritrix-style plain-text reports."""
    job_dir, _conn = views.open_job(name)
    path = jobs.safe_child(job_dir / "reports", filename)
    if path is None or not filename.endswith(".txt"):
        abort(404, f"Job {name!r} has no report {filename!r}.")
    return send_file(path, mimetype="text/plain")
