"""The site zoo: determinism, ground truth against the served pages, manifest consistency,
traps (soft-404 growth, calendars, session ids), redirects, robots.txt, gzip and chunking."""

from __future__ import annotations

import gzip
import http.client
import itertools
import json
import random
import re
import time
from collections import Counter, deque
from urllib.parse import urljoin, urlsplit

import lxml.html
import pytest
import requests

from archiver.zoo import FAMILIES, PageTruth, make_site, serve
from archiver.zoo.site import normalize

SITES = [(f, v) for f in FAMILIES for v in (0, 1)]
HOST = "zoo.invalid"

# What a page of each type must contain (family-independent where markup differs by skin).
MARKERS = {
    "topic": r'class="post has-profile|id="post_message_\d+"',
    "board": r'topiclist topics|id="threadslist"',
    "index": r'class="forabg"|collapseobj_forumbit',
    "profile": r"Viewing profile|main_userinfo|person-profile",
    "print": r"Powered by phpBB|Printable Version|printfooter",
    "login": r"(?i)log ?in|sign ?up",
    "register": r"(?i)register",
    "memberlist": r'memberlist_table',
    "faq": r"(?i)frequently asked",
    "feed": r"<feed|<rss",
    "search": r"(?i)search|s-post-summary|qa-q-list-item|photo-list|photo_card|<ul",
    "soft404": r"(?i)not exist|not found|moved|no longer|no file|nothing here",
    "post": r'class="entry-content"',
    "home": r"entry-summary|s-post-summary|qa-q-list-item|photo-list-photo-view|photo_card",
    "archive": r"entry-summary|Nothing Found",
    "author": r"entry-summary",
    "calendar": r"Nothing Found",
    "page": r'class="entry-content"',
    "question": r"js-post-body|qa-q-view-content",
    "questions": r"s-post-summary|qa-q-list-item",
    "tag": r"s-post-summary|qa-q-list-item",
    "tags": r"tags-browser|tag-cloud",
    "user": r"user-card|Hello, I am",
    "users": r"user-browser",
    "user_activity": r"user-posts",
    "revisions": r'class="revision"',
    "detail": r"photo-page-scrappy-view|photo_focus",
    "list": r"photo-list-photo-view|photo_card|photo-list-view",
    "sizes": r"sizes-view",
    "sets": r"album-list",
    "contacts": r"contact-list",
    "article": r"mw-parser-output",
    "talk": r"mw-headline",
    "history": r'id="pagehistory"',
    "revision": r"mw-revision-info",
    "diff": r"diff-addedline",
    "edit": r'id="editform"',
    "special": r"<ul",
    "category": r'id="mw-pages"',
    "main": r'id="mp-tfa"',
    "robots": r"User-agent: \*",
    "asset": r"\S",
    "error": r"(?i)error|not found|does not have|removed|not here|broke|wrong",
}


def fresh(family: str, variant: int = 0, size: str | int = "small", seed: int = 0):
    """A newly built site (make_site caches; determinism needs two independent builds)."""
    from archiver.zoo import _make
    return _make.__wrapped__(family, variant, size, seed)


@pytest.fixture(scope="module")
def served():
    """Every family x variant (small) served on loopback, built once for the module."""
    servers = {key: serve(make_site(*key, size="small")) for key in SITES}
    yield servers
    for s in servers.values():
        s.close()


def test_api_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown zoo family"):
        make_site("gallery")
    with pytest.raises(ValueError, match="variant"):
        make_site("forum", variant=2)
    with pytest.raises(ValueError, match="size"):
        make_site("forum", size="huge")


@pytest.mark.parametrize(("family", "variant"), SITES)
def test_small_sites_build_quickly_with_a_realistic_mix(family, variant):
    start = time.perf_counter()
    site = fresh(family, variant, "small")
    elapsed = time.perf_counter() - start
    assert elapsed < 2.0          # ~0.05-0.2 s on an idle machine; generous for loaded CI
    assert (site.family, site.variant) == (family, variant)
    counts = site.manifest(with_digest=False)["counts"]
    assert 300 <= counts["urls"] <= 1500
    assert counts["ucc_valid"] >= 50
    assert set(counts["by_valid"]) == {"valid", "duplicate", "invalid"}
    by_status = counts["by_status"]
    assert by_status["200"] > 0 and by_status.get("404", 0) >= 1 and by_status.get("500", 0) >= 1
    assert by_status.get("301", 0) + by_status.get("302", 0) >= 1


