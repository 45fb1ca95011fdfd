"""A sample that runs short is widened (archiver.learning.sampling, "Held groups"): on a
MonoBook-like wiki the sidebar's links have no class, so the main page, each article's talk
page and its log-in link are one Apath, and the sampler gives a group holding a known URL
(the main page) nothing. The sample ran out of requests without a talk page, the harvest
predicted the talk links to lead to outliers, and the zoo's wiki v1 was archived with 24 of
its 288 talk pages."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import pytest

from archiver.crawl import Crawl
from archiver.profile import profile_from_dict
from tests.servers import serve_wsgi

N_ARTICLES = 40
_WORDS = ["castle", "river", "tower", "bridge", "market", "harbour", "village", "abbey",
          "chapel", "garden", "forest", "meadow", "mill", "quarry", "canal", "lock", "ferry",
          "beacon", "lighthouse", "manor", "hall", "court", "square", "fountain"]


def _text(seed: int, words: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _frame(title: str, body: str) -> bytes:
    name = title.removeprefix("Talk:")
    sidebar = "".join(  # no class: one Apath
        f'<li><a href="/index.php?title={quote(t, safe=":&=")}">{label}</a></li>'
        for t, label in (("Main_Page", "Main page"), (f"Talk:{name}", "Discussion"),
                         (f"Special:UserLogin&returnto={name}", "Log in")))
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
            f'<div id="content"><h1>{title}</h1>{body}</div>'
            f'<div id="column-one"><div class="portlet"><ul>{sidebar}</ul></div></div>'
            "</body></html>").encode()


def wiki(environ: dict[str, Any], start: Callable[..., Any]) -> Iterable[bytes]:
    """Articles A0..A39 linking three others each, their talk pages (a few comments), a
    main page listing ten articles, and a log-in form (noindex)."""
    title = parse_qs(environ.get("QUERY_STRING", "")).get("title", ["Main_Page"])[0]
    body = None
    if environ["PATH_INFO"] != "/index.php":
        pass
    elif title == "Main_Page":
        body = "<ul>" + "".join(f'<li><a class="a" href="/index.php?title=A{i}">A{i}</a></li>'
                                for i in range(10)) + "</ul>"
    elif title.startswith("Special:UserLogin"):
        start("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [b'<html><head><meta name="robots" content="noindex"><title>Log in</title>'
                b'</head><body><form><input name="u"></form></body></html>']
    else:
        talk = title.startswith("Talk:")
        name = title.removeprefix("Talk:")
        if name[:1] == "A" and name[1:].isdigit() and int(name[1:]) < N_ARTICLES:
            n = int(name[1:])
            if talk:
                body = "".join(f'<div class="comment"><p>{_text(1000 * n + c, 25)}</p></div>'
                               for c in range(3))
            else:
                body = f"<p>{_text(n, 60)}</p><ul>" + "".join(
                    f'<li><a class="a" href="/index.php?title=A{(n + k) % N_ARTICLES}">'
                    f"A{(n + k) % N_ARTICLES}</a></li>" for k in (1, 7, 13)) + "</ul>"
    if body is None:
        start("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]
    start("200 OK", [("Content-Type", "text/html; charset=utf-8")])
    return [_frame(title, body)]


def _job(base: str, folder: Path, widen: bool = True, random_state: int = 0) -> Crawl:
    return Crawl(profile_from_dict({
        "name": "w", "seeds": [base + "/index.php?title=Main_Page"],
        "politeness": {"delay": 0, "retries": 0}, "limits": {"max_requests": 400},
        "output": {"dir": str(folder)},
        "strategy": {"name": "source-ucc",
                     "params": {"widen": widen, "random_state": random_state}}}))


def _crawl(tmp_path: Path, widen: bool) -> tuple[list[str], list[str], list[str]]:
    """source-ucc over the wiki: the sampled pages' titles, every fetched page's title, and
    the loop's rescore events."""
    folder = tmp_path / ("on" if widen else "off")
    with serve_wsgi(wiki) as base:
        _job(base, folder, widen).run()
    sampled = [json.loads(line)["url"].partition("title=")[2]
               for line in (folder / "model" / "pages.jsonl").read_text().splitlines()]
    with sqlite3.connect(folder / "crawl.sqlite3") as db:
        fetched = [url.partition("title=")[2] for (url,) in db.execute(
            "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id ORDER BY f.id")]
        events = [m for (m,) in db.execute("SELECT message FROM event WHERE kind = 'rescore'")]
    return sampled, fetched, events


