"""A real Roundup 2.6.0 issue tracker (from PyPI) on 127.0.0.1, with generated users,
issues and their messages.

Roundup was the tracker of bugs.python.org for twenty years and still runs many projects'
trackers. For an archive, its issue index is one template rendering every search as a list,
the whole search in the query string (@columns, @sort, @group, @filter, @pagesize,
@startwith, @dispname and the filter's values), so that every list and every page of one is
another URL, and each message has a page of its own besides the issue's; what an archivist
wants is the issues, each page holding the issue's properties and its whole discussion.

    build(folder)       fresh tracker in folder: `roundup-admin install` of the classic
                        template with the sqlite backend and `roundup-admin initialise`,
                        then users, keywords, issues, their messages, status changes,
                        attached files and superseders written through Roundup's own API
                        (roundup.instance.open(...).open("admin"); db.user.create,
                        db.msg.create, db.file.create, db.issue.create and db.issue.set as
                        each user, db.setCurrentUser; the classic detectors run: the nosy
                        reactor, the status and user auditors) in time order from a
                        generator (deterministic for n_issues, seed), at the generator's
                        times (Roundup's clock, roundup.date.Date.now, is the generator's
                        while it builds: creation, activity and every journal entry)
    serve(folder)       the tracker under waitress (threaded) through Roundup's WSGI handler
                        (roundup.cgi.wsgi_handler.RequestDispatcher) on a free port; yields
                        the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every issue (the UCC)

Roundup and waitress live in a venv of their own, named by ARCHIVER_ROUNDUP_VENV (default:
rdvenv in the temporary directory, /tmp/rdvenv); `available()` says how to create it.
Everything the tracker runs goes through the helper script HELPER (its shared part:
`benchmarks.realsite.helpertext`), run by that venv's python. The server answers 405 to
anything but GET and HEAD, and serves a copy of the tracker made when it starts, with
config.ini's [tracker] web set to the served URL (http://127.0.0.1:PORT/): Roundup answers
any host name and redirects no page view to that base URL, but it writes it into every page
(the sidebar's form actions, the login form's __came_from, the help pop-ups' script) and
into the Location of its redirects (@action=show, logout), so a wrong one sends a crawler to
another port. Every page an anonymous visitor views writes to the tracker (the login form's
one-time CSRF key, @csrf, in db/db-otk), hence the copy: each serve starts from the same
tracker. No page view sets a cookie (Roundup's session cookie comes with a login; logout
clears one). The nosy lists' mail goes nowhere while building (SENDMAILDEBUG=/dev/null).

The permissions are the classic template's (its schema.py, unchanged): an anonymous visitor
has Web Access and may View issues, messages, files, keywords, priorities and statuses,
Search users (for the "Show Unassigned" list) and Register; it may not View users (/userN
and /user answer, with status 200, the page with "Please login with your username and
password."), nor use the REST API (/rest...: 403, JSON; "Rest Access" is the User role's),
nor create or edit anything. Issue pages name users as plain text (creator, assignee, nosy
list, messages' authors) and link them only in the history table (rel="nofollow").

The UCC (`entities`): every issue's page (/issueN: title, priority, status, superseder,
nosy list, assignee, keywords, files, then every message in full, newest first, and the
history). Not UCC: a message's own page (/msgN: the same text again with its author,
recipients, date, files and history; 1,334 of them at 300 issues, seven in ten of wget's
pages), a file's page (/fileN) and its content (/fileN/NAME), an issue's page under another
URL (/issueN?@template=item and the like: "view"), the home page and the issue lists, and
everything else.

What a visitor meets: the header's search box (a GET form to /issue, @search_text) and the
sidebar on every page: Issues ("Show Unassigned" and "Show All", two lists of the issues
with any status but resolved, each an /issue? URL carrying its whole search; "Search",
issue?@template=search; the "Show issue:" GET form, @action=show, a 302 to /issueN); the
login form (a POST), "Register" (user?@template=register), "Lost your login?"
(user?@template=forgotten); "Roundup docs" (off the host). The home page (/): the open
issues (180 of 300: the classic lists leave status "resolved" out), grouped by priority,
latest activity first, 50 a page. A list (/issue?...): the same, "next >>" and "<< previous"
(@startwith plus or minus 50, the query spelled in another order than the sidebar's),
"Download as CSV" (@action=export_csv, text/csv) and the sort, group and filter forms (GET
forms: the column headings are no links in 2.6.0's classic template). On a list the
sidebar's links carry the list's @startwith and filter along (Show All gets &assignedto=-1
and @startwith=50 on the Unassigned list's second page), and paging counts on from wherever
a list starts: at 300 issues the lists turn up at offsets 0, 50, 100, 150 and 4, 54, 104,
154, 40 distinct list URLs and 16 CSV exports, a bounded trap. An issue's page: each
message's "msgN (view)", the files (/fileN/NAME), the superseders and the issueN a
message names (Roundup links them), the history's links to messages, files and users. A
resolved issue is linked only from other issues (its superseder, a message naming it): the
generator has a later issue's message name each one (`_cite_resolved`), so every issue is
within reach of the lists. A message's page links its issue, files and users. robots.txt:
404 (Roundup serves none; "robots.txt" is no class of the tracker), as is /favicon.ico.

    python -m benchmarks.realsite.roundup /tmp/rdbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import random
import re
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
from benchmarks.realsite.words import FIRST, LAST, NOUNS
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_ROUNDUP_VENV") or Path(tempfile.gettempdir()) / "rdvenv")
ROUNDUP_VERSION = "2.6.0"
INSTALL = f"python3 -m venv {VENV} && {VENV}/bin/pip install roundup=={ROUNDUP_VERSION} waitress"
VERSION = 1  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"issue"}
TARGET_TYPE = "issue"  # source-target's example is an issue
DESCRIPTION = ("Roundup 2.6.0 (classic template, SQLite, anonymous visitors' default "
               "permissions), {size} generated issues with their messages "
               "(`benchmarks/realsite/roundup.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("issue", "view", "home", "index", "search", "msg", "file", "user", "property",
              "edit", "classhelp", "login", "register", "export", "api", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): the home
# page is the issue index's template, rendered in the page; another URL of an issue's page
# is its item template
SAME_TEMPLATE: dict[str, str] = {"home": "index", "view": "issue"}
SITE_NAME = "Larkspur"

HELPER = '''"""Run by benchmarks/realsite/roundup.py with Roundup's venv (python -I), in the
tracker's folder: "install" (roundup-admin install and initialise), "content" (the JSON spec
on stdin; writes entities.jsonl), "serve PORT THREADS" (a copy of the tracker, GET and HEAD
only)."""
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
HOME = os.path.join(HERE, "tracker")
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")
OPTIONS = ("tracker_name=''' + SITE_NAME + ''',tracker_web=http://127.0.0.1:8080/,"
           "mail_domain=example.org,mail_host=localhost")


def admin(*args):
    command = os.path.join(os.path.dirname(sys.executable), "roundup-admin")
    done = subprocess.run([command, "-i", HOME, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit("roundup-admin %s failed:\\n%s%s" % (args[0], done.stdout,
                                                              done.stderr))


def install():
    admin("install", "classic", "sqlite", OPTIONS)
    admin("initialise", "admin-of-''' + SITE_NAME + '''")


CLOCK = [None]


def content(spec):
    import roundup.date
    import roundup.instance

    # Roundup's clock (its hook for tests): creation, activity and the journal's dates
    roundup.date.Date.now = lambda self: CLOCK[0]
    os.environ["SENDMAILDEBUG"] = os.devnull  # the nosy lists' mail goes nowhere

    def at(text):
        CLOCK[0] = dt.datetime.fromisoformat(text).replace(tzinfo=None)
        return roundup.date.Date(CLOCK[0])

    tracker = roundup.instance.open(HOME)
    db = tracker.open("admin")
    at(spec["start"])
    users = {}
    for u in spec["users"]:
        users[u["username"]] = db.user.create(**u, roles="User")
    keywords = {k: db.keyword.create(name=k) for k in spec["keywords"]}
    db.commit()
    issues, rows = {}, {}

    def files(event):
        return [db.file.create(name=f["name"], type="text/plain", content=f["content"])
                for f in event.get("files", [])]

    for event in spec["events"]:
        when = at(event["time"])
        db.setCurrentUser(event["user"])
        attached = files(event)
        msg = db.msg.create(content=event["text"], author=users[event["user"]],
                            date=when, files=attached)
        values = {}
        for key in ("status", "priority"):
            if key in event:
                values[key] = db.getclass(key).lookup(event[key])
        if "assignedto" in event:
            values["assignedto"] = users[event["assignedto"]]
        if "superseder" in event:
            values["superseder"] = [issues[event["superseder"]]]
        n = event["issue"]
        if event["kind"] == "open":
            nosy = [users[name] for name in event["nosy"]]
            number = db.issue.create(title=event["title"], messages=[msg], files=attached,
                                     nosy=nosy, keyword=[keywords[k] for k in event["keyword"]],
                                     **values)
            issues[n] = number
            rows[n] = {"type": "issue", "id": int(number), "path": "/issue" + number,
                       "messages": 1, "files": len(attached)}
        else:
            number = issues[n]
            values["messages"] = db.issue.get(number, "messages") + [msg]
            if attached:
                values["files"] = db.issue.get(number, "files") + attached
            db.issue.set(number, **values)
            rows[n]["messages"] += 1
            rows[n]["files"] += len(attached)
        db.commit()
    db.close()
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for n in sorted(rows):
            out.write(json.dumps(rows[n]) + "\\n")


def serve(port, threads):
    work = tempfile.mkdtemp(prefix="roundup-serve-")
    signal.signal(signal.SIGTERM, lambda *args: sys.exit(0))  # the copy is removed below
    try:
        home = shutil.copytree(HOME, os.path.join(work, "tracker"))
        from roundup.configuration import CoreConfig

        config = CoreConfig(home)
        config["TRACKER_WEB"] = "http://127.0.0.1:%d/" % port
        config.save()
        from roundup.cgi.wsgi_handler import RequestDispatcher

        serve_read_only(RequestDispatcher(home), port, threads, "roundup")
    finally:
        shutil.rmtree(work, ignore_errors=True)
''' + SERVE + MAIN

KEYWORDS = ["regression", "ui", "performance", "easy", "docs", "windows", "unicode", "api"]
PRIORITIES = ["critical", "urgent", "bug", "bug", "bug", "bug", "feature", "feature", "wish"]
ORGANISATIONS = ["", "", "Larkspur project", "University of Turku", "Bergen Cycling Club",
                 "Porto Maps", "freelance"]
# Where an issue ends, and how it gets there: the statuses a reply sets on the way
ENDINGS = [("resolved", 40), ("done-cbb", 6), ("testing", 6), ("in-progress", 10),
           ("need-eg", 8), ("chatting", 20), ("unread", 10)]
PATHS = {"resolved": ["in-progress", "testing", "resolved"], "done-cbb": ["in-progress",
         "done-cbb"], "testing": ["in-progress", "testing"], "in-progress": ["in-progress"],
         "need-eg": ["need-eg"], "chatting": [], "unread": []}
FILES = [("traceback.txt", "Traceback (most recent call last):\n  File \"larkspur/{a}.py\", "
          "line {n}, in {b}\n    return {a}.{b}()\nValueError: {text}\n"),
         ("patch.diff", "--- a/larkspur/{a}.py\n+++ b/larkspur/{a}.py\n@@ -{n},3 +{n},3 @@\n"
          "-    {b} = None\n+    {b} = {a}()\n # {text}\n"),
         ("log.txt", "INFO starting {a}\nWARNING {b} took {n} ms\nERROR {text}\n")]


def _users(rng: random.Random) -> list[dict[str, str]]:
    """25 members of the project: user name first.last, a real name, an address at
    example.org, some an organisation."""
    people = sorted(rng.sample([(f, last) for f in FIRST for last in LAST], 25))
    return [{"username": f"{f.lower()}.{last.lower()}", "realname": f"{f} {last}",
             "address": f"{f.lower()}.{last.lower()}@example.org",
             "organisation": rng.choice(ORGANISATIONS)} for f, last in people]


def _file(rng: random.Random) -> dict[str, str]:
    name, text = rng.choice(FILES)
    return {"name": name, "content": text.format(a=rng.choice(NOUNS), b=rng.choice(NOUNS),
                                                 n=rng.randint(10, 900),
                                                 text=_sentence(rng, (4, 9)))}


def _text(rng: random.Random, refs: int) -> str:
    """A message: one to three paragraphs, sometimes naming an earlier issue (issueN, which
    Roundup links) when there are `refs` of them."""
    paras = [_paragraph(rng, (1, 4)) for _ in range(rng.choice([1, 1, 2, 3]))]
    if refs and rng.random() < 0.2:
        paras.append(f"This looks like issue{rng.randint(1, refs)}.")
    return "\n\n".join(paras)


def generate(n_issues: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """Two years of a project's tracker: 25 users, 8 keywords, `n_issues` issues opened one
    after another (each with its first message, a priority, up to two keywords, a nosy list,
    most an assignee), then 0 to 7 replies each over the following weeks, the replies of all
    issues interleaved in time order (`events`); the replies move an issue along the classic
    statuses (ENDINGS, PATHS: need-eg, in-progress, testing, done-cbb, resolved; a reply
    that sets none makes an unread or resolved issue "chatting", Roundup's own auditor);
    about one in twenty issues is closed as a duplicate of an earlier one (its superseder);
    about one in eight messages attaches a text file. `issue` in an event is the issue's
    index, which is its id less one (issues are opened in index order)."""
    rng = random.Random(seed)
    users = _users(rng)
    names = [u["username"] for u in users]
    start = (now - dt.timedelta(days=730)).replace(hour=9, minute=0, second=0)
    opened = sorted(start + dt.timedelta(days=rng.uniform(1, 725)) for _ in range(n_issues))
    events: list[dict[str, Any]] = []
    resolved: set[int] = set()
    for i, created in enumerate(opened):
        reporter = rng.choice(names)
        others = [n for n in names if n != reporter]
        ending = rng.choices([e for e, _ in ENDINGS], [w for _, w in ENDINGS])[0]
        if ending == "resolved":
            resolved.add(i)
        replies = rng.randint(0, 7)
        duplicate = ending == "resolved" and i > 10 and rng.random() < 0.12
        path = ["resolved"] if duplicate else PATHS[ending]
        if ending != "unread" and replies < len(path):
            replies = len(path) + rng.randint(0, 2)
        if ending == "unread":
            replies = 0
        opening: dict[str, Any] = {
            "kind": "open", "issue": i, "time": _stamp(created), "user": reporter,
            "title": _sentence(rng, (4, 10)).rstrip("."), "text": _text(rng, i),
            "priority": rng.choice(PRIORITIES), "status": "unread",
            "keyword": sorted(rng.sample(KEYWORDS, rng.choice([0, 0, 1, 1, 2]))),
            "nosy": sorted({reporter, *rng.sample(others, rng.randint(0, 3))})}
        assignee = rng.choice(others) if rng.random() < 0.6 else None
        if assignee:
            opening["assignedto"] = assignee
        if rng.random() < 0.07:
            opening["files"] = [_file(rng)]
        events.append(opening)
        t = created
        setting = [None] * (replies - len(path)) + path  # the statuses come last
        for k, status in enumerate(setting):
            t = min(t + dt.timedelta(hours=rng.uniform(0.5, 24 * rng.choice([1, 3, 10]))),
                    now - dt.timedelta(minutes=10 * (replies - k)))
            author = reporter if rng.random() < 0.3 else (assignee or rng.choice(others))
            reply: dict[str, Any] = {"kind": "reply", "issue": i, "time": _stamp(t),
                                     "user": author, "text": _text(rng, i)}
            if status:
                reply["status"] = status
            if status == "in-progress" and not assignee:
                assignee = reply["assignedto"] = author
            if duplicate and status == "resolved":
                original = rng.randrange(i)
                reply["superseder"] = original
                reply["text"] = f"Duplicate of issue{original + 1}. " + reply["text"]
            if rng.random() < 0.07:
                reply["files"] = [_file(rng)]
            events.append(reply)
    events.sort(key=lambda e: (e["time"], e["kind"] != "open", e["issue"]))
    _cite_resolved(rng, events, resolved, opened)
    return {"start": _stamp(start), "users": users, "keywords": KEYWORDS, "events": events}


def _cite_resolved(rng: random.Random, events: list[dict[str, Any]], resolved: set[int],
                   opened: list[dt.datetime]) -> None:
    """Have a later message name every resolved issue no message names yet ("See also
    issueN.", which Roundup links): the classic template lists only unresolved issues (its
    "Show All" and the home page leave status "resolved" out), so a resolved issue is
    reached by links only from another issue's page. The message is one of an issue opened
    after it (else of an unresolved one), written after it was opened: the citations run
    from later issues to earlier ones down to the listed ones, and no resolved issue is
    out of reach."""
    cited = {int(n) - 1 for e in events for n in re.findall(r"\bissue(\d+)", e["text"])}
    cited |= {e["superseder"] for e in events if "superseder" in e}
    for i in sorted(resolved - cited):
        after = [e for e in events if e["time"] > _stamp(opened[i]) and e["issue"] != i]
        later = [e for e in after if e["issue"] > i] or \
            [e for e in after if e["issue"] not in resolved]
        if later:
            citing = rng.choice(later)
            citing["text"] += f"\n\nSee also issue{i + 1}."


def available() -> str | None:
    """None if Roundup's venv is there, else how to make it."""
    return venv_missing(VENV, "roundup", ROUNDUP_VERSION, "ARCHIVER_ROUNDUP_VENV", INSTALL)


def build(folder: Path, n_issues: int = 300, seed: int = 0) -> Path:
    """Build a fresh tracker in folder, or reuse the one there if built with these
    parameters. Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_issues": n_issues, "seed": seed, "version": VERSION},
        "Roundup tracker", HELPER, lambda now: generate(n_issues, seed, now))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the tracker built in folder (waitress with `workers` threads, GET and HEAD only,
    a copy of the tracker whose base URL is the served one) on a free port; yields the home
    URL."""
    with serve_helper(VENV, folder, workers, "roundup") as seed:
        yield seed


# Roundup's item designator in a URL's first segment (`Client.dre_url`: a class name and a
# number, leading zeros dropped)
DESIGNATOR = re.compile(r"([^\d]+)0*(\d+)")
# The small classes' pages: keywords, priorities, statuses, saved queries
PROPERTY_CLASSES = frozenset({"keyword", "priority", "status", "query"})
# The templates of the class helper and its pop-ups (javascript: links in the search form)
CLASSHELP = ("help", "calendar", "keywords_expr")


def _first(query: dict[str, list[str]], name: str) -> str:
    """A Roundup form variable: @name, or its old spelling :name."""
    return (query.get("@" + name) or query.get(":" + name) or [""])[0]


def page_type(url: str) -> str:
    """Ground truth from the URL alone (Roundup's `Client.determine_context`: the first path
    segment is a class, an item designator CLASSN or a static file; @template picks the
    template; @action an action), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /@@file/... or /_file/... (the template folder's style sheet and scripts): "static"
    - /rest, /rest/..., /xmlrpc (the REST and XML-RPC APIs): "api"
    - ?@action=export_csv or export_csv_id (an index as CSV): "export"; any other @action
      (show, search, login, logout, ...): "other"
    - @template=help..., calendar or keywords_expr (the class helper's pop-ups, on any
      class): "classhelp"
    - / (also /home, /index, and anything under them; Roundup's own home, the open
      issues): "home"; with any @template (classlist, the schema's classes): "other"
    - CLASSN/NAME or CLASSN/ (a second segment): "msg" or "file" for a message's or a
      file's content under a name (/msgN/..., /fileN/NAME), else "other" (404)
    - /issueN: "issue" without a query, "view" with one (?@template=item, the same page by
      another URL, or another template of it)
    - /issue: "search" with @template=search, "edit" with @template=item (the new issue
      form: its empty fields' names for an anonymous visitor), else "index" (a list of
      issues: every @columns, @sort, @group, @filter, @pagesize, @startwith and filter
      value, @search_text)
    - /msgN (a message's page), /msg: "msg"
    - /fileN (a file's page), /file: "file"
    - /user?@template=register: "register"; /user?@template=forgotten: "login" (the lost
      password form); any other /user... (/userN, the user list, their templates): "user"
      (anonymous visitors may not view users: a login prompt)
    - the small classes (PROPERTY_CLASSES: /keyword, /keywordN, /priority..., /status...,
      /query...): "property"; with @template=item and no id: "edit"
    - anything else (/robots.txt, /favicon.ico: 404, no class of the tracker): "other"."""
    parts = urlsplit(url)
    if parts.hostname not in (None, "127.0.0.1", "localhost"):
        return "other"
    query = parse_qs(parts.query, keep_blank_values=True)
    segs = unquote(parts.path or "/")[1:].split("/")  # Roundup's path, kept whole: "a/" is 2
    template, action = _first(query, "template"), _first(query, "action")
    head, more = segs[0], len(segs) > 1
    if head in ("@@file", "_file"):
        return "static"
    if head in ("rest", "xmlrpc"):
        return "api"
    if action:
        return "export" if action in ("export_csv", "export_csv_id") else "other"
    if template.startswith(CLASSHELP):
        return "classhelp"
    if head in ("", "home", "index"):
        return "other" if template else "home"
    m = DESIGNATOR.fullmatch(head)
    klass, item = (m.group(1), m.group(2)) if m else (head, None)
    if more:  # a file's or a message's content under a name; a 404 for any other class
        return klass if klass in ("msg", "file") and item else "other"
    if klass == "issue":
        if item:
            return "view" if query else "issue"
        return {"search": "search", "item": "edit"}.get(template, "index")
    if klass in ("msg", "file"):
        return klass
    if klass == "user":
        return "user" if item else {"register": "register", "forgotten": "login"}.get(
            template, "user")
    if klass in PROPERTY_CLASSES:
        return "edit" if template == "item" and not item else "property"
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "issue N" for /issueN without a query (Roundup serves the
    same page at /issue0N, which no page links, and at /issueN?@template=item, a "view"
    and no new UCC); None for anything else."""
    if page_type(url) != "issue":
        return None
    m = DESIGNATOR.fullmatch(unquote(urlsplit(url).path.strip("/")))
    return f"issue {int(m.group(2))}" if m else None


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every issue, as the tracker links them (/issueN); give the server (e.g.
    "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: issues, messages per issue, issues with files."""
    rows = [r for r in entity_rows(folder) if r["type"] == "issue"]
    return {"issues": len(rows),
            "messages": sum(r["messages"] for r in rows),
            "messages_per_issue": dict(sorted(Counter(r["messages"] for r in rows).items())),
            "files": sum(r["files"] for r in rows)}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "issues", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server = smoke.seed, smoke.server
        home_links = smoke.home_links
        issue = f"{server}/issue7"
        issue_links = same_host_links(requests.get(issue, timeout=30).content, issue)
        index = min((u for u in home_links if page_type(u) == "index"), default=seed)
        index_links = same_host_links(requests.get(index, timeout=30).content, index)
        first = {page_type(u): u for u in sorted(home_links | issue_links | index_links,
                                                 reverse=True)}
        smoke_fetch([seed, issue, index, *first.values(), f"{server}/robots.txt"],
                    page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (issue, issue_links), (index, index_links)],
                         page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
