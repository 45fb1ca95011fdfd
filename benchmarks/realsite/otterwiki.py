"""A real An Otter Wiki, otterwiki 2.26.1 (from PyPI, on Flask 3.1), on 127.0.0.1 with generated
pages.

A wiki engine no crawler setting was tuned on, after the real MediaWiki, DokuWiki,
django-wiki and MoinMoin sites: An Otter Wiki is a Flask wiki whose pages are Markdown
files in a git repository, every edit a commit. This one is set up as its installation
guide does it: an empty git repository (`git init`), a settings.cfg named by
OTTERWIKI_SETTINGS (REPOSITORY, SECRET_KEY, SITE_NAME and an SQLite SQLALCHEMY_DATABASE_URI
for the users, preferences and caches), and the WSGI application `otterwiki.server:app`
under waitress. Everything else is the defaults (theme, page index in
the sidebar (SIDEBAR_MENUTREE_MODE "SORTED", focus "SUBTREE"), ROBOTS_TXT "allow", page
names not case-retaining: a page's file is its path lowercased plus ".md"), and what a public
read-only wiki sets in the same file: READ_ACCESS "ANONYMOUS" (the default: guests read the
pages, their history and every commit), WRITE_ACCESS and ATTACHMENT_ACCESS "APPROVED"
(instead of the default "ANONYMOUS"), DISABLE_REGISTRATION True and AUTO_APPROVAL False (so
nobody signs up, and no account writes without an admin's approval). Page URLs are the
pages' paths (/Woodwork/Glue%20notes), their views the path plus a suffix (/history,
/blame, /source, /attachments) or a query (?revision=, ?edit).

    build(folder)       fresh wiki in folder: settings.cfg, `git init` of repository/, then
                        (generator: deterministic for n_pages, seed) Otterwiki's first start
                        (its "Initial commit" of the Home page and the database), the 20
                        authors and an admin as Otterwiki's `flask user create` makes them
                        (approved, with write and upload rights; no passwords), and every
                        page's revisions and attachments as commits in time order through
                        Otterwiki's own storage (`GitStorage.store`, as its editor saves),
                        each by its author and dated by the generator
    serve(folder)       `otterwiki.server:app` under waitress (threaded), read-only, on a free
                        port; yields the home URL (/, the Home page)
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every UCC page

otterwiki and waitress live in a venv of their own, named by ARCHIVER_OTTERWIKI_VENV
(default: owvenv in the temporary directory, /tmp/owvenv; Python 3.11 was used), and
GitPython needs git on PATH; `available()` says how to make them. Everything the site runs
goes through the helper script HELPER (its shared parts: `benchmarks.realsite.helpertext`),
run by that venv's python. The server is read-only: 405 to anything but GET and HEAD, and a
guest may not write (403 on every write view's GET). The repository does not change while it
serves; Otterwiki does write its table-of-contents cache (the `cache` table of its SQLite
database) on page views and keeps the visited pages in the session cookie, as on any
deployment. waitress's threads take the connections, but the application answers one
request at a time (a lock), as under the uWSGI of Otterwiki's Docker image (one worker, one
thread): its storage's GitPython repository is shared and not thread-safe, and concurrent
requests garbled its `git cat-file --batch` pipe (500s) when tried with four threads. The
crawlers here fetch one URL at a time anyway. Some views are slow at this size: a top-level
page reads the heading of every page for its sidebar (about 0.4 s), the A-Z index about 8 s,
/sitemap.xml about 25 s.

The UCC (`entities`): every page the wiki's users wrote, in its current view: the Home page
(at / and /Home: "home"), the twelve section pages (/Woodwork), the articles under a section
(/Woodwork/Notes%20on%20the%20lathe%20map), at the top level (/Oven%20checklist) or under
another article (/Woodwork/Notes%20on%20the%20lathe%20map/Tent%20paper, at most three levels):
"page". A page's current view has other URLs: /PATH/view, /PATH/ with a trailing slash,
/PATH.md, any case (Otterwiki looks the file up lowercased), and the sidebar's unquoted
spaces; all are that page. Not UCC: a page's history (/PATH/history: every commit of it, with
author, date and message, linking each revision and commit), blame (/PATH/blame, also at a
revision), source (/PATH/source, ?raw: the Markdown), old revisions (/PATH?revision=SHA and
/PATH/view/SHA: noindex; the newest one too, as a revision view), diffs (/PATH/diff/A/B) and
commits (/-/commit/SHA) repeat the page's text or its changes; the changelog (/-/changelog:
100 commits a page, every page, commit and attachment revision linked, its RSS and Atom
feeds), the A-Z page index (/-/index), the attachments (/PATH/attachments, each file's page
/PATH/attachment/NAME and the files /PATH/NAME, /PATH/a/NAME: a few lines of text each),
search, login, Otterwiki's own help, about and syntax pages, and the pages never written (a
wiki link to one answers 404 "not found" with a "create" link to the editor, 403 for a
guest). As on the other wikis, the page, not its history or source, is the UCC.

What a guest meets on a page: the navbar (the site name to /, the page's tools "Attachments",
"History", "Blame", "View Source"; "Edit" and the rename and delete tools are shown to
writers only; "Changelog", "Help", "Login" (/-/login: no "Register", registration being
disabled)), the sidebar ("Home", "A - Z" (/-/index), the search form (POST /-/search: no link)
and the "Page Index" tree: every page of the page's own folder and below, i.e. on a
top-level page (the Home page included) every page of the wiki, each as /PATH with its
spaces unquoted), the breadcrumbs (each ancestor), the text (wiki links [[Title|Path]] as
/Path) and "An Otter Wiki" (/-/about). The history, blame, source, attachments, changelog,
commit, diff, revision, login and index views say `<meta name="robots" content="noindex,
nofollow">` (GNU wget obeys it there and follows none of their links; the archiver's
crawlers read it as a signal and follow them); a page's current view says neither. robots.txt
is "User-agent: * / Allow: /"; /sitemap.xml lists every page (no page links it; the crawlers
here do not read it unless told).

    python -m benchmarks.realsite.otterwiki /tmp/owbench    # build, serve, smoke test
"""

