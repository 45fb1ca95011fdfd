"""Row-level reads for the admin: "why wasn't X archived?" and paged URL listings.

Each query is an index lookup (url.canon, fetch_url, link_to, url_state_reason, page_cluster)
or a keyset page (`id > after ... LIMIT n`), so its cost does not grow with the crawl.
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from archiver.admin.queries import category

PAGE_SIZE = 100


def candidates(raw: str) -> list[str]:
    """Spellings under which a user-typed URL may be stored (as typed, canonical, ...)."""
    url = raw.strip()
    out = [url]
    parts = urlsplit(url)
    if parts.fragment:
        out.append(urlunsplit(parts._replace(fragment="")))
    if parts.scheme and parts.netloc and not parts.path:
        out.append(urlunsplit(parts._replace(path="/", fragment="")))
    try:  # the crawler's own canonical form, when that module is present
        from archiver.urls import canonicalize
    except ImportError:  # pragma: no cover - archiver.urls lands separately
        pass
    else:
        with contextlib.suppress(ValueError, TypeError):
            out.append(canonicalize(url))
    return list(dict.fromkeys(u for u in out if u))


def find_url(conn: sqlite3.Connection, raw: str) -> dict[str, Any] | None:
    """Everything the crawl knows about one URL, or None if it was never seen.

    The answer: its state and reason, the fetch (when, status, WARC file and offset, revisit
    target), its page (title, cluster), the links that led to it with the strategy's decision,
    and the events logged for it.
    """
    spellings = candidates(raw)
    marks = ",".join("?" * len(spellings))
    row = conn.execute(f"SELECT * FROM url WHERE canon IN ({marks}) LIMIT 1",
                       spellings).fetchone()
    if row is None:  # `url` is not indexed: one scan, acceptable for a single search
        row = conn.execute(f"SELECT * FROM url WHERE url IN ({marks}) LIMIT 1",
                           spellings).fetchone()
    if row is None:
        return None
    found: dict[str, Any] = dict(row)
    found["category"] = (category(row["state"], row["reason"])
                         if row["state"] in ("skipped", "failed") else "")
    fetch = conn.execute(
        "SELECT f.*, w.name AS warc_name, w.state AS warc_state FROM fetch AS f"
        " LEFT JOIN warc_file AS w ON w.id = f.warc_file_id WHERE f.url_id = ?",
        (row["id"],)).fetchone()
    found["fetch"] = dict(fetch) if fetch else None
    if fetch is not None and fetch["record_type"] == "revisit" and fetch["payload_digest"]:
        original = conn.execute("SELECT url, warc_date FROM payload WHERE digest = ?",
                                (fetch["payload_digest"],)).fetchone()
        found["revisit_of"] = dict(original) if original else None
    page = conn.execute("SELECT title, cluster, n_links, n_followed FROM page WHERE url_id = ?",
                        (row["id"],)).fetchone()
    found["page"] = dict(page) if page else None
    found["parent"] = _url_of(conn, row["parent_id"])
    found["inlinks"] = [dict(r) for r in conn.execute(
        "SELECT u.url AS from_url, l.text, l.follow, l.score, l.reason FROM link AS l"
        " JOIN url AS u ON u.id = l.from_id WHERE l.to_id = ? ORDER BY l.from_id LIMIT 20",
        (row["id"],)).fetchall()]
    found["events"] = [dict(r) for r in conn.execute(
        "SELECT at, level, kind, message FROM event WHERE url = ? ORDER BY id LIMIT 20",
        (row["url"],)).fetchall()]
    return found


def host_seen(conn: sqlite3.Connection, raw: str) -> bool:
    """Whether the crawl saw any URL on the host of `raw` (for a never-seen URL)."""
    host = (urlsplit(raw.strip()).hostname or "").lower()
    if not host:
        return False
    row = conn.execute("SELECT 1 FROM url WHERE host IN (?, ?) LIMIT 1",
                       (host, urlsplit(raw.strip()).netloc.lower())).fetchone()
    return row is not None


def urls_with_reason(conn: sqlite3.Connection, state: str, reason: str, after: int = 0,
                     limit: int = PAGE_SIZE) -> list[dict[str, Any]]:
    """One page of the URLs skipped/failed for `reason`, in id order from `after`."""
    rows = conn.execute(
        "SELECT id, url, depth, via, anchor_text, discovered_at FROM url"
        " WHERE state = ? AND reason = ? AND id > ? ORDER BY id LIMIT ?",
        (state, reason, after, limit)).fetchall()
    return [dict(r) for r in rows]


def archived_pages(conn: sqlite3.Connection, after: int = 0, limit: int = PAGE_SIZE,
                   cluster: int | None = None) -> list[dict[str, Any]]:
    """One page of archived fetches (with title and cluster), in fetch order from `after`."""
    if cluster is None:
        rows = conn.execute(
            "SELECT f.id, u.url, f.fetched_at, f.status, f.content_type, f.bytes,"
            " f.record_type, w.name AS warc_name, p.title, p.cluster"
            " FROM fetch AS f JOIN url AS u ON u.id = f.url_id"
            " LEFT JOIN page AS p ON p.url_id = f.url_id"
            " LEFT JOIN warc_file AS w ON w.id = f.warc_file_id"
            " WHERE f.id > ? AND f.record_type != '' ORDER BY f.id LIMIT ?",
            (after, limit)).fetchall()
    else:  # page_cluster index, then the fetch by its unique url_id
        rows = conn.execute(
            "SELECT f.id, u.url, f.fetched_at, f.status, f.content_type, f.bytes,"
            " f.record_type, w.name AS warc_name, p.title, p.cluster"
            " FROM page AS p JOIN fetch AS f ON f.url_id = p.url_id"
            " JOIN url AS u ON u.id = p.url_id"
            " LEFT JOIN warc_file AS w ON w.id = f.warc_file_id"
            " WHERE p.cluster = ? AND f.id > ? AND f.record_type != ''"
            " ORDER BY f.id LIMIT ?",
            (cluster, after, limit)).fetchall()
    return [dict(r) for r in rows]


def _url_of(conn: sqlite3.Connection, url_id: int | None) -> str | None:
    if url_id is None:
        return None
    row = conn.execute("SELECT url FROM url WHERE id = ?", (url_id,)).fetchone()
    return str(row[0]) if row else None
