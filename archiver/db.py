"""SQLite connection helpers: WAL mode, Row factory, read-only path, user_version migrations."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

from archiver.errors import JobError

# Ordered migrations: index i brings a database from user_version i to i + 1.
# The first is the whole schema; later changes are appended, never edited.
MIGRATIONS: list[str] = [
    resources.files("archiver").joinpath("schema.sql").read_text("utf-8"),
    # the last fetch before a learning strategy fitted its model (NULL: not fitted, or
    # fitted by an archiver that did not record it): a resume loads the model there
    "ALTER TABLE job ADD COLUMN learned_after_fetch INTEGER",
    # URLs a learning strategy let go of when popped, in order, with the last fetch before
    # (0: none yet): "deferred" (requeued lower) or "precluded" (robots.txt). A resume tells
    # the strategy of each again at the same point of its replay (`Crawl._replay`).
    "CREATE TABLE sample_drop (id INTEGER PRIMARY KEY,"
    " url_id INTEGER NOT NULL REFERENCES url(id), kind TEXT NOT NULL,"
    " after_fetch INTEGER NOT NULL)",
]
SCHEMA_VERSION = len(MIGRATIONS)


def connect(path: str | Path, readonly: bool = False) -> sqlite3.Connection:
    """Open a crawl database; create and migrate it unless `readonly`.

    The read-only connection (the admin's) cannot write: SQLite refuses with
    `sqlite3.OperationalError: attempt to write a readonly database`.
    """
    path = Path(path)
    if readonly:
        if not path.exists():
            raise JobError(f"{path}: no crawl database here")
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    else:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL is durable across a process kill (the WAL is in the OS cache), only a power
        # loss can lose the last transactions; FULL would fsync every page.
        conn.execute("PRAGMA synchronous=NORMAL")
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=5000")
    if not readonly:
        migrate(conn, path)
    return conn


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Apply the migrations this database has not seen yet."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise JobError(
            f"{path}: database schema {version} is newer than this archiver supports "
            f"({SCHEMA_VERSION}); upgrade archiver"
        )
    for index in range(version, SCHEMA_VERSION):
        conn.executescript(
            "BEGIN;" + MIGRATIONS[index] + f";PRAGMA user_version={index + 1};COMMIT;")
