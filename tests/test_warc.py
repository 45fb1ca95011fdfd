"""Tests for archiver.warc: golden bytes, warcio round trip, revisits, rotation, repair."""

from __future__ import annotations

import base64
import gzip
import hashlib
import itertools
import random
import shutil
import subprocess
import sys
import zlib
from io import BytesIO
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from archiver import warc
from archiver.errors import WarcError
from archiver.exchange import Exchange
from archiver.warc import WarcSink, iter_records_after, repair_open_files
from archiver.warccheck import check_file
from archiver.warcscan import RecordScanner

WARCIO = Path(sys.executable).parent / "warcio"
T0 = 1700000000.0  # 2023-11-14T22:13:20Z


def sha1(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def id_factory():
    counter = itertools.count()
    return lambda: f"<urn:uuid:00000000-0000-4000-8000-{next(counter):012d}>"


def exchange(url="http://example.org/a?x=1", body=b"<html>hi</html>", **kw) -> Exchange:
    fields = dict(
        url=url, started_at=T0 + 1.5, request_target="/" + url.split("/", 3)[3],
        request_headers=(("Host", "example.org"), ("User-Agent", "archiver-test")),
        status=200, reason="OK",
        response_headers=(("Content-Type", "text/html; charset=utf-8"),), body=body)
    fields.update(kw)
    return Exchange(**fields)


def make_sink(tmp_path: Path, **kw) -> WarcSink:
    kw.setdefault("clock", lambda: T0)
    kw.setdefault("make_id", id_factory())
    return WarcSink(tmp_path, kw.pop("prefix", "demo"), **kw)


def records(path: Path) -> list[tuple]:
    """(type, WARC headers, HTTP headers, raw payload) of every record, via warcio."""
    out = []
    with open(path, "rb") as fh:
        for rec in ArchiveIterator(fh):
            out.append((rec.rec_type, rec.rec_headers, rec.http_headers, rec.raw_stream.read()))
    return out


def warcio_check(*paths: Path) -> subprocess.CompletedProcess:
    """Run the `warcio check` command line, as archivists do before ingest."""
    return subprocess.run([str(WARCIO), "check", *map(str, paths)], capture_output=True,
                          text=True, check=False)


GOLDEN = b"".join([
    b"WARC/1.1\r\n",
    b"WARC-Type: warcinfo\r\n",
    b"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\n",
    b"WARC-Date: 2023-11-14T22:13:20Z\r\n",
    b"WARC-Filename: golden-20231114221320-00000.warc\r\n",
    b"WARC-Block-Digest: sha1:WYAIL4L7Y74BLGNJBHMXFZK7GIVT5LYR\r\n",
    b"Content-Type: application/warc-fields\r\n",
    b"Content-Length: 181\r\n",
    b"\r\n",
    b"software: archiver/0.1.0\r\n",
    b"format: WARC File Format 1.1\r\n",
    b"conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/"
    b"warc-1.1/\r\n",
    b"isPartOf: golden\r\n",
    b"robots: obey\r\n",
    b"\r\n\r\n",
    b"WARC/1.1\r\n",
    b"WARC-Type: response\r\n",
    b"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n",
    b"WARC-Date: 2023-11-14T22:13:21.500000Z\r\n",
    b"WARC-Target-URI: http://example.org/a?x=1\r\n",
    b"WARC-Warcinfo-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\n",
    b"WARC-IP-Address: 127.0.0.1\r\n",
    b"WARC-Payload-Digest: sha1:JEXJR23VJNMISKZO2PJJFAYRPVKZAOS5\r\n",
    b"WARC-Block-Digest: sha1:AA36BJ52PK6I3GSIXV6HGSWPEIHBQ5GT\r\n",
    b"Content-Type: application/http; msgtype=response\r\n",
    b"Content-Length: 112\r\n",
    b"\r\n",
    b"HTTP/1.1 200 OK\r\n",
    b"Content-Type: text/html; charset=utf-8\r\n",
    b"X-Crawler-Transfer-Encoding: chunked\r\n",
    b"\r\n",
    b"<html>hi</html>",
    b"\r\n\r\n",
    b"WARC/1.1\r\n",
    b"WARC-Type: request\r\n",
    b"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000002>\r\n",
    b"WARC-Date: 2023-11-14T22:13:21.500000Z\r\n",
    b"WARC-Target-URI: http://example.org/a?x=1\r\n",
    b"WARC-Warcinfo-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\n",
    b"WARC-Payload-Digest: sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ\r\n",
    b"WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n",
    b"WARC-Block-Digest: sha1:S6SR7Y5ILMHRIUWMPZL7F3VQTUNSD5AR\r\n",
    b"Content-Type: application/http; msgtype=request\r\n",
    b"Content-Length: 69\r\n",
    b"\r\n",
    b"GET /a?x=1 HTTP/1.1\r\n",
    b"Host: example.org\r\n",
    b"User-Agent: archiver-test\r\n",
    b"\r\n",
    b"\r\n\r\n",
    b"WARC/1.1\r\n",
    b"WARC-Type: metadata\r\n",
    b"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000003>\r\n",
    b"WARC-Date: 2023-11-14T22:13:20Z\r\n",
    b"WARC-Target-URI: http://example.org/a?x=1\r\n",
    b"WARC-Warcinfo-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\n",
    b"WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n",
    b"WARC-Payload-Digest: sha1:ND6IZRQZLLUZMENKWN4RTQ6BFUFKC5V6\r\n",
    b"WARC-Block-Digest: sha1:ND6IZRQZLLUZMENKWN4RTQ6BFUFKC5V6\r\n",
    b"Content-Type: application/warc-fields\r\n",
    b"Content-Length: 62\r\n",
    b"\r\n",
    b"outlink: http://example.org/b L a/@href\r\n",
    b"archiver-cluster: 3\r\n",
    b"\r\n\r\n",
])


def write_golden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gz: bool) -> Path:
    monkeypatch.setattr(warc, "__version__", "0.1.0")
    sink = make_sink(tmp_path, prefix="golden", gzip=gz,
                     warcinfo={"isPartOf": "golden", "robots": "obey"})
    ex = exchange(ip="127.0.0.1", response_headers=(
        ("Content-Type", "text/html; charset=utf-8"), ("Transfer-Encoding", "chunked")))
    loc = sink.write_exchange(ex)
    assert loc is not None
    sink.write_metadata(ex.url, loc.record_id, [("outlink", "http://example.org/b L a/@href"),
                                                ("archiver-cluster", "3")])
    sink.close()
    return tmp_path / ("golden-20231114221320-00000.warc" + (".gz" if gz else ""))


