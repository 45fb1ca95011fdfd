"""source-ucc on a wiki that names every action in one query parameter, as a DokuWiki does
(``doku.php?id=X&do=login``): the modes of the query (`SiteSampler.mode_kind`,
`DuplicateRates.modes`).

On a real DokuWiki (benchmarks/results/realsite-dokuwiki.md) the login, register, edit and
revision views of every page shared the URL kind ``/*?do&id`` with the index view (a
sitemap) and with the page shown again by an empty ``do=``: a kind that was neither barren
nor all noindex, so the sample kept fetching login forms and the harvest could not set them
aside. The site here has the same shape, small.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from archiver.crawl import Crawl
from tests.servers import html_or_404, serve_wsgi
from tests.test_learning_discovery import WORDS
from tests.test_source_strategy import _profile

N_PAGES = 150
NOINDEX = '<meta name="robots" content="noindex,nofollow">'
FORMS = ("login", "register", "resendpwd", "edit")

StartResponse = Callable[..., Any]


class ActionWiki:
    """Pages /doku.php?id=pN with text and two lists of links to three other pages; each
    page's tools (one anchor path, as a MediaWiki's tabs) link its login form, edit form and
    revision list (noindex), its index view (noindex, every page) and the page again (do=,
    indexable); the login form links the register and password forms (noindex)."""

    def __init__(self, seed: int = 0) -> None:
        rng = random.Random(seed)
        self.body = [self._article(rng) for _ in range(N_PAGES)]
        self.hits: Counter[str] = Counter()     # do= action ("view" without one) → fetches
        self.viewed: set[str] = set()           # pages shown, with or without an empty do=

    @staticmethod
    def _article(rng: random.Random) -> str:
        """Sections of paragraphs, lists and tables, as many as the author wrote: articles
        differ in structure (SOUrCe's DSim)."""
        def words(n: int) -> str:
            return " ".join(rng.choice(WORDS) for _ in range(n))

        out = []
        for _ in range(rng.randint(1, 5)):
            out.append(f"<h2>{words(3)}</h2>")
            out += [f"<p>{words(rng.randint(20, 60))}</p>" for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.4:
                out.append("<ul>" + "".join(f"<li>{words(6)}</li>"
                                            for _ in range(rng.randint(2, 6))) + "</ul>")
            if rng.random() < 0.3:
                out.append("<table>" + "".join(f"<tr><td>{words(2)}</td><td>{words(3)}</td>"
                                               "</tr>" for _ in range(rng.randint(2, 5)))
                           + "</table>")
        return "".join(out)

    def content(self) -> set[str]:
        return {f"p{i}" for i in range(N_PAGES)}

    def _page(self, page: str, title: str, body: str, noindex: bool) -> bytes:
        tools = "".join(f'<li><a href="/doku.php?id={page}&do={a}">{a or "show"}</a></li>'
                        for a in ("", "edit", "revisions", "index", "login"))
        return (f"<!DOCTYPE html><html><head><title>{title}</title>"
                f"{NOINDEX if noindex else ''}</head><body><div id=\"tools\"><ul>{tools}</ul>"
                f'</div><div id="main"><h1>{title}</h1>{body}</div>'
                "<p>Content on this wiki is licensed under a free license.</p></body></html>"
                ).encode()

    def render(self, query: dict[str, list[str]]) -> bytes | None:
        page = query.get("id", ["p0"])[0]
        action = query.get("do", [""])[0]
        if not page.startswith("p") or not page[1:].isdigit() or int(page[1:]) >= N_PAGES:
            return None
        n = int(page[1:])
        if action == "":
            see, back = ("".join(f'<a class="{c}" href="/doku.php?id=p{(n + k) % N_PAGES}">'
                                 f"page {(n + k) % N_PAGES}</a> " for k in ks)
                         for c, ks in (("see", (n + 1, n + 2, n + 3)),
                                       ("back", (N_PAGES - 3, 50, 77))))
            body = self.body[n] + f"<p>{see}</p><p>{back}</p>"
            return self._page(page, f"Page {n}", body, noindex=False)
        if action == "index":
            body = "".join(f'<li><a class="wikilink1" href="/doku.php?id=p{i}">page {i}</a></li>'
                           for i in range(N_PAGES))
            return self._page(page, "Sitemap", f"<ul>{body}</ul>", noindex=True)
        if action == "revisions":
            return self._page(page, f"Page {n}: old revisions",
                              f"<p>{n % 5 + 1} revisions</p>", noindex=True)
        if action in FORMS:
            more = "".join(f'<a class="{a}" href="/doku.php?id={page}&do={a}">{a}</a> '
                           for a in ("register", "resendpwd")) if action == "login" else ""
            return self._page(page, action, f"<form><input name=u></form>{more}", noindex=True)
        return None

    def __call__(self, environ: dict[str, Any], start: StartResponse) -> Iterable[bytes]:
        query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        body = self.render(query) if environ.get("PATH_INFO") == "/doku.php" else None
        if body is not None:
            action = query.get("do", ["view"])[0]
            self.hits[action] += 1
            if action in ("", "view"):
                self.viewed.add(query.get("id", ["p0"])[0])
        return html_or_404(start, body)


@pytest.fixture()
def wiki() -> Iterator[tuple[ActionWiki, str]]:
    site = ActionWiki()
    with serve_wsgi(site) as url:
        yield site, url


def _crawl(site: ActionWiki, url: str, folder: Path, **params: Any) -> dict[str, Any]:
    profile = _profile("source-ucc", folder, [url + "/doku.php?id=p0"], 2000,
                       params=params)
    Crawl(profile).run()
    return dict(json.loads((folder / "model" / "manifest.json").read_text())["info"])


@pytest.mark.slow
def test_the_actions_of_a_wiki_are_kinds_of_their_own(
        wiki: tuple[ActionWiki, str], tmp_path: Path) -> None:
    """Every page is fetched either way. With the query's modes the login, edit and
    revision forms close in the sample and the harvest has their own noindex rates: the
    crawl fetched 25 forms (59 with `query_modes: false`), 5 login forms (14). The sample,
    no longer spent on them, spent more on the index and do= views (31 and 29, 13 and 11
    without): the crawl is no shorter (235 requests, 233 without)."""
    site, url = wiki
    on = _crawl(site, url, tmp_path / "on")
    on_hits, on_viewed = dict(site.hits), set(site.viewed)
    site.hits.clear()
    site.viewed.clear()
    off = _crawl(site, url, tmp_path / "off", query_modes=False)
    off_hits = dict(site.hits)
    assert on_viewed == site.viewed == site.content()
    assert {"/*?do=login&id", "/*?do=edit&id"} <= set(on["closed_kinds"])
    assert not any("=" in kind for kind in off["closed_kinds"])
    assert set(on["query_modes"]["do"]) >= {"login", "edit", "index", "revisions"}
    assert off["query_modes"] == {}
    forms = ("login", "register", "resendpwd", "edit", "revisions")
    on_forms, off_forms = (sum(hits.get(a, 0) for a in forms) for hits in (on_hits, off_hits))
    assert 2 * on_forms < off_forms, (on_hits, off_hits)
    assert on_hits["login"] <= 6 < off_hits["login"], (on_hits, off_hits)
