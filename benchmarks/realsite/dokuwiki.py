"""A real DokuWiki (Debian's package, 2022-07-31 "Igor") on 127.0.0.1 with generated content.

The file-based counterpart of `benchmarks.realsite.mediawiki`: DokuWiki as it ships, with its
default template (dokuwiki), ACLs on (anonymous read, a few registered users, so the wiki
links its login, registration and password-reset forms) and plain URLs
(`/doku.php?id=ns:page`, userewrite 0, the default). Every page links its source view
(do=edit), old revisions, backlinks, the recent changes and the media manager of its
namespace, the sitemap index and the login form; the revisions link their diffs, a diff every
other pair of revisions side by side, the media manager its tabs per file, ... the whole
default URL space a crawler must learn to skip to spend its requests on the pages.

    build(folder)       fresh wiki in folder: a copy of the code with its own conf/ and data/
                        (pages, attic revisions and changelogs written from a generator,
                        deterministic for n_pages and seed), search index built
    serve(folder)       `php -S` on a free port; yields the seed URL (the start page)
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every existing page (the UCC)

Needs the Debian packages `dokuwiki php-cli` (installed with --no-install-recommends). The code
is copied from /usr/share/dokuwiki (with the plugins and template Debian keeps in
/var/lib/dokuwiki), and the copy's inc/preload.php points DOKU_CONF at the instance's conf/
instead of /etc/dokuwiki; Debian's shipped settings are copied from /etc/dokuwiki, its sample
pages (wiki:syntax, wiki:welcome, ...) from /var/lib/dokuwiki/data; nothing outside folder is
written. The server answers GET and HEAD only (a router refuses other methods with 405), and
the task runner every page embeds as an image answers its GIF without running its jobs
(indexing, trimming the recent changes), so crawling cannot change the wiki: requests write
only DokuWiki's caches (data/cache, sessions, and the last changelog line a page's metadata
caches, which a view of an old revision clears and the next view of the page restores).
Revision dates are relative to the build time (the page footers and Recent changes show
them), so a build older than STALE_DAYS is redone rather than reused.

    python -m benchmarks.realsite.dokuwiki /tmp/dokuwiki-bench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import hashlib
import json
import os
import random
import re
import shutil
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

import requests

from benchmarks.realsite.mediawiki import SYLLABLES, WORDS
from benchmarks.realsite.php import (
    php_server,
    print_link_types,
    reuse_or_clear,
    run_php,
    same_host_links,
    smoke_build,
    smoke_fetch,
)

PACKAGES = "dokuwiki php-cli"
CODE = Path("/usr/share/dokuwiki")
DEBIAN_CONF = Path("/etc/dokuwiki")
DEBIAN_DATA = Path("/var/lib/dokuwiki/data")
SITENAME = "Realwiki"
VERSION = 1  # of the generator; part of the reuse marker
STALE_DAYS = 14
SEED_PATH = "/doku.php?id=start"  # the start page as the logo and the sidebar's Home link it
UCC_TYPES = {"page"}
# Every type has a layout of its own (clustering by template), as on the MediaWiki: an old
# revision is the page under a notice box and with other page tools, as MediaWiki's oldid is.
SAME_TEMPLATE: dict[str, str] = {}
TARGET_TYPE = "page"  # source-target's example is a generated page
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("page", "revision", "diff", "edit", "revisions", "backlink", "recent", "index",
              "media", "login", "export", "feed", "search", "static", "other")
DESCRIPTION = ("Debian DokuWiki 2022-07-31 (template dokuwiki), {size} generated pages with "
               "revisions in six namespaces (`benchmarks/realsite/dokuwiki.py`)")

# do= actions by page type; "login" is every account form (login, logout, registration,
# password reset, profile), as WordPress's wp-login.php actions are one type there
ACTIONS = {"edit": "edit", "source": "edit", "preview": "edit",
           "draft": "edit", "recover": "edit", "revisions": "revisions", "diff": "diff",
           "backlink": "backlink", "recent": "recent", "index": "index", "media": "media",
           "login": "login", "logout": "login", "register": "login", "resendpwd": "login",
           "profile": "login", "profile_delete": "login", "search": "search"}
MEDIA_SCRIPTS = ("/lib/exe/detail.php", "/lib/exe/fetch.php", "/lib/exe/mediamanager.php")

PRELOAD = """<?php  // written by benchmarks/realsite/dokuwiki.py (Debian's points at /etc/dokuwiki)
if ( !defined( 'DOKU_CONF' ) ) define( 'DOKU_CONF', dirname( __DIR__, 2 ) . '/conf/' );
"""
LOCAL = """<?php  // written by benchmarks/realsite/dokuwiki.py: a public wiki, as Debian sets it up
$conf['savedir'] = dirname( __DIR__ ) . '/data';
$conf['title'] = '{title}';
$conf['license'] = 'cc-by-sa';
$conf['useacl'] = 1;
$conf['superuser'] = '@admin';
$conf['recent_days'] = 120;  // the generated history, as mediawiki.py's $wgRCMaxAge
"""
ACL = """# acl.auth.php
# <?php exit()?>
# written by benchmarks/realsite/dokuwiki.py: anyone reads, registered users edit and upload
*               @ALL        1
*               @user       8
"""
USERS_HEAD = """# users.auth.php
# <?php exit()?>
# written by benchmarks/realsite/dokuwiki.py
# login:passwordhash:Real Name:email:groups,comma,separated
"""
ROUTER = """<?php  // read-only front: only GET and HEAD reach DokuWiki, and no background task runs
ini_set( 'session.save_path', __DIR__ . '/sessions' );
if ( !in_array( $_SERVER['REQUEST_METHOD'], [ 'GET', 'HEAD' ], true ) ) {
  http_response_code( 405 ); header( 'Allow: GET, HEAD' ); echo "read-only wiki\\n"; return true;
}
$path = parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH );
if ( in_array( $path, [ '/lib/exe/taskrunner.php', '/lib/exe/indexer.php' ], true ) ) {
  header( 'Content-Type: image/gif' );  // the task runner's answer, without its jobs
  echo base64_decode( 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAEALAAAAAABAAEAAAIBTAA7' ); return true;
}
return require $_SERVER['DOCUMENT_ROOT'] . '/index.php';  // DokuWiki's own router for php -S
"""
HELPER = """<?php  // persistent metadata of the pages: a JSON line {"id": ..., "meta": {...}} each
define( 'DOKU_INC', __DIR__ . '/dokuwiki/' ); define( 'NOSESSION', 1 );
require_once DOKU_INC . 'inc/init.php';
foreach ( file( 'php://stdin', FILE_IGNORE_NEW_LINES ) as $line ) {
  $row = json_decode( $line, true );
  if ( $row['meta'] === null ) {  // a sample page without changelog: its last change as
    $log = new dokuwiki\\ChangeLog\\PageChangeLog( $row['id'], 1024 );  // pageinfo() caches it
    $row['meta'] = [ 'last_change' => $log->getRevisionInfo( filemtime( wikiFN( $row['id'] ) ) ) ];
  }
  p_set_metadata( $row['id'], $row['meta'] );
}
auth_cookiesalt( false, true );  // the secret the first request would create
"""
# conf files of Debian's that the instance does not take: its own settings, users and ACL,
# web server snippets
CONF_SKIP = {"local.php", "local.php.dist", "acl.auth.php", "users.auth.php", "apache.conf",
             "lighttpd.conf", "htaccess", ".htaccess", "mysql.conf.php.example"}

# the same vocabulary as the MediaWiki's generated articles
# namespace -> the nouns of its pages' titles ("{base} River"; "Battle of {base}"); people's
# pages are named after a person
NAMESPACES = {"geography": ["River", "Valley", "Mountain", "Harbour", "Island", "Lake"],
              "structures": ["Castle", "Bridge", "Library", "Observatory", "Tower", "Mill"],
              "history": ["Battle of", "Treaty of", "Siege of", "Founding of"],
              "society": ["Festival", "Guild", "School", "Council"],
              "trade": ["Company", "Market", "Railway", "Canal"],
              "people": []}
# Shares of the pages: a wiki about places and their history has two big namespaces. They
# also put the median of the pages' sorted URLs (the bench's source-target example) in the
# middle of history, not on a root page such as the sidebar.
SHARES = {"geography": 0.35, "structures": 0.07, "history": 0.35, "society": 0.07,
          "trade": 0.06, "people": 0.10}
SUMMARIES = ["expanded", "copyedit", "fix link", "sources", "rewrite intro", "typo", "", ""]

# page id -> its revisions, oldest first: (seconds before build, user ("" for an IP), IP,
# summary, minor, text)
Revision = tuple[int, str, str, str, bool, str]


@functools.cache
def _accents() -> dict[str, str]:
    """DokuWiki's table for deaccenting ids (ä -> ae, ø -> o, ...), read from the code; empty
    when the package is not installed (then accents are stripped by Unicode decomposition)."""
    table = CODE / "inc" / "Utf8" / "tables" / "loweraccents.php"
    if not table.exists():
        return {}
    return dict(re.findall(r"'(.)' => '([^']*)'", table.read_text(encoding="utf-8")))


def clean_id(raw: str) -> str:
    """A page id as DokuWiki's cleanID() makes it with the shipped settings (sepchar _,
    useslash 0, deaccent 1): lower case, ';' a namespace separator and '/' a word separator,
    accents replaced, any other character but letters, digits and '_:.-' a separator."""
    text = raw.strip().lower().replace(";", ":").replace("/", "_")
    accents = _accents()
    text = "".join(accents.get(c, c) for c in text)
    if not accents:
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = "".join(c if c.isalnum() or c in "_:.-" else "_" for c in text)
    text = re.sub(r"_+", "_", text)
    text = re.sub(r":+", ":", text).strip(":._-")
    text = re.sub(r":[:._-]+", ":", text)
    return re.sub(r"[:._-]+:", ":", text)


def _name(rng: random.Random, parts: int = 3) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, parts))).capitalize()


def _link(rng: random.Random, target: str, title: str, here: str) -> str:
    """A wiki link in one of the forms editors write: the id, the title (DokuWiki cleans it),
    relative to the current namespace, with or without a label."""
    ns, _, _ = target.rpartition(":")
    same = ns == here.rpartition(":")[0]
    form = rng.random()
    if form < 0.4:
        return f"[[{target}|{title}]]"
    if form < 0.6:
        return f"[[{title}]]" if same else f"[[{ns}:{title}]]"
    if form < 0.8:
        return f"[[{target}]]"
    return f"[[{target}|{rng.choice(WORDS)} {rng.choice(WORDS)}]]"


def _sentence(rng: random.Random, links: list[str]) -> str:
    """A sentence holding the given (already formatted) links."""
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    for link in links:
        words.insert(rng.randint(1, len(words)), link)
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def _paragraph(rng: random.Random, links: list[str]) -> str:
    """3-6 sentences sharing the links."""
    n = rng.randint(3, 6)
    slots: list[list[str]] = [[] for _ in range(n)]
    for link in links:
        slots[rng.randrange(n)].append(link)
    return " ".join(_sentence(rng, s) for s in slots)


def _heading(rng: random.Random, level: int = 2) -> str:
    marks = "=" * (7 - level)
    return f"{marks} {rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} {marks}"


def generate(n_pages: int, seed: int) -> tuple[list[tuple[str, str]], dict[str, list[Revision]]]:
    """The users (login, real name) and the pages of the wiki for these parameters."""
    rng = random.Random(seed)
    names = sorted({f"{_name(rng)} {_name(rng)}" for _ in range(24)})
    users = list({clean_id(n.split()[0] + n.split()[1][0]): n for n in names}.items())
    logins = [login for login, _ in users]
    ips = [f"192.0.2.{rng.randint(2, 250)}" for _ in range(4)]  # documentation range
    editors = [*logins, *logins, *ips]  # mostly registered users
    titles: dict[str, str] = {}  # page id -> its title
    spaces = list(NAMESPACES)
    while len(titles) < n_pages:
        ns, base = rng.choices(spaces, [SHARES[n] for n in spaces])[0], _name(rng)
        base = base.replace("o", "ö", 1) if rng.random() < 0.05 else base  # ids deaccent it
        nouns = NAMESPACES[ns]
        if not nouns:
            title = f"{base} {_name(rng)}"
        else:
            noun = rng.choice(nouns)
            title = f"{noun} {base}" if noun.endswith(" of") else rng.choice(
                [f"{base} {noun}", f"{base} {noun}", f"{base}'s {noun}"])
        titles.setdefault(f"{ns}:{clean_id(title)}", title)
    ids = list(titles)
    missing = {f"{rng.choice(spaces)}:{clean_id('lost ' + _name(rng))}": ""
               for _ in range(n_pages // 10)}  # red links: pages not written yet
    linkable = {**titles, **{m: m.rpartition(":")[2].replace("_", " ").title() for m in missing}}
    targets = list(linkable)
    pages: dict[str, list[Revision]] = {}

    def author(who: str) -> tuple[str, str]:
        """(user, IP) of an edit by a login or an IP."""
        return ("", who) if who[0].isdigit() else (who, f"198.51.100.{rng.randint(2, 250)}")

    def write(page: str, texts: list[str], authors: list[str], ago: int) -> None:
        """texts[i] by authors[i % len(authors)], the first ago seconds ago."""
        revs = []
        for i, text in enumerate(texts):
            user, ip = author(authors[i % len(authors)])
            summary = "created" if i == 0 else rng.choice(SUMMARIES)
            revs.append((ago, user, ip, summary, bool(user) and i > 0 and rng.random() < 0.2,
                         text))
            ago -= rng.randint(3600, 4 * 86400)
        pages[page] = revs

    for page, title in titles.items():
        chosen = rng.sample([t for t in targets if t != page], rng.randint(3, 8))
        links = [_link(rng, t, linkable[t], page) for t in chosen]
        n_sections = rng.randint(1, 4)
        split = sorted(rng.randint(0, len(links)) for _ in range(n_sections))
        groups = [links[a:b] for a, b in zip([0, *split], [*split, len(links)], strict=True)]
        sections = [_paragraph(rng, groups[0])] + [
            _heading(rng) + "\n\n" + _paragraph(rng, g) for g in groups[1:]]
        n = rng.choice([1, 1, 1, 2, 3, 4, 5])  # revisions; the later ones add sections
        texts = [f"====== {title} ======\n\n"
                 + "\n\n".join(sections[: max(1, len(sections) * (i + 1) // n)]) + "\n"
                 for i in range(n)]
        write(page, texts, rng.sample(editors, 4), rng.randint(20, 89) * 86400
              + rng.randint(0, 86399))
    for ns in spaces:
        members = sorted((linkable[p], p) for p in ids if p.startswith(ns + ":"))
        listing = "\n".join(f"  * [[{p}|{t}]]" for t, p in members)
        text = (f"====== {ns.capitalize()} ======\n\n{_paragraph(rng, [])}\n\n"
                f"===== Pages =====\n\n{listing}\n")
        write(f"{ns}:start", [text], ["admin"], rng.randint(90, 95) * 86400)
    for login, name in rng.sample(users, 12):
        picks = "\n".join(f"  * [[{p}|{titles[p]}]]" for p in rng.sample(ids, 4))
        text = (f"====== {name} ======\n\nHello, I am {name}. I mostly write about "
                f"[[{rng.choice(spaces)}:start|{rng.choice(WORDS)}]].\n\n"
                f"===== Pages I started =====\n\n{picks}\n\n{_paragraph(rng, [])}\n")
        write(f"user:{login}", [text], [login], rng.randint(90, 97) * 86400)
    selected = [p for p in ids if len(pages[p]) > 1][:20]
    start = "\n".join([f"====== Welcome to {SITENAME} ======", "",
                       "A wiki about places and their history.", "", "===== Topics =====", "",
                       *(f"  * [[{ns}:start|{ns.capitalize()}]]" for ns in spaces), "",
                       "===== Selected pages =====", "",
                       *(f"  * [[{p}|{titles[p]}]]" for p in selected), ""])
    write("start", [start], ["admin"], 99 * 86400)
    sidebar = "\n".join(["  * [[:start|Home]]",
                         *(f"  * [[{ns}:start|{ns.capitalize()}]]" for ns in spaces),
                         "  * [[wiki:syntax|Formatting help]]", "  * [[playground:playground]]",
                         ""])
    write("sidebar", [sidebar], ["admin"], 99 * 86400 - 600)
    return [("admin", "Wiki Admin"), *users], pages


def _write_pages(data: Path, pages: dict[str, list[Revision]], now: int) -> None:
    """Store pages as DokuWiki does: the text in pages/, every revision (the current one too)
    gzipped in attic/ID.DATE.txt.gz, one changelog line per revision in meta/ID.changes and
    in meta/_dokuwiki.changes (what Recent changes reads); a page file's mtime is its last
    revision's date, else DokuWiki would show it as an external edit."""
    changes = []
    for page, revs in pages.items():
        path = page.replace(":", "/")
        lines: list[str] = []
        size = 0
        for ago, user, ip, summary, minor, text in revs:
            date, raw = now - ago, text.encode()
            attic = data / "attic" / f"{path}.{date}.txt.gz"
            attic.parent.mkdir(parents=True, exist_ok=True)
            attic.write_bytes(gzip.compress(raw, mtime=date))
            kind = "C" if not lines else "e" if minor else "E"
            lines.append(f"{date}\t{ip}\t{kind}\t{page}\t{user}\t{summary}\t\t"
                         f"{len(raw) - size}\n")
            size = len(raw)
        current = data / "pages" / f"{path}.txt"
        current.parent.mkdir(parents=True, exist_ok=True)
        current.write_text(revs[-1][5], encoding="utf-8")
        os.utime(current, (now - revs[-1][0],) * 2)
        log = data / "meta" / f"{path}.changes"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("".join(lines), encoding="utf-8")
        changes += lines
    changes.sort(key=lambda line: int(line.split("\t")[0]))
    (data / "meta" / "_dokuwiki.changes").write_text("".join(changes), encoding="utf-8")