@pytest.mark.parametrize("family", FAMILIES)
def test_same_seed_same_digest_other_seed_other_digest(family):
    a, b = fresh(family, 0, "demo", seed=3), fresh(family, 0, "demo", seed=3)
    assert a.digest() == b.digest()
    assert list(a.urls()) == list(b.urls())
    if family == "forum":
        assert fresh(family, 0, "demo", seed=4).digest() != a.digest()
        assert fresh(family, 1, "demo", seed=3).digest() != a.digest()


def test_demo_forum_is_small_and_fast():
    site = make_site("forum", 0, "demo")
    n = site.manifest(with_digest=False)["counts"]["urls"]
    assert 200 <= n <= 600
    start = time.perf_counter()
    for url in list(site.urls())[:100]:
        site.respond(url)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize(("family", "variant"), SITES)
def test_manifest_is_json_and_agrees_with_truth(family, variant):
    site = make_site(family, variant, "small")
    manifest = json.loads(json.dumps(site.manifest(with_digest=False)))
    assert manifest["family"] == family and manifest["variant"] == variant
    assert manifest["seeds"] == site.seeds()
    urls = manifest["urls"]
    assert len(urls) == manifest["counts"]["urls"]
    for url, entry in urls.items():
        truth = site.truth(url)
        assert truth is not None, url
        assert truth.to_dict() == entry, url
    assert sum(manifest["counts"]["by_type"].values()) == len(urls)
    for target in manifest["target_types"].values():
        assert all(t in manifest["counts"]["by_type"] for t in target)
    ucc_valid = [t for t in map(site.truth, urls) if t and t.ucc and t.valid == "valid"]
    assert len({t.entity for t in ucc_valid}) == len(ucc_valid)   # one canonical URL each


@pytest.mark.parametrize(("family", "variant"), SITES)
def test_sampled_urls_per_type_match_the_served_page(served, family, variant):
    site = make_site(family, variant, "small")
    base = served[(family, variant)].url
    by_type: dict[str, list[str]] = {}
    for url in site.urls():
        t = site.truth(url)
        assert t is not None
        by_type.setdefault(t.page_type if t.status == 200 else str(t.status), []).append(url)
    rng = random.Random(7)
    session = requests.Session()
    for kind, urls in sorted(by_type.items()):
        for url in rng.sample(urls, min(3, len(urls))):
            truth = site.truth(url)
            assert truth is not None
            resp = session.get(base + url, allow_redirects=False, timeout=10)
            assert resp.status_code == truth.status, url
            if truth.location is not None:
                location = truth.location.replace("{base}", base)
                assert urljoin(base + url, resp.headers["Location"]) == urljoin(base + url,
                                                                                location)
                continue
            marker = MARKERS["error" if truth.status >= 400 else truth.page_type]
            assert re.search(marker, resp.text), (url, truth.page_type)
            if truth.valid == "duplicate" and truth.canonical and kind in ("topic", "detail"):
                assert truth.entity == site.truth(truth.canonical).entity  # type: ignore


def _links(body: bytes, base: str) -> list[str]:
    tree = lxml.html.document_fromstring(body)
    found = tree.find(".//base[@href]")
    if found is not None:
        base = urljoin(base, found.get("href"))
    out = []
    for el in tree.iter("a", "img", "script", "link"):
        href = el.get("href") or el.get("src")
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        if el.tag == "link" and "stylesheet" not in (el.get("rel") or ""):
            continue
        out.append(urljoin(base, href))
    return out


