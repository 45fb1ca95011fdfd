"""A real MHonArc 2.6.19 mailing-list archive (Debian's `mhonarc`), static HTML served on
127.0.0.1, with generated mail.

The second mailing-list archive, after HyperKitty (`benchmarks.realsite.hyperkitty`), and
the classic one: MHonArc turns a mailbox into HTML pages once, and a web server serves the
files. Many institutions' list archives are made this way (a script or mharc run from cron
feeding each period's mail to `mhonarc -add -outdir PERIOD`, a hand-made page listing the
periods), lists.debian.org and lists.gnu.org among them. This one is one list's archive
set up as such sites set it up: a folder of MHonArc output per month (/YYYY-MM/, as mharc
and lists.gnu.org name them), each with its date index and thread index, and a top index
page (/) listing every month, newest first, with its thread and date indexes and its
number of messages (what mharc's list page shows; MHonArc itself makes no such page).

    build(folder)       fresh archive in folder: the list's mail from a generator
                        (deterministic for n_threads, seed), one mbox a month (mbox/YYYY-MM.mbox,
                        as a list archiver files mail by the month it arrived), `mhonarc` run
                        on each into html/YYYY-MM/ with the resource file RCFILE, then the top
                        index html/index.html; the message pages MHonArc wrote, found by the
                        Message-Id it records in each, are entities.jsonl
    serve(folder)       html/ as a static host serves it (GET and HEAD only), by a threaded
                        `http.server` in a process of its own on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every message page (the UCC)

MHonArc is Debian's package (`apt-get install -y mhonarc`, version 2.6.19); `available()`
says how to install it when `mhonarc` is not on PATH. The server is HELPER, a small script
on the standard library that runs with the project's own Python.

MHonArc's settings: its defaults but for these (RCFILE and the command line):
- MULTIPG and IDXSIZE 20: the indexes split into pages of 20 messages (MHonArc's default is
  one page of unlimited size). A month holds some 40 messages here, so a month's date index
  and thread index run to two or three pages each, as a busier list's months do at the page
  sizes list archives set; the pages are MHonArc's own multi-page indexes (maillist.html,
  mail2.html, ...; threads.html, thrd2.html, ...), linked page to page by its default
  "[Prev Page]" and "[Next Page]".
- IDXPGBEGIN and TIDXPGBEGIN: MHonArc's default markup plus one line linking the top index
  ("[List archives]", ../): MHonArc knows nothing of the other months, and list archives'
  own resource files commonly add such a link to their index pages.
- -title and -ttitle: the indexes' titles name the list and the month ("Mail Index" and
  "Mail Thread Index" by default: MHonArc's Common Tasks page sets them first thing).
- -quiet, and -outdir for the month's folder.
Everything else is MHonArc's default: the message pages' layout (TOPLINKS: [Date Prev]
[Date Next] [Thread Prev] [Thread Next] [Date Index] [Thread Index]; the header fields but
those EXCS leaves out; the body, quotes as they came; the Follow-Ups and References lists;
BOTLINKS: prev and next by date and by thread, the indexes), the date index in date order,
the thread index by each thread's first message, file names (msg00000.html, ...),
addresses shown and linked by mailto:, and the MIME filters: text parts shown (an attached
patch in a <pre>), anything else written to a file next to the message pages under a name
MHonArc draws at random (pngXXXXXXXXXX.png, pgpXXXXXXXXXX.pgp: the names differ from build
to build; the mbox and the pages do not) and linked as "Attachment:".

The mail (`generate`): one list, users@lists.example.org ("Workbench users"), n_threads
threads of 1 to 8 messages (most short) started over two years by some 40 posters (a few far
more active than the rest), each reply to an earlier message of its thread (mostly the
latest), with In-Reply-To and References, most quoting their parent; some posters sign
every message (multipart/signed with a PGP signature, which MHonArc writes as a .pgp
file), some messages carry a patch (text/x-diff, shown inline) or a screenshot (image/png,
written as a file). A thread that runs past the end of a month continues in the next
month's archive, where MHonArc shows its first reply as the start of a thread (a monthly
archive only threads what it holds).

The server does what a static host does (as the Pelican site's, `benchmarks.realsite.pelican`;
nginx would answer a folder without index.html 403, not 404): files under html/ for
GET and HEAD (405 to anything else), a query string ignored, a directory that holds an
index.html served at /dir/ and redirected to it (301) from /dir, and 404 for anything else
(a month's folder /YYYY-MM/, which has no index.html, a missing file, a file asked for with
a trailing slash). MHonArc's database (/YYYY-MM/.mhonarc.db) is a file like any other,
linked from nowhere. There is no robots.txt and no favicon.

The UCC (`entities`): every message page, one email with its headers, the text and its
attachments' links: the unit a list archive keeps and the URL citations use. The indexes
only list subjects and senders.

What a crawler meets: the top index (/) links every month's thread index and date index (24
or 25 months, 48 or 50 links) and MHonArc's home page (off the host). A date index page
lists its 20 messages (subject, sender) and links the month's first thread index page and
the neighbouring date pages; a thread index page lists its messages as reply trees and links
the month's first date index page and the neighbouring thread pages; both link the top
index. A message page links the previous and next messages by date and by thread (within the
month), the date and thread index pages that list it (mail2.html#00031), its follow-ups and
references, its attachments, and mailto: links for the sender and the list.

    python -m benchmarks.realsite.mhonarc /tmp/mhbench    # build, serve, smoke test
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import hashlib
import json
import mailbox
import os
import random
import re
import shutil
import struct
import sys
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from email import encoders
from email.message import Message
from email.mime.application import MIMEApplication
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

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
from benchmarks.realsite.words import FIRST, LAST, NOUNS, PLACES, WORDS, thread_times
from benchmarks.realsite.words import mail_quote as _quote
from benchmarks.realsite.words import mail_wrap as _wrap
from benchmarks.realsite.words import paragraph as _paragraph

MHONARC_VERSION = "2.6.19"
INSTALL = "apt-get install -y mhonarc"
VERSION = 1  # of the generator, the settings and the server; part of the reuse marker
UCC_TYPES = {"message"}
TARGET_TYPE = "message"  # source-target's example is a message page
DESCRIPTION = ("MHonArc 2.6.19 (Debian's; a monthly archive, multi-page date and thread "
               "indexes of 20 messages, defaults otherwise; html/ on a static file server), "
               "{size} generated threads of 1 to 8 messages (`benchmarks/realsite/mhonarc.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("message", "home", "date-index", "thread-index", "attachment", "static",
              "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): none here
SAME_TEMPLATE: dict[str, str] = {}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".otf", ".map")
IDXSIZE = 20
LIST_ADDRESS = "users@lists.example.org"
LIST_NAME = "Workbench users"
SITE_NAME = f"{LIST_NAME} list archives"
# A month's folder; MHonArc's file names in it (defaults: MSGPREFIX msg, IDXFNAME
# maillist.html, IDXPREFIX mail, TIDXFNAME threads.html, TIDXPREFIX thrd)
PERIOD = re.compile(r"\d{4}-\d{2}")
MESSAGE = re.compile(r"msg(\d+)\.html")
DATE_INDEX = re.compile(r"maillist\.html|mail\d+\.html")
THREAD_INDEX = re.compile(r"threads\.html|thrd\d+\.html")
# A file MHonArc's external filter wrote (mhmimetypes.pl: the extension, ten random
# characters, the extension again: png9C3_FmZdAI.png, pgpAIoPfmJPQR.pgp)
ATTACHMENT = re.compile(r"([a-z0-9]+)[A-Za-z0-9_]{10}\.\1")

# The resource file: MHonArc's defaults but for the multi-page indexes and the link to the
# top index on the index pages (the default IDXPGBEGIN and TIDXPGBEGIN plus one line)
RCFILE = f"""<!-- Written by benchmarks/realsite/mhonarc.py: MHonArc's defaults but for the
     multi-page indexes and a link from every index page to the list's top index -->