def test_golden_bytes(tmp_path, monkeypatch):
    path = write_golden(tmp_path, monkeypatch, gz=False)
    assert path.read_bytes() == GOLDEN
    # The digests in the golden text are what the WARC spec says they are.
    assert b"WARC-Payload-Digest: " + sha1(b"<html>hi</html>").encode() in GOLDEN
    head = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"X-Crawler-Transfer-Encoding: chunked\r\n\r\n")
    assert b"WARC-Block-Digest: " + sha1(head + b"<html>hi</html>").encode() in GOLDEN


def test_golden_gzip_is_one_member_per_record(tmp_path, monkeypatch):
    path = write_golden(tmp_path, monkeypatch, gz=True)
    data, members = path.read_bytes(), []
    while data:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        members.append(inflater.decompress(data))
        data = inflater.unused_data
    assert len(members) == 4
    assert b"WARC-Filename: golden-20231114221320-00000.warc.gz\r\n" in members[0]
    assert b"".join(members[1:]) == GOLDEN[GOLDEN.index(b"WARC/1.1\r\nWARC-Type: response"):]
    assert all(m.startswith(b"WARC/1.1\r\n") for m in members)


def test_round_trip_keeps_encoded_body_and_digests(tmp_path):
    html = b"<html><body>" + b"caf\xc3\xa9 " * 500 + b"</body></html>"
    body = gzip.compress(html, mtime=0)
    sink = make_sink(tmp_path)
    ex = exchange(body=body, ip="10.0.0.1", response_headers=(
        ("Content-Type", "text/html"), ("Content-Encoding", "gzip"),
        ("Content-Disposition", "inline; filename=caf\xc3\xa9.html")))
    loc = sink.write_exchange(ex)
    name = sink.position()[0]
    sink.close()
    assert loc is not None and loc.record_type == "response"
    assert loc.payload_digest == sha1(body)
    info, resp, req = records(tmp_path / name)
    assert resp[0] == "response"
    assert resp[1]["WARC-Payload-Digest"] == sha1(body)
    assert resp[1]["WARC-IP-Address"] == "10.0.0.1"
    assert resp[1]["WARC-Warcinfo-ID"] == info[1]["WARC-Record-ID"]
    assert resp[2].protocol == "HTTP/1.1" and resp[2].statusline == "200 OK"
    assert resp[2]["Content-Encoding"] == "gzip"
    assert resp[3] == body  # the gzip bytes, byte for byte
    assert req[0] == "request" and req[1]["WARC-Concurrent-To"] == loc.record_id
    assert req[2].protocol == "GET" and req[2].statusline == "/a?x=1 HTTP/1.1"
    with open(tmp_path / name, "rb") as fh:  # replay decodes the content encoding
        for rec in ArchiveIterator(fh):
            if rec.rec_type == "response":
                assert rec.content_stream().read() == html
    raw = gzip.decompress((tmp_path / name).read_bytes())
    assert b"Content-Disposition: inline; filename=caf\xc3\xa9.html\r\n" in raw  # not %-encoded