@pytest.mark.parametrize(("family", "variant"), SITES)
def test_links_and_registered_urls_agree(family, variant):
    """Crawl the site in-process from its seeds: every internal link resolves to a known URL
    (or a trap the site answers dynamically), and every registered URL is reachable."""
    site = make_site(family, variant, "demo")
    seen = set(site.seeds())
    queue = deque(site.seeds())
    unknown, dynamic = [], Counter()
    while queue:
        target = queue.popleft()
        resp = site.respond(target)
        headers = dict(resp.headers)
        page = f"http://{HOST}{target}"
        if "Location" in headers:
            links = [urljoin(page, headers["Location"].replace("{base}", ""))]
        elif "html" in headers["Content-Type"] and resp.body.strip():
            links = _links(resp.body, page)
        else:
            links = []
        for url in links:
            parts = urlsplit(url)
            if parts.netloc != HOST:
                continue
            path = (parts.path or "/") + ("?" + parts.query if parts.query else "")
            if path in seen:
                continue
            seen.add(path)
            route = site.route(path)
            if route is None:
                unknown.append((target, path))
            elif normalize(path) not in site._routes:
                dynamic[route.truth.page_type] += 1     # a trap: do not follow it further
            else:
                queue.append(path)
    assert not unknown
    assert set(dynamic) <= {"calendar", "soft404"}
    reached = {normalize(p) for p in seen}
    assert [r.link for k, r in site._routes.items() if k not in reached] == ["/robots.txt"]


@pytest.mark.parametrize(("family", "variant"), SITES)
def test_soft404_corner_grows(served, family, variant):
    site = make_site(family, variant, "small")
    base = served[(family, variant)].url
    entry = next(u for u in site.urls() if site.truth(u).page_type == "soft404")  # type: ignore
    url = base + entry
    for _ in range(3):
        resp = requests.get(url, timeout=10)
        assert resp.status_code == 200
        path = urlsplit(url).path
        truth = site.truth(path)
        assert truth == PageTruth("soft404", False, "invalid", None, 200)
        relative = [h for h in re.findall(r'href="([^"]+)"', resp.text)
                    if not h.startswith(("/", "http", "#", "."))]
        assert relative, resp.text
        nxt = urljoin(url, relative[0])
        assert len(urlsplit(nxt).path) > len(path)
        url = nxt
    assert site.truth("/no/such/page") is None
    assert requests.get(base + "/no/such/page", timeout=10).status_code == 404


def test_login_redirects_relative_absolute_and_external(served):
    site = make_site("forum", 0, "small")
    base = served[("forum", 0)].url
    redirects = {u: site.truth(u) for u in site.urls() if site.truth(u).location}  # type: ignore
    locations = [t.location for t in redirects.values() if t]
    assert any(loc.startswith("./") for loc in locations)        # relative
    assert any(loc.startswith("{base}/") for loc in locations)   # absolute
    reply = next(u for u in redirects if u.startswith("/posting.php?mode=reply"))
    resp = requests.get(base + reply, timeout=10)   # followed on loopback
    assert resp.status_code == 200 and resp.history[0].status_code == 302
    assert site.truth(urlsplit(resp.url).path + "?" + urlsplit(resp.url).query).page_type == "login"
    sso = next(u for u, t in redirects.items() if t and "sso.example.net" in (t.location or ""))
    resp = requests.get(base + sso, allow_redirects=False, timeout=10)
    assert resp.status_code == 302
    assert urlsplit(resp.headers["Location"]).hostname == "sso.example.net"
    moved = [t for t in map(make_site("forum", 1, "small").truth,
                            make_site("forum", 1, "small").urls()) if t and t.status == 301]
    assert moved and all(t.valid == "duplicate" and t.entity for t in moved)


@pytest.mark.parametrize(("family", "variant"), SITES)
def test_robots_txt_and_disallowed_truth(served, family, variant):
    site = make_site(family, variant, "small")
    text = requests.get(served[(family, variant)].url + "/robots.txt", timeout=10).text
    rules = re.findall(r"^Disallow: (\S+)$", text, re.M)
    assert rules and tuple(rules) == site.robots_disallow
    disallowed = [u for u in site.urls() if site.truth(u).disallowed]  # type: ignore
    assert disallowed and all(any(u.startswith(r) for r in rules) for u in disallowed)


def test_gzip_on_variant_one_only(served):
    for variant in (0, 1):
        site = make_site("blog", variant, "small")
        url = served[("blog", variant)].url + "/"
        raw = requests.get(url, headers={"Accept-Encoding": "gzip"}, stream=True, timeout=10)
        body = raw.raw.read()
        if variant:
            assert raw.headers["Content-Encoding"] == "gzip"
            body = gzip.decompress(body)
        else:
            assert "Content-Encoding" not in raw.headers
        assert body == site.respond("/").body


