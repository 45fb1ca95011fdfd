"""Evaluation metrics and the WARC reader, on hand-built WARCs with known answers."""

from __future__ import annotations

import gzip
import math
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from archiver.evaluation import metrics as m
from archiver.evaluation.captures import read_captures, warc_paths
from archiver.evaluation.scoring import Reference, compact_curve, score
from archiver.evaluation.truth import SiteTruth

SITE = "http://site.test"


@dataclass(frozen=True)
class Label:
    page_type: str
    ucc: bool
    valid: str
    entity: str | None
    status: int = 200
    topics: tuple[str, ...] = ()


LABELS = {
    "/": Label("index", False, "valid", "index"),
    "/t/1": Label("topic", True, "valid", "topic:1", topics=("flowers",)),
    "/t/1?sid=9": Label("topic", True, "duplicate", "topic:1", topics=("flowers",)),
    "/t/2": Label("topic", True, "valid", "topic:2", topics=("cars",)),
    "/t/3": Label("topic", True, "valid", "topic:3", topics=("flowers",)),
    "/login": Label("login", False, "invalid", None),
    "/old": Label("redirect", False, "duplicate", "topic:1", status=301),
    "/p/1": Label("profile", True, "valid", "user:1", topics=("flowers",)),
    "/feed": Label("feed", False, "duplicate", "index/feed"),
}

TRUTH = SiteTruth(
    lookup=LABELS.get,
    ucc_urls=frozenset({"/t/1", "/t/1?sid=9", "/t/2", "/t/3", "/p/1"}),
    ucc_entities=frozenset({"topic:1", "topic:2", "topic:3", "user:1"}),
    canonical=frozenset({"index", "topic:1", "topic:2", "topic:3", "user:1"}),
    valuable=frozenset({"index", "topic:1", "topic:2", "topic:3", "user:1"}),
    targets={"detail": frozenset({"topic:1", "topic:2", "topic:3"}),
             "profile": frozenset({"user:1"})},
    detail_types=frozenset({"topic"}),
    detail_topics={"flowers": 2, "cars": 1},
    host="site.test",
)

INDEX = (b'<html><head><title>Home</title><script>var hidden = "no words";</script></head>'
         b'<body><p>alpha beta gamma</p><a href="/t/1">one</a>'
         b'<a href="http://ext.example/a">out</a></body></html>')
TOPIC = (b'<html><body><div>one two three</div><a href="http://ext.example/b">b</a>'
         b'<a href="/p/1">me</a></body></html>')
PROFILE = b"<html><body><p>i like flowers</p></body></html>"


def _http(status: str, headers: list[tuple[str, str]]) -> StatusAndHeaders:
    return StatusAndHeaders(status, headers, protocol="HTTP/1.1")


def _response(w: WARCWriter, path: str, status: str, body: bytes,
              headers: list[tuple[str, str]] | None = None,
              ctype: str = "text/html; charset=utf-8") -> object:
    rec = w.create_warc_record(SITE + path, "response", payload=BytesIO(body),
                               length=len(body),
                               http_headers=_http(status, [("Content-Type", ctype),
                                                           *(headers or [])]))
    w.write_record(rec)
    return rec


def write_crawl(path: Path) -> Path:
    """The eight requests of a small crawl, in order (see `test_metrics_known_answers`)."""
    with path.open("wb") as fh:
        w = WARCWriter(fh, gzip=True)
        w.write_record(w.create_warcinfo_record("test.warc.gz", {"software": "test"}))
        _response(w, "/", "200 OK", INDEX)                                       # 0
        topic = _response(w, "/t/1", "200 OK", gzip.compress(TOPIC, mtime=0),   # 1 gzip
                          [("Content-Encoding", "gzip")])
        digest = topic.rec_headers.get_header("WARC-Payload-Digest")  # type: ignore[attr-defined]
        w.write_record(w.create_revisit_record(                                  # 2 revisit
            SITE + "/t/1?sid=9", digest, SITE + "/t/1", "2024-01-01T00:00:00Z",
            http_headers=_http("200 OK", [("Content-Type", "text/html"),
                                          ("Content-Encoding", "gzip")])))
        _response(w, "/login", "200 OK", b"<html><body>please log in</body></html>")  # 3
        _response(w, "/missing", "404 Not Found", b"<html><body>gone</body></html>")  # 4
        _response(w, "/t/2", "503 Service Unavailable", b"busy", ctype="text/plain")   # 5
        _response(w, "/old", "301 Moved Permanently", b"",                            # 6
                  [("Location", SITE + "/t/1")])
        chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(PROFILE), PROFILE)
        _response(w, "/p/1", "200 OK", chunked, [("Transfer-Encoding", "chunked")])  # 7
        w.write_record(w.create_warc_record("urn:x:log", "resource", payload=BytesIO(b"log"),
                                            length=3, warc_content_type="text/plain"))
    return path


