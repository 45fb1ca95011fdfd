"""A real MediaWiki (Debian's package, 1.39) on 127.0.0.1 with generated content.

The crawler is measured here on a real CMS instead of the synthetic zoo: the wiki keeps its
whole default URL space (edit, history, diffs, action=info, printable, Special:RecentChanges
with its filter links, WhatLinksHere, login, ...), which is what a crawler must learn to skip.

    build(folder)       fresh wiki in folder: SQLite database, own LocalSettings.php, content
                        imported from a generated XML dump (deterministic for n_articles, seed)
    serve(folder)       `php -S` on a free port; yields the seed URL (the Main Page)
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every existing page of a type in UCC_TYPES

Needs the Debian packages `mediawiki php-cli php-sqlite3` (installed with
--no-install-recommends; they pull php-intl, php-mbstring and php-xml). The code is
/usr/share/mediawiki, used as is: MW_CONFIG_FILE points it at the instance's LocalSettings.php.
The server answers GET and HEAD only (a router refuses other methods with 405), runs no jobs
on requests and loads nothing from outside, so crawling cannot change the wiki.
Revision dates are relative to the build time (RecentChanges shows the last days only), so a
build older than STALE_DAYS is redone rather than reused.

    python -m benchmarks.realsite.mediawiki /tmp/mediawiki-bench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import shutil
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit
from xml.sax.saxutils import escape

import requests

from benchmarks.realsite.php import (
    php_server,
    print_link_types,
    reuse_or_clear,
    run_php,
    same_host_links,
    smoke_build,
    smoke_fetch,
)

PACKAGES = "mediawiki php-cli php-sqlite3"
CODE = Path("/usr/share/mediawiki")
SITENAME = "Realwiki"
VERSION = 1  # of the generator; part of the reuse marker
STALE_DAYS = 14
UCC_TYPES = {"article", "talk", "user", "user_talk", "category"}
SAME_TEMPLATE: dict[str, str] = {}  # every type has a layout of its own (clustering by template)
TARGET_TYPE = "article"  # source-target's example is an article
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("article", "talk", "user", "user_talk", "category", "history", "diff", "edit",
              "info", "special", "redirect", "printable", "file", "other")
DESCRIPTION = ("Debian MediaWiki 1.39, {size} generated articles "
               "(`benchmarks/realsite/mediawiki.py`)")
# user_talk is in: on a wiki, User talk pages hold signed discussion written by users, the same
# kind of content as Talk pages; an archivist leaving them out loses conversations.

NAMESPACE_TYPES = {0: "article", 1: "talk", 2: "user", 3: "user_talk", 14: "category"}
PREFIX_TYPES = {"special": "special", "talk": "talk", "user": "user", "user talk": "user_talk",
                "category": "category", "file": "file", "image": "file", "media": "file"}
ACTIONS = {"edit": "edit", "submit": "edit", "raw": "edit", "history": "history", "info": "info"}
OTHER_PREFIXES = {"file talk", "image talk", "mediawiki", "mediawiki talk", "template",
                  "template talk", "help", "help talk", "category talk", "project",
                  "project talk", SITENAME.lower(), f"{SITENAME.lower()} talk"}

SETTINGS = """
# ---- added by benchmarks/realsite/mediawiki.py ----
$wgServer = $wgCanonicalServer = getenv( 'MW_SERVER' ) ?: 'http://127.0.0.1';
$wgCacheDirectory = __DIR__ . '/cache';
$wgJobRunRate = 0;  # no job runs as a side effect of a request
$wgEnableEmail = $wgEnableUserEmail = $wgUseImageMagick = $wgAllowExternalImages = false;
$wgRCMaxAge = 120 * 86400;
$wgShowExceptionDetails = true;
"""
ROUTER = """<?php  // read-only front: only GET and HEAD reach MediaWiki
if ( in_array( $_SERVER['REQUEST_METHOD'], [ 'GET', 'HEAD' ], true ) ) { return false; }
http_response_code( 405 ); header( 'Allow: GET, HEAD' ); echo "read-only wiki\\n"; return true;
"""
HELPER = """<?php  // "users": create the accounts named on stdin; "pages": a JSON line per page
require_once getenv( 'MW_INSTALL_PATH' ) . '/maintenance/Maintenance.php';
class RealsiteHelper extends Maintenance {
  public function __construct() { parent::__construct(); $this->addArg( 'mode', 'users|pages' ); }
  public function execute() {
    if ( $this->getArg( 0 ) === 'users' ) {
      foreach ( file( 'php://stdin', FILE_IGNORE_NEW_LINES ) as $u ) { User::createNew( $u ); }
      return;
    }
    $fields = [ 'page_namespace', 'page_title', 'page_is_redirect' ];
    foreach ( $this->getDB( DB_REPLICA )->select( 'page', $fields ) as $row ) {
      $title = Title::makeTitle( $row->page_namespace, $row->page_title );
      echo json_encode( [ 'ns' => (int)$row->page_namespace, 'title' => $title->getPrefixedText(),
        'redirect' => (bool)$row->page_is_redirect, 'path' => $title->getLocalURL() ] ) . "\\n";
    }
  }
}
$maintClass = RealsiteHelper::class;
require_once RUN_MAINTENANCE_IF_MAIN;
"""
_WORDS = """the of and a to in is was for on as with by that from at which its it an were are
this be has had after first new other their also between during about into over two most town
river valley castle bridge road harbour market church library tower mill wall gate hill north
south east west old upper lower long small great early late century war treaty trade merchant
family council guild school festival railway station company founded built rebuilt destroyed
restored named known records local people settlers farmers stone timber iron wool grain salt
fish ships canal flood fire winter summer year decade village district region coast island"""
WORDS = _WORDS.split()
_SYLLABLES = "ka ro vel an dor mi sa len thi or bre us ta vin ga mor el ish nu pra lo ke"
SYLLABLES = _SYLLABLES.split()
NOUNS = {"River": "Rivers", "Valley": "Valleys", "Mountain": "Mountains", "Harbour": "Harbours",
         "Castle": "Castles", "Bridge": "Bridges", "Library": "Libraries",
         "Observatory": "Observatories", "Festival": "Festivals", "Company": "Companies",
         "Railway": "Railways"}
PARENTS = {"Geography": ["Rivers", "Valleys", "Mountains", "Harbours"],
           "Structures": ["Castles", "Bridges", "Libraries", "Observatories", "Railways"],
           "Society": ["Festivals", "Companies", "Battles"]}
SUMMARIES = ["expanded", "copyedit", "fix link", "+cat", "sources", "rewrite intro", "typo", ""]

# title, namespace, revisions oldest first: (user or IP, seconds before build, summary, minor, text)
Page = tuple[str, int, list[tuple[str, int, str, bool, str]]]


def _name(rng: random.Random, parts: int = 3) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, parts))).capitalize()


def _sentence(rng: random.Random, links: list[str]) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    if links and rng.random() < 0.6:
        target = rng.choice(links)
        words.insert(rng.randint(0, len(words)), f"[[{target}]]" if rng.random() < 0.7
                     else f"[[{target}|{rng.choice(WORDS)}]]")
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def _paragraph(rng: random.Random, links: list[str]) -> str:
    return " ".join(_sentence(rng, links) for _ in range(rng.randint(3, 6)))


def _heading(rng: random.Random) -> str:
    return f"\n\n== {rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} ==\n"


def _signature(user: str, ago: int, now: dt.datetime) -> str:
    stamp = (now - dt.timedelta(seconds=ago)).strftime("%H:%M, %-d %B %Y (UTC)")
    page = f"Special:Contributions/{user}" if user[0].isdigit() else f"User:{user}"
    return f"[[{page}|{user}]] ([[User talk:{user}|talk]]) {stamp}"


def generate(n_articles: int, seed: int, now: dt.datetime) -> tuple[list[str], list[Page]]:
    """The user names and the pages of the wiki for these parameters."""
    rng = random.Random(seed)
    users = sorted({_name(rng) + rng.choice(["", "", " " + _name(rng, 2), str(rng.randint(1, 99))])
                    for _ in range(40)})
    ips = [f"192.0.2.{rng.randint(2, 250)}" for _ in range(4)]  # documentation range
    editors = [*users, *users, *ips]  # mostly registered users
    titles: dict[str, str] = {}  # title -> its category
    while len(titles) < n_articles:
        base, noun = _name(rng), rng.choice([*NOUNS, "Battle"])
        title = rng.choice([f"{base} {noun}", f"{base} {noun}", f"{base}'s {noun}",
                            f"{base} ({noun.lower()})", f"{base}, {_name(rng)}"])
        title = f"Battle of {base}" if noun == "Battle" else title
        title = title.replace("o", "ö", 1) if rng.random() < 0.05 else title
        titles[title] = NOUNS.get(noun, "Battles")
    articles = list(titles)
    redirects = {}  # alias -> article; a lower-case alias must differ from the title itself
    for title in rng.sample(articles, n_articles // 20):
        alias = title[0] + title[1:].lower()
        redirects[alias if alias != title else f"The {title}"] = title
    linkable = [*articles, *redirects, *(f"Lost {_name(rng)}" for _ in range(n_articles // 10))]

    def page(title: str, ns: int, texts: list[str], authors: list[str], ago: int) -> Page:
        """texts[i] by authors[i % len(authors)], the first ago seconds ago; talk hourly."""
        revs = []
        for i, text in enumerate(texts):
            summary = "Created page" if i == 0 else rng.choice(SUMMARIES)
            revs.append((authors[i % len(authors)], ago, summary, rng.random() < 0.2, text))
            ago -= 3600 if ns in (1, 3) else rng.randint(3600, 4 * 86400)
        return title, ns, revs

    stub = "''This article is a stub.''<includeonly>[[Category:Stubs]]</includeonly>"
    pages = [page("Template:Stub", 10, [stub], ["Admin"], 99 * 86400),
             page("Category:Stubs", 14, ["Articles to expand."], ["Admin"], 99 * 86400)]
    for parent, children in PARENTS.items():
        for cat in [parent, *children]:
            up = f"\n[[Category:{parent}]]" if cat != parent else ""
            text = f"Pages about {cat.lower()}.\n\n{_paragraph(rng, [])}{up}"
            pages.append(page(f"Category:{cat}", 14, [text], [rng.choice(users)], 98 * 86400))
    for user in users:
        picks = "".join(f"\n* [[{t}]]" for t in rng.sample(articles, 4))
        text = (f"Hello, I am {user}. I mostly write about "
                f"[[:Category:{rng.choice(list(NOUNS.values()))}]].\n\n"
                f"== Pages I started =={picks}\n\n{_paragraph(rng, [])}")
        pages.append(page(f"User:{user}", 2, [text], [user], rng.randint(90, 97) * 86400))
    for title, cat in titles.items():
        sections = [_paragraph(rng, linkable)] + [
            _heading(rng) + "\n\n".join(_paragraph(rng, linkable) for _ in range(rng.randint(1, 3)))
            for _ in range(rng.randint(1, 4))]
        cats = sorted({cat, *rng.sample(list(NOUNS.values()), rng.randint(0, 2))})
        tail = ("\n\n{{Stub}}" if len(sections) == 2 else "") + "".join(
            f"\n[[Category:{c}]]" for c in cats)
        n = rng.randint(2, 5)  # revisions, each adding sections
        texts = ["\n\n".join(sections[: max(1, len(sections) * (i + 1) // n)]) + tail
                 for i in range(n)]
        created = rng.randint(20, 89) * 86400
        pages.append(page(title, 0, texts, rng.sample(editors, 4), created))
        if rng.random() < 1 / 3:
            authors, talk, texts = rng.sample(editors, 3), "", []
            ago = rng.randint(2, created // 86400) * 86400
            for i in range(rng.randint(2, 5)):
                heading = _heading(rng) if i == 0 or rng.random() < 0.4 else "\n"
                sign = _signature(authors[i % 3], ago - i * 3600, now)
                talk += (f"{heading}{':' * (i % 3)}{_sentence(rng, [title])} "
                         f"{_sentence(rng, linkable)} {sign}")
                texts.append(talk.strip())
            pages.append(page(f"Talk:{title}", 1, texts, authors, ago))
    for user in rng.sample(users, 15):
        guests, talk, texts = rng.sample(users, 2), "", []
        ago = rng.randint(3, 40) * 86400
        for i, guest in enumerate(guests):
            sign = _signature(guest, ago - i * 3600, now)
            talk += f"{_heading(rng)}{_sentence(rng, articles)} {sign}"
            texts.append(talk.strip())
        pages.append(page(f"User talk:{user}", 3, texts, guests, ago))
    for source, target in redirects.items():
        pages.append(page(source, 0, [f"#REDIRECT [[{target}]]"], [rng.choice(users)], 86400))
    return ["Admin", *users], pages


def _dump(pages: list[Page], now: dt.datetime) -> str:
    out = ['<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" '
           'xml:lang="en">']
    for title, ns, revs in pages:
        out.append(f"<page><title>{escape(title)}</title><ns>{ns}</ns>")
        for who, ago, summary, minor, text in revs:
            stamp = (now - dt.timedelta(seconds=ago)).strftime("%Y-%m-%dT%H:%M:%SZ")
            tag = "ip" if who[0].isdigit() else "username"
            out.append(f"<revision><timestamp>{stamp}</timestamp>"
                       f"<contributor><{tag}>{escape(who)}</{tag}></contributor>"
                       f"{'<minor/>' if minor else ''}<comment>{escape(summary)}</comment>"
                       f"<model>wikitext</model><format>text/x-wiki</format>"
                       f'<text xml:space="preserve">{escape(text)}</text></revision>')
        out.append("</page>")
    return "\n".join([*out, "</mediawiki>\n"])


def _env(folder: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "MW_INSTALL_PATH": str(CODE),
            "MW_CONFIG_FILE": str(folder / "LocalSettings.php"), **extra}


def _php(folder: Path, script: str | Path, *args: str, stdin: str | None = None) -> str:
    path = script if isinstance(script, Path) else CODE / "maintenance" / script
    return run_php(path, *args, cwd=CODE, stdin=stdin, env=_env(folder))


def available() -> str | None:
    """None if Debian's packages for the wiki are installed, else how to install them."""
    if CODE.is_dir() and shutil.which("php") is not None:
        return None
    return f"needs Debian's packages: apt-get install --no-install-recommends {PACKAGES}"


