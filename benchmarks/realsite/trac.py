"""A real Trac 1.6 project site (from PyPI) on 127.0.0.1: a wiki and an issue tracker with
generated tickets, comments and wiki pages.

Trac is the wiki and tracker of many long-running projects (universities' research software,
open-source projects since 2004). For an archive it is the textbook crawler trap: every wiki
page has its history, each version, diffs between versions and a plain-text export; every
ticket its comment history and CSV, TSV and RSS exports; the timeline has a "Previous
Period" link on every page of it, back past the project's first day without end; reports and
queries sort by every column. What an archivist wants is the tickets and the wiki pages the
project wrote.

    build(folder)       fresh site in folder: `trac-admin initenv` (SQLite), then tickets,
                        their comments and status changes, milestones, components and wiki
                        pages with several versions each, written through Trac's own models
                        from a generator (deterministic for n_tickets, seed)
    serve(folder)       the site under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every ticket and of every wiki page the project wrote (the UCC)

Trac and its dependencies (Jinja2) live in a venv of their own, named by ARCHIVER_TRAC_VENV
(default: trvenv in the temporary directory, /tmp/trvenv); `available()` says how to create
it. Everything the site runs goes through the helper script HELPER (its shared part:
`benchmarks.realsite.helpertext`), run by that venv's python. The server answers 405 to
anything but GET and HEAD, and serves a copy of the environment made when it starts: a Trac
writes an anonymous visitor's session (the last query it ran, which ticket pages then link as
"Back to Query", "Previous Ticket" and "Next Ticket") to its database, so each serve starts
from the same site and a crawl's session cannot change what the next crawl sees.

The permissions are Trac's defaults for anonymous visitors (view everything, change nothing),
as on most public Trac sites. The UCC (`entities`): every ticket page (/ticket/N: its
description, properties and comments) and every wiki page the project wrote (/wiki/NAME:
guides, how-tos, meeting notes and release notes, each edited one to six times). Not UCC:
the home page (WikiStart, also /wiki and /wiki/WikiStart), the 60-odd help pages every Trac
ships (TracGuide, WikiFormatting, ...), TitleIndex and RecentChanges, and every other view.

What a visitor meets: the main menu on every page (Wiki, Timeline, Roadmap, View Tickets,
Search; Browse Source leads to an error page: the project has no repository) and the meta
menu (Login, which answers an error: no authentication is set up; Preferences; Help/Guide;
About Trac); every wiki page's "Last modified" link to its history, ?version=N and diff links
from the history, "Download in other formats" (?format=txt); every ticket's comment
history and exports; the roadmap (each milestone's progress bars link queries by status);
reports {1..8} (sortable, with exports); the custom query (sortable by every column, paged).
robots.txt: 404 (as Trac ships).

    python -m benchmarks.realsite.trac /tmp/trbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import requests

from benchmarks.realsite.helpertext import MAIN, SERVE
from benchmarks.realsite.php import (
    build_helper_site,
    entity_rows,
    entity_urls,
    print_link_types,
    same_host_links,
    serve_helper,
    smoke_fetch,
    smoke_site,
    venv_missing,
)
from benchmarks.realsite.words import FIRST, LAST, wiki_names, wiki_page
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_TRAC_VENV") or Path(tempfile.gettempdir()) / "trvenv")
TRAC_VERSION = "1.6"
INSTALL = f"python3 -m venv {VENV} && {VENV}/bin/pip install Trac=={TRAC_VERSION} waitress"
VERSION = 1  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"ticket", "wiki"}
TARGET_TYPE = "ticket"  # source-target's example is a ticket
DESCRIPTION = ("Trac 1.6 (SQLite, anonymous visitors' default permissions), {size} generated "
               "tickets and their project's wiki (`benchmarks/realsite/trac.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("ticket", "wiki", "home", "index", "help", "history", "revision", "export",
              "timeline", "roadmap", "milestone", "query", "report", "search", "browser",
              "login", "prefs", "about", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): the shipped
# help pages and the index pages are wiki pages like the project's own
SAME_TEMPLATE: dict[str, str] = {"help": "wiki", "index": "wiki"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".woff",
              ".woff2")
SITE_NAME = "Tidemark"
# The wiki pages every Trac 1.6 ships (trac/wiki/default-pages), less WikiStart (the home,
# which the project rewrites), TitleIndex and RecentChanges (the wiki's indexes)
_SHIPPED = """CamelCase InterMapTxt InterTrac InterWiki PageTemplates SandBox
TicketQuery TracAccessibility TracAdmin TracBackup TracBatchModify TracBrowser TracCgi
TracChangeLog TracChangeset TracEnvironment TracFastCgi TracFineGrainedPermissions TracGuide
TracImport TracIni TracInstall TracInterfaceCustomization TracLinks TracLogging TracModPython
TracModWSGI TracNavigation TracNotification TracPermissions TracPlugins TracQuery TracReports
TracRepositoryAdmin TracRevisionLog TracRoadmap TracRss TracSearch TracStandalone TracSupport
TracSyntaxColoring TracTickets TracTicketsCustomFields TracTimeline TracUnicode TracUpgrade
TracWiki TracWorkflow WikiDeletePage WikiFormatting WikiHtml WikiMacros WikiNewPage
WikiPageNames WikiProcessors WikiRestructuredText WikiRestructuredTextLinks"""
SHIPPED = frozenset(_SHIPPED.split())
INDEXES = frozenset({"TitleIndex", "RecentChanges"})

HELPER = '''"""Run by benchmarks/realsite/trac.py with Trac's venv (python -I), in the site's
folder: "install" (trac-admin initenv), "content" (the JSON spec on stdin; writes
entities.jsonl), "serve PORT THREADS" (a copy of the environment, GET and HEAD only)."""
import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = os.path.join(HERE, "env")
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")


def install():
    admin = os.path.join(os.path.dirname(sys.executable), "trac-admin")
    subprocess.run([admin, ENV, "initenv", "''' + SITE_NAME + '''", "sqlite:db/trac.db"],
                   check=True, capture_output=True)


def when(text):
    return dt.datetime.fromisoformat(text)


def content(spec):
    from trac.env import Environment
    from trac.ticket.model import Component, Milestone, Ticket, Version
    from trac.wiki.model import WikiPage

    env = Environment(ENV)
    for section, key, value in spec["config"]:
        env.config.set(section, key, value)
    env.config.save()
    with env.db_transaction as db:  # initenv's examples: milestone1..4, component1..2, ...
        for table in ("milestone", "component", "version"):
            db("DELETE FROM " + table)
    for m in spec["milestones"]:
        milestone = Milestone(env)
        milestone.name, milestone.description = m["name"], m["description"]
        milestone.due = when(m["due"]) if m["due"] else None
        milestone.completed = when(m["completed"]) if m["completed"] else None
        milestone.insert()
    for v in spec["versions"]:
        version = Version(env)
        version.name, version.time = v["name"], when(v["time"])
        version.insert()
    for c in spec["components"]:
        component = Component(env)
        component.name, component.owner = c["name"], c["owner"]
        component.description = c["description"]
        component.insert()
    rows = []
    for t in spec["tickets"]:
        ticket = Ticket(env)
        for field, value in t["fields"].items():
            ticket[field] = value
        number = ticket.insert(when=when(t["time"]))
        for change in t["changes"]:
            for field, value in change["fields"].items():
                ticket[field] = value
            ticket.save_changes(change["author"], change["comment"], when=when(change["time"]))
        rows.append({"type": "ticket", "id": number, "path": "/ticket/%d" % number,
                     "comments": sum(1 for c in t["changes"] if c["comment"])})
    for p in spec["pages"]:
        for v in p["versions"]:
            page = WikiPage(env, p["name"])
            page.text = v["text"]
            page.save(v["author"], v["comment"], when(v["time"]))
        if p["name"] != "WikiStart":
            rows.append({"type": "wiki", "name": p["name"], "path": "/wiki/" + p["name"],
                         "versions": len(p["versions"])})
    env.shutdown()
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for row in rows:
            out.write(json.dumps(row) + "\\n")


def serve(port, threads):
    work = tempfile.mkdtemp(prefix="trac-serve-")
    signal.signal(signal.SIGTERM, lambda *args: sys.exit(0))  # the copy is removed below
    try:
        env_path = shutil.copytree(ENV, os.path.join(work, "env"))
        from trac.web.main import dispatch_request

        def app(environ, start_response):
            environ["trac.env_path"] = env_path
            return dispatch_request(environ, start_response)

        serve_read_only(app, port, threads, "trac")
    finally:
        shutil.rmtree(work, ignore_errors=True)
''' + SERVE + MAIN

COMPONENTS = ["core", "importer", "web interface", "command line", "documentation",
              "packaging"]
TOPICS = ["Maps", "Routes", "Weather", "Exports", "Imports", "Accounts", "Notifications",
          "Search", "Printing", "Backups", "Sensors", "Calendars", "Reports", "Plugins",
          "Offline", "Sharing"]
GUIDES = ["Installation", "Configuration", "DeveloperGuide", "CodingStyle", "ReleaseProcess",
          "FrequentlyAskedQuestions", "ContributorCovenant", "TranslationGuide"]
EDITS = ["typo", "add an example", "new section", "update for the latest release",
         "clarify", "links", ""]
RESOLUTIONS = ["fixed"] * 7 + ["wontfix", "duplicate", "worksforme", "invalid"]
PRIORITIES = ["blocker", "critical", "major", "major", "major", "minor", "minor", "trivial"]
KEYWORDS = ["regression", "ui", "performance", "easy", "docs", "windows", "unicode", "api"]


def _later(t: dt.datetime, step: dt.timedelta, cap: dt.datetime) -> dt.datetime:
    """`step` after t but not after cap, and at least a minute after t (a ticket's changes
    are keyed by their time)."""
    return max(min(t + step, cap), t + dt.timedelta(minutes=1))


def _users(rng: random.Random) -> list[str]:
    names = [f"{f.lower()}.{last.lower()}" for f in FIRST for last in LAST]
    return sorted(rng.sample(names, 30))


def _wiki_text(rng: random.Random, title: str, links: list[str], tickets: int) -> str:
    """A page in Trac's wiki syntax (`wiki_page`): = headings =, " * " lists, links to
    other pages ([wiki:NAME]) and to tickets (#N)."""
    return wiki_page(rng, title, links, tickets, heading=lambda text, n: f"{'=' * n} {text} "
                     f"{'=' * n}", bullet=" * ", link=lambda name: f"[wiki:{name}]")


def _pages(rng: random.Random, n_pages: int, users: list[str], releases: list[dict[str, Any]],
           tickets: int, start: dt.datetime, now: dt.datetime) -> list[dict[str, Any]]:
    """The project's wiki: guides, user-guide chapters, how-tos, meeting notes and release
    notes, each an index page listing most of its pages (some are reached only through
    TitleIndex, RecentChanges, the timeline or another page), and WikiStart linking the
    guides and the indexes."""
    names = list(GUIDES)
    chapters = [f"UserGuide/{t}" for t in TOPICS]
    names += chapters
    howtos, meetings = wiki_names(
        rng, n_pages - len(names) - len(releases) - 4, start, now,
        howto=lambda a, b: f"HowTo/{a}{b}", meeting=lambda day: f"MeetingNotes/{day:%Y-%m-%d}",
        share=0.5)
    howtos.sort()
    meetings.sort()
    notes = [f"Releases/{r['name']}" for r in releases]
    pages: list[dict[str, Any]] = []
    written = names + howtos + meetings + notes

    def page(name: str, text: str | None = None, first: dt.datetime | None = None) -> None:
        title = name.split("/")[-1]
        t = first or start + dt.timedelta(days=rng.uniform(0, (now - start).days - 2))
        versions = []
        for v in range(rng.choice([1, 1, 2, 2, 3, 4, 6])):
            links = rng.sample(written, rng.randint(0, 3))
            versions.append({"text": text or _wiki_text(rng, title, links, tickets),
                             "author": rng.choice(users), "time": _stamp(t),
                             "comment": rng.choice(EDITS) if v else "new page"})
            t = min(t + dt.timedelta(days=rng.uniform(0.1, 60)), now - dt.timedelta(hours=1))
            if text:
                break
        pages.append({"name": name, "versions": versions})

    for name in names + howtos + notes:
        page(name)
    for name in meetings:
        page(name, first=dt.datetime.fromisoformat(name.split("/")[1] + "T18:00:00+00:00"))

    def index(name: str, members: list[str], intro: str) -> None:
        listed = [m for m in members if rng.random() < 0.9]
        page(name, "\n".join([f"= {name} =", "", intro, ""]
                             + [f" * [wiki:{m} {m.split('/')[-1]}]" for m in listed]) + "\n")

    index("UserGuide", chapters, "The user guide, chapter by chapter.")
    index("HowTo", howtos, "Short recipes written by the community.")
    index("MeetingNotes", meetings, "Notes of the developers' fortnightly meetings.")
    index("Releases", notes, "What changed in each release.")
    home = "\n".join([
        f"= Welcome to {SITE_NAME} =", "",
        f"{SITE_NAME} plans routes for walkers and cyclists from open map data. This wiki "
        "is the project's documentation; the tickets are its to-do list.", "",
        "== Documentation ==", ""]
        + [f" * [wiki:{g}]" for g in ["UserGuide", *GUIDES]]
        + ["", "== Community ==", "", " * [wiki:HowTo How-tos]",
           " * [wiki:MeetingNotes Meeting notes]", " * [wiki:Releases Release notes]",
           " * [report:1 Active tickets]", "", "See TitleIndex for every page."]) + "\n"
    pages.append({"name": "WikiStart", "versions": [{
        "text": home, "author": users[0], "time": _stamp(start), "comment": "our home page"}]})
    return pages


def generate(n_tickets: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """Two years of a project: a release every quarter (milestones 0.1 to 0.8, the last two
    still open, and "future"), tickets filed against the next release, discussed, accepted
    and mostly closed by their release; a wiki of about one page for every four tickets."""
    rng = random.Random(seed)
    users = _users(rng)
    start = (now - dt.timedelta(days=730)).replace(hour=9, minute=0, second=0)
    milestones: list[dict[str, Any]] = []
    for i in range(8):
        due = start + dt.timedelta(days=91 * (i + 1))
        milestones.append({"name": f"0.{i + 1}", "due": _stamp(due),
                           "completed": _stamp(due) if due < now else "",
                           "description": _paragraph(rng, (1, 3))})
    milestones.append({"name": "future", "due": "", "completed": "",
                       "description": "Ideas nobody has planned yet."})
    releases = [m for m in milestones if m["completed"]]
    versions = [{"name": m["name"], "time": m["completed"]} for m in releases]
    components = [{"name": c, "owner": rng.choice(users), "description": _sentence(rng)}
                  for c in COMPONENTS]
    owners = {c["name"]: c["owner"] for c in components}
    tickets = []
    for i in range(n_tickets):
        created = start + dt.timedelta(days=730 * i / n_tickets + rng.uniform(0, 2))
        created = min(created, now - dt.timedelta(days=1))
        component = rng.choice(COMPONENTS)
        target = next((m for m in milestones[:-1] if m["due"] > _stamp(created)), None)
        milestone = "future" if target is None or rng.random() < 0.15 else target["name"]
        released = [v for v in versions if v["time"] < _stamp(created)]
        reporter = rng.choice(users)
        fields = {"summary": _sentence(rng, (4, 10)).rstrip("."),
                  "description": _paragraph(rng, (1, 4))
                  + (f"\n\nSee #{rng.randint(1, i)}." if i and rng.random() < 0.3 else ""),
                  "reporter": reporter, "owner": owners[component], "status": "new",
                  "type": rng.choice(["defect"] * 5 + ["enhancement"] * 3 + ["task"] * 2),
                  "priority": rng.choice(PRIORITIES), "component": component,
                  "milestone": milestone,
                  "version": released[-1]["name"] if released and rng.random() < 0.5 else "",
                  "keywords": " ".join(rng.sample(KEYWORDS, rng.choice([0, 0, 1, 2])))}
        changes = []
        t = created
        done = target is not None and milestone != "future" and target["completed"]
        for c in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 5, 8])):
            t = _later(t, dt.timedelta(hours=rng.uniform(1, 400)), now - dt.timedelta(hours=2))
            author = reporter if rng.random() < 0.3 else rng.choice(users)
            change: dict[str, Any] = {"author": author, "time": _stamp(t), "fields": {},
                                      "comment": _paragraph(rng, (1, 3))}
            if c == 0 and rng.random() < 0.5:  # the owner accepts it
                change = {**change, "author": fields["owner"],
                          "fields": {"status": "accepted"}}
            if i and rng.random() < 0.15:
                change["comment"] += f" Related to #{rng.randint(1, i)}."
            changes.append(change)
        if done and rng.random() < 0.85:
            t = _later(t, dt.timedelta(days=rng.uniform(1, 30)), now - dt.timedelta(hours=1))
            resolution = rng.choice(RESOLUTIONS)
            comment = {"fixed": f"Fixed for {milestone}.",
                       "duplicate": f"Duplicate of #{rng.randint(1, i)}." if i else "",
                       }.get(resolution, _sentence(rng, (5, 12)))
            changes.append({"author": fields["owner"], "time": _stamp(t), "comment": comment,
                            "fields": {"status": "closed", "resolution": resolution}})
        tickets.append({"time": _stamp(created), "fields": fields, "changes": changes})
    pages = _pages(rng, max(20, n_tickets // 4), users, releases, n_tickets, start, now)
    config = [("project", "descr", "Route planning from open map data"),
              ("project", "footer", f"The {SITE_NAME} project"),
              ("trac", "default_timezone", "UTC"),
              ("logging", "log_type", "none")]
    return {"config": config, "milestones": milestones, "versions": versions,
            "components": components, "tickets": tickets, "pages": pages}


def available() -> str | None:
    """None if Trac's venv is there, else how to make it."""
    return venv_missing(VENV, "Trac", TRAC_VERSION, "ARCHIVER_TRAC_VENV", INSTALL)


def build(folder: Path, n_tickets: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_tickets": n_tickets, "seed": seed, "version": VERSION},
        "Trac site", HELPER, lambda now: generate(n_tickets, seed, now))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (waitress with `workers` threads, GET and HEAD only, a
    copy of the environment) on a free port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "trac") as seed:
        yield seed


MODULES = {"timeline": "timeline", "roadmap": "roadmap", "milestone": "milestone",
           "query": "query", "report": "report", "search": "search", "browser": "browser",
           "log": "browser", "changeset": "browser", "export": "browser", "login": "login",
           "newticket": "login", "prefs": "prefs", "about": "about", "chrome": "static",
           "attachment": "other", "raw-attachment": "other", "zip-attachment": "other"}


def _view(query: dict[str, list[str]], plain: str) -> str:
    """The type of a wiki page's or ticket's URL by its query: the page itself (`plain`,
    no query), its history (?action=history), one version or a diff (?version=N,
    ?action=diff, a ticket's ?cversion= and ?cnum_hist=) or anything else ("other")."""
    if not query:
        return plain
    action = query.get("action", [""])[0]
    if action == "history":
        return "history"
    if action == "diff" or {"version", "old_version", "cversion", "cnum_hist"} & query.keys():
        return "revision"
    return "other"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (Trac's request handlers), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - ?format=... on any page (wiki text, ticket, query and report CSV/TSV/RSS, the
      timeline's RSS): "export"
    - / (WikiStart), /wiki, /wiki/WikiStart: "home", a query on them as on a wiki page
    - /wiki/NAME: "index" (TitleIndex, RecentChanges), "help" (the shipped pages, SHIPPED)
      or "wiki" (the project's pages); with a query, "history", "revision" or "other"
    - /ticket/N: "ticket"; with a query, "history", "revision" or "other"
    - /chrome/... or a static file by its extension: "static"
    - the other handlers by their first segment (MODULES): "timeline", "roadmap",
      "milestone", "query", "report", "search", "browser" (no repository: error pages),
      "login" (/login, /newticket), "prefs", "about"
    - anything else: "other"."""
    parts = urlsplit(url)
    if parts.hostname not in (None, "127.0.0.1", "localhost"):
        return "other"
    query = parse_qs(parts.query, keep_blank_values=True)
    if "format" in query:
        return "export"
    path = parts.path or "/"
    segs = [unquote(s) for s in path.split("/") if s]
    if not segs or (segs == ["wiki"]) or segs == ["wiki", "WikiStart"]:
        return _view(query, "home")
    head = segs[0]
    if head == "wiki":
        name = "/".join(segs[1:])
        plain = "index" if name in INDEXES else "help" if name in SHIPPED else "wiki"
        return _view(query, plain)
    if head == "ticket":
        return _view(query, "ticket") if len(segs) == 2 and segs[1].isdigit() else "other"
    if head == "chrome" or path.lower().endswith(STATIC_EXT):
        return "static"
    return MODULES.get(head, "other")


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "ticket N" or "wiki NAME"; None for anything else (another
    view of a page, an export, a help page)."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    segs = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    return f"{kind} {'/'.join(segs[1:])}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every ticket and project wiki page, as the site links them (/ticket/N,
    /wiki/NAME); give the server (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: tickets, comments per ticket, wiki pages, their versions."""
    rows = entity_rows(folder)
    tickets = [r for r in rows if r["type"] == "ticket"]
    pages = [r for r in rows if r["type"] == "wiki"]
    return {"tickets": len(tickets),
            "comments_per_ticket": dict(sorted(Counter(r["comments"] for r in tickets).items())),
            "wiki_pages": len(pages),
            "versions_per_page": dict(sorted(Counter(r["versions"] for r in pages).items()))}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "tickets", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        ticket = f"{server}/ticket/7"
        ticket_links = same_host_links(requests.get(ticket, timeout=30).content, ticket)
        wiki = min(u for u in ucc if page_type(u) == "wiki" and "HowTo/" in u)
        wiki_links = same_host_links(requests.get(wiki, timeout=30).content, wiki)
        timeline = f"{server}/timeline"
        timeline_links = same_host_links(requests.get(timeline, timeout=30).content, timeline)
        first = {page_type(u): u for u in sorted(home_links | ticket_links | wiki_links
                                                 | timeline_links, reverse=True)}
        smoke_fetch([seed, ticket, wiki, timeline, *first.values(), f"{server}/robots.txt"],
                    page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (ticket, ticket_links), (wiki, wiki_links),
                          (timeline, timeline_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
