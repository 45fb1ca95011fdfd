"""Job folders as the admin sees them: discovery, safe name resolution, liveness, state."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

DB_NAME = "crawl.sqlite3"
LOCK_NAME = ".lock"


def is_running(job_dir: Path) -> bool:
    """True while a crawler holds the job's lock (a failed non-blocking shared flock)."""
    lock = job_dir / LOCK_NAME
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:  # no lock file: never crawled here, or not readable
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def effective_state(db_state: str, running: bool) -> str:
    """running | finished | interrupted: 'running' in the database without a live crawler
    means the crawl died (kill, crash, power loss) and can be resumed."""
    if db_state == "running" and not running:
        return "interrupted"
    return db_state


def job_dirs(jobs_dir: Path) -> list[Path]:
    """The job folders (subfolders holding a crawl database) under `jobs_dir`, by name."""
    if not jobs_dir.is_dir():
        return []
    return sorted(p for p in jobs_dir.iterdir()
                  if not p.name.startswith(".") and (p / DB_NAME).is_file())


def resolve(jobs_dir: Path, name: str) -> Path | None:
    """The folder of job `name`, or None if there is none; never a path outside `jobs_dir`."""
    if not name or name.startswith(".") or "/" in name or "\\" in name or "\0" in name:
        return None
    root = jobs_dir.resolve()
    path = (root / name).resolve()
    if path.parent != root or not (path / DB_NAME).is_file():
        return None
    return path


def safe_child(folder: Path, name: str) -> Path | None:
    """The file `name` directly inside `folder` (no subpaths, no symlink escapes), or None."""
    if not name or name.startswith(".") or "/" in name or "\\" in name or "\0" in name:
        return None
    root = folder.resolve()
    path = (root / name).resolve()
    if path.parent != root or not path.is_file():
        return None
    return path