from __future__ import annotations

import calendar
import contextlib
import datetime as dt
import os
import random
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import requests

from benchmarks.realsite.djangowiki import MESSAGES, SECTIONS
from benchmarks.realsite.helpertext import MAIN, SERVE
from benchmarks.realsite.php import (
    build_helper_site,
    entity_rows,
    entity_urls,
    loopback_path,
    print_link_types,
    same_host_links,
    serve_helper,
    smoke_fetch,
    smoke_site,
    venv_missing,
    write_files,
)
from benchmarks.realsite.words import FIRST, LAST, NOUNS, PLACES
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence

VENV = Path(os.environ.get("ARCHIVER_OTTERWIKI_VENV")
            or Path(tempfile.gettempdir()) / "owvenv")
OTTERWIKI_VERSION = "2.26.1"
INSTALL = (f"python3.11 -m venv {VENV} && {VENV}/bin/pip install "
           f"otterwiki=={OTTERWIKI_VERSION} waitress  (Python 3.11.7 as tested; git on PATH)")
VERSION = 1  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"page", "home"}
TARGET_TYPE = "page"  # source-target's example is an article
DESCRIPTION = ("An Otter Wiki 2.26.1 on Flask 3.1 (its installation guide's settings.cfg, its "
               "defaults, guests read, approved users write, registration disabled; pages as "
               "Markdown files in git), {size} generated pages in sections and subpages, "
               "written as commits by 20 authors (`benchmarks/realsite/otterwiki.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("page", "home", "revision", "history", "blame", "diff", "commit", "source",
              "changelog", "index", "attachments", "attachment", "search", "login", "write",
              "help", "feed", "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): the Home
# page is a page (page.html), and so is an old revision, told apart by its ?revision= only
SAME_TEMPLATE: dict[str, str] = {"home": "page", "revision": "page"}
SITE_NAME = "Workbench Wiki"
HOME = "home"  # the Home page's file name (home.md) without ".md"
# The page routes of otterwiki/views.py, /<path>/SUFFIX, by page type ("": the page itself)
SUFFIXES = {"view": "", "history": "history", "blame": "blame", "source": "source",
            "attachments": "attachments", "edit": "write", "save": "write",
            "preview": "write", "draft": "write", "rename": "write", "delete": "write",
            "inline_attachment": "write"}
# ... and /<path>/SUFFIX/ARG (a revision, an attachment's name)
SUFFIXES_ARG = {"view": "revision", "blame": "blame", "source": "source", "edit": "write",
                "attachment": "attachments", "a": "attachment", "t": "attachment",
                "draft": "write"}
# The wiki's own views, /-/NAME[/...]
SPECIAL = {"changelog": "changelog", "log": "changelog", "commit": "commit",
           "revert": "write", "index": "index", "search": "search", "create": "write",
           "login": "login", "register": "login", "logout": "login",
           "lost_password": "login", "confirm_email": "login", "recover_password": "login",
           "request_confirmation_link": "login", "settings": "login", "about": "help",
           "help": "help", "syntax": "help", "admin": "admin", "user": "admin",
           "housekeeping": "admin"}
STATIC_PATHS = ("/favicon.ico", "/robots.txt", "/manifest.webmanifest",
                "/-/plugin-static.css")

SETTINGS = """# written by benchmarks/realsite/otterwiki.py: An Otter Wiki's settings.cfg
# (OTTERWIKI_SETTINGS), as its installation guide writes it, for a public read-only wiki
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.join(HERE, "repository")
SQLALCHEMY_DATABASE_URI = "sqlite:///" + os.path.join(HERE, "otterwiki.sqlite")
SECRET_KEY = "realsite-bench-secret-of-the-otter-wiki"  # fixed: the same cookies each build
SITE_NAME = "Workbench Wiki"
# guests read (the default); approved users write and upload; nobody signs up
READ_ACCESS = "ANONYMOUS"
WRITE_ACCESS = "APPROVED"
ATTACHMENT_ACCESS = "APPROVED"
DISABLE_REGISTRATION = True
AUTO_APPROVAL = False
"""

HELPER = '''"""Run by benchmarks/realsite/otterwiki.py with An Otter Wiki's venv (python -I), in the
site's folder: "install" (git init), "content" (the JSON spec on stdin; writes
entities.jsonl), "serve PORT THREADS" (read-only, GET and HEAD only)."""
import json
import os
import subprocess
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")
os.environ["OTTERWIKI_SETTINGS"] = os.path.join(HERE, "settings.cfg")


def at(ts, name, email):
    """The next commit's author, committer and date (GitPython reads them from the
    environment): the generator's, not the machine's git configuration."""
    os.environ["GIT_AUTHOR_DATE"] = os.environ["GIT_COMMITTER_DATE"] = "%d +0000" % ts
    os.environ["GIT_COMMITTER_NAME"], os.environ["GIT_COMMITTER_EMAIL"] = name, email


def install():
    subprocess.run(["git", "init", "-q", os.path.join(HERE, "repository")], check=True)


def content(spec):
    at(spec["start"], "Otterwiki Robot", "noreply@otterwiki")
    from otterwiki.server import app, storage  # the first start: "Initial commit", the db
    from otterwiki.helper import get_filename

    runner = app.test_cli_runner()
    for u in spec["users"]:
        args = ["user", "create", u["email"], u["name"], "-f", "email_confirmed,approved",
                "-p", u["permissions"]]
        done = runner.invoke(args=args)
        if done.exit_code != 0:
            raise SystemExit("flask user create %s: %s" % (u["email"], done.output))
    for e in spec["events"]:
        at(e["ts"], e["user"], e["email"])
        if not storage.store(e["file"], e["text"], message=e["message"],
                             author=(e["user"], e["email"])):
            raise SystemExit("nothing to commit: %s at %s" % (e["file"], e["ts"]))
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for p in spec["pages"]:
            file = get_filename(p["name"])
            assert file == p["file"] and storage.exists(file), (file, p["file"])
            row = dict(p, revisions=len(storage.log(file)))
            out.write(json.dumps(row) + "\\n")


def serve(port, threads):
    import threading

    from otterwiki.server import app

    lock = threading.Lock()

    def one_at_a_time(environ, start_response):
        """The wiki answers one request at a time, as under its Docker image's uWSGI (one
        worker): its storage's GitPython repository is not thread-safe (concurrent reads
        garble its `git cat-file --batch` pipe)."""
        with lock:
            response = app(environ, start_response)
            try:
                return [b"".join(response)]
            finally:
                getattr(response, "close", lambda: None)()

    serve_read_only(one_at_a_time, port, threads, "otterwiki")
''' + SERVE + MAIN

# What the wiki is about: a shared workshop's know-how (the words of
# `benchmarks.realsite.words`), in django-wiki's sections
PERMISSIONS = "read,write,upload"


def _title(rng: random.Random) -> str:
    a, b = rng.choice(NOUNS), rng.choice(NOUNS)
    return rng.choice([f"{a.capitalize()} and {b}", f"Notes on the {a} {b}",
                       f"{a.capitalize()} {b}", f"How to fix the {a}",
                       f"{a.capitalize()} {b} in {rng.choice(PLACES)}",
                       f"{a.capitalize()} checklist"])


def _url(name: str) -> str:
    """A page's URL path as Otterwiki's wiki links write it: /NAME, quoted ("/" kept)."""
    return "/" + quote(name, safe="/")


def _body(rng: random.Random, title: str, links: list[str], extra: list[str]) -> list[str]:
    """A page's Markdown as blocks: its title ("# Title", which Otterwiki shows as the page's
    name), an introduction, `extra` blocks, two to five sections of paragraphs (some with a
    list) and the `links` (wiki links) spread over the paragraphs."""
    blocks = [f"# {title}", _paragraph(rng, (2, 4)), *extra]
    for _ in range(rng.randint(2, 5)):
        blocks.append(f"## {rng.choice(NOUNS).capitalize()} {rng.choice(NOUNS)}")
        blocks.append(_paragraph(rng, (2, 6)))
        if rng.random() < 0.3:
            blocks.append("\n".join(f"- {_sentence(rng, (3, 8))}"
                                    for _ in range(rng.randint(2, 5))))
    paras = [k for k, b in enumerate(blocks) if k and not b.startswith(("#", "-", "**"))]
    for link in links:
        blocks[rng.choice(paras)] += f" See {link}."
    return blocks


def _wikilink(title: str, name: str) -> str:
    return f"[[{title}|{name}]]"


def generate(n_pages: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """A wiki of `n_pages` pages written by 20 users over two years: the Home page (the
    sections, as a list of wiki links), twelve section pages (/Woodwork, each listing most
    of its articles) and the articles: about two thirds under a section (/Section/Title),
    one in seven at the top level (/Title) and the rest under an article of depth 1 or 2
    (/Section/Title/Title, at most three levels; a parent lists its subpages six times in
    ten). Titles are unique among siblings (Otterwiki's page files are lowercased). Every
    page has one to six revisions (the first by its author, the others by any of the
    users), dated after its parent's first; an article has wiki links to up to four other
    pages and, one in twenty, to a page never written; one in ten has an attached .txt file
    (replaced once in a third of them), linked from its last revision. `events` are every
    commit in time order (`start`: Otterwiki's own "Initial commit" of the Home page, a day
    before the first)."""
    rng = random.Random(seed)
    users = []
    for first, last in zip(FIRST, rng.sample(LAST * 2, 20), strict=True):
        users.append({"name": f"{first} {last}", "permissions": PERMISSIONS,
                      "email": f"{first}.{last}@example.org".lower()})
    users.append({"name": "Wiki Admin", "email": "admin@example.org", "permissions": "admin"})
    authors = users[:20]
    start = now - dt.timedelta(days=2 * 365)
    pages: list[dict[str, Any]] = [{"name": "Home", "title": SITE_NAME, "parent": None,
                                    "depth": 0, "kind": "home"}]
    n_sections = max(0, min(len(SECTIONS), n_pages - 1))
    pages += [{"name": s, "title": s, "parent": 0, "depth": 1, "kind": "section"}
              for s in SECTIONS[:n_sections]]
    taken = {p["name"].lower() for p in pages}
    while len(pages) < n_pages:
        r = rng.random()
        articles = [i for i, p in enumerate(pages) if p["kind"] == "article"
                    and p["depth"] <= 2]
        if r < 0.2 and articles:
            parent = rng.choice(articles)
        elif r < 0.34 or not n_sections:
            parent = 0
        else:
            parent = rng.randint(1, n_sections)
        title = first_title = _title(rng)
        prefix = "" if parent == 0 else pages[parent]["name"] + "/"
        n = 1
        while (prefix + title).lower() in taken:
            n += 1
            title = f"{first_title} {n}"
        taken.add((prefix + title).lower())
        pages.append({"name": prefix + title, "title": title, "parent": parent,
                      "depth": 1 if parent == 0 else pages[parent]["depth"] + 1,
                      "kind": "article"})
    children: dict[int, list[int]] = {}
    for i, p in enumerate(pages):
        if p["parent"] is not None:
            children.setdefault(p["parent"], []).append(i)
    span = (now - dt.timedelta(days=1) - start) / max(1, n_pages)
    created = [start + span * i + dt.timedelta(minutes=rng.randint(1, 600))
               for i in range(len(pages))]
    events: list[dict[str, Any]] = []
    rows = []
    article_ids = [i for i, p in enumerate(pages) if p["kind"] == "article"]
    for i, p in enumerate(pages):
        extra: list[str] = []
        links: list[str] = []
        if p["kind"] == "home":
            extra = ["**Sections of the wiki:**", "\n".join(
                f"- {_wikilink(pages[k]['title'], pages[k]['name'])}"
                for k in children.get(0, []) if pages[k]["kind"] == "section")]
        elif p["kind"] == "section":
            listed = [k for k in children.get(i, []) if rng.random() < 0.8]
            extra = ["**Pages in this section:**", "\n".join(
                f"- {_wikilink(pages[k]['title'], pages[k]['name'])}" for k in listed)
                or "(none yet)"]
        else:
            kids = children.get(i, [])
            if kids and rng.random() < 0.6:
                extra = ["**Subpages:**", "\n".join(
                    f"- {_wikilink(pages[k]['title'], pages[k]['name'])}" for k in kids)]
            others = [k for k in article_ids if k != i]
            links = [_wikilink(pages[k]["title"], pages[k]["name"])
                     for k in sorted(rng.sample(others, min(len(others), rng.randint(0, 4))))]
            if rng.random() < 0.05:  # a page never written
                wanted = f"{rng.choice(NOUNS).capitalize()} {rng.choice(PLACES)} guide"
                links.append(_wikilink(wanted, f"{p['name']}/{wanted}"))
        blocks = _body(rng, p["title"], links, extra)
        n_revs = rng.choices([1, 2, 3, 4, 5, 6], [3, 4, 3, 2, 1, 1])[0]
        author = authors[i % 20] if p["kind"] != "article" else rng.choice(authors)
        when = created[i]
        if p["parent"] is not None:
            when = max(when, created[p["parent"]] + dt.timedelta(minutes=1))
        file = p["name"].lower() + ".md"
        saves = []
        for k in range(n_revs):
            if k:
                when = min(now - dt.timedelta(minutes=n_revs - k),
                           when + dt.timedelta(hours=rng.expovariate(1 / 300)))
                j = rng.randrange(1, len(blocks))
                if blocks[j].startswith(("#", "-", "**")) or rng.random() < 0.4:
                    blocks.append(_paragraph(rng, (1, 3)))  # a paragraph more
                else:
                    kept = "".join(f" See {link}." for link in links
                                   if f" See {link}." in blocks[j])
                    blocks[j] = _paragraph(rng, (2, 5)) + kept  # rewritten, links kept
            editor = author if not k else rng.choice(authors)
            saves.append({"file": file, "user": editor["name"], "email": editor["email"],
                          "ts": calendar.timegm(when.utctimetuple()),
                          "message": (f"Created {p['title']}" if not k
                                      else rng.choice([m for m in MESSAGES if m])),
                          "text": "\n\n".join(blocks) + "\n"})
        attachments = 0
        if p["kind"] == "article" and rng.random() < 0.1:
            name = f"{rng.choice(NOUNS)}-{rng.choice(['notes', 'list', 'plan'])}.txt"
            attachments = 1
            saves[-1]["text"] += f"\nThe list: [{name}]({_url(p['name'])}/{name})\n"
            for k in range(rng.choice([1, 1, 2])):
                at = when + dt.timedelta(hours=k + 1)
                editor = rng.choice(authors)
                saves.append({"file": f"{p['name'].lower()}/{name}", "user": editor["name"],
                              "email": editor["email"],
                              "ts": calendar.timegm(at.utctimetuple()),
                              "message": f"{'Uploaded' if not k else 'Replaced'} {name}",
                              "text": "\n".join(_sentence(rng)
                                                for _ in range(rng.randint(3, 8))) + "\n"})
        events += saves
        rows.append({"type": "home" if p["kind"] == "home" else "page",
                     "path": "/" if p["kind"] == "home" else _url(p["name"]),
                     "name": p["name"], "file": file, "kind": p["kind"], "depth": p["depth"],
                     "author": author["name"], "attachments": attachments})
    events.sort(key=lambda e: e["ts"])  # stable: a page's saves keep their order
    return {"site_name": SITE_NAME, "users": users, "events": events, "pages": rows,
            "start": calendar.timegm((start - dt.timedelta(days=1)).utctimetuple())}


def available() -> str | None:
    """None if An Otter Wiki's venv is there (and git), else how to make it."""
    missing = venv_missing(VENV, "otterwiki", OTTERWIKI_VERSION, "ARCHIVER_OTTERWIKI_VENV",
                           INSTALL)
    if missing is None and shutil.which("git") is None:
        return "needs git on PATH (Otterwiki's storage runs it): apt-get install git"
    return missing


def build(folder: Path, n_pages: int = 300, seed: int = 0) -> Path:
    """Build a fresh wiki in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_pages": n_pages, "seed": seed, "version": VERSION},
        "An Otter Wiki site", HELPER, lambda now: generate(n_pages, seed, now),
        write_files({"settings.cfg": SETTINGS}))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the wiki built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "otterwiki") as seed:
        yield seed


def page_type(url: str) -> str:
    """Ground truth from the URL alone (otterwiki/views.py's routes), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/..., /favicon.ico, /robots.txt, /manifest.webmanifest, /-/plugin-static.css:
      "static"
    - /sitemap.xml, /-/changelog/feed.rss and feed.atom: "feed"
    - /-/NAME/...: by SPECIAL (changelog and log, with or without a revision: "changelog";
      commit/SHA: "commit"; index; search; create and revert: "write"; login, register,
      logout, lost_password, confirm_email, recover_password, request_confirmation_link,
      settings: "login"; about, help, syntax: "help"; admin, user, housekeeping: "admin");
      anything else there (healthz, api, plugin): "other"
    - /.git..., /.well-known/...: "other"
    - /PATH/diff/A/B: "diff"; /PATH/SUFFIX/ARG by SUFFIXES_ARG (view/SHA: "revision";
      blame/SHA: "blame"; source/SHA: "source"; attachment/NAME: "attachments" (a file's
      page); a/NAME and t/NAME (a file, its thumbnail), and a/NAME/SHA: "attachment";
      edit/SHA, draft/discard: "write"); /PATH/SUFFIX by SUFFIXES (history, blame, source,
      attachments; edit, save, preview, draft, rename, delete, inline_attachment: "write";
      view: the page itself, below)
    - a last segment with a dot, not ".md" (page names have none: Otterwiki drops dots
      from them): an attached file, "attachment"
    - the page itself (PATH, / being the Home page): ?edit: "write"; ?revision=SHA:
      "revision"; the Home page (/, /Home, /home.md, any case): "home"; else "page" (a page
      never written too)."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if path in STATIC_PATHS or (segs and segs[0] == "static"):
        return "static"
    if path in ("/sitemap.xml", "/-/changelog/feed.rss", "/-/changelog/feed.atom"):
        return "feed"
    if segs and segs[0] == "-":
        return SPECIAL.get(segs[1].strip(), "other") if len(segs) > 1 else "other"
    if segs and segs[0] in (".git", ".well-known"):
        return "other"
    kind = _view(segs)
    if kind is not None:
        return kind
    if segs and "." in segs[-1] and not segs[-1].lower().endswith(".md"):
        return "attachment"
    query = parse_qs(urlsplit(url).query, keep_blank_values=True)
    if "edit" in query:
        return "write"
    if "revision" in query:
        return "revision"
    return "home" if _name(segs) == HOME else "page"


def _view(segs: list[str]) -> str | None:
    """The page type of /PATH/SUFFIX[/ARG] URLs (a page path of one segment or more before
    the suffix), None for a page's own path (/PATH and /PATH/view)."""
    if len(segs) >= 4 and segs[-3] == "diff":
        return "diff"
    if len(segs) >= 3 and segs[-2] in SUFFIXES_ARG:
        if segs[-2] == "draft":
            return "write" if segs[-1] == "discard" else None
        return SUFFIXES_ARG[segs[-2]]
    if len(segs) >= 4 and segs[-3] in ("a", "t"):  # a/NAME/SHA (a file's old revision),
        return "attachment"                       # t/NAME/SIZE (a thumbnail's size)
    if len(segs) >= 2 and segs[-1] in SUFFIXES:
        return SUFFIXES[segs[-1]] or None
    return None


def _name(segs: list[str]) -> str:
    """A page's name as Otterwiki finds its file: the segments lowercased, a final ".md"
    dropped ("" is the Home page); segs end with "view" for /PATH/view."""
    if len(segs) >= 2 and segs[-1] == "view":
        segs = segs[:-1]
    name = "/".join(segs).lower()
    name = name.removesuffix(".md")
    return name or HOME


def entity_of(url: str) -> str | None:
    """The page a URL shows: "page NAME" (NAME the page's path lowercased, as its file is
    named: "page woodwork/notes on the lathe map"; / and /Home are "page home"; /PATH/view,
    a trailing slash, /PATH.md and a query other than ?revision= or ?edit do not change
    it); None for anything else (an old revision included)."""
    if page_type(url) not in UCC_TYPES:
        return None
    _, segs = loopback_path(url) or ("/", [])
    return f"page {_name(segs)}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every UCC page (/, /Woodwork, /Woodwork/Glue%20notes, ...); give the server
    (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: UCC pages by kind and depth, revisions per page (as
    Otterwiki's log counts them: the Home page's include its initial commit), authors,
    pages with attachments."""
    rows = entity_rows(folder)
    return {"pages": len(rows), "by_kind": dict(Counter(r["kind"] for r in rows)),
            "by_depth": dict(sorted(Counter(r["depth"] for r in rows).items())),
            "revisions": dict(sorted(Counter(r["revisions"] for r in rows).items())),
            "commits_of_pages": sum(r["revisions"] for r in rows),
            "authors": len({r["author"] for r in rows}),
            "with_attachments": sum(1 for r in rows if r["attachments"])}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "pages", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        page = next(u for u in ucc if urlsplit(u).path.count("/") >= 3)
        page_links = same_host_links(requests.get(page, timeout=30).content, page)
        path = urlsplit(page).path
        first = {page_type(u): u for u in sorted(home_links | page_links, reverse=True)}
        smoke_fetch([seed, page, *first.values(), f"{server}{path}/history",
                     f"{server}{path}/blame", f"{server}{path}/source",
                     f"{server}{path}/source?raw", f"{server}{path}/attachments",
                     f"{server}{path}/view", f"{server}{path}?edit", f"{server}{path}/edit",
                     f"{server}/-/changelog", f"{server}/-/index", f"{server}/-/search/bread",
                     f"{server}/-/login", f"{server}/-/register", f"{server}/-/create",
                     f"{server}/robots.txt", f"{server}/sitemap.xml",
                     f"{server}/No%20such%20page"], page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (page, page_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
