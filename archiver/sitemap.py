"""Store a learned sitemap (page clusters and the edges between them) in the crawl DB's
`cluster` and `cluster_edge` tables, which the admin's learned-sitemap view reads."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

from archiver.strategies.base import ClusterInfo


def store_sitemap(conn: sqlite3.Connection, clusters: Iterable[ClusterInfo],
                  edges: Iterable[tuple[int, int, float]]) -> int:
    """Replace the stored sitemap with `clusters` and `edges` (caller owns the transaction);
    returns the number of clusters stored."""
    rows = [(c.id, c.label, c.size, c.score, json.dumps(c.info, sort_keys=True))
            for c in clusters]
    conn.execute("DELETE FROM cluster_edge")
    conn.execute("DELETE FROM cluster")
    conn.executemany("INSERT INTO cluster (id, label, size, score, info) VALUES (?,?,?,?,?)",
                     rows)
    conn.executemany("INSERT INTO cluster_edge (src, dst, weight) VALUES (?,?,?)",
                     [(int(s), int(d), float(w)) for s, d, w in edges])
    return len(rows)