def test_warcio_digests_the_bytes_given_not_dechunked(tmp_path):
    """A body that looks chunked is stored and digested as given, and replays as given."""
    body = b"4\r\nabcd\r\n0\r\n\r\n"
    sink = make_sink(tmp_path)
    loc = sink.write_exchange(exchange(body=body, response_headers=(
        ("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked"))))
    sink.close()
    assert loc is not None and loc.payload_digest == sha1(body)
    with open(tmp_path / loc.filename, "rb") as fh:
        for rec in ArchiveIterator(fh, check_digests=True):
            if rec.rec_type == "response":
                assert rec.http_headers.get_header("Transfer-Encoding") is None
                assert rec.http_headers["X-Crawler-Transfer-Encoding"] == "chunked"
                assert rec.content_stream().read() == body
                assert rec.digest_checker.passed is not False


def test_kept_transfer_encoding_header_would_corrupt_replay():
    """Negative control for the rename: warcio (and pywb) de-chunk again on read."""
    out = BytesIO()
    writer = WARCWriter(out, gzip=False, warc_version="1.1")
    head = StatusAndHeaders("200 OK", [("Transfer-Encoding", "chunked")], protocol="HTTP/1.1")
    body = b"4\r\nabcd\r\n0\r\n\r\n"
    writer.write_record(writer.create_warc_record(
        "http://example.org/", "response", payload=BytesIO(body), length=len(body),
        http_headers=head))
    out.seek(0)
    rec = next(iter(ArchiveIterator(out)))
    assert rec.content_stream().read() == b"abcd"


def test_revisit_record(tmp_path):
    asked = []

    def seen(digest):
        asked.append(digest)
        return ("http://example.org/orig", "2023-11-01T00:00:00Z")

    sink = make_sink(tmp_path, seen_digest=seen)
    ex = exchange()
    loc = sink.write_exchange(ex)
    sink.close()
    assert asked == [sha1(ex.body)]
    assert loc is not None and loc.record_type == "revisit"
    assert loc.payload_digest == sha1(ex.body)
    _, rev, req = records(tmp_path / loc.filename)
    assert rev[0] == "revisit"
    h = rev[1]
    assert h["WARC-Profile"] == ("http://netpreserve.org/warc/1.1/revisit/"
                                 "identical-payload-digest")
    assert h["WARC-Refers-To-Target-URI"] == "http://example.org/orig"
    assert h["WARC-Refers-To-Date"] == "2023-11-01T00:00:00Z"
    assert h["WARC-Payload-Digest"] == sha1(ex.body)
    assert h["WARC-Target-URI"] == ex.url
    assert rev[2].statusline == "200 OK" and rev[2]["Content-Type"] == ex.response_headers[0][1]
    assert rev[3] == b""  # no payload
    assert int(h["Content-Length"]) == len(rev[2].to_ascii_bytes())
    assert req[1]["WARC-Concurrent-To"] == loc.record_id
    assert check_file(tmp_path / loc.filename) == []