<MultiPg>
<IdxSize>
{IDXSIZE}
</IdxSize>
<IdxPgBegin>
<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"
        "http://www.w3.org/TR/html4/loose.dtd">
<html>
<head>
<title>$IDXTITLE$</title>
</head>
<body>
<h1>$IDXTITLE$</h1>
<p>[<a href="../">List archives</a>]</p>
</IdxPgBegin>
<TIdxPgBegin>
<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"
        "http://www.w3.org/TR/html4/loose.dtd">
<html>
<head>
<title>$TIDXTITLE$</title>
</head>
<body>
<h1>$TIDXTITLE$</h1>
<p>[<a href="../">List archives</a>]</p>
</TIdxPgBegin>
"""

HELPER = '''"""Run by benchmarks/realsite/mhonarc.py with the project's python (python -I), in the
archive's folder: "serve PORT THREADS" (html/ as a static host serves it: GET and HEAD only,
a thread a connection; THREADS is not used)."""
import os
import posixpath
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, unquote

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.realpath(os.path.join(HERE, "html"))
sys.dont_write_bytecode = True
# nginx's types for what MHonArc writes; anything else is nginx's default_type
TYPES = {".html": "text/html", ".png": "image/png", ".jpg": "image/jpeg",
         ".gif": "image/gif", ".pdf": "application/pdf", ".txt": "text/plain",
         ".css": "text/css", ".js": "application/javascript"}
NOT_FOUND = (b"<html><head><title>404 Not Found</title></head><body>"
             b"<h1>404 Not Found</h1></body></html>\\n")


class Static(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, headers, body, send_body):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def serve(self, send_body):
        raw, _, query = self.path.partition("?")
        path = unquote(raw.split("#")[0]) or "/"
        full = os.path.realpath(os.path.join(ROOT, posixpath.normpath(path).lstrip("/")))
        if full != ROOT and not full.startswith(ROOT + os.sep):
            full = ""
        if full and os.path.isdir(full) and os.path.isfile(os.path.join(full, "index.html")):
            if not path.endswith("/"):
                host = self.headers.get("Host", "127.0.0.1")
                location = "http://" + host + quote(path) + "/" + ("?" + query if query else "")
                return self.answer(301, [("Location", location),
                                         ("Content-Type", "text/html")],
                                   b"<html><body>301 Moved Permanently</body></html>\\n",
                                   send_body)
            full = os.path.join(full, "index.html")
        elif not full or not os.path.isfile(full) or path.endswith("/"):
            return self.answer(404, [("Content-Type", "text/html")], NOT_FOUND, send_body)
        with open(full, "rb") as f:
            body = f.read()
        kind = TYPES.get(os.path.splitext(full)[1].lower(), "application/octet-stream")
        return self.answer(200, [("Content-Type", kind)], body, send_body)

    def do_GET(self):
        self.serve(True)

    def do_HEAD(self):
        self.serve(False)

    def not_allowed(self):
        self.close_connection = True
        self.answer(405, [("Allow", "GET, HEAD"), ("Content-Type", "text/plain"),
                          ("Connection", "close")], b"read-only site\\n", True)

    def __getattr__(self, name):
        if name.startswith("do_"):  # POST, PUT, DELETE, OPTIONS, ...
            return self.not_allowed
        raise AttributeError(name)

    def log_message(self, format, *args):
        pass


def serve(port):
    server = ThreadingHTTPServer(("127.0.0.1", port), Static)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(int(sys.argv[2]))
'''

DOMAINS = ["example.org", "example.net", "example.com", "mail.example.org", "uni.example.edu"]
TITLES = ["{A} {b} question", "Problem with the {a} {b}", "[PATCH] Fix the {a} {b}",
          "{A} or {b}?", "How do I set up the {a} {b}?", "Notes on {a} and {b}",
          "{A} {b} stopped working after upgrade", "Is anyone using the {a} {b}?",
          "Looking for a {a} {b}", "Announcing a {a} {b} meetup in {place}"]
# Messages a thread holds (1 to 8, most short) and how often
THREAD_SIZES = (1, 2, 3, 4, 5, 6, 7, 8)
THREAD_WEIGHTS = (0.24, 0.20, 0.16, 0.12, 0.10, 0.08, 0.05, 0.05)


def mhonarc_path() -> str | None:
    """The `mhonarc` program on PATH, or None."""
    return shutil.which("mhonarc")


def available() -> str | None:
    """None if `mhonarc` is on PATH, else how to install it."""
    if mhonarc_path() is not None:
        return None
    return f"needs MHonArc ({MHONARC_VERSION}, Debian's mhonarc): {INSTALL}"


def _senders(rng: random.Random, n: int = 40) -> list[dict[str, Any]]:
    """n posters, each with an address, a time zone, for some a signature and for a tenth a
    PGP key they sign every message with; a few (the first three) far more active."""
    names = rng.sample([(f, last) for f in FIRST for last in LAST], n)
    out = []
    for first, last in names:
        local = rng.choice([f"{first}.{last}", f"{first[0]}{last}",
                            f"{first}{rng.randint(1, 99)}", f"{last}.{first[0]}"]).lower()
        out.append({"name": f"{first} {last}", "address": f"{local}@{rng.choice(DOMAINS)}",
                    "tz": rng.choice([-300, -240, 0, 60, 120, 330, 540]),
                    "signature": (f"{first} -- {rng.choice(PLACES)}"
                                  if rng.random() < 0.3 else ""),
                    "signs": rng.random() < 0.1,
                    "activity": rng.paretovariate(1.1)})
    for s in out[:3]:
        s["activity"] = 10.0
    return out






def _patch(rng: random.Random) -> str:
    """A small unified diff of a config file."""
    name = f"{rng.choice(NOUNS)}.conf"
    lines = [f"--- a/etc/{name}", f"+++ b/etc/{name}", "@@ -1,4 +1,4 @@"]
    for _ in range(rng.randint(3, 6)):
        key, value = rng.choice(NOUNS), rng.choice(WORDS)
        lines.append(rng.choice([f" {key} = {value}", f"-{key} = {value}",
                                 f"+{key} = {rng.choice(WORDS)}"]))
    return "\n".join(lines) + "\n"


def generate(n_threads: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The list's mail, oldest first: n_threads threads of 1 to 8 messages started over
    the two years before `now` by 40 posters, each reply to an earlier message of its thread
    (mostly the latest), most quoting it; a twentieth with a patch, a thirtieth with a
    screenshot (the PNG's seed), the messages of a tenth of the posters signed. Returns
    {"list", "name", "senders", "messages"}; a message's "date" is an ISO string in its
    sender's time zone, "thread" and "n" its thread and place in it."""
    rng = random.Random(seed)
    senders = _senders(rng)
    weights = [s["activity"] for s in senders]
    end = now - dt.timedelta(minutes=30)
    messages: list[dict[str, Any]] = []
    for i in range(n_threads):
        start = now - dt.timedelta(days=730 * (1 - i / n_threads),
                                   seconds=rng.randint(0, 80_000))
        size = rng.choices(THREAD_SIZES, THREAD_WEIGHTS)[0]
        times = thread_times(rng, start, end, size - 1, min_gap=60.0)
        a, b = rng.sample(NOUNS, 2)
        title = rng.choice(TITLES).format(A=a.capitalize(), a=a, b=b, place=rng.choice(PLACES))
        thread: list[dict[str, Any]] = []
        for n, when in enumerate(times):
            who = rng.choices(senders, weights)[0]
            parent = None
            if n:
                parent = thread[-1] if rng.random() < 0.6 else rng.choice(thread)
            parts = [_wrap(_paragraph(rng, (1, 4))) for _ in range(rng.randint(1, 3))]
            if parent is not None and rng.random() < 0.85:
                parts.insert(0, _quote(parent["name"], dt.datetime.fromisoformat(
                    parent["date"]), parent["body"]))
            body = "\n\n".join(parts)
            if who["signature"]:
                body += f"\n\n-- \n{who['signature']}"
            local = when.astimezone(dt.timezone(dt.timedelta(minutes=who["tz"]))).replace(
                microsecond=0)
            domain = who["address"].split("@")[1]
            thread.append({
                "thread": i, "n": n, "name": who["name"], "address": who["address"],
                "date": local.isoformat(), "subject": ("Re: " if n else "") + title,
                "message_id": f"<{seed}.{i}.{n}.{rng.randrange(16 ** 8):08x}@{domain}>",
                "in_reply_to": parent and parent["message_id"],
                "references": [*(parent["references"] if parent else []),
                               *([parent["message_id"]] if parent else [])],
                "body": body,
                "patch": _patch(rng) if rng.random() < 0.05 else None,
                "screenshot": rng.randrange(1 << 30) if rng.random() < 0.033 else None,
                "signature": (base64.b64encode(rng.randbytes(119)).decode()
                              if who["signs"] else None)})
        messages += thread
    messages.sort(key=lambda m: (dt.datetime.fromisoformat(m["date"]), m["thread"], m["n"]))
    return {"list": LIST_ADDRESS, "name": LIST_NAME, "senders": senders, "messages": messages}


