"""WARC output: `WarcSink` writes each fetch as WARC 1.1 records through warcio's manual writer.

Request/response (or revisit) pairs, metadata and resource records; one gzip member per record;
size-based rotation with `.open` names until closed (DESIGN.md §4, STYLE.md §6). Crash repair
lives in `warcscan` and is re-exported here.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import logging
import re
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO

from warcio.statusandheaders import StatusAndHeaders
from warcio.timeutils import datetime_to_iso_date
from warcio.warcwriter import WARCWriter

from archiver import __version__
from archiver.errors import WarcError
from archiver.exchange import Exchange
from archiver.warcscan import (
    OPEN_SUFFIX,
    StoredRecord,
    iter_records_after,
    rename_closed,
    repair_open_files,
)

logger = logging.getLogger(__name__)

__all__ = ["RecordLocation", "StoredRecord", "WarcSink", "iter_records_after", "repair_open_files"]

WARC_VERSION = "1.1"
CONFORMS_TO = "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"
# Common Crawl and StormCrawler keep a header the stored bytes no longer satisfy under this
# prefix, so the original value is kept but no reader acts on it.
HIDDEN_HEADER_PREFIX = "X-Crawler-"
_FIELD_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # RFC 9110 token
_PREFIX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_CRLF = re.compile(r"[\r\n]+")


def _new_record_id() -> str:
    return f"<urn:uuid:{uuid.uuid4()}>"


def sha1_digest(data: bytes) -> str:
    """The WARC digest label of `data`: "sha1:" + base32, as warcio and pywb write it."""
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


EMPTY_DIGEST = sha1_digest(b"")


def warc_date(posix_time: float) -> str:
    """WARC 1.1 date (UTC, microseconds when not whole seconds), e.g. 2026-11-22T03:01:02.5Z."""
    moment = datetime.fromtimestamp(posix_time, UTC).replace(tzinfo=None)
    return str(datetime_to_iso_date(moment, use_micros=True))


def _warc_fields(fields: Sequence[tuple[str, str]]) -> bytes:
    """`application/warc-fields` body; values lose CR/LF so one field stays one line."""
    for name in {name for name, _ in fields}:  # a page repeats a few names many times
        if not _FIELD_NAME.match(name):
            raise ValueError(f"invalid warc-fields name {name!r}: use letters, digits, '-'")
    lines = []
    for name, value in fields:
        text = str(value)
        if "\r" in text or "\n" in text:
            text = _CRLF.sub(" ", text)
        lines.append(f"{name}: {text.strip()}\r\n")
    return "".join(lines).encode("utf-8")


class _RawHttpHead(StatusAndHeaders):
    """An HTTP head serialized as ISO-8859-1, the bytes http.client decoded it from.

    warcio %-encodes any non-ASCII header value (RFC 8187 style), which rewrites what the
    server sent; encoding back to Latin-1 restores the received bytes exactly. Only text
    that cannot be Latin-1 (not from the wire) falls back to warcio's encoding.
    """

    def to_ascii_bytes(self, filter_func: Any = None) -> bytes:
        try:
            return str(self.to_str(filter_func)).encode("iso-8859-1") + b"\r\n"
        except UnicodeEncodeError:
            return bytes(super().to_ascii_bytes(filter_func))


def response_head(ex: Exchange) -> StatusAndHeaders:
    """The response status line and headers as they will be stored.

    `Exchange.body` is already de-chunked, so a `Transfer-Encoding` header would be false
    about the stored bytes: pywb marks such a record chunked and feeds the body through
    warcio's ChunkedDataReader, which mangles any body that happens to begin with a hex
    number and CRLF, and the WARC 1.1 payload (§6.3.2, iipc/warc-specifications#22) is the
    entity with transfer coding removed anyway. Re-chunking would invent chunk boundaries
    the server never sent. So we store the de-chunked entity and keep the header's value
    as `X-Crawler-Transfer-Encoding`, as Common Crawl does. Content-Encoding is untouched:
    the body keeps it (gzip stays gzip) and replay decodes it.
    """
    headers = [
        (HIDDEN_HEADER_PREFIX + name if name.lower() == "transfer-encoding" else name, value)
        for name, value in ex.response_headers
    ]
    return _RawHttpHead(f"{ex.status} {ex.reason}", headers, protocol=ex.http_version)


def request_head(ex: Exchange) -> StatusAndHeaders:
    """The request line and headers as sent."""
    return _RawHttpHead(f"{ex.request_target} {ex.http_version}", list(ex.request_headers),
                        protocol=ex.method)


@dataclass(frozen=True, slots=True)
class RecordLocation:
    """Where the records of one sink call landed."""

    filename: str        # final file name (without .open)
    offset: int          # offset of the first record of the call
    length: int          # bytes from offset to the end of the call's last record
    record_id: str       # WARC-Record-ID of the main record (response/revisit/metadata/resource)
    record_type: str     # "response" | "revisit" | "metadata" | "resource"
    payload_digest: str  # "sha1:BASE32..."
    warc_date: str       # WARC-Date written


class WarcSink:
    """Writes fetches to size-rotated WARC 1.1 files named PREFIX-TIMESTAMP-SERIAL.warc.gz.

    The first file is opened (and its warcinfo written) at construction. A file is named
    `NAME.open` until `close()` or rotation renames it. Serials continue after the highest
    one already in `directory`, so a resumed crawl never overwrites a file. On a write
    error a `WarcError` is raised and the open file may end in a partial record: stop the
    crawl; `repair_open_files` cuts it off on resume.

    `seen_digest(payload_digest)` returns (target URI, WARC-Date) of an already archived
    identical payload, or None; the crawl DB answers, so memory stays bounded. `clock`
    gives POSIX time for warcinfo/metadata/resource dates and file names; `make_id` gives
    "<urn:uuid:...>" record ids. Both exist so tests are byte-exact.
    """

    def __init__(
        self,
        directory: Path,
        prefix: str,
        *,
        max_size: int = 10**9,
        gzip: bool = True,
        warcinfo: Mapping[str, str] | None = None,
        seen_digest: Callable[[str], tuple[str, str] | None] = lambda digest: None,
        clock: Callable[[], float] = time.time,
        make_id: Callable[[], str] = _new_record_id,
        on_open: Callable[[str], None] | None = None,
        on_close: Callable[[str, int, int], None] | None = None,
    ) -> None:
        if not _PREFIX.match(prefix):
            raise ValueError(f"WARC prefix {prefix!r}: use letters, digits, '.', '-' or '_'")
        self.directory = Path(directory)
        self.prefix = prefix
        self.max_size = max_size
        self.gzip = gzip
        self.warcinfo = dict(warcinfo or {})
        self._seen_digest = seen_digest
        self._clock = clock
        self._make_id = make_id
        self._on_open = on_open
        self._on_close = on_close
        self._serial = next_serial(self.directory, prefix)
        self._fh: BinaryIO | None = None
        self._writer: WARCWriter | None = None
        self._name = ""
        self._warcinfo_id = ""
        self._records = 0
        self._broken = ""  # why the open file may end in a partial record
        self.directory.mkdir(parents=True, exist_ok=True)
        self._open_next()

    # -- public API -------------------------------------------------------------------

    def write_exchange(self, ex: Exchange) -> RecordLocation | None:
        """Archive one fetch as response (or revisit) + request; None if no response came."""
        if ex.status is None:
            return None
        self._rotate_if_full()
        date = warc_date(ex.started_at)
        head = response_head(ex)
        digest = sha1_digest(ex.body)
        resp_id = self._make_id()
        headers = self._headers("response", resp_id, date, ex.url)
        if ex.ip:
            headers["WARC-IP-Address"] = ex.ip
        # An empty payload gains nothing from a revisit; a truncated one is not the payload.
        original = self._seen_digest(digest) if ex.body and not ex.truncated else None
        writer = self._require_writer()
        if original is not None:
            headers["WARC-Type"] = "revisit"
            record = writer.create_revisit_record(
                ex.url, digest, original[0], original[1], http_headers=head,
                warc_headers_dict=headers)
        else:
            if ex.truncated:
                headers["WARC-Truncated"] = ex.truncated
            # Given last, where warcio would append it, so warcio does not hash the body a
            # second time for the digest computed above.
            headers["WARC-Payload-Digest"] = digest
            record = writer.create_warc_record(
                ex.url, "response", payload=BytesIO(ex.body), length=len(ex.body),
                http_headers=head, warc_headers_dict=headers)
        req_headers = self._headers("request", self._make_id(), date, ex.url)
        req_headers["WARC-Payload-Digest"] = EMPTY_DIGEST  # what warcio would compute
        request = writer.create_warc_record(
            ex.url, "request", payload=BytesIO(b""), length=0, http_headers=request_head(ex),
            warc_headers_dict=req_headers)
        start = self._tell()
        self._guarded(lambda: writer.write_request_response_pair(request, record))
        self._records += 2
        return RecordLocation(self._name, start, self._tell() - start, resp_id,
                              str(record.rec_type),
                              str(record.rec_headers.get_header("WARC-Payload-Digest")), date)

    def write_metadata(self, url: str, concurrent_to: str,
                       fields: Sequence[tuple[str, str]]) -> RecordLocation:
        """A `metadata` record about `url`, e.g. ("outlink", "http://x/ L a/@href")."""
        headers = self._headers("metadata", self._make_id(), warc_date(self._clock()), url)
        headers["WARC-Concurrent-To"] = concurrent_to
        return self._write_block("metadata", url, headers, _warc_fields(fields),
                                 "application/warc-fields")

    def write_resource(self, uri: str, content_type: str, data: bytes) -> RecordLocation:
        """A `resource` record (the profile, crawl log, report written at crawl end)."""
        headers = self._headers("resource", self._make_id(), warc_date(self._clock()), uri)
        return self._write_block("resource", uri, headers, data, content_type)

    def flush(self) -> None:
        """Hand everything written so far to the OS (call before committing the crawl DB)."""
        if self._fh is not None:
            self._guarded(self._fh.flush)

    def position(self) -> tuple[str, int]:
        """(final name of the current file, bytes written to it so far)."""
        return self._name, self._tell() if self._fh is not None else 0

    def close(self) -> None:
        """Close the current file and rename it to its final name. Idempotent."""
        self._close_current()

    def abandon(self) -> None:
        """Close the file but leave it named NAME.open, as a crash would (hard stops, tests)."""
        self._broken = self._broken or "abandoned"
        self._close_current()

    def __enter__(self) -> WarcSink:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- internals --------------------------------------------------------------------

    def _headers(self, rec_type: str, rec_id: str, date: str, uri: str) -> dict[str, str]:
        return {"WARC-Type": rec_type, "WARC-Record-ID": rec_id, "WARC-Date": date,
                "WARC-Target-URI": uri, "WARC-Warcinfo-ID": self._warcinfo_id}

    def _write_block(self, rec_type: str, uri: str, headers: dict[str, str], data: bytes,
                     content_type: str) -> RecordLocation:
        self._rotate_if_full()
        headers["WARC-Warcinfo-ID"] = self._warcinfo_id  # the file may have rotated
        # Without HTTP headers the block is the payload: one hash gives both digests. Given
        # in the order warcio appends them (payload at creation, block at writing), so the
        # record's bytes are those warcio would write after hashing the data twice.
        digest = headers["WARC-Payload-Digest"] = headers["WARC-Block-Digest"] = sha1_digest(data)
        writer = self._require_writer()
        record = writer.create_warc_record(uri, rec_type, payload=BytesIO(data),
                                           length=len(data), warc_content_type=content_type,
                                           warc_headers_dict=headers)
        start = self._tell()
        self._guarded(lambda: writer.write_record(record))
        self._records += 1
        return RecordLocation(self._name, start, self._tell() - start,
                              headers["WARC-Record-ID"], rec_type, digest, headers["WARC-Date"])

    def _require_writer(self) -> WARCWriter:
        if self._broken:
            raise WarcError(f"{self.directory}: an earlier WARC write failed ({self._broken}); "
                            "stop the crawl and resume it to repair the file")
        if self._writer is None:
            raise WarcError(f"{self.directory}: WARC sink for {self.prefix!r} is closed; "
                            "create a new WarcSink to write more records")
        return self._writer

    def _tell(self) -> int:
        assert self._fh is not None
        return self._fh.tell()

    def _guarded(self, action: Callable[[], object]) -> None:
        try:
            action()
        except OSError as err:
            self._broken = str(err)  # never append after a partial record, nor rename it
            raise WarcError(f"{self.directory / (self._name + OPEN_SUFFIX)}: cannot write: "
                            f"{err}; check free space and permissions, then resume the "
                            "crawl (the partial record is cut off)") from err

    def _rotate_if_full(self) -> None:
        self._require_writer()  # raises once closed
        # A file holding only its warcinfo is never rotated, so a tiny max_size cannot loop.
        if self._fh is not None and self._records > 1 and self._tell() >= self.max_size:
            self._close_current()
            self._open_next()

    def _open_next(self) -> None:
        now = self._clock()
        stamp = datetime.fromtimestamp(now, UTC).strftime("%Y%m%d%H%M%S")
        ext = ".warc.gz" if self.gzip else ".warc"
        name = f"{self.prefix}-{stamp}-{self._serial:05d}{ext}"
        path = self.directory / (name + OPEN_SUFFIX)
        try:
            fh = open(path, "xb")  # noqa: SIM115 - owned by the sink until close()
        except OSError as err:
            raise WarcError(f"{path}: cannot create WARC file: {err}; check the output "
                            "directory (is another crawl writing to it?)") from err
        self._serial += 1
        self._fh, self._name, self._records = fh, name, 0
        self._writer = WARCWriter(fh, gzip=self.gzip, warc_version=WARC_VERSION)
        self._warcinfo_id = self._make_id()
        fields = {"software": f"archiver/{__version__}", "format": "WARC File Format 1.1",
                  "conformsTo": CONFORMS_TO, **self.warcinfo}
        body = _warc_fields([(k, v) for k, v in fields.items() if v not in (None, "")])
        headers = {"WARC-Type": "warcinfo", "WARC-Record-ID": self._warcinfo_id,
                   "WARC-Date": warc_date(now), "WARC-Filename": name}
        record = self._writer.create_warc_record("", "warcinfo", payload=BytesIO(body),
                                                 length=len(body), warc_headers_dict=headers)
        self._guarded(lambda: self._require_writer().write_record(record))
        self._records = 1
        logger.info("WARC file %s opened", path)
        if self._on_open is not None:
            self._on_open(name)

    def _close_current(self) -> None:
        if self._fh is None:
            return
        fh, name, records = self._fh, self._name, self._records
        self._fh, self._writer = None, None
        if self._broken:  # leave NAME.open for repair_open_files
            with contextlib.suppress(OSError):
                fh.close()
            logger.warning("WARC file %s%s left for repair (%s)", name, OPEN_SUFFIX,
                           self._broken)
            return
        size = fh.tell()
        try:
            fh.close()
            rename_closed(self.directory / (name + OPEN_SUFFIX))
        except OSError as err:
            raise WarcError(f"{self.directory / name}: cannot close WARC file: {err}") from err
        logger.info("WARC file %s closed: %d records, %d bytes", name, records, size)
        if self._on_close is not None:
            self._on_close(name, size, records)


_SERIAL_RE = r"-\d{14}-(\d{5,})\.warc(?:\.gz)?(?:\.open)?$"


def next_serial(directory: Path, prefix: str) -> int:
    """One more than the highest serial of `prefix` files in `directory` (0 if none)."""
    pattern = re.compile(re.escape(prefix) + _SERIAL_RE)
    serials = [int(m.group(1)) for p in Path(directory).glob(f"{prefix}-*")
               if (m := pattern.match(p.name))]
    return max(serials, default=-1) + 1
