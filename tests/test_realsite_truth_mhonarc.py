"""The MHonArc list archive's ground truth (`benchmarks.realsite.mhonarc`): page types and the
message a URL shows come from the URL alone, and the mail it archives is generated, so both
are checked here without MHonArc installed (and without the network)."""

from __future__ import annotations

import datetime as dt
import email.policy
import re
from collections import Counter
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest

from benchmarks.realsite import mhonarc as mh

H = "http://127.0.0.1:8080"
NOW = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("", "home"),
    ("/index.html", "home"),
    ("/?sort=new", "home"),
    ("/2025-03/msg00000.html", "message"),
    ("/2025-03/msg00041.html", "message"),
    ("/2025-03/msg00041.html?utm_source=x", "message"),
    ("/2025-03/msg00041.html#00041", "message"),
    ("/2025-03/msg123456.html", "message"),
    ("/2025-03/maillist.html", "date-index"),
    ("/2025-03/maillist.html#00012", "date-index"),
    ("/2025-03/mail2.html", "date-index"),
    ("/2025-03/mail12.html", "date-index"),
    ("/2025-03/threads.html", "thread-index"),
    ("/2025-03/threads.html#00003", "thread-index"),
    ("/2025-03/thrd2.html", "thread-index"),
    ("/2025-03/thrd3.html", "thread-index"),
    ("/2025-03/png9C3_FmZdAI.png", "attachment"),
    ("/2025-03/pgpvNLfv3MiEr.pgp", "attachment"),
    ("/2025-03/pdfAIoPfmJPQR.pdf", "attachment"),
    ("/2025-03/bin_2d1HhpiCi.bin", "attachment"),
    ("/2025-03/png9C3_FmZdAI.jpg", "other"),       # not a name MHonArc writes
    ("/2025-03/screenshot.png", "other"),
    ("/2025-03/.mhonarc.db", "other"),
    ("/2025-03/", "other"),
    ("/2025-03", "other"),
    ("/2025-03/msg00041.html/", "other"),
    ("/2025-03/mail.html", "other"),
    ("/2025-03/msg.html", "other"),
    ("/2025-03/index.html", "other"),
    ("/2025/03/msg00041.html", "other"),
    ("/2025-3/msg00041.html", "other"),
    ("/msg00041.html", "other"),
    ("/index.html/", "other"),
    ("/robots.txt", "other"),
    ("/favicon.ico", "static"),
    ("/icons/mhonarc.png", "static"),
    ("/mbox/2025-03.mbox", "other"),
])
def test_mhonarc_page_type(path: str, kind: str) -> None:
    assert mh.page_type(H + path) == kind
    assert kind in mh.TYPE_ORDER


def test_mhonarc_page_type_of_another_host_and_relative_urls() -> None:
    assert mh.page_type("http://www.mhonarc.org/") == "other"
    assert mh.page_type("https://lists.example.org/2025-03/msg00001.html") == "other"
    assert mh.page_type("mailto:users@lists.example.org") == "other"
    assert mh.page_type("/2025-03/msg00001.html") == "message"
    assert mh.page_type("http://localhost:8000/2025-03/thrd2.html") == "thread-index"


@pytest.mark.parametrize(("path", "entity"), [
    ("/2025-03/msg00041.html", "message 2025-03 00041"),
    ("/2025-03/msg00041.html?x=1", "message 2025-03 00041"),
    ("/2025-03/msg00041.html#top", "message 2025-03 00041"),
    ("/2025-04/msg00041.html", "message 2025-04 00041"),
    ("/2025-03/msg00000.html", "message 2025-03 00000"),
    ("/2025-03/%6Dsg00002.html", "message 2025-03 00002"),
])
def test_mhonarc_entity_of_names_the_month_and_the_number(path: str, entity: str) -> None:
    assert mh.entity_of(H + path) == entity


@pytest.mark.parametrize("path", [
    "/", "/index.html", "/2025-03/maillist.html", "/2025-03/mail2.html",
    "/2025-03/threads.html", "/2025-03/thrd2.html", "/2025-03/png9C3_FmZdAI.png",
    "/2025-03/.mhonarc.db", "/2025-03/", "/2025-03/msg00041.html/", "/msg00041.html",
])
def test_mhonarc_entity_of_is_none_off_the_message_pages(path: str) -> None:
    assert mh.entity_of(H + path) is None


def test_mhonarc_ucc_is_the_message_page() -> None:
    assert mh.TARGET_TYPE in mh.UCC_TYPES == {"message"}
    assert set(mh.TYPE_ORDER) >= {"message", "home", "date-index", "thread-index",
                                  "attachment", "static", "other"}
    assert mh.SAME_TEMPLATE == {}