def build(folder: Path, n_articles: int = 400, seed: int = 0) -> Path:
    """Build a fresh wiki in folder, or reuse the one there if built recently with these
    parameters. Returns folder."""
    folder = folder.resolve()
    marker = folder / "build.json"
    params = {"n_articles": n_articles, "seed": seed, "version": VERSION}
    if reuse_or_clear(folder, params, "LocalSettings.php", "wiki", STALE_DAYS):
        return folder
    (folder / "data").mkdir()
    (folder / "cache").mkdir()
    started = time.time()
    _php(folder, "install.php", "--dbtype", "sqlite", "--dbpath", str(folder / "data"),
         "--dbname", "wiki", "--confpath", str(folder), "--scriptpath", "", "--skins", "Vector",
         "--server", "http://127.0.0.1", "--pass", "Realsite-admin-1", SITENAME, "Admin")
    with open(folder / "LocalSettings.php", "a") as settings:
        settings.write(SETTINGS)
    (folder / "router.php").write_text(ROUTER)
    (folder / "helper.php").write_text(HELPER)
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    users, pages = generate(n_articles, seed, now)
    _php(folder, folder / "helper.php", "users", stdin="\n".join(users))
    (folder / "dump.xml").write_text(_dump(pages, now))
    _php(folder, "importDump.php", "--no-updates", str(folder / "dump.xml"))
    selected = [title for title, ns, revs in pages if ns == 0 and len(revs) > 1][:30]
    main = "\n".join([f"Welcome to '''{SITENAME}''', a wiki about places and their history.",
                      "== Topics ==", *(f"* [[:Category:{c}]]" for c in PARENTS),
                      "== Selected articles ==", *(f"* [[{t}]]" for t in selected)])
    _php(folder, "edit.php", "-u", "Admin", "-s", "Portal", "Main Page", stdin=main)
    for script, *args in [("rebuildrecentchanges.php",), ("refreshLinks.php",),
                          ("recountCategories.php", "--mode", "all"),
                          ("initSiteStats.php", "--update"), ("runJobs.php",),
                          ("rebuildLocalisationCache.php", "--lang", "en")]:
        _php(folder, script, *args)
    (folder / "pages.jsonl").write_text(_php(folder, folder / "helper.php", "pages"))
    marker.write_text(json.dumps({"params": params, "built_at": time.time(),
                                  "build_seconds": round(time.time() - started, 1)}))
    return folder