def test_chunked_responses_and_keep_alive(served):
    site = make_site("forum", 1, "small")
    chunked = next(r.link for r in site._routes.values() if r.chunked)
    port = served[("forum", 1)].port
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", chunked)
    resp = conn.getresponse()
    assert resp.getheader("Transfer-Encoding") == "chunked"
    assert resp.read() == site.respond(chunked, host=f"127.0.0.1:{port}").body
    conn.request("GET", "/")      # same connection: HTTP/1.1 keep-alive
    assert conn.getresponse().status == 200
    conn.close()


def test_wsgi_entry_point():
    from wsgiref.util import setup_testing_defaults
    site = make_site("forum", 0, "demo")
    environ: dict = {"PATH_INFO": "/viewforum.php", "QUERY_STRING": "f=2"}
    setup_testing_defaults(environ)
    status: list[str] = []
    body = b"".join(site(environ, lambda s, h: status.append(s)))
    assert status == ["200 OK"] and b"topiclist topics" in body


def test_session_ids_and_calendar_are_unbounded_duplicates():
    forum = make_site("forum", 0, "small")
    topic = next(u for u in forum.urls() if forum.truth(u).page_type == "topic")  # type: ignore
    canon = forum.truth(topic)
    variant = forum.truth(topic + "&sid=0123456789abcdef0123456789abcdef")
    assert variant is not None and variant.valid == "duplicate"
    assert variant.entity == canon.entity                         # type: ignore[union-attr]
    assert forum.respond(topic + "&sid=ffff").body == forum.respond(topic).body
    blog = make_site("blog", 0, "small")
    far = blog.truth("/1984/07/")
    assert far is not None and far.page_type == "calendar" and far.valid == "invalid"
    assert {t["kind"] for t in blog.traps()} >= {"calendar", "soft404"}
    assert make_site("blog", 1, "small").truth("/?m=203012").page_type == "calendar"  # type: ignore


def test_media_items_follow_uploader_interests():
    site = make_site("media", 0, "small")
    users = site.users  # type: ignore[attr-defined]
    items = site.items  # type: ignore[attr-defined]
    on_topic = sum(items[i].topic in users[items[i].owner].interests for i in items)
    assert on_topic / len(items) > 0.75
    detail = next(u for u in site.urls() if site.truth(u).page_type == "detail")  # type: ignore
    truth = site.truth(detail)
    assert truth and truth.topics and truth.tags and truth.topics[0] in truth.tags
    body = site.respond(detail).body.decode()
    assert all(f">{tag}<" in body for tag in truth.tags)
    profile = next(u for u in site.urls() if site.truth(u).page_type == "profile")  # type: ignore
    assert site.truth(profile).topics  # type: ignore[union-attr]


def test_content_text_is_diverse():
    site = make_site("forum", 0, "small")
    pages = [u for u in site.urls() if site.truth(u).page_type == "topic"][:30]  # type: ignore
    words: list[str] = []
    sizes = []
    for url in pages:
        tree = lxml.html.document_fromstring(site.respond(url).body)
        text = " ".join(tree.xpath('//div[@class="content"]//text()')).split()
        sizes.append(len(text))
        words += text
    bigrams = list(itertools.pairwise(words))
    assert len(set(words)) > 400
    assert len(set(bigrams)) / len(bigrams) > 0.5
    assert max(sizes) > 3 * min(sizes)            # pages of one type differ a lot in length


def test_one_very_large_page():
    site = make_site("forum", 0, "small")
    sizes = sorted(len(site.respond(u).body) for u in site.urls()
                   if site.truth(u).page_type == "print")  # type: ignore[union-attr]
    assert sizes[-1] > 100_000 and sizes[-1] > 5 * sizes[len(sizes) // 2]


def test_client_hang_ups_are_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with serve(make_site("forum", 0, "demo")) as site:
        server = site._server
        for hang_up in (ConnectionResetError(104, "reset by peer"), BrokenPipeError(32, "pipe")):
            try:
                raise hang_up
            except OSError:
                server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("a bug in a page")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))   # other errors keep their traceback
        assert "ValueError: a bug in a page" in capsys.readouterr().err