@pytest.mark.slow
def test_the_talk_pages_are_sampled_once_the_sample_runs_short(tmp_path: Path) -> None:
    sampled, fetched, events = _crawl(tmp_path, widen=True)
    talk = [t for t in sampled if t.startswith("Talk")]
    # at most min_pts of the kind, counting the draws that gave no page (Talk:Main_Page)
    assert 0 < len(talk) <= 4
    assert any(m.startswith("sample widened") for m in events)
    assert {f"Talk:A{i}" for i in range(N_ARTICLES)} <= set(fetched)   # every talk page
    assert {f"A{i}" for i in range(N_ARTICLES)} <= set(fetched)


@pytest.mark.slow
def test_without_widening_no_talk_page_is_sampled(tmp_path: Path) -> None:
    """The test above can fail: ``widen: false`` samples no talk page."""
    sampled, _, events = _crawl(tmp_path, widen=False)
    assert not [t for t in sampled if t.startswith("Talk")]
    assert not any(m.startswith("sample widened") for m in events)


def _sample_of(folder: Path) -> tuple[int, list[str]]:
    """The requests the sample took and the fetched URLs in order."""
    with sqlite3.connect(folder / "crawl.sqlite3") as db:
        (sample,) = db.execute("SELECT learned_after_fetch FROM job").fetchone()
        fetched = [u for (u,) in db.execute(
            "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id ORDER BY f.id")]
    return sample, fetched


def _unrequested(folder: Path) -> int:
    """The sampled pages the sampler had not requested, as the model records them."""
    return int(json.loads((folder / "model" / "manifest.json").read_text())["info"]
               ["sample_unrequested"])


def _whole_and_in_parts(app: Callable[..., Iterable[bytes]], tmp_path: Path,
                        parts: int) -> None:
    """The job over `app` run whole in tmp_path/whole, and in tmp_path/parts stopped after
    every 3 requests `parts` times, then run to its end."""
    with serve_wsgi(app) as base:
        _job(base, tmp_path / "whole").run()
        for _ in range(parts):
            crawl = _job(base, tmp_path / "parts")

            def stop(stats: Any, crawl: Crawl = crawl) -> None:
                if stats.requests >= 3:
                    crawl.request_stop("test")
            crawl.on_progress = stop
            assert crawl.run().stop_reason == "test"
        _job(base, tmp_path / "parts").run()


@pytest.mark.slow
def test_a_crawl_stopped_around_the_widening_resumes_as_if_it_had_not_stopped(
        tmp_path: Path) -> None:
    """Stopped every 3 requests through the sample (it widens after 10 pages) and after the
    fit, and resumed:
    the replay widens where the run did, and the crawl fetches the same URLs in the same
    order, with the same model."""
    _whole_and_in_parts(wiki, tmp_path, 10)   # 30 requests: the sample is 17 pages and more
    assert _sample_of(tmp_path / "parts") == _sample_of(tmp_path / "whole")
    assert (tmp_path / "parts/model/manifest.json").read_bytes() == \
        (tmp_path / "whole/model/manifest.json").read_bytes()


def robots_wiki(environ: dict[str, Any], start: Callable[..., Any]) -> Iterable[bytes]:
    """The wiki, with a robots.txt that keeps crawlers off its special pages (the log-in
    form), as a real Misago keeps them off its profiles and search."""
    if environ["PATH_INFO"] == "/robots.txt":
        start("200 OK", [("Content-Type", "text/plain")])
        return [b"User-agent: *\nDisallow: /index.php?title=Special:\n"]
    return wiki(environ, start)


