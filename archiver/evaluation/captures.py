"""Read WARC files back into the ordered list of HTTP captures a crawl made.

Everything the evaluation scores comes from here, so it sees only what is in the WARCs:
one `Capture` per `response` or `revisit` record, in record order (the order the crawler
made its requests: archiver and wget both write each exchange as it completes). Payloads
are de-chunked and content-decoded (warcio's `content_stream`); a revisit borrows the payload
of the earlier response with the same payload digest. HTML pages are parsed with
`archiver.page.parse_html` for their navigation links and visible text.
"""

from __future__ import annotations

import hashlib
import logging
import zlib
from collections.abc import Iterable, Iterator, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree
from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

from archiver.page import parse_html

logger = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml")
WARC_SUFFIXES = (".warc", ".warc.gz")
OPEN_SUFFIX = ".open"           # archiver's name for a WARC still being written (or crashed)
_INVISIBLE = ("script", "style", "noscript", "template")

# (url, sha1 of the decoded payload) -> (outlinks, text): parsing is the slow part of reading,
# and the crawls of one site fetch mostly the same pages.
ParseCache = MutableMapping[tuple[str, str], tuple[tuple[str, ...], str]]


@dataclass(frozen=True, slots=True)
class Capture:
    """One HTTP request the crawler made and archived, as the WARC records it."""

    seq: int                   # 0-based position in request order
    url: str                   # WARC-Target-URI
    status: int | None         # HTTP status code (None if the record has no HTTP head)
    record_type: str           # "response" | "revisit"
    mime: str                  # Content-Type without parameters, lower-case ('' if absent)
    digest: str                # WARC-Payload-Digest
    truncated: bool            # WARC-Truncated present: the payload is incomplete
    location: str | None       # Location header of a redirect
    payload: bytes | None      # decoded entity body; None for a revisit whose original is
    #                            not in the files read, an undecodable body, or when
    #                            payloads were not kept
    outlinks: tuple[str, ...] = ()   # absolute navigation links (a/area href) of an HTML page
    text: str = ""             # visible text of an HTML page (no script/style)

    @property
    def is_html(self) -> bool:
        """True when the response declares an HTML media type."""
        return self.mime in HTML_TYPES


def warc_paths(folder: str | Path) -> list[Path]:
    """WARC files under `folder` (recursively), in write order (sorted by name).

    Names ending in ".open" are included: a crawl that crashed leaves its last file open,
    and its records up to the crash are still evidence of what was fetched.
    """
    found = []
    for path in Path(folder).rglob("*"):
        name = path.name.removesuffix(OPEN_SUFFIX)
        if path.is_file() and name.endswith(WARC_SUFFIXES):
            found.append(path)
    return sorted(found, key=lambda p: (str(p.parent), p.name.removesuffix(OPEN_SUFFIX)))


def read_captures(paths: Iterable[str | Path], *, parse: bool = True,
                  keep_payload: bool = True, cache: ParseCache | None = None) -> list[Capture]:
    """Every response and revisit record of `paths` (read in the order given) as Captures.

    A file cut short (a killed `wget`, a crashed crawl) is read up to its last whole record.
    With `parse`, HTML payloads are parsed for outlinks and text; `cache` (any mutable
    mapping, e.g. a dict shared by the crawls of one site) saves re-parsing identical pages.
    """
    originals: dict[str, bytes] = {}     # payload digest -> decoded payload
    out: list[Capture] = []
    for path in paths:
        for rec in _records(Path(path)):
            rec_type = rec.rec_type
            if rec_type not in ("response", "revisit"):
                continue
            out.append(_capture(len(out), rec, originals, parse, keep_payload, cache))
    return out


def _records(path: Path) -> Iterator[Any]:
    with path.open("rb") as fh:
        records = iter(ArchiveIterator(fh))
        while True:
            try:
                rec = next(records)
            except StopIteration:
                return
            except (ArchiveLoadFailed, EOFError, OSError, zlib.error, ValueError) as err:
                logger.warning("%s: stopped reading at a damaged or cut record: %s", path, err)
                return
            yield rec


def _capture(seq: int, rec: Any, originals: dict[str, bytes], parse: bool,
             keep_payload: bool, cache: ParseCache | None) -> Capture:
    headers = rec.rec_headers
    http = rec.http_headers
    url = _strip_brackets(headers.get_header("WARC-Target-URI") or "")
    digest = headers.get_header("WARC-Payload-Digest") or ""
    status = _status(http)
    ctype = (http.get_header("Content-Type") or "") if http is not None else ""
    mime = ctype.split(";")[0].strip().lower()
    charset = _charset(ctype)
    location = http.get_header("Location") if http is not None else None
    truncated = bool(headers.get_header("WARC-Truncated"))
    payload: bytes | None
    if rec.rec_type == "response":
        try:
            payload = rec.content_stream().read()
        except (OSError, zlib.error, ValueError) as err:   # bad gzip/brotli framing
            logger.warning("%s: cannot decode the payload: %s", url, err)
            payload = None
        # Kept for later revisits; without kept payloads only parsing needs them.
        wanted = keep_payload or mime in HTML_TYPES
        if payload is not None and digest and not truncated and wanted:
            originals.setdefault(digest, payload)
    else:
        payload = originals.get(digest)
    outlinks: tuple[str, ...] = ()
    text = ""
    if parse and payload and mime in HTML_TYPES:
        outlinks, text = _parsed(url, payload, charset, cache)
    return Capture(seq=seq, url=url, status=status, record_type=rec.rec_type,
                   mime=mime, digest=digest, truncated=truncated, location=location,
                   payload=payload if keep_payload else None, outlinks=outlinks, text=text)


def _parsed(url: str, payload: bytes, charset: str | None,
            cache: ParseCache | None) -> tuple[tuple[str, ...], str]:
    key = (url, hashlib.sha1(payload).hexdigest())
    if cache is not None and key in cache:
        return cache[key]
    page = parse_html(url, payload, charset)
    links = tuple(link.url for link in page.links if link.kind == "link")
    text = visible_text(page.tree) if page.tree is not None else ""
    if cache is not None:
        cache[key] = (links, text)
    return links, text


def visible_text(tree: etree._Element) -> str:
    """The text a reader sees: text nodes outside script/style/noscript/template, joined by
    single spaces (so words of adjacent elements never run together). Mutates `tree`."""
    etree.strip_elements(tree, *_INVISIBLE, with_tail=False)
    return " ".join(" ".join(tree.itertext()).split())


def _status(http: Any) -> int | None:
    if http is None:
        return None
    code = http.get_statuscode()
    try:
        return int(code)
    except (TypeError, ValueError):
        return None


def _charset(content_type: str) -> str | None:
    for part in content_type.split(";")[1:]:
        name, _, value = part.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            return value.strip().strip("\"'")
    return None


def _strip_brackets(uri: str) -> str:
    """WARC 1.0 examples (and some writers) put the target URI in angle brackets."""
    return uri[1:-1] if uri.startswith("<") and uri.endswith(">") else uri
