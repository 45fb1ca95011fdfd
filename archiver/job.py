"""A crawl job's folder: its lock, database, WARC directory, model and logs.

    crawls/<name>/crawl.sqlite3   crawl state (DESIGN.md §5)
    crawls/<name>/warcs/          WARC files (*.open while written)
    crawls/<name>/model/          the learned model, as data
    crawls/<name>/crawl.log       Heritrix-style crawl log
    crawls/<name>/.lock           held (flock) by the one process crawling this job
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from pathlib import Path
from typing import IO

from archiver import __version__, db
from archiver.errors import JobError
from archiver.profile import SiteProfile


class JobFolder:
    """Paths of one job folder, and the exclusive lock a running crawl holds on it."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        self.db_path = self.dir / "crawl.sqlite3"
        self.warc_dir = self.dir / "warcs"
        self.model_dir = self.dir / "model"
        self.log_path = self.dir / "crawl.log"
        self.lock_path = self.dir / ".lock"
        self._lock: IO[str] | None = None

    def acquire(self) -> None:
        """Create the folder and lock it; JobError if another process crawls this job."""
        try:
            self.warc_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise JobError(f"{self.dir}: cannot create the job folder: {err.strerror}; "
                           "choose another output.dir or --out") from err
        handle = self.lock_path.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            pid = handle.read().strip() or "?"
            handle.close()
            raise JobError(f"{self.dir}: another archiver process (pid {pid}) is crawling this "
                           "job; wait for it or stop it (Ctrl-C / kill) first") from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._lock = handle

    def release(self) -> None:
        """Release the lock (the file stays; the lock is what matters)."""
        if self._lock is not None:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def is_running(self) -> bool:
        """True while some process holds this job's lock."""
        if not self.lock_path.exists():
            return False
        with self.lock_path.open("r") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def open_job(folder: JobFolder, profile: SiteProfile,
             now: float | None = None) -> tuple[sqlite3.Connection, bool]:
    """Open (or create) the job database; returns (connection, resumed)."""
    now = time.time() if now is None else now
    conn = db.connect(folder.db_path)
    row = conn.execute("SELECT name, state FROM job WHERE id = 1").fetchone()
    if row is None:
        conn.execute(
            "INSERT INTO job (id, name, strategy, profile_path, profile_sha256, profile_yaml,"
            " archiver_version, state, started_at, updated_at) VALUES (1,?,?,?,?,?,?,?,?,?)",
            (profile.name, profile.strategy.name, profile.source, profile.sha256, profile.text,
             __version__, "running", now, now))
        return conn, False
    if row["name"] != profile.name:
        conn.close()
        raise JobError(f"{folder.dir}: this folder holds job {row['name']!r}, not "
                       f"{profile.name!r}; use another output.dir (or --out)")
    conn.execute(
        "UPDATE job SET state = 'running', runs = runs + 1, updated_at = ?, finished_at = NULL,"
        " stop_reason = NULL, strategy = ?, profile_sha256 = ?, profile_yaml = ? WHERE id = 1",
        (now, profile.strategy.name, profile.sha256, profile.text))
    return conn, True


def log_event(conn: sqlite3.Connection, kind: str, message: str, *, url: str = "",
              level: str = "info", now: float | None = None) -> None:
    """Append an event to the job's event table."""
    conn.execute("INSERT INTO event (at, level, kind, url, message) VALUES (?,?,?,?,?)",
                 (time.time() if now is None else now, level, kind, url, message))