@pytest.mark.slow
def test_a_sample_request_robots_txt_disallows_is_not_waited_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sampler draws a log-in link that robots.txt disallows; the loop skips it when
    popped and tells the strategy (`Strategy.precluded`). Before 2026-11-28 it was not told:
    the sample waited for that request for ever, was never widened, took every link
    deferred while sampling, and the crawl ended without a harvest."""
    from archiver.strategies.source import SourceStrategy

    with serve_wsgi(robots_wiki) as base:
        _job(base, tmp_path / "told").run()
        monkeypatch.setattr(SourceStrategy, "precluded", lambda self, url: None)
        _job(base, tmp_path / "untold").run()
    sample, fetched = _sample_of(tmp_path / "told")
    assert sample < 30 < len(fetched)            # a short sample, widened, then a harvest
    assert not any("Special:" in u for u in fetched)
    with sqlite3.connect(tmp_path / "told" / "crawl.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM event WHERE message LIKE 'sample widened%'"
                          ).fetchone()[0] >= 1
        assert db.execute("SELECT count(*) FROM url WHERE reason = 'robots'").fetchone()[0]
    assert _unrequested(tmp_path / "told") == 0
    sample, fetched = _sample_of(tmp_path / "untold")
    assert sample == len(fetched)                # the whole crawl was the sample
    assert _unrequested(tmp_path / "untold") > 10


@pytest.mark.slow
def test_a_crawl_stopped_after_a_robots_skip_resumes_as_if_it_had_not_stopped(
        tmp_path: Path) -> None:
    """The replay tells the strategy again of the URLs robots.txt precluded."""
    _whole_and_in_parts(robots_wiki, tmp_path, 6)
    assert _sample_of(tmp_path / "parts") == _sample_of(tmp_path / "whole")


N_TOPICS = 30


def spelled_forum(environ: dict[str, Any], start: Callable[..., Any]) -> Iterable[bytes]:
    """A home page listing N_TOPICS topics as ``/topic?id=N&page=1``; each topic links the
    next as ``/topic?page=1&id=N+1``: one canonical URL (`archiver.urls.canonicalize` sorts
    the query), spelled two ways, as a real DokuWiki's media manager orders its parameters
    differently from page to page."""
    query = parse_qs(environ.get("QUERY_STRING", ""))
    start("200 OK", [("Content-Type", "text/html; charset=utf-8")])
    if environ["PATH_INFO"] == "/topic" and query.get("id", [""])[0].isdigit():
        n = int(query["id"][0])
        body = (f"<h1>Topic {n}</h1>" + "".join(
                    f'<div class="post"><p>{_text(100 * n + k, 30)}</p></div>' for k in range(3))
                + f'<a class="next" href="/topic?page=1&amp;id={(n + 1) % N_TOPICS}">next</a>'
                + '<a class="home" href="/">home</a>')
    else:
        body = "<ul>" + "".join(f'<li><a class="t" href="/topic?id={i}&amp;page=1">T{i}</a></li>'
                                for i in range(N_TOPICS)) + "</ul>"
    return [f"<html><head><title>t</title></head><body>{body}</body></html>".encode()]


@pytest.mark.slow
def test_a_sample_request_fetched_under_another_spelling_is_not_waited_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sampler requests the next topic as the topic page spells it; the frontier holds
    it as the home page spelled it, and fetches it so. The loop tells the strategy
    (`Strategy.respelled`): the fetch is the request's destination, the next-topic Apath
    settles, and the sample ends. Untold (as before 2026-11-28), every such request stayed
    pending: the sample never ended and the whole crawl was the sample."""
    from archiver.strategies.source import SourceStrategy

    with serve_wsgi(spelled_forum) as base:
        _job(base, tmp_path / "told").run()
        monkeypatch.setattr(SourceStrategy, "respelled", lambda self, url, stored: None)
        _job(base, tmp_path / "untold").run()
    sample, fetched = _sample_of(tmp_path / "told")
    assert sample < 20 and len(fetched) == N_TOPICS + 3   # robots.txt, the seed, /, topics
    assert _unrequested(tmp_path / "told") == 0
    sample, fetched = _sample_of(tmp_path / "untold")
    assert sample == len(fetched) == N_TOPICS + 3
    assert _unrequested(tmp_path / "untold") > 10          # deferred links, in their order


@pytest.mark.slow
def test_a_crawl_stopped_after_a_respelled_request_resumes_as_if_it_had_not_stopped(
        tmp_path: Path) -> None:
    """The replay tells the strategy again of the links fetched under another spelling."""
    _whole_and_in_parts(spelled_forum, tmp_path, 4)
    assert _sample_of(tmp_path / "parts") == _sample_of(tmp_path / "whole")


def walled_forum(environ: dict[str, Any], start: Callable[..., Any]) -> Iterable[bytes]:
    """A home page listing N_TOPICS topics; each topic links its reply form (a log-in
    form, one structure: that Apath settles after 2·min_pts requests), the next topic, and
    a sidebar without classes holding the home page and the topic's talk page (a held
    group). The sample's last pending request is a reply link chosen before its Apath
    settled, let go of when popped (`Strategy.defer`): the sample is then widened with talk
    pages, as a real Ghost's and Spirit's samples ended on a deferral."""
    query, path = parse_qs(environ.get("QUERY_STRING", "")), environ["PATH_INFO"]
    start("200 OK", [("Content-Type", "text/html; charset=utf-8")])
    if path == "/reply":
        body = '<form class="login"><input name="user"><input name="password"></form>'
    elif path.startswith("/talk/") and path[6:-1].isdigit():
        body = "<table><tr><td>" + "".join(
            f'<div class="comment"><p>{_text(1000 * int(path[6:-1]) + c, 25)}</p></div>'
            for c in range(3)) + "</td></tr></table>"
    elif path == "/topic" and query.get("id", [""])[0].isdigit():
        n = int(query["id"][0])
        body = (f"<h1>Topic {n}</h1>" + "".join(
                    f'<div class="post"><p>{_text(100 * n + k, 30)}</p></div>' for k in range(3))
                + f'<a class="reply" href="/reply?id={n}">reply</a>'
                + f'<a class="next" href="/topic?id={(n + 1) % N_TOPICS}">next</a>'
                + '<a class="home" href="/">home</a><ul id="side"><li><a href="/">Home</a>'
                + f'</li><li><a href="/talk/{n}/">Talk</a></li></ul>')
    else:
        body = "<ul>" + "".join(f'<li><a class="t" href="/topic?id={i}">T{i}</a></li>'
                                for i in range(N_TOPICS)) + "</ul>"
    return [f"<html><head><title>t</title></head><body>{body}</body></html>".encode()]


