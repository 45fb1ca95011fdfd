"""The SQLite frontier: every URL the crawl has seen, which are queued, and in what order.

The frontier owns order: highest priority first, FIFO (lowest id) among equals. Strategies
only give priorities. The seen-set is the `url.canon` unique key, so a URL is queued once
per job, whatever number of pages link to it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

_MAX_PARAMS = 500  # host parameters per IN (...) query (SQLite < 3.32 allows 999)


@dataclass(frozen=True, slots=True)
class QueuedURL:
    """A URL popped from the frontier, ready to fetch."""

    id: int
    url: str
    host: str
    depth: int
    hops: str
    via: str
    parent_id: int | None
    anchor_path: str
    priority: float
    attempts: int
    parent_url: str = ""           # URL of the page that led here (the crawl log's "via")


@dataclass(frozen=True, slots=True)
class NewURL:
    """A URL to record: queued (state 'queued') or skipped with its reason."""

    url: str
    canon: str
    host: str
    depth: int
    hops: str
    via: str
    state: str = "queued"          # queued | skipped
    reason: str = ""
    priority: float = 0.0
    parent_id: int | None = None
    anchor_path: str = ""
    anchor_text: str = ""
    cluster: int | None = None


class Frontier:
    """Queue operations over the job database's `url` table (the caller owns transactions)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def add(self, new: NewURL, now: float) -> tuple[int, bool]:
        """Record a URL unless its canonical form was seen; returns (url id, newly added)."""
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO url (url, canon, host, depth, hops, parent_id, via, anchor_path,"
            " anchor_text, state, reason, priority, cluster, discovered_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (new.url, new.canon, new.host, new.depth, new.hops, new.parent_id, new.via,
             new.anchor_path, new.anchor_text, new.state, new.reason, new.priority, new.cluster,
             now),
        )
        if cur.rowcount:
            return int(cur.lastrowid or 0), True
        row = self.conn.execute("SELECT id FROM url WHERE canon = ?", (new.canon,)).fetchone()
        return int(row[0]), False

    def add_many(self, news: Sequence[NewURL], now: float) -> list[tuple[int, bool]]:
        """`add` for each of `news`, in order, with one query for those already seen.

        The INSERTs run in the same order as successive `add` calls, so ids and rows are
        the same; a canonical URL repeated in `news` is added by its first occurrence.
        """
        known = self.ids({new.canon for new in news})
        out: list[tuple[int, bool]] = []
        for new in news:
            url_id = known.get(new.canon)
            if url_id is None:
                url_id, added = self.add(new, now)
                known[new.canon] = url_id
                out.append((url_id, added))
            else:
                out.append((url_id, False))
        return out

    def ids(self, canons: Iterable[str]) -> dict[str, int]:
        """The url ids of those of `canons` that have been seen."""
        return self._by_canon("id", canons)

    def spellings(self, canons: Iterable[str]) -> dict[str, str]:
        """The URL each of `canons` that has been seen is stored (and fetched) as: the
        spelling of the link that found it first."""
        return self._by_canon("url", canons)

    def _by_canon(self, column: str, canons: Iterable[str]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        todo = list(canons)
        for start in range(0, len(todo), _MAX_PARAMS):
            chunk = todo[start:start + _MAX_PARAMS]
            found.update(self.conn.execute(
                f"SELECT canon, {column} FROM url WHERE canon IN"
                f" ({','.join('?' * len(chunk))})", chunk).fetchall())
        return found

    def lookup(self, canon: str) -> sqlite3.Row | None:
        """The url row of a canonical URL, if seen."""
        return self.conn.execute("SELECT * FROM url WHERE canon = ?", (canon,)).fetchone()

    def pop(self, now: float) -> QueuedURL | None:
        """The best queued URL whose retry time has come (it stays queued until marked)."""
        row = self.conn.execute(
            "SELECT u.id, u.url, u.host, u.depth, u.hops, u.via, u.parent_id, u.anchor_path,"
            " u.priority, u.attempts, COALESCE(p.url, '')"
            " FROM url u LEFT JOIN url p ON p.id = u.parent_id"
            " WHERE u.state = 'queued' AND u.not_before <= ?"
            " ORDER BY u.priority DESC, u.id LIMIT 1",
            (now,),
        ).fetchone()
        return QueuedURL(*row) if row else None

    def next_retry_time(self) -> float | None:
        """Earliest time a queued-but-waiting URL becomes ready (None if nothing waits)."""
        row = self.conn.execute(
            "SELECT MIN(not_before) FROM url WHERE state = 'queued'").fetchone()
        return None if row[0] is None else float(row[0])

    def queued_count(self) -> int:
        """How many URLs are queued."""
        return int(self.conn.execute(
            "SELECT COUNT(*) FROM url WHERE state = 'queued'").fetchone()[0])

    def mark(self, url_id: int, state: str, reason: str = "", now: float | None = None,
             cluster: int | None = None) -> None:
        """Set a URL's final state (done | skipped | failed) and why."""
        self.conn.execute(
            "UPDATE url SET state = ?, reason = ?, fetched_at = COALESCE(?, fetched_at),"
            " cluster = COALESCE(?, cluster) WHERE id = ?",
            (state, reason, now, cluster, url_id),
        )

    def retry_later(self, url_id: int, not_before: float, reason: str) -> None:
        """Count a failed attempt and keep the URL queued until `not_before`."""
        self.conn.execute(
            "UPDATE url SET attempts = attempts + 1, not_before = ?, reason = ? WHERE id = ?",
            (not_before, reason, url_id),
        )

    def reprioritize(self, updates: Iterable[tuple[int, bool, float, str]]) -> int:
        """Apply (url id, follow, priority, reason) to queued URLs; unfollowed ones are skipped."""
        n = 0
        for url_id, follow, priority, reason in updates:
            if follow:
                self.conn.execute(
                    "UPDATE url SET priority = ?, reason = ? WHERE id = ? AND state = 'queued'",
                    (priority, reason, url_id))
            else:
                self.conn.execute(
                    "UPDATE url SET state = 'skipped', reason = ? WHERE id = ?"
                    " AND state = 'queued'", (reason, url_id))
            n += 1
        return n

    def iter_queued(self) -> Iterator[sqlite3.Row]:
        """Queued URLs with the URL of the page that found them (for rescoring)."""
        yield from self.conn.execute(
            "SELECT u.id, u.url, u.depth, u.anchor_path, p.url AS parent_url FROM url u"
            " LEFT JOIN url p ON p.id = u.parent_id WHERE u.state = 'queued' ORDER BY u.id")