@contextlib.contextmanager
def serve(folder: Path, workers: int = 2) -> Iterator[str]:
    """Serve the wiki built in folder with `php -S` on a free port; yields the Main Page URL."""
    folder = folder.resolve()
    with php_server(CODE, folder / "router.php", folder / "server.log", "/index.php/Main_Page",
                    lambda server: _env(folder, MW_SERVER=server), workers) as seed:
        yield seed


def page_type(url: str) -> str:
    """Ground truth from the URL alone, decided in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - a path other than /, /index.php and /index.php/TITLE (load.php, api.php, static files):
      "other"; the title is TITLE, else the `title` parameter, else Main Page ("/", "?search=":
      Special:Search)
    - namespace Special (login, RecentChanges, WhatLinksHere, Random, ...): "special"
    - action=edit|submit|raw: "edit"; action=history: "history"; action=info: "info";
      any other action except view (watch, purge, protect, delete, credits, ...): "other"
    - a diff or oldid parameter: "diff"; printable=yes: "printable"; redirect=no: "redirect"
      (the redirect page itself, as WhatLinksHere and Special:ListRedirects link it)
    - by namespace: main "article", Talk "talk", User "user", User talk "user_talk", Category
      "category", File/Image/Media "file", any other namespace (Template, Help, Project, ...)
      "other".
    A redirect's own title (/index.php/Alt_title) reads as "article": the URL cannot tell; it
    serves a copy of its target and is not among entities()."""
    parts = urlsplit(url)
    if parts.hostname not in (None, "127.0.0.1", "localhost"):
        return "other"
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    if parts.path.startswith("/index.php/"):
        title = unquote(parts.path[len("/index.php/"):])
    elif parts.path in ("", "/", "/index.php"):
        title = query.get("title", "Special:Search" if "search" in query else "Main Page")
    else:
        return "other"
    prefix, _, rest = title.replace("_", " ").strip().partition(":")
    prefix = " ".join(prefix.lower().split()) if rest else ""
    if prefix == "special":
        return "special"
    action = query.get("action", "view")
    if action != "view":
        return ACTIONS.get(action, "other")
    if "diff" in query or "oldid" in query:
        return "diff"
    if query.get("printable") == "yes":
        return "printable"
    if query.get("redirect") == "no":
        return "redirect"
    if prefix in PREFIX_TYPES:
        return PREFIX_TYPES[prefix]
    return "other" if prefix in OTHER_PREFIXES else "article"