@pytest.mark.slow
def test_a_sample_whose_last_request_is_let_go_of_is_widened_there(tmp_path: Path) -> None:
    """The deferral of the sample's last pending request widens it at once: the next fetch
    is a talk page the widening requested. Until 2026-11-28 the loop fetched the next URL
    queued first, a link deferred while sampling, as a sample page the sampler never
    requested, and widened only then."""
    with serve_wsgi(walled_forum) as base:
        _job(base, tmp_path).run()
    sample, fetched = _sample_of(tmp_path)
    with sqlite3.connect(tmp_path / "crawl.sqlite3") as db:
        drops = db.execute("SELECT d.kind, d.after_fetch, u.url FROM sample_drop d"
                           " JOIN url u ON u.id = d.url_id").fetchall()
        widened = db.execute("SELECT count(*) FROM event WHERE message LIKE 'sample widened%'"
                             ).fetchone()[0]
    [(kind, after, url)] = drops
    assert kind == "deferred" and "/reply?" in url and widened == 1
    talk = [u for u in fetched[after:sample] if "/talk/" in u]
    assert len(talk) == sample - after == 4      # min_pts talk pages, and nothing else
    assert _unrequested(tmp_path) == 0


@pytest.mark.slow
def test_learning_alone_fetches_nothing_after_a_sample_that_ends_on_a_deferral(
        tmp_path: Path) -> None:
    """`archiver learn` (`run_learning`) stops once the model is fitted, also when the
    fit follows a deferral, not a fetch (here unwidened): nothing of the harvest is
    fetched."""
    from archiver.crawl import run_learning

    with serve_wsgi(walled_forum) as base:
        assert run_learning(_job(base, tmp_path, widen=False).profile).stop_reason == "learned"
    sample, fetched = _sample_of(tmp_path)
    with sqlite3.connect(tmp_path / "crawl.sqlite3") as db:
        [(after,)] = db.execute("SELECT after_fetch FROM sample_drop").fetchall()
    assert sample == after == len(fetched)


@pytest.mark.slow
def test_a_crawl_stopped_after_a_deferral_resumes_as_if_it_had_not_stopped(
        tmp_path: Path) -> None:
    """The replay tells the strategy of each deferral between the same two fetches as the
    run did (`sample_drop`). Told after all the fetches (as until 2026-11-28), a run that
    stopped between the deferral and the widened sample's end replayed the talk pages as
    pages the sampler never requested, and its model differed."""
    _whole_and_in_parts(walled_forum, tmp_path, 10)   # the deferral is after fetch 20
    assert _sample_of(tmp_path / "parts") == _sample_of(tmp_path / "whole")
    assert (tmp_path / "parts/model/manifest.json").read_bytes() == \
        (tmp_path / "whole/model/manifest.json").read_bytes()
    assert _unrequested(tmp_path / "parts") == 0


@pytest.mark.slow
def test_a_job_whose_drops_were_not_recorded_is_still_told_of_them(tmp_path: Path) -> None:
    """A job stopped while learning by an archiver that did not record its drops
    (`sample_drop`, rows deleted here) is told of them after the replay's fetches, as
    before: the resumed sample does not wait for the URLs robots.txt disallows."""
    folder = tmp_path / "job"
    with serve_wsgi(robots_wiki) as base:
        for _ in range(60):
            # stopped after every fetch; the sample's draws with random_state 1 ask for a
            # log-in link before its last talk page (with 0, its last request is one)
            crawl = _job(base, folder, random_state=1)

            def stop(stats: Any, crawl: Crawl = crawl) -> None:
                if stats.requests >= 1:
                    crawl.request_stop("test")
            crawl.on_progress = stop
            crawl.run()
            with sqlite3.connect(folder / "crawl.sqlite3") as db:
                if db.execute("SELECT count(*) FROM sample_drop").fetchone()[0]:
                    db.execute("DELETE FROM sample_drop")
                    break
        else:
            pytest.fail("no robots.txt skip while learning")
        assert _sample_of(folder)[0] is None           # still learning
        _job(base, folder, random_state=1).run()
    sample, fetched = _sample_of(folder)
    assert sample < 30 < len(fetched)