def screenshot_png(seed: int) -> bytes:
    """A small PNG (a grey window with a title bar and a few bars of "text"), drawn from
    seed."""
    rng = random.Random(seed)
    w, h = rng.choice([(160, 100), (200, 120), (240, 150)])
    shade = rng.randint(200, 240)
    bars = [(rng.randint(10, 40), rng.randint(30, h - 10), rng.randint(40, w - 20))
            for _ in range(rng.randint(3, 7))]
    rows = []
    for y in range(h):
        row = bytearray([shade] * w)
        if y < 14:
            row = bytearray([70] * w)
        for x0, y0, length in bars:
            if y0 <= y < y0 + 4:
                row[x0:x0 + length] = bytes([40]) * len(row[x0:x0 + length])
        rows.append(b"\x00" + bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def _boundary(m: dict[str, Any], kind: str) -> str:
    """A MIME boundary of the message's own (the email package draws one at random: the mbox
    would differ from build to build)."""
    return f"=_{kind}_" + hashlib.sha1((kind + m["message_id"]).encode()).hexdigest()[:24]


def email_message(m: dict[str, Any]) -> Message:
    """A generated message as the list delivered it: the text (with a patch or screenshot
    attached, multipart/mixed), signed (multipart/signed with the PGP signature) when its
    sender signs; From, To, Subject, Date, Message-ID, In-Reply-To, References, List-Id."""
    content: Message = MIMEText(m["body"] + "\n", "plain", "us-ascii")
    if m["patch"] or m["screenshot"] is not None:
        mixed = MIMEMultipart("mixed", boundary=_boundary(m, "mixed"))
        mixed.attach(content)
        if m["patch"]:
            patch = MIMEText(m["patch"], "x-diff", "us-ascii")
            patch.add_header("Content-Disposition", "attachment", filename="fix.diff")
            mixed.attach(patch)
        if m["screenshot"] is not None:
            image = MIMEImage(screenshot_png(m["screenshot"]), "png")
            image.add_header("Content-Disposition", "attachment", filename="screenshot.png")
            mixed.attach(image)
        content = mixed
    if m["signature"]:
        signed = MIMEMultipart("signed", boundary=_boundary(m, "signed"),
                               protocol="application/pgp-signature", micalg="pgp-sha256")
        signed.attach(content)
        text = m["signature"]
        armour = ("-----BEGIN PGP SIGNATURE-----\n\n"
                  + "\n".join(text[k:k + 64] for k in range(0, len(text), 64))
                  + "\n-----END PGP SIGNATURE-----\n")
        sig = MIMEApplication(armour.encode(), "pgp-signature", encoders.encode_7or8bit,
                              name="signature.asc")
        sig.add_header("Content-Description", "OpenPGP digital signature")
        sig.add_header("Content-Disposition", "attachment", filename="signature.asc")
        signed.attach(sig)
        content = signed
    when = dt.datetime.fromisoformat(m["date"])
    content["From"] = f'"{m["name"]}" <{m["address"]}>'
    content["To"] = LIST_ADDRESS
    content["Subject"] = m["subject"]
    content["Date"] = format_datetime(when)
    content["Message-ID"] = m["message_id"]
    if m["in_reply_to"]:
        content["In-Reply-To"] = m["in_reply_to"]
        content["References"] = " ".join(m["references"])
    content["List-Id"] = f"{LIST_NAME} <{LIST_ADDRESS.replace('@', '.')}>"
    return content


def period_of(m: dict[str, Any]) -> str:
    """The month a message is filed under (YYYY-MM, by its date in UTC, when the list
    received it)."""
    return dt.datetime.fromisoformat(m["date"]).astimezone(dt.UTC).strftime("%Y-%m")


def write_mbox(path: Path, messages: list[dict[str, Any]]) -> None:
    """An mbox of the messages, in order, each with its envelope sender and date on the
    From_ line ("From " at a line's start in a body escaped as ">From ")."""
    path.parent.mkdir(parents=True, exist_ok=True)
    box = mailbox.mbox(str(path), create=True)
    try:
        for m in messages:
            msg = mailbox.mboxMessage(email_message(m))
            when = dt.datetime.fromisoformat(m["date"]).astimezone(dt.UTC)
            msg.set_from(m["address"], when.timetuple())
            box.add(msg)
    finally:
        box.close()


def month_title(period: str) -> str:
    """"March 2025" for 2025-03."""
    return dt.datetime.strptime(period, "%Y-%m").strftime("%B %Y")


def home_page(counts: dict[str, int]) -> str:
    """The top index (html/index.html): every month, newest first, with its thread and date
    indexes and its number of messages, as mharc's list page shows them."""
    rows = "\n".join(
        f'<tr><td>{month_title(p)}</td><td><a href="{p}/threads.html">[Thread]</a></td>'
        f'<td><a href="{p}/maillist.html">[Date]</a></td><td>{n}</td></tr>'
        for p, n in sorted(counts.items(), reverse=True))
    address = escape(LIST_ADDRESS)
    return f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"
        "http://www.w3.org/TR/html4/loose.dtd">
<html>
<head>
<title>{escape(SITE_NAME)}</title>
</head>
<body>
<h1>{escape(SITE_NAME)}</h1>
<p>The archives of {address}: help and questions from the people who use the tools.
To post, write to <a href="mailto:{address}">{address}</a>.</p>
<table border="1" cellpadding="4">
<tr><th>Period</th><th>Thread index</th><th>Date index</th><th>Messages</th></tr>
{rows}
</table>
<hr>
<address>Archives made by <a href="http://www.mhonarc.org/">MHonArc</a>.</address>
</body>
</html>
"""


def _page_rows(html: Path, spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The message pages MHonArc wrote, one row each (path, month, number, Message-ID,
    thread, place in the thread), matched to the generated mail by the Message-Id it records
    in each page (<!--X-Message-Id: ... -->); a RuntimeError unless every message has
    exactly one page."""
    by_id = {m["message_id"].strip("<>"): m for m in spec["messages"]}
    rows = []
    for page in sorted(html.glob("*/msg*.html")):
        head = page.read_text(encoding="latin-1")[:2000]
        found = re.search(r"<!--X-Message-Id: (.*?) -->", head)
        m = by_id.get(found.group(1)) if found else None
        if m is None:
            raise RuntimeError(f"{page}: no generated message with its Message-Id")
        rows.append({"type": "message", "path": f"/{page.parent.name}/{page.name}",
                     "period": page.parent.name, "message_id": m["message_id"],
                     "thread": m["thread"], "n": m["n"]})
    made = Counter(r["message_id"] for r in rows)
    if len(made) != len(by_id) or max(made.values()) != 1:
        raise RuntimeError(f"MHonArc wrote {len(rows)} message pages for {len(made)} of "
                           f"{len(by_id)} messages")
    return rows


def build(folder: Path, n_threads: int = 300, seed: int = 0) -> Path:
    """Build a fresh archive in folder, or reuse the one there if built with these
    parameters. Returns folder."""
    folder = folder.resolve()
    params = {"n_threads": n_threads, "seed": seed, "version": VERSION,
              "idxsize": IDXSIZE}
    if reuse_or_clear(folder, params, "helper.py", "MHonArc archive"):
        return folder
    program = mhonarc_path()
    if program is None:
        raise RuntimeError(str(available()))
    started = time.time()
    spec = generate(n_threads, seed, dt.datetime.now(dt.UTC).replace(microsecond=0))
    (folder / "helper.py").write_text(HELPER)
    rcfile = folder / "archive.mrc"
    rcfile.write_text(RCFILE)
    html = folder / "html"
    periods: dict[str, list[dict[str, Any]]] = {}
    for m in spec["messages"]:
        periods.setdefault(period_of(m), []).append(m)
    for period, messages in sorted(periods.items()):
        box = folder / "mbox" / f"{period}.mbox"
        write_mbox(box, messages)
        out = html / period
        out.mkdir(parents=True)
        title = f"{LIST_ADDRESS}: {month_title(period)}"
        run_checked([program, "-rcfile", str(rcfile), "-outdir", str(out), "-title",
                     f"{title}, by date", "-ttitle", f"{title}, by thread", "-quiet",
                     str(box)], folder, name=f"mhonarc {period}")
    (html / "index.html").write_text(home_page({p: len(ms) for p, ms in periods.items()}))
    rows = _page_rows(html, spec)
    with open(folder / "entities.jsonl", "w") as out_rows:
        for row in rows:
            out_rows.write(json.dumps(row) + "\n")
    (folder / "build.json").write_text(json.dumps({
        "params": params, "built_at": time.time(),
        "build_seconds": round(time.time() - started, 1)}))
    return folder


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the archive built in folder (html/ as a static host serves it: a threaded
    `http.server`, a thread a connection, GET and HEAD only) on a free port; yields the home
    URL. `workers` is not used."""
    folder = folder.resolve()
    with process_server(
            lambda port: [sys.executable, "-I", str(folder / "helper.py"), "serve", str(port),
                          str(workers)],
            folder / "server.log", "/", lambda server: dict(os.environ), folder,
            "mhonarc server") as seed:
        yield seed


def page_type(url: str) -> str:
    """Ground truth from the URL alone (MHonArc's default file names in a folder a month;
    the query string is ignored, as the server ignores it), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - / and /index.html (the top index): "home"
    - /YYYY-MM/msgNNNNN.html: "message"
    - /YYYY-MM/maillist.html, /YYYY-MM/mailN.html (the date index and its later pages):
      "date-index"
    - /YYYY-MM/threads.html, /YYYY-MM/thrdN.html (the thread index and its later pages):
      "thread-index"
    - /YYYY-MM/EXTxxxxxxxxxx.EXT (a file MHonArc wrote from a message's part: a .png
      screenshot, a .pgp signature): "attachment"
    - a style sheet, script, image or font elsewhere (by its extension): "static"
    - anything else (/YYYY-MM/ and /YYYY-MM, which have no index.html, /YYYY-MM/.mhonarc.db,
      a trailing slash after a file, /robots.txt, /favicon.ico is static): "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs or (segs == ["index.html"] and not path.endswith("/")):
        return "home"
    if len(segs) == 2 and PERIOD.fullmatch(segs[0]) and not path.endswith("/"):
        name = segs[1]
        if MESSAGE.fullmatch(name):
            return "message"
        if DATE_INDEX.fullmatch(name):
            return "date-index"
        if THREAD_INDEX.fullmatch(name):
            return "thread-index"
        if ATTACHMENT.fullmatch(name):
            return "attachment"
        return "other"
    if path.lower().endswith(STATIC_EXT):
        return "static"
    return "other"


def entity_of(url: str) -> str | None:
    """The message a URL shows: "message YYYY-MM NNNNN" for /YYYY-MM/msgNNNNN.html (a query
    does not change it); None for anything else."""
    if page_type(url) != "message":
        return None
    period, name = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    return f"message {period} {name.removeprefix('msg').removesuffix('.html')}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every message page, as MHonArc links them (/YYYY-MM/msgNNNNN.html); give the
    server (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: threads and messages, messages per thread, months, and
    the files MHonArc wrote by page type (every index page among them)."""
    rows = entity_rows(folder)
    sizes = Counter(Counter(r["thread"] for r in rows).values())
    html = folder / "html"
    files = Counter(page_type("/" + p.relative_to(html).as_posix())
                    for p in html.rglob("*") if p.is_file())
    return {"threads": len({r["thread"] for r in rows}), "messages": len(rows),
            "months": len({r["period"] for r in rows}),
            "messages_per_thread": dict(sorted(sizes.items())),
            "files": {t: files[t] for t in TYPE_ORDER if files[t]}}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "threads", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        months = sorted(u for u in home_links if page_type(u) == "thread-index")
        threads = months[len(months) // 2]
        thread_links = same_host_links(requests.get(threads, timeout=30).content, threads)
        message = next(u for u in sorted(thread_links) if page_type(u) == "message")
        message_links = same_host_links(requests.get(message, timeout=30).content, message)
        attached = next((u for u in ucc if "Attachment:" in requests.get(u, timeout=30).text),
                        None)
        attachment_links = (same_host_links(requests.get(attached, timeout=30).content,
                                            attached) if attached else set())
        first = {page_type(u): u for u in sorted(home_links | thread_links | message_links
                                                 | attachment_links, reverse=True)}
        period = urlsplit(message).path.split("/")[1]
        statuses = smoke_fetch(
            [seed, threads, message, message + "?x=1", *first.values(),
             f"{server}/index.html", f"{server}/{period}", f"{server}/{period}/",
             f"{server}/{period}/.mhonarc.db", f"{server}/robots.txt",
             f"{server}/favicon.ico", message + "/", f"{server}/../etc/passwd"],
            page_type, follow_redirects=False)
        print(f"HEAD {requests.head(message, timeout=30).status_code}, "
              f"POST {requests.post(seed, timeout=30).status_code} (static files)")
        print_link_types([("home", home_links), (threads, thread_links),
                          (message, message_links)], page_type)
        bad = [u for u in ucc if statuses.get(u, 200) != 200]
        if bad:
            print(f"UCC not 200: {bad}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