@pytest.mark.parametrize("kw", [{"body": b""}, {"truncated": "length"}])
def test_no_revisit_for_empty_or_truncated_payload(tmp_path, kw):
    sink = make_sink(tmp_path, seen_digest=lambda d: ("http://x/", "2023-01-01T00:00:00Z"))
    loc = sink.write_exchange(exchange(**kw))
    sink.close()
    assert loc is not None and loc.record_type == "response"


def test_truncated_and_no_response(tmp_path):
    sink = make_sink(tmp_path)
    assert sink.write_exchange(exchange(status=None, error="DNS failure")) is None
    loc = sink.write_exchange(exchange(body=b"<html>par", truncated="length"))
    sink.close()
    assert loc is not None
    _, resp, _ = records(tmp_path / loc.filename)
    assert resp[1]["WARC-Truncated"] == "length"
    assert resp[1].get_header("WARC-IP-Address") is None
    assert len(records(tmp_path / loc.filename)) == 3


def test_location_offsets_match_the_file(tmp_path):
    sink = make_sink(tmp_path)
    first = sink.write_exchange(exchange())
    second = sink.write_exchange(exchange(url="http://example.org/b"))
    meta = sink.write_metadata("http://example.org/b", "<urn:x>", [("a", "b")])
    name, size = sink.position()
    sink.close()
    assert first is not None and second is not None
    assert second.offset == first.offset + first.length
    assert meta.offset == second.offset + second.length
    assert size == meta.offset + meta.length == (tmp_path / name).stat().st_size
    found = [(r.offset, r.rec_type) for r in RecordScanner(tmp_path / name)]
    assert (first.offset, "response") in found and (meta.offset, "metadata") in found


def test_open_file_renamed_on_close(tmp_path):
    opened, closed = [], []
    sink = make_sink(tmp_path, on_open=opened.append,
                     on_close=lambda *args: closed.append(args))
    name = sink.position()[0]
    assert name == "demo-20231114221320-00000.warc.gz"
    assert opened == [name]
    assert (tmp_path / (name + ".open")).exists() and not (tmp_path / name).exists()
    sink.write_exchange(exchange())
    sink.flush()
    assert (tmp_path / (name + ".open")).stat().st_size == sink.position()[1]
    sink.close()
    sink.close()
    assert (tmp_path / name).exists() and not (tmp_path / (name + ".open")).exists()
    assert closed == [(name, (tmp_path / name).stat().st_size, 3)]
    with pytest.raises(WarcError, match="closed"):
        sink.write_exchange(exchange())


def test_rotation_by_size(tmp_path):
    opened, closed = [], []
    sink = make_sink(tmp_path, max_size=1500, gzip=False, on_open=opened.append,
                     on_close=lambda *args: closed.append(args))
    for i in range(5):
        sink.write_exchange(exchange(url=f"http://example.org/{i}", body=b"x" * 400))
    sink.write_resource("urn:archiver:report", "text/plain", b"report")
    sink.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == opened == [c[0] for c in closed]
    assert names == [f"demo-20231114221320-{n:05d}.warc" for n in range(len(names))]
    assert len(names) >= 3
    for path in sorted(tmp_path.iterdir()):
        recs = records(path)
        assert recs[0][0] == "warcinfo"
        assert recs[0][1]["WARC-Filename"] == path.name
        info_id = recs[0][1]["WARC-Record-ID"]
        assert all(r[1]["WARC-Warcinfo-ID"] == info_id for r in recs[1:])
        assert check_file(path) == []
    assert warcio_check(*tmp_path.iterdir()).returncode == 0
    sizes = [c[1] for c in closed]
    assert all(s >= 1500 for s in sizes[:-1])


def test_tiny_max_size_rotates_after_each_call_without_looping(tmp_path):
    sink = make_sink(tmp_path, max_size=1)
    for _ in range(3):
        sink.write_exchange(exchange())
    sink.close()
    assert len(list(tmp_path.iterdir())) == 3


def test_serial_continues_after_existing_files(tmp_path):
    (tmp_path / "demo-20200101000000-00004.warc.gz").write_bytes(b"")
    (tmp_path / "demo-20200101000000-00007.warc.gz.open").write_bytes(b"")
    (tmp_path / "other-20200101000000-00042.warc.gz").write_bytes(b"")
    sink = make_sink(tmp_path)
    assert sink.position()[0] == "demo-20231114221320-00008.warc.gz"
    sink.close()


