"""Tests for archiver.warccheck: each defect is built on purpose and must be reported."""

from __future__ import annotations

import gzip
import io
import itertools
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from archiver.exchange import Exchange
from archiver.warc import WarcSink
from archiver.warccheck import _warcio_problems, check_file, check_paths
from archiver.warcscan import RecordScanner

WARCIO = Path(sys.executable).parent / "warcio"
T0 = 1700000000.0


def good_file(directory: Path, gz: bool = True, n: int = 3) -> Path:
    counter = itertools.count()
    sink = WarcSink(directory, "demo", gzip=gz, clock=lambda: T0,
                    make_id=lambda: f"<urn:uuid:00000000-0000-4000-8000-{next(counter):012d}>")
    for i in range(n):
        loc = sink.write_exchange(Exchange(
            url=f"http://example.org/{i}", started_at=T0, request_target=f"/{i}",
            request_headers=(("Host", "example.org"),), status=200, reason="OK",
            response_headers=(("Content-Type", "text/html"),), body=b"<p>page %d</p>" % i))
        assert loc is not None
        sink.write_metadata(f"http://example.org/{i}", loc.record_id, [("n", str(i))])
    name = sink.position()[0]
    sink.close()
    return directory / name


def ends(path: Path) -> list[int]:
    return [r.offset + r.length for r in RecordScanner(path)]


class Builder:
    """Writes hand-made records with warcio to build files archiver would never write."""

    def __init__(self) -> None:
        self.out = BytesIO()
        self.writer = WARCWriter(self.out, gzip=True, warc_version="1.1")
        self.info_id = "<urn:uuid:info>"

    def warcinfo(self) -> Builder:
        body = b"software: test\r\n"
        self.writer.write_record(self.writer.create_warc_record(
            "", "warcinfo", payload=BytesIO(body), length=len(body),
            warc_headers_dict={"WARC-Record-ID": self.info_id}))
        return self

    def pair(self, rec_id: str, *, request: bool = True, info: bool = True,
             rec_type: str = "response", **extra: str) -> Builder:
        headers = {"WARC-Record-ID": rec_id, **extra}
        if info:
            headers["WARC-Warcinfo-ID"] = self.info_id
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/plain")], protocol="HTTP/1.1")
        body = b"" if rec_type == "revisit" else b"hello"
        self.writer.write_record(self.writer.create_warc_record(
            "http://example.org/", rec_type, payload=BytesIO(body), length=len(body),
            http_headers=http, warc_headers_dict=headers))
        if request:
            req = StatusAndHeaders("GET / HTTP/1.1", [("Host", "example.org")],
                                   is_http_request=True)
            self.writer.write_record(self.writer.create_warc_record(
                "http://example.org/", "request", http_headers=req, warc_headers_dict={
                    "WARC-Concurrent-To": rec_id, "WARC-Warcinfo-ID": self.info_id}))
        return self

    def save(self, path: Path) -> Path:
        path.write_bytes(self.out.getvalue())
        return path


def one(problems: list[str], *words: str) -> str:
    """The single problem mentioning all `words`."""
    found = [p for p in problems if all(w in p for w in words)]
    assert len(found) == 1, problems
    return found[0]


@pytest.mark.parametrize("gz", [True, False], ids=["gzip", "plain"])
def test_valid_file_passes(tmp_path, gz):
    path = good_file(tmp_path, gz)
    assert check_file(path) == []
    out = io.StringIO()
    assert check_paths([path], out) == 0
    assert out.getvalue() == f"{path}: ok (10 records)\n"


def test_hand_built_valid_file_passes(tmp_path):
    assert check_file(Builder().warcinfo().pair("<urn:uuid:1>").save(tmp_path / "a.warc.gz")) \
        == []


def test_truncated_gzip_member_at_end(tmp_path):
    path = good_file(tmp_path)
    data, last = path.read_bytes(), ends(path)
    path.write_bytes(data[:-7])
    problem = one(check_file(path), "truncated gzip member")
    assert f"offset {last[-2]}" in problem and f"truncate -s {last[-2]} {path}" in problem
    # warcio check alone accepts this file, hence this checker
    assert subprocess.run([str(WARCIO), "check", str(path)], check=False).returncode == 0


@pytest.mark.parametrize("gz", [True, False], ids=["gzip", "plain"])
def test_record_cut_mid_block(tmp_path, gz):
    path = good_file(tmp_path, gz)
    data, last = path.read_bytes(), ends(path)
    start = last[-4]  # the last response record: response, request, metadata follow
    cut = (start + last[-3]) // 2 if gz else data.index(b"<p>page 2</p>") + 3
    path.write_bytes(data[:cut])
    problems = check_file(path)
    problem = one(problems, f"offset {start}:", "truncate -s")
    assert f"truncate -s {start} " in problem
    assert ("truncated gzip member" if gz else "record cut mid-block") in problem


@pytest.mark.parametrize("gz", [True, False], ids=["gzip", "plain"])
def test_trailing_garbage(tmp_path, gz):
    path = good_file(tmp_path, gz)
    size = path.stat().st_size
    path.write_bytes(path.read_bytes() + b"leftover bytes\n")
    problem = one(check_file(path), f"offset {size}")
    assert ("trailing data" if gz else "not a WARC record") in problem
    assert f"truncate -s {size} {path}" in problem


def test_file_not_starting_with_warcinfo(tmp_path):
    path = Builder().pair("<urn:uuid:1>").save(tmp_path / "a.warc.gz")
    problems = check_file(path)
    one(problems, "offset 0", "starts with a response record, not warcinfo")


def test_record_missing_warcinfo_id(tmp_path):
    path = Builder().warcinfo().pair("<urn:uuid:1>", info=False).save(tmp_path / "a.warc.gz")
    one(check_file(path), "<urn:uuid:1> has no WARC-Warcinfo-ID")


