"""The fetches of a job's earlier runs, read back from its crawl database and WARC files.

A learning strategy keeps in memory what every page taught it: the sampler's pending
requests and the sample's bags while learning; while harvesting, the cluster of every
fetched page (the source cluster of its links), Balance, the duplicate-view and
harvest-evidence counts, and which page found each link. A kill loses all of it, and a
resumed harvest judged the links of every page fetched before the kill as links of an
outlier page (measured on the small zoo forum, source-target, 8 interruptions: valid ratio
0.838 -> 0.592). `Crawl` therefore feeds a resumed learning strategy every earlier fetch
again, in commit order, through the code the live crawl ran (`archiver.linking.
process_page` and `Strategy.observe_fetch`), and throws the decisions away: the frontier
already holds them. Nothing is fetched; bodies come from the WARC records the database
points at (a revisit record's from the response it revisits).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from warcio.archiveiterator import ArchiveIterator

from archiver.errors import JobError
from archiver.exchange import Exchange
from archiver.frontier import QueuedURL
from archiver.urls import host_key

__all__ = ["PastFetch", "past_fetches"]

# Every fetch of the earlier runs but robots.txt, in commit order, with where its body lies
# (a revisit's body is the revisited response's, found by payload digest).
_FETCHES = """
SELECT f.id AS fetch_id, u.id, u.url, u.depth, u.hops, u.via, u.parent_id, u.anchor_path,
       u.priority, p.url AS parent_url, f.status, f.error, f.fetched_at,
       coalesce(w.name, ow.name) AS warc, coalesce(o.warc_offset, f.warc_offset) AS offset
FROM fetch f
JOIN url u ON u.id = f.url_id
LEFT JOIN url p ON p.id = u.parent_id
LEFT JOIN warc_file w ON w.id = f.warc_file_id AND f.record_type = 'response'
LEFT JOIN payload pl ON pl.digest = f.payload_digest AND f.record_type = 'revisit'
LEFT JOIN url ou ON ou.url = pl.url
LEFT JOIN fetch o ON o.url_id = ou.id AND o.record_type = 'response'
LEFT JOIN warc_file ow ON ow.id = o.warc_file_id
WHERE u.via != 'robots'
ORDER BY f.id
"""


@dataclass(frozen=True, slots=True)
class PastFetch:
    """One fetch of an earlier run: its fetch id, the URL as popped, and the exchange."""

    fetch_id: int
    item: QueuedURL
    exchange: Exchange


def past_fetches(conn: sqlite3.Connection, warc_dir: Path) -> Iterator[PastFetch]:
    """Yield the earlier runs' fetches in the order they were committed.

    A fetch without a response (DNS failure, refused, timeout) comes back with status None
    and its error, as the fetcher returned it. Raises `JobError` naming the file when a WARC
    record the database points at is missing or unreadable: the job's archive is damaged,
    and resuming on a guessed state would hide it.
    """
    with ExitStack() as stack:
        files: dict[str, BinaryIO] = {}
        for row in conn.execute(_FETCHES):
            item = QueuedURL(row["id"], row["url"], host_key(row["url"]), row["depth"],
                             row["hops"], row["via"], row["parent_id"], row["anchor_path"],
                             row["priority"], 0, row["parent_url"] or "")
            if row["status"] is None or row["warc"] is None:
                ex = Exchange(url=row["url"], started_at=row["fetched_at"], status=None,
                              error=row["error"] or "not archived")
                yield PastFetch(row["fetch_id"], item, ex)
                continue
            fh = files.get(row["warc"])
            if fh is None:
                path = warc_dir / row["warc"]
                try:
                    fh = files[row["warc"]] = stack.enter_context(open(path, "rb"))
                except OSError as e:
                    raise JobError(f"{path}: cannot read this job's WARC to resume its "
                                   f"strategy ({e.strerror}); restore the file, or crawl "
                                   "into a new --out folder") from e
            yield PastFetch(row["fetch_id"], item,
                            _read_exchange(fh, row["offset"], row["url"], row["fetched_at"]))


def _read_exchange(fh: BinaryIO, offset: int, url: str, started_at: float) -> Exchange:
    """The response record at `offset` as the fetcher's `Exchange` (body with any
    Content-Encoding intact, as archived)."""
    fh.seek(offset)
    try:
        rec = next(iter(ArchiveIterator(fh)))
        head = rec.http_headers
        if rec.rec_type != "response" or head is None:
            raise ValueError(f"a {rec.rec_type} record without HTTP headers")
        status = int(head.get_statuscode())
        body = rec.raw_stream.read()
    except (StopIteration, ValueError, OSError, EOFError) as e:
        raise JobError(f"{getattr(fh, 'name', 'WARC')}: no readable response record for "
                       f"{url} at offset {offset} ({e}); run `archiver check` on the job's "
                       "WARCs, or crawl into a new --out folder") from e
    return Exchange(url=url, started_at=started_at, status=status,
                    response_headers=tuple((k, v) for k, v in head.headers), body=body)