def _metadata(users: dict[str, str], pages: dict[str, list[Revision]], now: int,
              samples: list[str]) -> str:
    """The persistent metadata DokuWiki keeps for a page saved through its editor (dates,
    creator, contributors, the last changelog line: PageFile::updateMetadata), as the helper's
    JSON lines, and for the sample pages the last change their first view would cache;
    without it the first view of each page would write it."""
    out = [json.dumps({"id": page, "meta": None}) + "\n" for page in samples]
    for page, revs in pages.items():
        meta: dict[str, Any] = {"date": {}, "contributor": {}}
        size = 0
        for i, (ago, user, ip, summary, minor, text) in enumerate(revs):
            date = now - ago
            if i == 0:
                meta["date"]["created"] = date
                if user:
                    meta.update(creator=users[user], user=user)
            elif not minor:
                meta["date"]["modified"] = date
                if user:
                    meta["contributor"][user] = users[user]
            meta["last_change"] = {
                "date": date, "ip": ip, "type": "C" if i == 0 else "e" if minor else "E",
                "id": page, "user": user, "sum": summary, "extra": "",
                "sizechange": len(text.encode()) - size}
            size = len(text.encode())
        if not meta["contributor"]:
            del meta["contributor"]
        out.append(json.dumps({"id": page, "meta": meta}) + "\n")
    return "".join(out)