def test_warcinfo_id_naming_no_warcinfo(tmp_path):
    b = Builder().warcinfo()
    b.info_id = "<urn:uuid:elsewhere>"
    path = b.pair("<urn:uuid:1>").save(tmp_path / "a.warc.gz")
    assert any("names no warcinfo record" in p for p in check_file(path))


def test_response_without_request(tmp_path):
    path = (Builder().warcinfo().pair("<urn:uuid:1>", request=False).pair("<urn:uuid:2>")
            .save(tmp_path / "a.warc.gz"))
    problem = one(check_file(path), "no request record")
    assert "<urn:uuid:1>" in problem and "<urn:uuid:2>" not in problem


@pytest.mark.parametrize("missing", ["WARC-Refers-To-Target-URI", "WARC-Refers-To-Date"])
def test_revisit_missing_refers_to(tmp_path, missing):
    fields = {"WARC-Refers-To-Target-URI": "http://example.org/old",
              "WARC-Refers-To-Date": "2023-01-01T00:00:00Z",
              "WARC-Profile": "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
              "WARC-Payload-Digest": "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"}
    del fields[missing]
    path = (Builder().warcinfo().pair("<urn:uuid:1>", rec_type="revisit", **fields)
            .save(tmp_path / "a.warc.gz"))
    one(check_file(path), "revisit record <urn:uuid:1>", f"has no {missing}")


def test_block_digest_mismatch(tmp_path):
    path = good_file(tmp_path, gz=False)
    data = path.read_bytes()
    at = data.index(b"<p>page 1</p>")
    path.write_bytes(data[:at] + b"<p>PAGE 1</p>" + data[at + 13:])
    problems = check_file(path)
    problem = one(problems, "WARC-Block-Digest")
    assert "http://example.org/1" in problem and "does not match" in problem
    one(problems, "WARC-Payload-Digest")
    # warcio check agrees on this one
    assert subprocess.run([str(WARCIO), "check", str(path)], capture_output=True,
                          check=False).returncode == 1


def test_payload_digest_mismatch_alone(tmp_path):
    wrong = {"WARC-Payload-Digest": "sha1:" + "A" * 32}
    path = Builder().warcinfo().pair("<urn:uuid:1>", **wrong).save(tmp_path / "a.warc.gz")
    problems = check_file(path)
    one(problems, "WARC-Payload-Digest sha1:AAAA")
    assert not any("Block-Digest" in p for p in problems)


def test_open_file_is_reported(tmp_path):
    path = good_file(tmp_path)
    open_path = path.with_name(path.name + ".open")
    path.rename(open_path)
    problem = one(check_file(open_path), "still open")
    assert "archiver crawl" in problem


@pytest.mark.parametrize("content", [
    b"<html>not a warc</html>\n", bytes(range(256)) * 4, gzip.compress(b"just text\n"),
], ids=["text", "binary", "gzip-text"])
def test_non_warc_input(tmp_path, content):
    path = tmp_path / "x.warc.gz"
    path.write_bytes(content)
    problem = one(check_file(path), "offset 0")
    assert "not a readable WARC file" in problem


def test_empty_and_missing_files(tmp_path):
    empty = tmp_path / "empty.warc.gz"
    empty.write_bytes(b"")
    one(check_file(empty), "empty file")
    one(check_file(tmp_path / "nope.warc.gz"), "no such file")


def test_several_records_in_one_gzip_member(tmp_path):
    plain = good_file(tmp_path, gz=False)
    path = tmp_path / "single-member.warc.gz"
    path.write_bytes(gzip.compress(plain.read_bytes()))
    assert "warcio recompress" in one(check_file(path), "several records")


def test_check_paths_exit_codes_and_directories(tmp_path):
    good = good_file(tmp_path / "warcs")
    bad = tmp_path / "warcs" / "bad.warc"
    bad.write_bytes(b"nonsense\n")
    (tmp_path / "warcs" / "notes.txt").write_text("ignored")
    out = io.StringIO()
    assert check_paths([tmp_path / "warcs"], out) == 1
    report = out.getvalue()
    assert f"{good}: ok" in report and f"{bad}: offset 0" in report and "notes" not in report
    assert check_paths([good], io.StringIO()) == 0
    assert check_paths([tmp_path / "missing.warc.gz"], io.StringIO()) == 1
    empty_dir = tmp_path / "none"
    empty_dir.mkdir()
    out = io.StringIO()
    assert check_paths([empty_dir], out) == 1
    assert "no WARC files" in out.getvalue()


def test_scanner_reports_headers(tmp_path):
    path = good_file(tmp_path)
    recs = list(RecordScanner(path))
    assert [r.rec_type for r in recs[:4]] == ["warcinfo", "response", "request", "metadata"]
    assert recs[1].http_status == 200
    assert recs[1].http_headers == (("Content-Type", "text/html"),)
    assert recs[2].headers("WARC-Concurrent-To") == [recs[1].record_id]
    assert recs[-1].offset + recs[-1].length == path.stat().st_size


def test_record_without_target_uri_and_the_warcio_cross_check(tmp_path):
    b = Builder().warcinfo()
    body = b"x"
    b.writer.write_record(b.writer.create_warc_record(
        "", "response", payload=BytesIO(body), length=1, warc_content_type="text/plain",
        warc_headers_dict={"WARC-Record-ID": "<urn:uuid:1>", "WARC-Warcinfo-ID": b.info_id}))
    path = b.save(tmp_path / "a.warc.gz")
    one(check_file(path), "<urn:uuid:1> has no WARC-Target-URI")
    assert any("warcio cannot read" in p for p in _warcio_problems(path))