def test_mhonarc_generator_threads_mail_over_two_years() -> None:
    """Threads of 1 to 8 messages, every reply naming an earlier message of its thread with
    the References chain down to it; unique Message-IDs; some 40 posters; dates within the
    two years before `now`, spread over 24 or 25 months, in order; a few patches,
    screenshots and signed messages; deterministic."""
    spec = mh.generate(300, 0, NOW)
    messages = spec["messages"]
    ids = {m["message_id"]: m for m in messages}
    assert len(ids) == len(messages)
    sizes = Counter(m["thread"] for m in messages)
    assert len(sizes) == 300 and set(sizes.values()) == set(range(1, 9))
    assert 700 < len(messages) < 1300
    assert sizes.most_common(1)[0][1] == 8
    seen: set[str] = set()
    for m in messages:
        when = dt.datetime.fromisoformat(m["date"])
        assert NOW - dt.timedelta(days=731) < when < NOW
        if m["n"] == 0:
            assert m["in_reply_to"] is None and m["references"] == []
            assert not m["subject"].startswith("Re: ")
        else:
            parent = ids[m["in_reply_to"]]
            assert parent["message_id"] in seen and parent["thread"] == m["thread"]
            assert m["references"][-1] == parent["message_id"]
            assert ids[m["references"][0]]["n"] == 0
            assert m["subject"].startswith("Re: ")
        seen.add(m["message_id"])
    dates = [dt.datetime.fromisoformat(m["date"]) for m in messages]
    assert dates == sorted(dates)
    assert 24 <= len({mh.period_of(m) for m in messages}) <= 25
    assert 30 <= len({m["address"] for m in messages}) <= 40 == len(spec["senders"])
    assert any(line.startswith("> ") for m in messages for line in m["body"].splitlines())
    for key in ("patch", "screenshot", "signature"):
        made = sum(m[key] is not None for m in messages)
        assert 5 < made < len(messages) // 5, key
    assert mh.generate(300, 0, NOW) == spec
    assert mh.generate(300, 1, NOW) != spec


def _parsed(m: dict[str, Any]) -> EmailMessage:
    """A generated message as a mail reader parses what `email_message` wrote."""
    parsed = BytesParser(policy=email.policy.default).parsebytes(
        mh.email_message(m).as_bytes())
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_mhonarc_mail_carries_the_threading_headers_and_parts() -> None:
    """A reply's headers as MHonArc reads them (Message-ID, In-Reply-To, References, Date,
    From, List-Id); a signed message is multipart/signed with the PGP signature; a patch and a
    screenshot are attachments (the PNG valid); MIME boundaries do not change between runs."""
    messages = mh.generate(300, 0, NOW)["messages"]
    reply = next(m for m in messages if len(m["references"]) >= 2)
    msg = _parsed(reply)
    assert msg["Message-ID"] == reply["message_id"]
    assert msg["In-Reply-To"] == reply["in_reply_to"]
    assert msg["References"].split() == reply["references"]
    assert msg["To"] == mh.LIST_ADDRESS and reply["address"] in msg["From"]
    assert msg["Date"].datetime == dt.datetime.fromisoformat(reply["date"])
    assert "users.lists.example.org" in msg["List-Id"]
    signed = next(m for m in messages if m["signature"])
    parsed = _parsed(signed)
    assert parsed.get_content_type() == "multipart/signed"
    assert parsed.get_param("protocol") == "application/pgp-signature"
    sig = list(parsed.iter_parts())[1]
    assert sig.get_content_type() == "application/pgp-signature"
    assert b"BEGIN PGP SIGNATURE" in sig.get_content()
    shot = next(m for m in messages if m["screenshot"] is not None)
    parts = {p.get_content_type(): p for p in _parsed(shot).walk()}
    png = parts["image/png"].get_content()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and png.endswith(b"IEND\xaeB`\x82")
    assert parts["image/png"].get_filename() == "screenshot.png"
    patched = next(m for m in messages if m["patch"])
    assert "text/x-diff" in mh.email_message(patched).as_string()
    assert mh.email_message(shot).as_bytes() == mh.email_message(shot).as_bytes()
    assert mh.email_message(signed).as_bytes() == mh.email_message(signed).as_bytes()


def test_mhonarc_mbox_keeps_every_message_in_date_order(tmp_path: Path) -> None:
    import mailbox

    every = mh.generate(40, 0, NOW)["messages"]
    messages = [m for m in every if mh.period_of(m) == mh.period_of(every[5])]
    assert len(messages) > 2
    path = tmp_path / "month.mbox"
    mh.write_mbox(path, messages)
    box = mailbox.mbox(str(path))
    assert [msg["Message-ID"] for msg in box] == [m["message_id"] for m in messages]
    assert all(msg.get_from().startswith(m["address"] + " ")
               for msg, m in zip(box, messages, strict=True))
    box.close()


def test_mhonarc_home_page_links_every_month_newest_first() -> None:
    page = mh.home_page({"2025-01": 30, "2025-03": 41, "2025-02": 12})
    assert page.index('href="2025-03/threads.html"') < page.index('href="2025-01/threads.html"')
    for period in ("2025-01", "2025-02", "2025-03"):
        for index in ("threads.html", "maillist.html"):
            link = f"{period}/{index}"
            assert f'href="{link}"' in page
            assert mh.page_type(f"{H}/{link}") in ("thread-index", "date-index")
    assert "<td>March 2025</td>" in page and "<td>41</td>" in page


def test_mhonarc_resource_file_sets_only_the_multi_page_indexes_and_the_up_link() -> None:
    rc = mh.RCFILE
    assert "<MultiPg>" in rc and f"<IdxSize>\n{mh.IDXSIZE}\n</IdxSize>" in rc
    assert rc.count('<p>[<a href="../">List archives</a>]</p>') == 2
    elements = set(re.findall(r"^<([A-Z]\w*)>$", rc, re.MULTILINE))
    assert elements == {"MultiPg", "IdxSize", "IdxPgBegin", "TIdxPgBegin"}


def test_mhonarc_available_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without `mhonarc` on PATH the site says how to install it (no test here needs it)."""
    monkeypatch.setattr(mh.shutil, "which", lambda name: None)
    missing = mh.available()
    assert missing is not None and mh.INSTALL in missing
    monkeypatch.setattr(mh.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert mh.available() is None