@pytest.fixture
def captures(tmp_path: Path) -> list:
    return read_captures([write_crawl(tmp_path / "crawl.warc.gz")])


# ----------------------------------------------------------------------------- reader
def test_reader_orders_decodes_and_resolves_revisits(captures: list) -> None:
    assert [c.url.removeprefix(SITE) for c in captures] == [
        "/", "/t/1", "/t/1?sid=9", "/login", "/missing", "/t/2", "/old", "/p/1"]
    assert [c.seq for c in captures] == list(range(8))
    assert [c.status for c in captures] == [200, 200, 200, 200, 404, 503, 301, 200]
    assert captures[1].payload == TOPIC                    # content-encoding removed
    assert captures[2].record_type == "revisit"
    assert captures[2].payload == TOPIC                    # borrowed from the original
    assert captures[2].outlinks == captures[1].outlinks
    assert captures[7].payload == PROFILE                  # chunked transfer removed
    assert captures[6].location == SITE + "/t/1"
    assert captures[5].mime == "text/plain" and not captures[5].text
    assert captures[0].outlinks == (SITE + "/t/1", "http://ext.example/a")
    assert "alpha beta gamma" in captures[0].text
    assert "hidden" not in captures[0].text               # script text is not visible


def test_reader_stops_at_a_cut_record(tmp_path: Path) -> None:
    path = write_crawl(tmp_path / "cut.warc.gz")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])              # a killed writer's last member
    caps = read_captures([path], parse=False)
    assert [c.url.removeprefix(SITE) for c in caps][:7] == [
        "/", "/t/1", "/t/1?sid=9", "/login", "/missing", "/t/2", "/old"]


def test_reader_without_payloads_and_with_cache(tmp_path: Path) -> None:
    path = write_crawl(tmp_path / "a.warc.gz")
    cache: dict = {}
    first = read_captures([path], keep_payload=False, cache=cache)
    assert all(c.payload is None for c in first)
    assert len(cache) == 6                 # 5 HTML pages; the revisit has its own URL
    again = read_captures([path], cache=cache)
    assert [c.text for c in again] == [c.text for c in first]


def test_warc_paths_in_write_order_with_open_files(tmp_path: Path) -> None:
    for name in ("x-20240101-00001.warc.gz", "x-20240101-00000.warc.gz",
                 "x-20240101-00002.warc.gz.open", "notes.txt"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in warc_paths(tmp_path)] == [
        "x-20240101-00000.warc.gz", "x-20240101-00001.warc.gz", "x-20240101-00002.warc.gz.open"]


def test_target_uri_in_angle_brackets(tmp_path: Path) -> None:
    path = tmp_path / "b.warc"
    with path.open("wb") as fh:
        w = WARCWriter(fh, gzip=False)
        rec = w.create_warc_record(SITE + "/", "response", payload=BytesIO(INDEX),
                                   length=len(INDEX),
                                   http_headers=_http("200 OK", [("Content-Type", "text/html")]))
        rec.rec_headers.replace_header("WARC-Target-URI", f"<{SITE}/>")
        w.write_record(rec)
    assert read_captures([path])[0].url == SITE + "/"


# ----------------------------------------------------------------------------- metrics
def test_judge_labels(captures: list) -> None:
    labels = [j.label for j in m.judge(captures, TRUTH)]
    assert labels == ["valid", "valid", "duplicate", "invalid", "invalid", "invalid",
                      "duplicate", "valid"]


def test_first_view_of_content_is_the_valuable_one() -> None:
    """iRobot §6.1: one page of a duplicate set is valuable. The crawler archived the
    session-id view first, so that one counts; the canonical URL later is the duplicate."""
    caps = [_cap(0, "/t/1?sid=9"), _cap(1, "/t/1"), _cap(2, "/feed"), _cap(3, "/old", 301),
            _cap(4, "/t/1")]
    assert [j.label for j in m.judge(caps, TRUTH)] == [
        "valid", "duplicate", "duplicate", "duplicate", "duplicate"]


def test_metrics_known_answers(captures: list) -> None:
    j = m.judge(captures, TRUTH)
    assert m.valid_ratio(j) == 3 / 8                       # /t/1, its sid view, /p/1
    assert m.recall_entities(j, TRUTH) == 2 / 4             # topic:1, user:1
    assert m.recall_pages(j, TRUTH) == 3 / 5                # /t/1, /t/1?sid=9, /p/1
    assert m.f_measure(3 / 8, 2 / 4) == pytest.approx(2 * 0.375 * 0.5 / 0.875)
    assert m.f_measure(0.0, 0.0) == 0.0 and m.f_measure(None, 0.5) is None
    # types: index, topic ×3, login, unknown, redirect, profile
    expected = -(5 * (1 / 8) * math.log2(1 / 8) + (3 / 8) * math.log2(3 / 8))
    assert m.entropy(j) == pytest.approx(expected)
    assert m.invalid_ratio(j) == 3 / 8                      # login, 404, 503-for-200
    assert m.duplicate_ratio(j) == 2 / 8                    # sid view, /old redirect
    assert m.coverage_ratio(j, TRUTH) == 3 / 5              # index, topic:1, user:1
    assert m.target_budget(TRUTH, "detail") == 3
    assert m.harvest_rate(j[:3], TRUTH, "detail") == 1 / 3
    assert m.harvest_rate(j[:1], TRUTH, "profile") == 0.0
    assert m.focus_topic(TRUTH) == "flowers"
    assert m.focused_harvest_ratio(j, TRUTH, "flowers") == 2 / 8   # /t/1 and its sid view
    assert m.focused_harvest_ratio(j, TRUTH, None) is None
    curve = m.harvest_curve(j, TRUTH)
    assert curve == [0, 1, 1, 1, 1, 1, 1, 2]
    assert m.requests_to_reach(curve, 4, 0.95) is None
    assert m.requests_to_reach(curve, 4, 0.5) == 8
    assert m.requests_to_reach(curve, 4, 0.25) == 2


