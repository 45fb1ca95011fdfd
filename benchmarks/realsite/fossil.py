"""A real Fossil 2.21 project site (Debian's `fossil`) on 127.0.0.1: a forum, a wiki, tickets
and a source repository, with generated threads, pages, tickets and check-ins.

Fossil is the software configuration manager of SQLite, Tcl/Tk and many smaller projects; one
executable serves a project's forum, wiki, tickets and code. For an archive it is Trac's
trap and more: every forum post has its own URLs that show the whole thread (under a 10- and
a 16-digit hash and /info/HASH, in four display modes), every wiki page its
history, each version and the diffs between versions, every ticket its history and timeline,
and the repository a page for every check-in, directory, file version, annotation and diff,
with a tarball and a ZIP of each check-in; the timeline pages back through every day of the
project. What an archivist wants is the forum's threads, the wiki pages and the tickets.

    build(folder)       fresh site in folder: `fossil init`, check-ins of a small C project
                        made with `fossil commit` over two years (a branch, release tags),
                        then the forum posts, wiki page versions and ticket changes written
                        as Fossil control artifacts (`fossil test-content-put`, `fossil
                        rebuild`) from a generator (deterministic for n_threads, seed)
    serve(folder)       `fossil server` on a copy of the repository on a free port; yields
                        the home URL
    page_type(url)      ground truth from the URL alone (a forum post's hash: from the build)
    entities(folder)    URLs of every forum thread, project wiki page and ticket (the UCC)

Visitors who are not logged in ("nobody") may read the forum, the wiki, the tickets and the
code and download archives, and see hyperlinks ("gjorz2h": Fossil's default "gjorz" plus
reading the forum and hyperlinks, as a project with a public forum sets it; without "h"
Fossil writes links with JavaScript for visitors that look human, and a crawler sees none).
The UCC (`entities`): every forum thread (any post's page shows the thread it is in: the
key is the thread's first post), every wiki page the project wrote (/wiki?name=NAME), and
every ticket (/tktview/HASH). Not UCC: the home page (the wiki page named after the project,
also /home and /index), the check-ins and everything else.

What a visitor meets: the main menu on every page (Home, Timeline, Files, Branches, Tags,
Forum, Tickets, Wiki, Login, the site map), the forum's index (25 threads a page, "Older"
links), a thread's posts with each post's links (its page, ?raw, the author's timeline),
/wcontent (every wiki page), each wiki page's history, each version (/info/HASH) and diffs
(/wdiff), the ticket report (/rptview/1: every ticket), each ticket's history, timeline and
plain-text view, and the repository's pages. robots.txt: 404 (as Fossil ships).

    python -m benchmarks.realsite.fossil /tmp/fobench    # build, serve, smoke test
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote_plus, urlsplit

import requests

from benchmarks.realsite.php import (
    entity_rows,
    entity_urls,
    loopback_path,
    print_link_types,
    process_server,
    reuse_or_clear,
    run_checked,
    same_host_links,
    smoke_fetch,
    smoke_site,
)
from benchmarks.realsite.words import (
    FORUM_TITLES,
    NOUNS,
    forum_replies,
    forum_users,
    paragraph,
    sentence,
    thread_times,
    wiki_names,
    wiki_page,
)

FOSSIL = shutil.which("fossil") or "/usr/bin/fossil"
FOSSIL_VERSION = "2.21"
INSTALL = "apt-get install --no-install-recommends fossil"
VERSION = 1  # of the generator; part of the reuse marker
UCC_TYPES = {"thread", "wiki", "ticket"}
TARGET_TYPE = "thread"  # source-target's example is a forum thread
DESCRIPTION = ("Fossil 2.21 (Debian's; visitors read the forum, wiki, tickets and code), "
               "{size} generated forum threads, the project's wiki, tickets and check-ins "
               "(`benchmarks/realsite/fossil.py`)")
TYPE_ORDER = ("thread", "wiki", "ticket", "home", "forum", "wikiindex", "history",
              "revision", "info", "report", "timeline", "code", "download", "login", "help",
              "static", "other")
SAME_TEMPLATE: dict[str, str] = {}
SITE_NAME = "Larkspur"
NOBODY = "gjorz2h"

# Pages by their first path segment (Fossil's web pages, `fossil help -w`)
PAGES = {
    "forum": "forum", "forummain": "forum",
    "wcontent": "wikiindex", "wfind": "wikiindex",
    "whistory": "history", "tkthistory": "history", "finfo": "history",
    "wdiff": "revision", "fdiff": "revision", "vdiff": "revision", "vpatch": "revision",
    "annotate": "revision", "blame": "revision", "praise": "revision",
    "artifact": "revision", "hexdump": "revision",
    "info": "info", "ci": "info", "vinfo": "info", "winfo": "info", "tinfo": "info",
    "ainfo": "info",
    "ticket": "report", "reportlist": "report", "rptview": "report", "reports": "report",
    "timeline": "timeline", "tkttimeline": "timeline", "brtimeline": "timeline",
    "tagtimeline": "timeline", "thisdayinhistory": "timeline", "timewarps": "timeline",
    "dir": "code", "tree": "code", "file": "code", "doc": "code", "brlist": "code",
    "taglist": "code", "leaves": "code", "fileage": "code", "stat": "code",
    "tarball": "download", "zip": "download", "sqlar": "download", "raw": "download",
    "download": "download", "uv": "download", "uvlist": "download",
    "login": "login", "register": "login", "tktnew": "login", "tktedit": "login",
    "wikiedit": "login", "wikinew": "login", "wikiappend": "login", "forumnew": "login",
    "forume1": "login", "forume2": "login", "forumedit": "login", "setup_config": "login",
    "my": "login", "reqpwreset": "login", "contact_admin": "login", "subscribe": "login",
    "alerts": "login", "ci_edit": "login", "fileedit": "login", "technoteedit": "login",
    "attachadd": "login", "eventedit": "login",
    "sitemap": "help", "help": "help", "wikihelp": "help", "wiki_rules": "help",
    "md_rules": "help", "markup_help": "help", "version": "help", "skins": "help",
    "search": "help", "wikisrch": "help", "tktsrch": "help", "docsrch": "help",
    "style.css": "static", "builtin": "static", "logo": "static", "background": "static",
    "favicon.ico": "static", "script.js": "static",
}

# The shared C project the check-ins edit
SOURCES = ["src/station.c", "src/station.h", "src/parse.c", "src/parse.h", "src/units.c",
           "src/units.h", "src/archive.c", "src/cli.c", "doc/manual.md", "doc/format.md",
           "tests/test_parse.c", "tests/test_units.c", "Makefile", "README.md", "COPYING"]
TICKET_TYPES = ["Code_Defect"] * 5 + ["Build_Problem", "Documentation", "Feature_Request",
                                      "Feature_Request", "Incident"]
SEVERITIES = ["Critical", "Severe", "Important", "Important", "Minor", "Minor", "Cosmetic"]
PRIORITIES = ["Immediate", "High", "Medium", "Medium", "Low", "Zero"]
SUBSYSTEMS = ["parser", "units", "archive", "cli", "docs", "build"]
RESOLUTIONS = ["Fixed"] * 6 + ["Rejected", "Workaround", "Unable_To_Reproduce",
                               "Works_As_Designed", "Not_A_Bug", "Duplicate"]
GUIDES = ["Building", "Installing", "Configuration", "Station Formats", "Unit Conversion",
          "Command Line", "Contributing", "Coding Style", "Release Checklist",
          "Frequently Asked Questions", "Roadmap", "Known Problems"]

# Every post's full hash -> its thread's first post's, read from the build by `entities`
# (`page_type` and `entity_of` need it to tell a post's page from a mistyped hash)
_POSTS: list[str] = []
_ROOT: dict[str, str] = {}


def _encode(text: str) -> str:
    """A control artifact card's argument (Fossil's fossilize: backslash, space, newline)."""
    return text.replace("\\", "\\\\").replace(" ", "\\s").replace("\n", "\\n")


def artifact(cards: list[str], content: str | None = None) -> tuple[bytes, str]:
    """A Fossil control artifact: the cards (in the order the format wants them), the W
    card's `content` when given, and the Z card (MD5 of all before it); returns its bytes and
    its SHA3-256 name, as Fossil's default hash policy names it."""
    text = "".join(card + "\n" for card in cards).encode()
    if content is not None:
        body = content.encode()
        text += f"W {len(body)}\n".encode() + body + b"\n"
    text += b"Z " + hashlib.md5(text).hexdigest().encode() + b"\n"
    return text, hashlib.sha3_256(text).hexdigest()