def available() -> str | None:
    """None if Debian's packages for the wiki are installed, else how to install them."""
    if CODE.is_dir() and DEBIAN_CONF.is_dir() and shutil.which("php") is not None:
        return None
    return f"needs Debian's packages: apt-get install --no-install-recommends {PACKAGES}"


def build(folder: Path, n_pages: int = 400, seed: int = 0) -> Path:
    """Build a fresh wiki in folder, or reuse the one there if built recently with these
    parameters. Returns folder."""
    folder = folder.resolve()
    marker = folder / "build.json"
    params = {"n_pages": n_pages, "seed": seed, "version": VERSION}
    if reuse_or_clear(folder, params, "router.php", "wiki", STALE_DAYS):
        return folder
    started = time.time()
    code = folder / "dokuwiki"
    shutil.copytree(CODE, code, symlinks=False)  # lib/plugins and lib/tpl are symlinks
    (code / "inc" / "preload.php").write_text(PRELOAD)
    conf = folder / "conf"
    conf.mkdir()
    for item in sorted(DEBIAN_CONF.iterdir()):
        if item.name not in CONF_SKIP and item.is_file():
            shutil.copyfile(item, conf / item.name)
    (conf / "local.php").write_text(LOCAL.replace("{title}", SITENAME))
    (conf / "acl.auth.php").write_text(ACL)
    now = int(time.time())
    users, pages = generate(n_pages, seed)
    (conf / "users.auth.php").write_text(USERS_HEAD + "".join(
        # a throwaway local wiki: md5 is one of the hashes DokuWiki verifies; nobody logs in
        f"{login}:{hashlib.md5(login.encode()).hexdigest()}:{name}:"
        f"{login}@example.org:{'admin,user' if login == 'admin' else 'user'}\n"
        for login, name in users))
    data = folder / "data"
    shutil.copytree(DEBIAN_DATA, data)  # the sample pages and media of a fresh install
    _write_pages(data, pages, now)
    (folder / "sessions").mkdir()
    (folder / "router.php").write_text(ROUTER)
    (folder / "helper.php").write_text(HELPER)
    samples = sorted(set(page_ids(folder)) - set(pages))
    run_php(folder / "helper.php", cwd=folder, stdin=_metadata(dict(users), pages, now, samples))
    # the index backlinks and search read; it renders every page's metadata and instructions
    # into meta/ and cache/ as the first views would (the cache starts empty: nothing stale)
    run_php(code / "bin" / "indexer.php", "--quiet", cwd=folder)
    marker.write_text(json.dumps({"params": params, "built_at": time.time(),
                                  "build_seconds": round(time.time() - started, 1)}))
    return folder


