"""Read WARC files record by record, find where a crash cut one, and repair it.

`RecordScanner` parses gzip members and records itself (not through warcio) so that it can
say exactly where a file stops being valid; `warccheck` and `warc` build on it.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import logging
import os
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from archiver.errors import WarcError

logger = logging.getLogger(__name__)

__all__ = ["OPEN_SUFFIX", "RecordScanner", "StoredRecord", "iter_records_after",
           "rename_closed", "repair_open_files"]

OPEN_SUFFIX = ".open"
GZIP_MAGIC = b"\x1f\x8b"
CHUNK = 1 << 16             # decompressed bytes handled at a time
READ = 1 << 14              # compressed bytes read at a time: small, as most members are
MAX_LINE = 1 << 16          # longest WARC header line we accept
MAX_HTTP_HEAD = 1 << 20     # an HTTP head longer than this is treated as having no payload
HTTP_TYPES = ("response", "request", "revisit")


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """One complete record of a WARC file (headers only; the block is not kept)."""

    offset: int                               # where the record (or its gzip member) starts
    length: int                               # bytes on disk, gzip member or CRLFs included
    warc_headers: tuple[tuple[str, str], ...]
    http_status: int | None = None            # status code of a response/revisit HTTP head
    http_headers: tuple[tuple[str, str], ...] = ()
    problems: tuple[str, ...] = ()            # integrity problems, e.g. a digest mismatch

    def header(self, name: str, default: str = "") -> str:
        """The first WARC header called `name` (case-insensitive)."""
        lname = name.lower()
        return next((v for k, v in self.warc_headers if k.lower() == lname), default)

    def headers(self, name: str) -> list[str]:
        """Every value of WARC header `name` (WARC-Concurrent-To may repeat)."""
        lname = name.lower()
        return [v for k, v in self.warc_headers if k.lower() == lname]

    @property
    def rec_type(self) -> str:
        """WARC-Type."""
        return self.header("WARC-Type")

    @property
    def record_id(self) -> str:
        """WARC-Record-ID."""
        return self.header("WARC-Record-ID")


class _Reader(Protocol):
    def read(self, size: int) -> bytes: ...
    def readline(self, limit: int) -> bytes: ...


class _MemberReader:
    """The decompressed bytes of the single gzip member starting at `start`."""

    def __init__(self, fh: BinaryIO, start: int) -> None:
        fh.seek(start)
        self.fh, self.start = fh, start
        self.inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.buf = bytearray()
        self.pos = 0
        self.taken = 0          # compressed bytes read from fh
        self.end = -1           # offset just after the member, once its trailer is read
        self.error = ""         # why the member is unreadable

    def _fill(self) -> bool:
        if self.end >= 0 or self.error:
            return False
        data = self.inflater.unconsumed_tail
        if not data:
            data = self.fh.read(READ)
            if not data:
                self.error = "truncated gzip member (the file ends inside it)"
                return False
            self.taken += len(data)
        try:  # max_length bounds memory even for a decompression bomb
            self.buf += self.inflater.decompress(data, CHUNK)
        except zlib.error as err:
            self.error = f"corrupt gzip member ({err})"
            return False
        if self.inflater.eof:
            self.end = self.start + self.taken - len(self.inflater.unused_data)
        if self.pos > CHUNK:
            del self.buf[: self.pos]
            self.pos = 0
        return True

    def read(self, size: int) -> bytes:
        while len(self.buf) - self.pos < size and self._fill():
            pass
        data = bytes(self.buf[self.pos : self.pos + size])
        self.pos += len(data)
        return data

    def readline(self, limit: int) -> bytes:
        while True:
            nl = self.buf.find(b"\n", self.pos, self.pos + limit)
            if nl >= 0 or len(self.buf) - self.pos >= limit or not self._fill():
                break
        stop = nl + 1 if nl >= 0 else min(len(self.buf), self.pos + limit)
        data = bytes(self.buf[self.pos : stop])
        self.pos = stop
        return data


class _Digest:
    """A running digest compared with a WARC digest label such as "sha1:BASE32"."""

    def __init__(self, label: str) -> None:
        self.label = label
        algo, _, self.value = label.partition(":")
        self.hasher: hashlib._Hash | None = None
        with contextlib.suppress(ValueError):
            self.hasher = hashlib.new(algo.lower().replace("-", ""))

    def matches(self) -> bool | None:
        if self.hasher is None:
            return None
        want, value = self.hasher.digest(), self.value.strip().rstrip("=")
        if len(value) == len(want) * 2:  # hex
            return value.lower() == want.hex()
        if len(value) == (len(want) * 8 + 4) // 5:  # base32, what warcio and Heritrix write
            return value.upper() == base64.b32encode(want).decode("ascii").rstrip("=")
        return value == base64.b64encode(want).decode("ascii").rstrip("=")


def _parse_fields(lines: list[bytes], encoding: str) -> list[tuple[str, str]]:
    fields: list[tuple[str, str]] = []
    for raw in lines:
        line = raw.decode(encoding, "replace").rstrip("\r\n")
        if line[:1] in (" ", "\t") and fields:  # obsolete line folding
            fields[-1] = (fields[-1][0], fields[-1][1] + " " + line.strip())
        elif ":" in line:
            name, _, value = line.partition(":")
            fields.append((name.strip(), value.strip()))
    return fields


def _read_record(reader: _Reader, first: bytes, offset: int
                 ) -> tuple[StoredRecord | None, str]:
    """Parse one record whose first line is `first`; (record, "") or (None, why not)."""
    if not first.startswith(b"WARC/"):
        return None, f"not a WARC record (starts with {first[:24]!r})"
    lines = []
    while True:
        line = reader.readline(MAX_LINE)
        if not line.endswith(b"\n"):
            return None, "record cut in its WARC header"
        if line.strip() == b"":
            break
        lines.append(line)
    headers = _parse_fields(lines, "utf-8")
    head = {k.lower(): v for k, v in reversed(headers)}
    try:
        length = int(head.get("content-length", ""))
        if length < 0:
            raise ValueError(length)
    except ValueError:
        return None, "record without a valid Content-Length"
    rec_type = head.get("warc-type", "")
    block = _Digest(head["warc-block-digest"]) if "warc-block-digest" in head else None
    payload = None
    if "warc-payload-digest" in head and rec_type != "revisit" and "warc-segment-number" \
            not in head:
        payload = _Digest(head["warc-payload-digest"])
    is_http = rec_type in HTTP_TYPES and head.get("content-type", "").lower().startswith(
        "application/http")
    http_head = bytearray() if is_http else None
    http_done, head_found = not is_http, False
    remaining = length
    while remaining:
        chunk = reader.read(min(CHUNK, remaining))
        if not chunk:
            return None, f"record cut mid-block ({length - remaining} of {length} bytes)"
        remaining -= len(chunk)
        if block and block.hasher:
            block.hasher.update(chunk)
        if not http_done and http_head is not None:
            http_head += chunk
            end = http_head.find(b"\r\n\r\n")
            if end >= 0 or len(http_head) > MAX_HTTP_HEAD:
                http_done, head_found = True, end >= 0
                chunk = bytes(http_head[end + 4 :]) if end >= 0 else b""
                del http_head[end + 4 if end >= 0 else 0 :]
            else:
                chunk = b""
        if payload and payload.hasher:
            payload.hasher.update(chunk)
    tail = reader.read(4)
    if tail != b"\r\n\r\n":
        if b"\r\n\r\n".startswith(tail):
            return None, "record cut before its closing CRLF CRLF"
        return None, "record not followed by CRLF CRLF (its Content-Length is wrong)"
    problems = []
    uri = head.get("warc-target-uri", "")
    for digest, kind in ((block, "block"), (payload, "payload")):
        if digest is None:
            continue
        ok = digest.matches()
        if ok is False:
            problems.append(f"{rec_type} record for {uri}: WARC-{kind.title()}-Digest "
                            f"{digest.label} does not match the stored bytes (corrupted after "
                            "writing?); restore the file from a replica or re-crawl the URL")
        elif ok is None:
            problems.append(f"{rec_type} record: unknown digest algorithm in {digest.label}")
    status: int | None = None
    http_headers: tuple[tuple[str, str], ...] = ()
    if http_head is not None and head_found:
        http_lines = bytes(http_head).split(b"\r\n")
        parts = http_lines[0].split(b" ", 2)
        if rec_type != "request" and len(parts) > 1 and parts[1].isdigit():
            status = int(parts[1])
        http_headers = tuple(_parse_fields([x for x in http_lines[1:] if x], "iso-8859-1"))
    return StoredRecord(offset, 0, tuple(headers), status, http_headers, tuple(problems)), ""


class RecordScanner:
    """Iterate over the complete records of a WARC file (plain or one gzip member per record).

    Iteration stops at the first thing that is not a complete record; then `error` says
    what (with its offset), `fix` how to repair it, and `end` is where the last complete
    record ended. `error` is "" when the file ended cleanly.
    """

    def __init__(self, path: Path, start: int = 0) -> None:
        self.path = Path(path)
        self.start = start
        self.end = start
        self.gzip = False
        self.error = ""
        self.fix = ""

    def _stop(self, offset: int, what: str, kind: str) -> None:
        cut = f"truncate -s {offset} {self.path}"
        fix = {
            "incomplete": "an incomplete record, as a crash leaves: resume the crawl "
                          f"(`archiver crawl PROFILE` repairs it) or cut it: {cut}",
            "trailing": f"remove them: {cut}",
            "corrupt": f"the file is corrupt from here; keep what precedes: {cut}",
            "member": f"recompress it: warcio recompress {self.path} NEW_FILE",
            "not-warc": "this is not a readable WARC file; pass .warc or .warc.gz files",
        }[kind]
        self.error, self.fix = f"offset {offset}: {what}", fix

    def __iter__(self) -> Iterator[StoredRecord]:
        # a large buffer makes the seek back to each member's end a move inside the buffer
        with open(self.path, "rb", buffering=1 << 20) as fh:
            self.gzip = fh.read(2) == GZIP_MAGIC
            size = fh.seek(0, io.SEEK_END)
            pos = self.start
            while pos < size:
                fh.seek(pos)
                kind = "incomplete"
                if self.gzip:
                    if fh.read(2) != GZIP_MAGIC:
                        self._stop(pos, f"{size - pos} bytes of trailing data that are not a "
                                   "gzip member", "trailing")
                        return
                    member = _MemberReader(fh, pos)
                    record, why = _read_record(member, member.readline(MAX_LINE), pos)
                    if record is not None and member.read(1):
                        record, why = None, "several records (or extra data) in one gzip member"
                        kind = "member"
                    if member.error:
                        record, why, kind = None, member.error, "incomplete"
                    end = member.end
                else:
                    line = fh.readline(MAX_LINE)
                    while line in (b"\r\n", b"\n"):  # tolerate extra blank lines
                        pos += len(line)
                        line = fh.readline(MAX_LINE)
                    if not line:
                        break
                    record, why = _read_record(fh, line, pos)
                    end = fh.tell()
                if record is None:
                    if "Content-Length" in why or "not a WARC" in why:
                        kind = "corrupt"
                    if pos == 0 and ("not a WARC" in why or "corrupt gzip" in why):
                        kind = "not-warc"
                    self._stop(pos, why, kind)
                    return
                yield StoredRecord(pos, end - pos, record.warc_headers, record.http_status,
                                   record.http_headers, record.problems)
                self.end = pos = end


def rename_closed(open_path: Path) -> Path:
    """Rename NAME.open to NAME, refusing to overwrite; return the new path."""
    final = open_path.with_name(open_path.name[: -len(OPEN_SUFFIX)])
    if final.exists():
        raise WarcError(f"{open_path}: cannot rename to {final.name}: that file exists; "
                        "move one of them aside, then run `archiver check` on both")
    os.rename(open_path, final)
    return final


def _whole_calls(scanner: RecordScanner) -> Iterator[StoredRecord]:
    """Records of `scanner` up to the first invalid one, dropping a trailing response or
    revisit whose request (written right after it by the same call) is missing."""
    pending: list[StoredRecord] = []
    for record in scanner:
        if record.problems:
            scanner.error = scanner.error or f"offset {record.offset}: {record.problems[0]}"
            return
        if pending or (record.rec_type in ("response", "revisit")
                       and record.header("WARC-Target-URI").startswith(("http:", "https:"))):
            pending.append(record)
            if record.rec_type != "request":
                continue
            if pending[0].record_id not in record.headers("WARC-Concurrent-To"):
                scanner.error = (f"offset {pending[0].offset}: {pending[0].rec_type} record "
                                 "not followed by its request record")
                return
            yield from pending
            pending = []
        else:
            yield record
    if pending and not scanner.error:
        scanner.error = (f"offset {pending[0].offset}: {pending[0].rec_type} record without "
                         "its request record (the write was cut)")


def iter_records_after(path: Path, offset: int) -> Iterator[StoredRecord]:
    """Complete, digest-valid records starting at byte `offset` (a record boundary).

    Meant for crash recovery: records the sink wrote after the last offset the crawl DB
    committed. Each `StoredRecord` has the offset, length, WARC headers and HTTP status
    and headers (no body). Iteration stops quietly where `repair_open_files` would cut:
    at the first incomplete or invalid record, and before a response whose request record
    is missing. Works on `.open` files; call it before repairing.
    """
    yield from _whole_calls(RecordScanner(Path(path), start=offset))


def repair_open_files(directory: Path,
                      keep_bytes: Mapping[str, int | None] | None = None) -> list[str]:
    """Close every `*.open` WARC file in `directory` after a crash; say what was done.

    A file whose final name maps to a size in `keep_bytes` (the end the crawl DB committed;
    None = unknown) is first cut to that size; then any incomplete or invalid tail (a
    truncated gzip member, a record cut mid-block, a digest mismatch, a response without
    its request record) is cut after the last good record, and the file is renamed to its
    final name. A file with no complete record is deleted. To recover records written
    after the committed offset, call `iter_records_after` first.
    """
    lines: list[str] = []
    for open_path in sorted(Path(directory).glob("*" + OPEN_SUFFIX)):
        final_name = open_path.name[: -len(OPEN_SUFFIX)]
        size = open_path.stat().st_size
        limit = (keep_bytes or {}).get(final_name)
        if limit is None:
            limit = size
        elif limit > size:
            lines.append(f"{open_path}: WARNING the crawl DB committed {limit} bytes but "
                         f"the file has only {size}; records past {size} are lost "
                         "(written without fsync before a system crash?)")
            limit = size
        if limit < size:
            with open(open_path, "r+b") as fh:
                fh.truncate(limit)
        scanner = RecordScanner(open_path)
        good, count = 0, 0
        for record in _whole_calls(scanner):
            good, count = record.offset + record.length, count + 1
        if count == 0:
            open_path.unlink()
            lines.append(f"{open_path}: removed (no complete record in {limit} bytes)")
            continue
        if good < limit:
            with open(open_path, "r+b") as fh:
                fh.truncate(good)
        final = rename_closed(open_path)
        done = f"kept {count} records, {good} bytes"
        if good < size:
            done += f" (cut from {size} bytes"
            done += f": {scanner.error})" if good < limit and scanner.error else ")"
        lines.append(f"{open_path}: {done}; renamed to {final.name}")
    for line in lines:
        logger.info("%s", line)
    return lines