def _when(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.000")


def _users(rng: random.Random, now: dt.datetime) -> list[str]:
    return [u["username"].lower().replace("_", "-")
            for u in forum_users(rng, now, lambda s: f"*{s}*", 30)]


def _post_text(rng: random.Random, links: list[str]) -> str:
    """A post in Markdown: one to three paragraphs, sometimes a list, sometimes a link to an
    earlier thread, a ticket or a wiki page (`links`: Markdown links to choose from)."""
    out = [paragraph(rng, (1, 4))]
    if rng.random() < 0.3:
        out.append("\n".join(f"- {sentence(rng, (4, 9))}" for _ in range(rng.randint(2, 4))))
    if links and rng.random() < 0.25:
        out.append(f"See {rng.choice(links)}.")
    if rng.random() < 0.4:
        out.append(paragraph(rng, (1, 2)))
    return "\n\n".join(out)


def _wiki(rng: random.Random, n_pages: int, users: list[str], tickets: list[str],
          start: dt.datetime, now: dt.datetime) -> list[dict[str, Any]]:
    """The project's wiki: guides, how-tos and meeting notes (each version a Markdown page
    linking other pages and tickets), three index pages, and the home page (named after the
    project) linking the guides and the indexes."""
    names = list(GUIDES)
    howtos, meetings = wiki_names(rng, n_pages - len(names) - 3, start, now,
                                  howto=lambda a, b: f"HowTo {a} {b}",
                                  meeting=lambda day: f"Meeting {day:%Y-%m-%d}", share=0.55)
    written = names + howtos + meetings
    pages = []

    def link(name: str) -> str:
        return f"[{name}](/wiki?name={quote_plus(name)})"

    def page(name: str, text: str | None = None, first: dt.datetime | None = None) -> None:
        t = first or start + dt.timedelta(days=rng.uniform(0, (now - start).days - 2))
        versions = []
        for _ in range(1 if text else rng.choice([1, 1, 2, 2, 3, 4, 6])):
            body = text or wiki_page(rng, name, rng.sample(written, rng.randint(0, 3)), 0,
                                     heading=lambda s, n: f"{'#' * n} {s}", bullet="- ",
                                     link=link)
            if tickets and rng.random() < 0.4:
                body += f"\nTracked in [ticket](/tktview/{rng.choice(tickets)[:10]}).\n"
            versions.append({"text": body, "user": rng.choice(users), "time": _when(t)})
            t = min(t + dt.timedelta(days=rng.uniform(0.1, 60)), now - dt.timedelta(hours=1))
        pages.append({"name": name, "versions": versions})

    for name in names + howtos:
        page(name)
    for name in meetings:
        page(name, first=dt.datetime.fromisoformat(name.split()[1] + "T18:00:00"))

    def index(name: str, members: list[str], intro: str) -> None:
        listed = [m for m in members if rng.random() < 0.9]
        page(name, "\n".join([f"# {name}", "", intro, ""]
                             + [f"- {link(m)}" for m in sorted(listed)]) + "\n")

    index("How-tos", howtos, "Short recipes written by the community.")
    index("Meetings", meetings, "Notes of the developers' monthly calls.")
    index("Guides", names, "The documentation, guide by guide.")
    home = "\n".join([
        f"# {SITE_NAME}", "",
        f"{SITE_NAME} reads and archives the data of amateur weather stations. This site is "
        "its forum, documentation, tickets and code.", "",
        "## Documentation", ""] + [f"- {link(g)}" for g in ["Guides", *GUIDES[:6]]]
        + ["", "## Community", "", "- [Forum](/forum)", f"- {link('How-tos')}",
           f"- {link('Meetings')}", "- [Open tickets](/rptview/1)", "",
           "Every page: [the wiki's index](/wcontent)."]) + "\n"
    pages.append({"name": SITE_NAME, "versions": [{"text": home, "user": users[0],
                                                   "time": _when(start)}]})
    return pages


def generate(n_threads: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """Two years of a project: check-ins (`commits`: message, user, time, files touched,
    branch and tag), forum threads with replies answering earlier posts, tickets with their
    follow-up comments and status changes, and a wiki of about one page for every five
    threads. Forum posts, wiki versions and ticket changes are control artifacts
    (`artifacts`: bytes as Latin-1 text, in the order Fossil must receive them)."""
    rng = random.Random(seed)
    users = _users(rng, now)
    start = (now - dt.timedelta(days=730)).replace(hour=9, minute=0, second=0, microsecond=0,
                                                   tzinfo=None)
    end = now.replace(tzinfo=None) - dt.timedelta(hours=1)
    commits = []
    for i in range(80):
        t = start + dt.timedelta(days=730 * i / 80 + rng.uniform(0, 3))
        commits.append({"time": t.strftime("%Y-%m-%d %H:%M:%S"), "user": rng.choice(users[:6]),
                        "message": sentence(rng, (4, 10)),
                        "files": rng.sample(SOURCES, rng.randint(1, 3)),
                        "branch": "unicode-names" if 50 <= i < 58 else "trunk",
                        "tag": f"version-1.{i // 16}" if i % 16 == 15 else ""})
    artifacts: list[tuple[bytes, str]] = []
    rows: list[dict[str, Any]] = []
    tickets = []
    n_tickets = max(20, n_threads // 2)
    for i in range(n_tickets):
        uuid = f"{rng.getrandbits(160):040x}"
        t = start + dt.timedelta(days=730 * i / n_tickets + rng.uniform(0, 2))
        tickets.append(uuid)
        fields = {"comment": paragraph(rng, (1, 4)), "foundin": f"1.{rng.randint(0, 4)}",
                  "priority": rng.choice(PRIORITIES), "private_contact": "",
                  "resolution": "Open", "severity": rng.choice(SEVERITIES), "status": "Open",
                  "subsystem": rng.choice(SUBSYSTEMS),
                  "title": sentence(rng, (4, 9)).rstrip("."), "type": rng.choice(TICKET_TYPES)}
        cards = [f"D {_when(t)}", *(f"J {k} {_encode(v)}".rstrip() for k, v in
                                    sorted(fields.items())), f"K {uuid}", f"U {rng.choice(users)}"]
        artifacts.append(artifact(cards))
        changes = rng.choice([0, 1, 1, 2, 2, 3, 4, 5])
        for c in range(changes):
            t = min(t + dt.timedelta(hours=rng.uniform(1, 500)), end)
            user = rng.choice(users)
            change = {"icomment": paragraph(rng, (1, 3)), "mimetype": "text/x-markdown",
                      "username": user}
            if c == changes - 1 and rng.random() < 0.7:
                change |= {"resolution": rng.choice(RESOLUTIONS), "status": "Closed"}
            cards = [f"D {_when(t)}",
                     *(f"J {'+' if k == 'icomment' else ''}{k} {_encode(v)}"
                       for k, v in sorted(change.items())), f"K {uuid}", f"U {user}"]
            artifacts.append(artifact(cards))
        rows.append({"type": "ticket", "uuid": uuid, "path": f"/tktview/{uuid[:10]}",
                     "changes": changes})
    pages = _wiki(rng, max(20, n_threads // 5), users, tickets, start, end)
    for p in pages:
        parent = ""
        for v in p["versions"]:
            data, name = artifact([f"D {v['time']}", f"L {_encode(p['name'])}",
                                   "N text/x-markdown", *([f"P {parent}"] if parent else []),
                                   f"U {v['user']}"], v["text"])
            artifacts.append((data, name))
            parent = name
        if p["name"] != SITE_NAME:
            rows.append({"type": "wiki", "name": p["name"],
                         "path": f"/wiki?name={quote_plus(p['name'])}",
                         "versions": len(p["versions"])})
    wiki_links = [f"[{p['name']}](/wiki?name={quote_plus(p['name'])})" for p in pages]
    ticket_links = [f"[ticket {u[:10]}](/tktview/{u[:10]})" for u in tickets]
    thread_links: list[str] = []
    for i in range(n_threads):
        first = start + dt.timedelta(days=730 * i / n_threads + rng.uniform(0, 1))
        times = thread_times(rng, first, end, forum_replies(rng), min_gap=1)
        words = {k: rng.choice(NOUNS) for k in "abc"}
        title = rng.choice(FORUM_TITLES).format(**words, **{k.upper(): v.capitalize()
                                                           for k, v in words.items()})
        links = wiki_links + ticket_links + thread_links[-40:]
        posts: list[str] = []
        for k, t in enumerate(times):
            text = _post_text(rng, links)
            if k == 0:
                cards = [f"D {_when(t)}", f"H {_encode(title)}"]
            else:
                parent = posts[-1] if rng.random() < 0.6 else rng.choice(posts)
                cards = [f"D {_when(t)}", f"G {posts[0]}", f"I {parent}"]
            data, name = artifact([*cards, "N text/x-markdown", f"U {rng.choice(users)}"],
                                  text)
            artifacts.append((data, name))
            posts.append(name)
        thread_links.append(f"[{title}](/forumpost/{posts[0][:10]})")
        rows.append({"type": "thread", "root": posts[0], "path": f"/forumpost/{posts[0][:10]}",
                     "posts": posts, "title": title})
    return {"users": users, "commits": commits, "rows": rows,
            "artifacts": [data.decode("latin-1") for data, _ in artifacts]}


def available() -> str | None:
    """None if Debian's fossil 2.21 is installed, else how to install it."""
    try:
        done = subprocess.run([FOSSIL, "version"], capture_output=True, text=True)
    except OSError:
        done = None
    if done is not None and done.returncode == 0 and f"version {FOSSIL_VERSION} " in done.stdout:
        return None
    return f"needs Debian's fossil {FOSSIL_VERSION}: {INSTALL}"


def _source(rng: random.Random, name: str, lines: list[str]) -> str:
    """A file of the C project after one more check-in: a few lines added or changed."""
    for _ in range(rng.randint(2, 8)):
        line = (f"/* {sentence(rng, (3, 8))} */" if name.endswith((".c", ".h"))
                else sentence(rng, (5, 12)))
        if lines and rng.random() < 0.3:
            lines[rng.randrange(len(lines))] = line
        else:
            lines.insert(rng.randint(0, len(lines)), line)
    return "\n".join(lines) + "\n"


def _commit(checkout: Path, spec: dict[str, Any], seed: int) -> None:
    """The check-ins of `spec["commits"]`, in a checkout of the new repository."""
    rng = random.Random(seed + 1)
    files: dict[str, list[str]] = {name: [] for name in SOURCES}
    env = {**os.environ, "USER": "admin"}
    for i, c in enumerate(spec["commits"]):
        previous = spec["commits"][i - 1]["branch"] if i else "trunk"
        if c["branch"] == "trunk" != previous:  # back to trunk: the branch's files merged
            run_checked([FOSSIL, "update", "trunk"], checkout, env=env)
        touched = SOURCES if i == 0 else c["files"]
        for name in SOURCES if c["branch"] != previous else touched:
            path = checkout / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if name in touched:
                path.write_text(_source(rng, name, files[name]))
            else:
                path.write_text("\n".join(files[name]) + "\n")
        if i == 0:
            run_checked([FOSSIL, "add", *SOURCES], checkout, env=env)
        branch = ["--branch", c["branch"]] if c["branch"] not in ("trunk", previous) else []
        tag = ["--tag", c["tag"]] if c["tag"] else []
        run_checked([FOSSIL, "commit", "--no-warnings", "-m", c["message"], "--date-override",
                     c["time"], "--user-override", c["user"], *branch, *tag], checkout,
                    env=env)


def build(folder: Path, n_threads: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    folder = folder.resolve()
    params = {"n_threads": n_threads, "seed": seed, "version": VERSION}
    if reuse_or_clear(folder, params, "repo.fossil", "Fossil site"):
        return folder
    started = time.time()
    repo = folder / "repo.fossil"
    env = {**os.environ, "USER": "admin"}
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    spec = generate(n_threads, seed, now)
    founded = dt.datetime.fromisoformat(spec["commits"][0]["time"]) - dt.timedelta(hours=1)
    run_checked([FOSSIL, "init", "-A", "admin", "--date-override", f"{founded:%Y-%m-%d %H:%M:%S}",
                 str(repo)], folder, env=env)
    settings = {"project-name": SITE_NAME, "project-description":
                "Reads and archives the data of amateur weather stations"}
    for name, value in settings.items():
        run_checked([FOSSIL, "sql", "-R", str(repo), "REPLACE INTO config(name, value, mtime) "
                     f"VALUES('{name}', '{value}', now())"], folder, env=env)
    run_checked([FOSSIL, "user", "capabilities", "nobody", NOBODY, "-R", str(repo)], folder,
                env=env)
    for user in spec["users"][1:]:
        run_checked([FOSSIL, "user", "new", user, f"{user}@example.org", os.urandom(8).hex(),
                     "-R", str(repo)], folder, env=env)
    checkout = folder / "checkout"
    checkout.mkdir()
    run_checked([FOSSIL, "open", str(repo)], checkout, env=env)
    # files rewritten within a second of the last check-in look unchanged by their mtime
    run_checked([FOSSIL, "settings", "mtime-changes", "off"], checkout, env=env)
    _commit(checkout, spec, seed)
    put = folder / "artifact"
    for data in spec["artifacts"]:
        put.write_bytes(data.encode("latin-1"))
        run_checked([FOSSIL, "test-content-put", str(put)], checkout, env=env)
    put.unlink()
    run_checked([FOSSIL, "close", "--force"], checkout, env=env)
    shutil.rmtree(checkout)
    run_checked([FOSSIL, "rebuild", str(repo)], folder, env=env)
    with (folder / "entities.jsonl").open("w") as out:
        for row in spec["rows"]:
            out.write(json.dumps(row) + "\n")
    (folder / "build.json").write_text(json.dumps({
        "params": params, "built_at": time.time(),
        "build_seconds": round(time.time() - started, 1)}))
    return folder


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (`fossil server`, a process per request, on a copy of
    the repository) on a free port; yields the home URL. `workers` is not used: Fossil forks
    for each connection."""
    folder = folder.resolve()
    _load(folder)
    work = Path(tempfile.mkdtemp(prefix="fossil-serve-"))
    try:
        copy = shutil.copyfile(folder / "repo.fossil", work / "repo.fossil")
        with process_server(
                lambda port: [FOSSIL, "server", "--localhost", "--port", str(port), str(copy)],
                folder / "server.log", "/", lambda server: {**os.environ, "USER": "admin"},
                work, "fossil server") as seed:
            yield seed
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _load(folder: Path) -> None:
    """Read the build's forum posts (`_POSTS`, `_ROOT`) for `page_type` and `entity_of`."""
    _load_rows(entity_rows(folder))


def _load_rows(rows: list[dict[str, Any]]) -> None:
    _ROOT.clear()
    for row in rows:
        for post in row.get("posts", []):
            _ROOT[post] = row["root"]
    _POSTS[:] = sorted(_ROOT)


def _post(prefix: str) -> str | None:
    """The full hash of the forum post a hash prefix (at least 4 hex digits) names, None when
    it names none (or more than one)."""
    prefix = prefix.lower()
    if len(prefix) < 4 or any(c not in "0123456789abcdef" for c in prefix):
        return None
    i = bisect.bisect_left(_POSTS, prefix)
    found = _POSTS[i] if i < len(_POSTS) and _POSTS[i].startswith(prefix) else None
    if found is None or (i + 1 < len(_POSTS) and _POSTS[i + 1].startswith(prefix)):
        return None
    return found


def page_type(url: str) -> str:
    """Ground truth from the URL alone (Fossil's web pages), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /, /index, /home and the project's own wiki page: "home"
    - /forumpost/HASH, /forumthread/HASH or /info/HASH of a post of the build: "thread"
      with any query (every post's page shows its whole thread, in each display mode:
      ?t=c chronological, ?t=h hierarchical, ?t=y and ?raw unformatted); another hash
      under /forumpost or /forumthread: "other"
    - /wiki?name=NAME (or /wiki/NAME): "wiki", also with ?p (the wiki index's links; the
      same page); the wiki's own index (/wiki with no name): "wikiindex"; with other
      arguments: "other"
    - /tktview/HASH or /tktview?name=HASH: "ticket"; with ?plaintext or another argument:
      "other"
    - /timeline.rss: "timeline"
    - the other pages by their first segment (PAGES): "forum", "wikiindex", "history",
      "revision", "info", "report", "timeline", "code", "download", "login", "help",
      "static"
    - anything else: "other"."""
    found = loopback_path(url)
    if found is None:
        return "other"
    _, segs = found
    query = parse_qs(urlsplit(url).query, keep_blank_values=True)
    if not segs or (segs[0] in ("index", "home") and len(segs) == 1):
        return "home"
    head = segs[0]
    if head in ("forumpost", "forumthread") or (head == "info" and len(segs) == 2
                                                  and _post(segs[1]) is not None):
        return "thread" if len(segs) == 2 and _post(segs[1]) is not None else "other"
    if head == "wiki":
        names = query.pop("name", []) or (["/".join(segs[1:])] if len(segs) > 1 else [])
        if not names:
            return "wikiindex" if not query else "other"
        if set(query) - {"p"}:
            return "other"
        return "home" if names[0] == SITE_NAME else "wiki"
    if head == "tktview":
        if len(segs) == 1 and query.get("name"):
            query.pop("name")
        elif len(segs) != 2:
            return "other"
        return "ticket" if not query else "other"
    if head == "timeline.rss":
        return "timeline"
    return PAGES.get(head, "other")


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "thread ROOT" (any post's page of the thread whose first
    post is ROOT), "wiki NAME" or "ticket PREFIX" (a ticket's first 10 hash digits); None for
    anything else."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    _, segs = loopback_path(url) or ("", [])
    query = parse_qs(urlsplit(url).query)
    if kind == "thread":
        post = _post(segs[1])
        return f"thread {_ROOT[post]}" if post else None
    if kind == "wiki":
        return f"wiki {query['name'][0] if 'name' in query else '/'.join(segs[1:])}"
    ticket = segs[1] if len(segs) == 2 else query["name"][0]
    return f"ticket {ticket.lower()[:10]}" if len(ticket) >= 10 else None


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every forum thread, project wiki page and ticket, as the site links them
    (/forumpost/HASH10, /wiki?name=NAME, /tktview/HASH10); give the server (e.g.
    "http://127.0.0.1:8123") to get absolute URLs. Reads the build's forum posts for
    `page_type` and `entity_of`."""
    _load(folder)
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: threads, posts per thread, wiki pages, their versions,
    tickets, their follow-up changes."""
    rows = entity_rows(folder)

    def of(kind: str) -> list[dict[str, Any]]:
        return [r for r in rows if r["type"] == kind]

    return {"threads": len(of("thread")),
            "posts": sum(len(r["posts"]) for r in of("thread")),
            "posts_per_thread": dict(sorted(Counter(min(len(r["posts"]), 10)
                                                    for r in of("thread")).items())),
            "wiki_pages": len(of("wiki")),
            "versions_per_page": dict(sorted(Counter(r["versions"] for r in of("wiki")).items())),
            "tickets": len(of("ticket")),
            "changes_per_ticket": dict(sorted(Counter(r["changes"]
                                                      for r in of("ticket")).items()))}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "threads", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        pages = {"home": smoke.home_links}
        for kind in ("thread", "wiki", "ticket"):
            url = next(u for u in ucc if page_type(u) == kind)
            pages[url] = same_host_links(requests.get(url, timeout=30).content, url)
        for url in (f"{server}/timeline", f"{server}/forum", f"{server}/wcontent"):
            pages[url] = same_host_links(requests.get(url, timeout=30).content, url)
        first = {page_type(u): u for links in pages.values() for u in sorted(links,
                                                                              reverse=True)}
        smoke_fetch([seed, *list(pages)[1:], *first.values(), f"{server}/robots.txt"], page_type,
                    follow_redirects=False)
        print_link_types(list(pages.items()), page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