@contextlib.contextmanager
def serve(folder: Path, workers: int = 2) -> Iterator[str]:
    """Serve the wiki built in folder with `php -S` on a free port; yields the start page's
    URL."""
    folder = folder.resolve()
    with php_server(folder / "dokuwiki", folder / "router.php", folder / "server.log",
                    SEED_PATH, lambda server: dict(os.environ), workers) as seed:
        yield seed


def _action(query: dict[str, list[str]]) -> str:
    """The action DokuWiki runs for a query: a non-empty idx is the index, then do (also
    given as do[ACTION]=...), lower case; "show" when there is none."""
    if query.get("idx", [""])[0]:
        return "index"
    act = query.get("do", [""])[0]
    for key in query:
        if key.startswith("do[") and key.endswith("]"):
            act = key[3:-1]
    return act.strip().lower() or "show"


def page_type(url: str) -> str:
    """Ground truth from the URL alone, decided in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /feed.php: "feed"; /lib/exe/detail.php, fetch.php and mediamanager.php (and the
      rewritten /_media/, /_detail/): "media"; /_export/...: "export"; anything else under
      /lib/ (CSS, JS, images, the task runner, opensearch.php, ajax.php): "static"; any path
      but /, /doku.php and /index.php: "other"
    - the action (idx=NS, else do=): export_*: "export"; show (none): see below; any other
      listed in ACTIONS has its type there (edit, revisions, diff, backlink, recent, index,
      media, login for all account forms, search); any other (admin, subscribe, check,
      sitemap, ...): "other"
    - a shown page with rev=N (N > 0) or at=DATE: "revision"
    - else "page": a view of the page id= (the start page without one, a namespace's start
      page for "ns:"), including the s[]= highlight views search results link and q= without
      do=search (DokuWiki shows the page then, byte for byte); the URL cannot tell whether
      the page exists (a missing one answers 200 "This topic does not exist yet"),
      entities() can."""
    parts = urlsplit(url)
    if parts.hostname not in (None, "127.0.0.1", "localhost"):
        return "other"
    path = parts.path or "/"
    if path == "/feed.php":
        return "feed"
    if path in MEDIA_SCRIPTS or path.startswith(("/_media/", "/_detail/")):
        return "media"
    if path.startswith("/_export/"):
        return "export"
    if path.startswith("/lib/"):
        return "static"
    if path not in ("/", "/doku.php", "/index.php"):
        return "other"
    query = parse_qs(parts.query, keep_blank_values=True)
    act = _action(query)
    if act.startswith("export_"):
        return "export"
    if act != "show":
        return ACTIONS.get(act, "other")
    rev = query.get("rev", [""])[0]
    if (rev.isdigit() and int(rev) > 0) or query.get("at", [""])[0]:
        return "revision"
    return "page"


