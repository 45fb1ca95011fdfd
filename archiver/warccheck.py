"""Validate WARC files beyond `warcio check`: gzip members, framing, linkage and digests.

`check_file` lists problems, each naming the file, the offset and the fix; `check_paths` is
`archiver check WARC...`. Records are read by `warcscan.RecordScanner`, then by warcio.
"""

from __future__ import annotations

import contextlib
import io
import sys
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.statusandheaders import StatusAndHeadersParserException

from archiver.warcscan import CHUNK, RecordScanner

__all__ = ["check_file", "check_paths"]

WARC_SUFFIXES = (".warc", ".warc.gz", ".warc.open", ".warc.gz.open")
TARGETED_TYPES = ("response", "resource", "request", "revisit", "conversion", "continuation")


def _warcio_problems(path: Path) -> list[str]:
    """Problems `warcio check` would report (it drains each record's content stream)."""
    problems: list[str] = []
    warnings = io.StringIO()
    try:
        with open(path, "rb") as fh, contextlib.redirect_stderr(warnings):
            records = ArchiveIterator(fh, check_digests=True)
            for record in records:
                stream = record.content_stream()
                while stream.read(CHUNK):
                    pass
                for problem in record.digest_checker.problems or ():
                    problems.append(f"offset {records.get_record_offset()}: warcio: {problem}")
    # warcio 1.8 raises AttributeError on some malformed headers (a record without a URI)
    except (ArchiveLoadFailed, StatusAndHeadersParserException, zlib.error, ValueError,
            EOFError, AttributeError) as err:
        problems.append(f"warcio cannot read the file: {str(err).strip()}")
    if warnings.getvalue().strip():
        problems.append("warcio: " + " ".join(warnings.getvalue().split()))
    return problems


def _check(path: Path) -> tuple[list[str], int]:
    """(problems, number of complete records)."""
    if not path.is_file():
        return [f"{path}: no such file"], 0
    problems = []
    if path.name.endswith(".open"):
        problems.append(f"{path}: still open (its crawl is running, or crashed); resume the "
                        "crawl with `archiver crawl PROFILE`, which repairs and renames it")
    if path.stat().st_size == 0:
        return [*problems, f"{path}: empty file, not a WARC file; delete it"], 0
    scanner = RecordScanner(path)
    warcinfo_ids: set[str] = set()
    record_ids: set[str] = set()
    needs_request: dict[str, tuple[int, str]] = {}
    requested: set[str] = set()
    count = 0
    for count, rec in enumerate(scanner, 1):
        at = f"{path}: offset {rec.offset}:"
        problems.extend(f"{at} {p}" for p in rec.problems)
        rec_type, rec_id = rec.rec_type, rec.record_id
        if count == 1 and rec_type != "warcinfo":
            problems.append(f"{at} the file starts with a {rec_type or 'untyped'} record, not "
                            "warcinfo; it was not written by archiver, or lost its start")
        for name in ("WARC-Type", "WARC-Record-ID", "WARC-Date"):
            if not rec.header(name):
                problems.append(f"{at} record has no {name} (mandatory in WARC 1.1); the "
                                "writer is broken: report it, and re-crawl with a fixed one")
        if rec_type in TARGETED_TYPES and not rec.header("WARC-Target-URI"):
            problems.append(f"{at} {rec_type} record {rec_id} has no WARC-Target-URI "
                            "(mandatory for its type); replay cannot find it by URL")
        if rec_id in record_ids:
            problems.append(f"{at} duplicate WARC-Record-ID {rec_id} (the record was written "
                            "twice, or the id factory repeats); pywb may replay the wrong one")
        record_ids.add(rec_id)
        if rec_type == "warcinfo":
            warcinfo_ids.add(rec_id)
            continue
        info_id = rec.header("WARC-Warcinfo-ID")
        if not info_id:
            problems.append(f"{at} {rec_type} record {rec_id} has no WARC-Warcinfo-ID; the "
                            "writer did not link it to the file's warcinfo")
        elif info_id not in warcinfo_ids:
            problems.append(f"{at} WARC-Warcinfo-ID {info_id} names no warcinfo record "
                            "before it in this file")
        if rec_type in ("response", "revisit") and \
                rec.header("WARC-Target-URI").startswith(("http:", "https:")):
            needs_request[rec_id] = (rec.offset, rec_type)
        if rec_type == "request":
            requested.update(rec.headers("WARC-Concurrent-To"))
        if rec_type == "revisit":
            for name in ("WARC-Refers-To-Target-URI", "WARC-Refers-To-Date", "WARC-Profile",
                         "WARC-Payload-Digest"):
                if not rec.header(name):
                    problems.append(f"{at} revisit record {rec_id} has no {name}; pywb "
                                    "cannot find the original payload to replay it")
    for rec_id, (offset, rec_type) in needs_request.items():
        if rec_id not in requested:
            problems.append(f"{path}: offset {offset}: {rec_type} record {rec_id} has no "
                            f"request record with WARC-Concurrent-To: {rec_id}; archiver "
                            "writes both, so the file was cut or edited (if it ends here, "
                            f"cut it: truncate -s {offset} {path})")
    if scanner.error:
        problems.append(f"{path}: {scanner.error}; {scanner.fix}")
    if not problems:  # cross-check with the reader pywb and cdxj-indexer use
        problems.extend(f"{path}: {p}; pywb and cdxj-indexer read WARCs with warcio, so "
                        "this file will not index until the record is removed or rewritten"
                        for p in _warcio_problems(path))
    return problems, count


def check_file(path: Path) -> list[str]:
    """Problems of one WARC file, each naming the file, the offset and the fix; [] if valid."""
    return _check(Path(path))[0]


def _expand(paths: Iterable[str | Path]) -> Iterator[Path]:
    for item in paths:
        path = Path(item)
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.name.endswith(WARC_SUFFIXES))
        else:
            yield path


def check_paths(paths: Iterable[str | Path], out: TextIO | None = None) -> int:
    """Check WARC files (directories: their WARC files); report to `out` (stdout).

    Returns the exit code of `archiver check`: 0 if every file is valid, 1 otherwise
    (including when no file was found).
    """
    out = out if out is not None else sys.stdout
    status, seen = 0, 0
    for path in _expand(paths):
        seen += 1
        problems, count = _check(path)
        if problems:
            status = 1
            out.writelines(p + "\n" for p in problems)
        else:
            out.write(f"{path}: ok ({count} records)\n")
    if not seen:
        out.write("archiver check: no WARC files found in the given paths\n")
        return 1
    return status