def test_empty_crawl_is_undefined_not_zero() -> None:
    assert m.valid_ratio([]) is None and m.entropy([]) is None
    assert m.invalid_ratio([]) is None and m.harvest_curve([], TRUTH) == []


def test_acebot_bigrams_and_external_links(captures: list) -> None:
    assert m.bigrams("One two, THREE") == {("one", "two"), ("two", "three")}
    grams = m.crawl_bigrams(captures)
    assert {("alpha", "beta"), ("one", "two"), ("like", "flowers")} <= grams
    assert ("hidden", "no") not in grams
    ext = m.external_links(captures, "site.test")
    assert ext == {"http://ext.example/a", "http://ext.example/b"}
    assert m.proportion(ext, {"http://ext.example/a", "http://ext.example/b", "http://c/"}) \
        == pytest.approx(2 / 3)
    assert m.proportion(grams, set()) is None


def test_score_cuts_each_metric_at_its_budget(captures: list) -> None:
    ref = Reference(requests=16, bigrams=frozenset({("alpha", "beta"), ("x", "y")}),
                    external=frozenset({"http://ext.example/a", "http://ext.example/b"}))
    s = score(captures, TRUTH, budget=5, reference=ref, topic="flowers")
    assert s["requests"] == 8 and s["scored_requests"] == 5
    assert s["source"]["valid_ratio"] == 2 / 5
    assert s["source"]["recall"] == 1 / 4
    assert s["source"]["target"]["detail"] == {"budget": 3, "requests": 3,
                                               "harvest_rate": 1 / 3, "recall": 1 / 3}
    assert s["irobot"]["invalid_ratio"] == 2 / 5
    assert s["irobot"]["requests_to_95"] is None
    assert s["acebot"] == {"requests": 5, "requests_vs_mirror": 5 / 16, "bigrams": 0.5,
                           "external_links": 1.0}
    assert s["focused"] == {"topic": "flowers", "harvest_ratio": 2 / 5}
    assert s["curve"] == [[2, 1], [8, 2]]                  # the whole run


def test_target_rate_after_a_separate_learning_phase(captures: list) -> None:
    """SOUrCe §5.4 after a learning phase: learning archived /t/1, one of the 3 detail
    targets, so the harvest gets the 2 requests the other two need (sid view, login: none
    of them); recall counts the whole job's targets; the rate over the first #(All Target)
    requests, learning included, is reported beside it."""
    s = score(captures, TRUTH, budget=5, reference=None, topic=None, learning_requests=2)
    assert s["source"]["target"]["detail"] == {
        "budget": 2, "requests": 2, "harvest_rate": 0.0, "recall": 1 / 3,
        "learning_requests": 2, "targets_while_learning": 1,
        "harvest_rate_with_learning": 1 / 3}
    assert s["source"]["valid_ratio"] == 2 / 5            # the UCC metrics are not shifted


def test_target_rate_when_learning_found_every_target(captures: list) -> None:
    """Learning archived the only profile (/p/1): nothing is left to harvest, so no
    requests, an undefined rate (not 0) and full recall."""
    s = score(captures, TRUTH, budget=None, reference=None, topic=None, learning_requests=8)
    assert s["source"]["target"]["profile"] == {
        "budget": 0, "requests": 0, "harvest_rate": None, "recall": 1.0,
        "learning_requests": 8, "targets_while_learning": 1,
        "harvest_rate_with_learning": 0.0}


def test_compact_curve() -> None:
    assert compact_curve([]) == []
    assert compact_curve([0, 0]) == [[2, 0]]
    assert compact_curve([0, 1, 1, 2]) == [[2, 1], [4, 2]]
    assert compact_curve([1, 1, 1]) == [[1, 1], [3, 1]]


def _cap(seq: int, path: str, status: int = 200):
    from archiver.evaluation.captures import Capture

    return Capture(seq=seq, url=SITE + path, status=status, record_type="response",
                   mime="text/html", digest="", truncated=False, location=None, payload=b"")