def entity_of(url: str) -> str | None:
    """The page id a view URL shows, cleaned as DokuWiki cleans it (another URL form of the
    page gives the same id), None for a URL of another type. For a missing page this is its
    id all the same; the bench counts only ids among entities()."""
    if page_type(url) != "page":
        return None
    raw = parse_qs(urlsplit(url).query).get("id", [""])[0]
    if raw.endswith(":"):  # DokuWiki redirects a namespace to its start page
        raw += "start"
    return clean_id(raw) or "start"


def page_ids(folder: Path) -> list[str]:
    """The ids of every existing page: the files in data/pages (names are URL-encoded ids,
    fnencode url)."""
    root = folder / "data" / "pages"
    return sorted(
        ":".join(unquote(p) for p in f.relative_to(root).with_suffix("").parts)
        for f in root.rglob("*.txt"))


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every existing page as the wiki links them (/doku.php?id=ns:page): its hrefs
    are server-relative, so give the server (e.g. "http://127.0.0.1:8123", the seed URL's
    origin) to get absolute URLs."""
    return {f"{server.rstrip('/')}/doku.php?id={quote(i, safe=':')}" for i in page_ids(folder)}


def main(argv: list[str] | None = None) -> int:
    folder = smoke_build(__doc__, "pages", 400, build, argv)
    assert folder is not None
    with serve(folder) as seed:
        server = seed.split("/doku.php")[0]
        ids = page_ids(folder.resolve())
        print(f"seed: {seed}\npages: {len(ids)} "
              f"{dict(Counter(i.rpartition(':')[0] or '(root)' for i in ids).most_common())}")
        start_links = same_host_links(requests.get(seed, timeout=30).content, seed)
        space = min(u for u in start_links if page_type(u) == "page"
                    and (entity_of(u) or "").endswith(":start"))
        space_links = same_host_links(requests.get(space, timeout=30).content, space)
        meta = folder.resolve() / "data" / "meta"

        def revisions(url: str) -> int:
            log = meta / f"{(entity_of(url) or '').replace(':', '/')}.changes"
            return len(log.read_text().splitlines()) if log.exists() else 0

        page = min(u for u in space_links if page_type(u) == "page" and revisions(u) >= 3)
        page_links = same_host_links(requests.get(page, timeout=30).content, page)
        history = next(u for u in page_links if page_type(u) == "revisions")
        history_links = same_host_links(requests.get(history, timeout=30).content, history)
        first = {page_type(u): u for u in sorted(page_links | history_links, reverse=True)}
        sample = [seed, space, page, *first.values(),
                  f"{server}/doku.php?id=start&do=index", f"{server}/doku.php?id=start&do=recent"]
        failed = [url for url, status in smoke_fetch(sample, page_type).items()
                  if status != 200]
        print_link_types([("start", start_links), (space, space_links), (page, page_links),
                          (history, history_links)], page_type)
        red = {e for u in page_links | space_links if page_type(u) == "page"
               and (e := entity_of(u)) is not None} - set(ids)
        print(f"links to missing pages from {page} and {space}: {sorted(red)}")
        refused = requests.post(seed, data={"do": "save"}, timeout=30).status_code
        print(f"{refused} POST {seed}")
        if refused != 405:
            failed.append(f"POST {seed}")
        needed = {"page", "revisions", "revision", "diff", "index", "recent"}
        if failed or not needed <= {page_type(u) for u in sample}:
            print(f"FAILED: {failed}, types sampled {sorted({page_type(u) for u in sample})}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
