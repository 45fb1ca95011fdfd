"""Aggregate queries over one crawl database, shared by the admin and the crawl report.

Every function takes a (read-only) connection and returns plain, JSON-ready values. The
counting happens in SQL, mostly on the schema's indexes; Python only loops over groups (status
codes, hosts, reasons, clusters, curve buckets), never over all rows.
"""

from __future__ import annotations

import json
import math
import sqlite3
from typing import Any

EXAMPLES = 10          # example URLs per skip/failure reason
MAX_REASONS = 200      # distinct reasons listed (the rest are summed into one line)
CURVE_BUCKETS = 200    # points per harvest curve
CURVE_SERIES = 8       # clusters drawn individually on the harvest curve

# Reason prefixes → the categories archivists ask about ("why wasn't X archived?").
_CATEGORIES: tuple[tuple[str, str], ...] = (
    ("robots", "robots"),
    ("out-of-scope", "scope"),
    ("redirect-out-of-scope", "scope"),
    ("excluded", "scope"),
    ("too-deep", "scope"),
    ("trap", "trap rule"),
    ("strategy", "low score"),
    ("budget", "budget"),
    ("fetch-error", "error"),
    ("http", "error"),
)


def category(state: str, reason: str) -> str:
    """The category of a skip/failure reason: robots, scope, trap rule, low score, budget, error."""
    if state == "failed":
        return "error"
    for prefix, name in _CATEGORIES:
        if reason == prefix or reason.startswith((prefix + ":", prefix + " ")):
            return name
    return "other"


def job(conn: sqlite3.Connection) -> dict[str, Any] | None:
    """The job row (without the profile text), or None for an empty database."""
    row = conn.execute(
        "SELECT name, strategy, profile_path, profile_sha256, archiver_version, state, phase,"
        " stop_reason, started_at, updated_at, finished_at, runs FROM job WHERE id = 1"
    ).fetchone()
    return dict(row) if row else None


def profile_yaml(conn: sqlite3.Connection) -> str:
    """The profile as run (after CLI overrides)."""
    row = conn.execute("SELECT profile_yaml FROM job WHERE id = 1").fetchone()
    return str(row[0]) if row else ""