def test_metadata_and_resource_records(tmp_path):
    sink = make_sink(tmp_path, warcinfo={"isPartOf": "demo", "operator": "line1\nline2"})
    loc = sink.write_exchange(exchange())
    assert loc is not None
    meta = sink.write_metadata("http://example.org/a?x=1", loc.record_id, [
        ("outlink", "http://example.org/b L a/@href"), ("archiver-decision", "follow\r\nx")])
    res = sink.write_resource("urn:archiver:profile", "application/yaml", b"name: demo\n")
    sink.close()
    recs = {r[0]: r for r in records(tmp_path / loc.filename)}
    assert b"operator: line1 line2\r\n" in recs["warcinfo"][3]
    m = recs["metadata"]
    assert m[1]["Content-Type"] == "application/warc-fields"
    assert m[1]["WARC-Concurrent-To"] == loc.record_id
    assert m[3] == (b"outlink: http://example.org/b L a/@href\r\n"
                    b"archiver-decision: follow x\r\n")
    assert meta.record_type == "metadata" and meta.payload_digest == sha1(m[3])
    r = recs["resource"]
    assert r[1]["Content-Type"] == "application/yaml" and r[3] == b"name: demo\n"
    assert r[1]["WARC-Target-URI"] == "urn:archiver:profile"
    assert res.record_type == "resource"
    assert check_file(tmp_path / loc.filename) == []
    with make_sink(tmp_path / "x") as other, pytest.raises(ValueError, match="fields name"):
        other.write_metadata("http://x/", "<urn:x>", [("bad name", "v")])


def build_file(directory: Path, gz: bool, n: int = 6) -> tuple[Path, list[int], list[int]]:
    """A closed WARC file, the end offsets of its records, and the ends that are not in
    the middle of a write_exchange call (after a response, before its request)."""
    directory.mkdir(parents=True, exist_ok=True)
    sink = make_sink(directory, gzip=gz)
    rng = random.Random(7)
    for i in range(n):
        body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 3000)))
        loc = sink.write_exchange(exchange(url=f"http://example.org/{i}", body=body))
        assert loc is not None
        sink.write_metadata(f"http://example.org/{i}", loc.record_id, [("n", str(i))])
    name = sink.position()[0]
    sink.close()
    path = directory / name
    scanned = list(RecordScanner(path))
    ends = [r.offset + r.length for r in scanned]
    whole = [r.offset + r.length for r in scanned if r.rec_type != "response"]
    return path, ends, whole


@pytest.mark.parametrize("gz", [True, False], ids=["gzip", "plain"])
def test_repair_after_truncation_at_random_offsets(tmp_path, gz):
    original, ends, whole = build_file(tmp_path / "src", gz)
    data = original.read_bytes()
    rng = random.Random(1234)
    cuts = {0, 1, ends[0] - 1, ends[0], ends[0] + 1, ends[1], ends[1] + 5, ends[3],
            ends[3] + 3, len(data) - 1, len(data)}
    cuts.update(rng.randrange(len(data)) for _ in range(16))
    repaired_files = []
    for cut in sorted(cuts):
        work = tmp_path / f"cut{cut}"
        work.mkdir()
        (work / (original.name + ".open")).write_bytes(data[:cut])
        lines = repair_open_files(work)
        assert len(lines) == 1, cut
        assert not list(work.glob("*.open")), cut
        kept = [e for e in whole if e <= cut]
        repaired = work / original.name
        if not kept:
            assert not repaired.exists(), cut
            assert "removed" in lines[0]
            continue
        assert repaired.read_bytes() == data[: kept[-1]], cut
        assert check_file(repaired) == [], cut
        repaired_files.append(repaired)
    result = warcio_check(*repaired_files)  # one process: warcio's start-up is slow
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert len(repaired_files) > 10


