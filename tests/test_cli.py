"""The command line: exit codes, messages without tracebacks, and the offline demo."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from archiver.cli import main
from archiver.job import JobFolder
from archiver.warccheck import check_file


def test_validate_ok_and_bad(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nseeds: [ftp://example.org/]\npoliteness: {delay: 2s}\n")
    assert main(["validate", "configs/example.yaml"]) == 0
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "politeness.delay" in err and "'2s'" in err and "seeds" in err
    assert "Traceback" not in err


def test_crawl_with_bad_profile_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crawl", str(tmp_path / "missing.yaml")]) == 2
    err = capsys.readouterr().err
    assert "missing.yaml" in err and "Traceback" not in err


def test_crawl_flag_override_is_validated(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crawl", "configs/example.yaml", "--max-requests", "0"]) == 2
    assert "limits.max_requests (from the command line)" in capsys.readouterr().err


def test_locked_job_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "job"
    holder = JobFolder(out)
    holder.acquire()
    try:
        assert main(["crawl", "configs/demo.yaml", "--out", str(out)]) == 2
    finally:
        holder.release()
    err = capsys.readouterr().err
    assert "another archiver process" in err and str(os.getpid()) in err


def test_check_reports_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.warc.gz"
    junk.write_bytes(b"not a warc at all")
    assert main(["check", str(junk)]) == 1


def test_demo_crawls_the_bundled_forum_offline(tmp_path: Path, monkeypatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--max-requests", "80"]) == 0
    out = capsys.readouterr().out
    assert "wb-manager add demo" in out
    warcs = sorted((tmp_path / "crawls" / "demo" / "warcs").glob("*.warc.gz"))
    assert warcs and all(check_file(w) == [] for w in warcs)
    assert (tmp_path / "crawls" / "demo" / "report.html").exists()


def test_eval_scores_one_zoo_site(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "zoo"
    assert main(["eval", "--families", "forum", "--variants", "0", "--size", "demo",
                 "--crawlers", "bfs", "--budget", "20", "--out", str(out)]) == 0
    assert "forum-v0:" in capsys.readouterr().out
    assert "| forum-v0 | bfs |" in (tmp_path / "zoo.md").read_text("utf-8")
    assert (tmp_path / "zoo.json").exists()


def test_eval_unknown_crawler_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--crawlers", "bfs", "nope", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "unknown crawler 'nope'; known: bfs" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_crawl_start_does_not_import_the_eval_harness() -> None:
    """The eval subcommand's options import the harness and the zoo: only when asked for."""
    import subprocess
    import sys

    code = ("import sys; from archiver import cli; cli._parser(eval_options=False)"
            ".parse_args(['validate', 'x.yaml']); "
            "print(any(m.startswith(('archiver.evaluation', 'archiver.zoo'))"
            " for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"


def test_learn_summary_says_what_the_sample_learned_from_noindex() -> None:
    from archiver.cli import _noindex_summary

    info = {"noindex_clusters": [0, 2], "query_modes": {"do": ["edit", "login"]},
            "closed_kinds": [f"/*?do=k{i}&id" for i in range(8)]}
    assert _noindex_summary(info, 3, target=False) == [
        "content (never judged exhausted): cluster 3; clusters most of whose sampled pages "
        "are noindex: 0, 2",
        "kinds of URL the sample closed (noindex, no new pages): /*?do=k0&id, /*?do=k1&id, "
        "/*?do=k2&id, /*?do=k3&id, /*?do=k4&id, /*?do=k5&id (+2 more)",
        "query modes: do=edit|login"]
    # a model saved before these were kept, crawling for a target
    assert _noindex_summary({}, -2, target=True) == [
        "target: cluster none; clusters most of whose sampled pages are noindex: none",
        "kinds of URL the sample closed (noindex, no new pages): none", "query modes: none"]


def test_learn_summary_says_how_the_sample_ended() -> None:
    from archiver.cli import _sample_summary

    assert _sample_summary({"sample_pages": 58, "sample_stop": "exhausted",
                            "sample_unrequested": 0}) == ["sample: 58 pages, ended: exhausted"]
    assert _sample_summary({"sample_pages": 200, "sample_stop": "saturated",
                            "sample_unrequested": 76}) == [
        "sample: 200 pages, ended: saturated; 76 of them links deferred while sampling, "
        "fetched while the sample waited for requests the crawl did not fetch"]
    assert _sample_summary({}) == []           # a model saved before these were kept


def test_learn_summary_says_which_rare_pages_are_followed() -> None:
    from archiver.cli import _live_summary

    info = {"content_patterns": ["/index.php/*"],
            "live_outliers": [[-2, "/a", 3, 31, ["/index.php/Talk:/*"]],
                              [1, "/a", 2, 2, ["/index.php/Talk:/*"]], [4, "/b", 1, 2, []]]}
    assert _live_summary(info) == [
        "live outliers (rare pages followed last): 3 kinds of link led to some; URL patterns "
        "of the content: /index.php/*; of companion pages: /index.php/Talk:/*"]
    # a model saved before companion patterns (four fields a row), or without the credit
    assert _live_summary({"live_outliers": [[1, "/a", 1, 1]]}) == [
        "live outliers (rare pages followed last): 1 kind of link led to some; URL patterns "
        "of the content: none; of companion pages: none"]


def test_learn_summary_lists_the_pairs_split_by_url_pattern() -> None:
    from archiver.cli import _split_summary
    from tests.test_learning_navigation import X_TABS, tab_table

    lines = _split_summary(tab_table(), used=True)
    assert lines[0].startswith("url patterns: 1 of 2 (cluster, Apath) pairs")
    assert lines[1] == (f"  cluster 0 {X_TABS}: /people/*/contacts -> 1, "
                        "/photos/*/albums -> 2")
    assert "not used" in _split_summary(tab_table(), used=False)[0]