def fetch_cube(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Requests and bytes per (host, depth, record type): one grouped pass over fetch ⋈ url.

    Hosts, depths and totals are roll-ups of these cells, so the fetch table is scanned (and
    sorted) once for the three; the cost grows with requests, not with the links seen.
    """
    rows = conn.execute(
        "SELECT u.host AS host, u.depth AS depth, f.record_type AS record_type,"
        " COUNT(*) AS fetched, COALESCE(SUM(f.bytes), 0) AS bytes"
        " FROM fetch AS f JOIN url AS u ON u.id = f.url_id"
        " GROUP BY u.host, u.depth, f.record_type"
    ).fetchall()
    return [dict(r) for r in rows]


def _rollup(cube: list[dict[str, Any]], key: str) -> dict[Any, dict[str, int]]:
    """Sum cube cells by `key`: fetched/bytes, and novel (response) and dup (revisit) records."""
    out: dict[Any, dict[str, int]] = {}
    for cell in cube:
        sums = out.setdefault(cell[key], dict.fromkeys(
            ("fetched", "bytes", "novel_urls", "novel_bytes", "dup_urls", "dup_bytes"), 0))
        sums["fetched"] += cell["fetched"]
        sums["bytes"] += cell["bytes"]
        kind = {"response": "novel", "revisit": "dup"}.get(cell["record_type"])
        if kind:
            sums[f"{kind}_urls"] += cell["fetched"]
            sums[f"{kind}_bytes"] += cell["bytes"]
    return out


def totals(conn: sqlite3.Connection, cube: list[dict[str, Any]] | None = None) -> dict[str, int]:
    """Requests, bytes, archived/revisit/truncated records, pages, and URLs per state."""
    cube = fetch_cube(conn) if cube is None else cube
    sums = _rollup(cube, "record_type")
    # HTTP requests sent, counting retried attempts and robots.txt (the budget's unit);
    # `fetched` counts URLs with a final archived exchange.
    sent = conn.execute("SELECT requests FROM job WHERE id = 1").fetchone()
    fetched = sum(s["fetched"] for s in sums.values())
    out = {"requests": max(int(sent[0]) if sent else 0, fetched), "fetched": fetched,
           "bytes": sum(s["bytes"] for s in sums.values()),
           "archived": sums.get("response", {}).get("fetched", 0),
           "revisits": sums.get("revisit", {}).get("fetched", 0)}
    out["no_response"] = conn.execute(
        "SELECT COUNT(*) FROM fetch WHERE status IS NULL").fetchone()[0]   # fetch_status
    out["truncated"] = conn.execute(
        "SELECT COUNT(*) FROM fetch WHERE truncated != ''").fetchone()[0]
    out["pages"] = conn.execute("SELECT COUNT(*) FROM page").fetchone()[0]
    states = dict(conn.execute("SELECT state, COUNT(*) FROM url GROUP BY state").fetchall())
    for state in ("queued", "done", "skipped", "failed"):
        out[state] = int(states.get(state, 0))
    out["urls"] = sum(int(n) for n in states.values())
    return out


def live_totals(conn: sqlite3.Connection) -> dict[str, int]:
    """The few numbers the live view polls: cheap even on a large crawl."""
    fetched, nbytes = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM fetch").fetchone()
    sent = conn.execute("SELECT requests FROM job WHERE id = 1").fetchone()
    requests = max(int(sent[0]) if sent else 0, fetched)  # as in totals()
    states = dict(conn.execute("SELECT state, COUNT(*) FROM url GROUP BY state").fetchall())
    warcs = conn.execute("SELECT COUNT(*) FROM warc_file").fetchone()[0]
    return {"requests": requests, "bytes": nbytes, "warcs": warcs,
            **{s: int(states.get(s, 0)) for s in ("queued", "done", "skipped", "failed")}}


def status_codes(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Fetches per HTTP status (None: no response), most frequent first (fetch_status index)."""
    rows = conn.execute(
        "SELECT status, COUNT(*) AS count FROM fetch GROUP BY status ORDER BY count DESC, status"
    ).fetchall()
    return [dict(r) for r in rows]


def mimetypes(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Fetches and bytes per content type, most frequent first (fetch_type index)."""
    rows = conn.execute(
        "SELECT content_type, COUNT(*) AS count, COALESCE(SUM(bytes), 0) AS bytes"
        " FROM fetch GROUP BY content_type ORDER BY count DESC, content_type"
    ).fetchall()
    return [dict(r) for r in rows]


def hosts(conn: sqlite3.Connection,
          cube: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Per host: fetched, bytes, robots denials, remaining, novel/duplicate/not-modified.

    The columns of Heritrix's hosts-report.txt, and like it only hosts the crawl scheduled:
    fetched ones (the cube), plus robots-denied or queued ones (url_state_reason index).
    """
    cube = fetch_cube(conn) if cube is None else cube
    zero = {"fetched": 0, "bytes": 0, "novel_urls": 0, "novel_bytes": 0, "dup_urls": 0,
            "dup_bytes": 0, "not_modified_urls": 0, "not_modified_bytes": 0, "robots": 0,
            "remaining": 0}
    out = {host: {"host": host, **zero, **sums} for host, sums in _rollup(cube, "host").items()}
    not_modified = conn.execute(  # fetch_status index: archiver sends no conditional requests
        "SELECT u.host AS host, COUNT(*) AS n, COALESCE(SUM(f.bytes), 0) AS bytes"
        " FROM fetch AS f JOIN url AS u ON u.id = f.url_id WHERE f.status = 304"
        " GROUP BY u.host").fetchall()
    for row in not_modified:
        entry = out.setdefault(row["host"], {"host": row["host"], **zero})
        entry["not_modified_urls"], entry["not_modified_bytes"] = row["n"], row["bytes"]
    pending = conn.execute(
        "SELECT host, SUM(state = 'skipped') AS robots, SUM(state = 'queued') AS remaining"
        " FROM url WHERE (state = 'skipped' AND reason = 'robots') OR state = 'queued'"
        " GROUP BY host").fetchall()
    for row in pending:
        entry = out.setdefault(row["host"], {"host": row["host"], **zero})
        entry["robots"], entry["remaining"] = int(row["robots"]), int(row["remaining"])
    return sorted(out.values(), key=lambda h: (-h["fetched"], -h["remaining"], h["host"]))


def depths(conn: sqlite3.Connection,
           cube: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Requests and bytes per link depth, with the URLs still queued there."""
    cube = fetch_cube(conn) if cube is None else cube
    by_depth = _rollup(cube, "depth")
    queued = dict(conn.execute(
        "SELECT depth, COUNT(*) FROM url WHERE state = 'queued' GROUP BY depth").fetchall())
    return [{"depth": d, "fetched": by_depth.get(d, {}).get("fetched", 0),
             "bytes": by_depth.get(d, {}).get("bytes", 0), "queued": int(queued.get(d, 0))}
            for d in sorted(set(by_depth) | set(queued))]


def reasons(conn: sqlite3.Connection, state: str, examples: int = EXAMPLES,
            limit: int = MAX_REASONS) -> list[dict[str, Any]]:
    """Skipped (or failed) URLs grouped by reason, with counts and the first examples.

    Counting and each example lookup use the (state, reason) index.
    """
    groups = conn.execute(
        "SELECT reason, COUNT(*) AS count FROM url WHERE state = ?"
        " GROUP BY reason ORDER BY count DESC, reason", (state,)
    ).fetchall()
    out: list[dict[str, Any]] = []
    for group in groups[:limit]:
        rows = conn.execute(
            "SELECT id, url, depth, via, anchor_text FROM url"
            " WHERE state = ? AND reason = ? ORDER BY id LIMIT ?",
            (state, group["reason"], examples)).fetchall()
        out.append({"reason": group["reason"], "category": category(state, group["reason"]),
                    "count": group["count"], "examples": [dict(r) for r in rows]})
    if len(groups) > limit:
        out.append({"reason": f"({len(groups) - limit} more reasons)", "category": "other",
                    "count": sum(g["count"] for g in groups[limit:]), "examples": []})
    return out


def by_category(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sum reason groups into their categories, largest first."""
    sums: dict[str, int] = {}
    for group in groups:
        sums[group["category"]] = sums.get(group["category"], 0) + group["count"]
    return [{"category": k, "count": v} for k, v in sorted(sums.items(), key=lambda kv: -kv[1])]


def warc_files(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The WARC files the crawl wrote, as recorded in the database."""
    rows = conn.execute(
        "SELECT id, name, state, created_at, closed_at, size, records FROM warc_file ORDER BY id"
    ).fetchall()
    return [dict(r) for r in rows]


def has_model(conn: sqlite3.Connection) -> bool:
    """True when pages carry a learned cluster (page_cluster index)."""
    row = conn.execute("SELECT EXISTS (SELECT 1 FROM page WHERE cluster IS NOT NULL)").fetchone()
    return bool(row[0])


def page_grid(conn: sqlite3.Connection, buckets: int = CURVE_BUCKETS) -> dict[str, Any]:
    """One grouped pass over page ⋈ fetch, by request bucket and cluster.

    Each cell counts pages, 2xx pages, and their outlinks (all, followed); `clusters` and
    `harvest` both read it, so the page table is scanned once for the two of them. Requests
    are fetch rows in id order; the bucket of a fetch is its id's position in [min, max] id,
    exact when ids are dense (the crawler's case) and proportional otherwise.
    """
    requests, lo, hi = conn.execute("SELECT COUNT(*), MIN(id), MAX(id) FROM fetch").fetchone()
    if not requests:
        return {"requests": 0, "buckets": 0, "span": 0, "cells": []}
    span = hi - lo + 1
    n = min(buckets, requests)
    # CROSS JOIN keeps fetch as the outer loop: a rowid-order scan with page lookups by its
    # primary key beats walking page_cluster and probing fetch_url for every page.
    cells = conn.execute(
        "SELECT (f.id - :lo) * :n / :span AS bucket, p.cluster AS cluster,"
        " COUNT(*) AS pages, SUM(f.status BETWEEN 200 AND 299) AS ok,"
        " SUM(p.n_links) AS links, SUM(p.n_followed) AS followed"
        " FROM fetch AS f CROSS JOIN page AS p ON p.url_id = f.url_id"
        " GROUP BY bucket, p.cluster",
        {"lo": lo, "n": n, "span": span}).fetchall()
    return {"requests": requests, "buckets": n, "span": span, "cells": [dict(c) for c in cells]}


def clusters(conn: sqlite3.Connection, grid: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Learned clusters with their pages in this crawl and followed/skipped outlinks."""
    grid = page_grid(conn) if grid is None else grid
    counts: dict[int, list[int]] = {}
    for cell in grid["cells"]:
        if cell["cluster"] is not None:
            total = counts.setdefault(cell["cluster"], [0, 0, 0])
            total[0] += cell["pages"]
            total[1] += cell["links"] or 0
            total[2] += cell["followed"] or 0
    learned = {r["id"]: r for r in conn.execute(
        "SELECT id, label, size, score, info FROM cluster ORDER BY id").fetchall()}
    out = []
    for cid in sorted(set(learned) | set(counts)):
        row = learned.get(cid)
        info = _json_object(row["info"]) if row else {}
        pages, links, followed = counts.get(cid, [0, 0, 0])
        out.append({
            "id": cid,
            "label": (row["label"] if row else "") or ("outliers" if cid == -1 else f"C{cid}"),
            "sample_size": int(row["size"]) if row else 0,
            "score": float(row["score"]) if row else 0.0,
            "pages": pages, "links": links, "followed": followed,
            "skipped_links": max(links - followed, 0),
            "example_urls": [str(u) for u in _list(info.get("example_urls"))[:5]],
            "top_xpaths": [str(x) for x in _list(info.get("top_xpaths"))[:5]],
            "hub": _number(info.get("hub")), "authority": _number(info.get("authority")),
            "dsim": _number(info.get("dsim")),
            # share of the sampled pages' visible text outside links (SOUrCe's content
            # factor); absent for strategies and models without it
            "content": _number(info.get("content")),
            "informativeness": _number(info.get("informativeness", row["score"] if row else None)),
        })
    return out


def cluster_edges(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The learned sitemap's navigation edges (transition probabilities)."""
    rows = conn.execute(
        "SELECT src, dst, weight FROM cluster_edge ORDER BY weight DESC, src, dst").fetchall()
    return [dict(r) for r in rows]


def harvest(conn: sqlite3.Connection, grid: dict[str, Any] | None = None,
            max_series: int = CURVE_SERIES) -> dict[str, Any]:
    """Valuable pages against requests, overall and for the largest clusters.

    Valuable: a 2xx HTML page; when pages have learned clusters, one in a (non-outlier)
    cluster. About CURVE_BUCKETS points per curve.
    """
    grid = page_grid(conn) if grid is None else grid
    requests, n, span = grid["requests"], grid["buckets"], grid["span"]
    model = any(c["cluster"] is not None for c in grid["cells"]) or has_model(conn)
    per_cluster: dict[int | None, list[int]] = {}
    for cell in grid["cells"]:
        if cell["ok"] and (not model or (cell["cluster"] is not None and cell["cluster"] >= 0)):
            key = cell["cluster"] if model else None
            per_cluster.setdefault(key, [0] * n)[cell["bucket"]] += cell["ok"]
    total = [sum(col) for col in zip(*per_cluster.values(), strict=True)] if per_cluster \
        else [0] * n
    # Requests made by the end of each bucket (ids are positions when dense; else scaled).
    xs = [min(requests, round(math.ceil((b + 1) * span / n) * requests / span))
          for b in range(n)]
    ranked = sorted(per_cluster, key=lambda c: -sum(per_cluster[c]))
    series: list[dict[str, Any]] = [
        {"name": "all valuable pages", "cluster": None, "points": _cumulate(xs, total)}]
    if model:
        series += [{"name": f"cluster {c}", "cluster": c, "points": _cumulate(xs, per_cluster[c])}
                   for c in ranked[:max_series]]
    return {"requests": requests, "valuable": sum(total), "model": model, "series": series}


def seeds(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each seed with its status and redirect target (Heritrix's seeds report)."""
    rows = conn.execute(
        "SELECT u.url, u.state, u.reason, f.status,"
        " (SELECT r.url FROM url AS r WHERE r.parent_id = u.id AND r.via = 'redirect'"
        "  ORDER BY r.id LIMIT 1) AS redirect"
        " FROM url AS u LEFT JOIN fetch AS f ON f.url_id = u.id"
        " WHERE u.parent_id IS NULL AND u.via = 'seed' ORDER BY u.id"
    ).fetchall()
    return [dict(r) for r in rows]


def _cumulate(xs: list[int], counts: list[int]) -> list[list[int]]:
    points, running = [[0, 0]], 0
    for x, count in zip(xs, counts, strict=True):
        running += count
        points.append([x, running])
    return points


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None