def test_repair_keeps_committed_bytes(tmp_path):
    original, ends, _ = build_file(tmp_path, gz=True)
    open_path = original.with_name(original.name + ".open")
    shutil.move(original, open_path)
    recovered = list(iter_records_after(open_path, ends[3]))
    assert [r.rec_type for r in recovered[:3]] == ["response", "request", "metadata"]
    assert recovered[0].header("WARC-Target-URI") == "http://example.org/1"
    assert recovered[0].http_status == 200 and recovered[0].offset == ends[3]
    lines = repair_open_files(tmp_path, keep_bytes={original.name: ends[3]})
    assert original.stat().st_size == ends[3]
    assert "kept 4 records" in lines[0] and original.name in lines[0]
    assert check_file(original) == []


def test_repair_warns_when_db_committed_more_than_the_disk_has(tmp_path):
    original, ends, _ = build_file(tmp_path, gz=False, n=1)
    shutil.move(original, original.with_name(original.name + ".open"))
    lines = repair_open_files(tmp_path, keep_bytes={original.name: ends[-1] + 100})
    assert "WARNING" in lines[0] and original.exists()


def test_repair_keeps_a_file_with_only_its_warcinfo(tmp_path):
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    with make_sink(tmp_path) as sink:
        name, size = sink.position()
        sink.flush()  # a crash now leaves the .open file as it is on disk
        shutil.copy(tmp_path / (name + ".open"), crashed)
    tmp_path = crashed
    lines = repair_open_files(tmp_path)
    assert (tmp_path / name).stat().st_size == size
    assert "kept 1 records" in lines[0]
    assert check_file(tmp_path / name) == []
    assert warcio_check(tmp_path / name).returncode == 0


def test_iter_records_after_stops_at_an_incomplete_tail(tmp_path):
    original, ends, _ = build_file(tmp_path, gz=True, n=2)
    data = original.read_bytes()
    original.write_bytes(data[: ends[-1] - 10])
    got = list(iter_records_after(original, ends[0]))
    assert [r.offset for r in got] == ends[:-2]


def test_write_error_leaves_the_file_for_repair(tmp_path, monkeypatch):
    sink = make_sink(tmp_path)
    name = sink.position()[0]
    sink.write_exchange(exchange())

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(WARCWriter, "write_request_response_pair", full_disk)
    with pytest.raises(WarcError, match="No space left"):
        sink.write_exchange(exchange())
    monkeypatch.undo()
    with pytest.raises(WarcError, match="earlier WARC write failed"):
        sink.write_metadata("http://x/", "<urn:x>", [("a", "b")])
    sink.close()  # must not rename a file that may end in a partial record
    assert (tmp_path / (name + ".open")).exists()
    assert "kept 3 records" in repair_open_files(tmp_path)[0]


def test_abandon_leaves_open_file_and_none_means_unknown_size(tmp_path):
    sink = make_sink(tmp_path)
    sink.write_exchange(exchange())
    name, size = sink.position()
    sink.abandon()
    lines = repair_open_files(tmp_path, keep_bytes={name: None})
    assert f"kept 3 records, {size} bytes" in lines[0]
    assert check_file(tmp_path / name) == []


def test_warc_fields_one_line_per_field_and_names_checked_once() -> None:
    assert warc._warc_fields([("a", " x\r\n y "), ("a", "\n"), ("b", 3), ("c", "p q")]) == (
        b"a: x  y\r\na: \r\nb: 3\r\nc: p q\r\n")
    with pytest.raises(ValueError, match="'bad name'"):
        warc._warc_fields([("ok", "1"), ("ok", "2"), ("bad name", "v")])


def test_given_digests_equal_warcio_computed_ones(tmp_path):
    """The sink hands warcio the digests it already has; they must be warcio's own."""
    sink = make_sink(tmp_path)
    loc = sink.write_exchange(exchange())
    assert loc is not None
    sink.write_metadata("http://example.org/a", loc.record_id, [("outlink", "http://e.org/ L")])
    sink.close()
    with (tmp_path / loc.filename).open("rb") as fh:
        for rec in ArchiveIterator(fh):
            body = rec.raw_stream.read()  # the payload (the block when no HTTP headers)
            if rec.rec_type in ("request", "response", "metadata"):
                assert rec.rec_headers["WARC-Payload-Digest"] == sha1(body)
            if rec.rec_type == "metadata":
                assert rec.rec_headers["WARC-Block-Digest"] == sha1(body)
    assert check_file(tmp_path / loc.filename) == []