def title_of(url: str) -> str | None:
    """The page title a view URL shows (None for anything but a plain view of a page)."""
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    if parts.path.startswith("/index.php/"):
        title = unquote(parts.path[len("/index.php/"):])
    elif parts.path in ("", "/", "/index.php") and "title" in query:
        title = query["title"]
    else:
        return None
    title = " ".join(title.replace("_", " ").split())
    return title[:1].upper() + title[1:] if title else None


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows (its title; another URL form of it gives the same title),
    None for a URL of another type."""
    return title_of(url) if page_type(url) in UCC_TYPES else None


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of all existing non-redirect pages whose type is in UCC_TYPES, as the wiki links
    them: its hrefs are server-relative (/index.php/Talk:Karo_River), so give the server (e.g.
    "http://127.0.0.1:8123", the seed URL's origin) to get absolute URLs."""
    rows = [json.loads(line) for line in (folder / "pages.jsonl").read_text().splitlines()]
    return {server.rstrip("/") + r["path"] for r in rows
            if not r["redirect"] and NAMESPACE_TYPES.get(r["ns"]) in UCC_TYPES}


def main(argv: list[str] | None = None) -> int:
    folder = smoke_build(__doc__, "articles", 400, build, argv)
    assert folder is not None
    with serve(folder) as seed:
        server = seed.split("/index.php")[0]
        ucc = sorted(entities(folder, server))
        print(f"seed: {seed}\nentities: {len(ucc)} {Counter(page_type(u) for u in ucc)}")
        main_links = same_host_links(requests.get(seed, timeout=30).content, seed)
        article = min(u for u in main_links if page_type(u) == "article" and u != seed)
        article_links = same_host_links(requests.get(article, timeout=30).content, article)
        first = {page_type(u): u for u in reversed(ucc)}  # one entity of each type
        first.update({page_type(u): u for u in sorted(article_links, reverse=True)})
        first["article"] = article
        specials = sorted(u for u in main_links | article_links if page_type(u) == "special")
        sample = [seed, *first.values(), *specials, f"{server}/index.php/Special:UserLogin"]
        smoke_fetch(list(dict.fromkeys(sample))[:24], page_type)
        print_link_types([("Main Page", main_links), (article, article_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
