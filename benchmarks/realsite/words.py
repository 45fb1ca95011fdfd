"""Words, names, places and thread timings for the generated content of the Python real
sites (`benchmarks.realsite.flaskbb`, `askbot`, `spirit`, `machina`, ...): one vocabulary, so
that the sites' texts are alike and a change to it is made once (it is part of neither site's
reuse marker: changing it changes every such site's content, so bump their VERSION too)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

_WORDS = """the of and a to in is was for on as with by that from at which it an were are this
be has had after first new other their also between during about into over two most we our
garden bread recipe trail camera lens bike repair season soil seeds oven dough film light
route weather hut ridge valley river coffee roast grinder notes week weekend morning evening
winter spring summer autumn tools workshop bench wood joint glue paint frame wheel chain
tyre brake map compass stove tent rain snow photos prints paper ink shelf kitchen table
solder board sensor battery lathe drill file chisel plane saw hinge bolt weld steel"""
WORDS = _WORDS.split()
NOUNS = WORDS[40:]
FIRST = ["Anna", "Ben", "Carla", "Dev", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jonas",
         "Kira", "Luca", "Maya", "Nils", "Omar", "Pia", "Rosa", "Sam", "Tara", "Ugo"]
LAST = ["Berg", "Costa", "Dahl", "Eriksen", "Fischer", "Garcia", "Holm", "Ivanova", "Jensen",
        "Kowalski", "Lund", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi", "Silva"]
PLACES = ["Bergen", "Porto", "Lyon", "Gdansk", "Leeds", "Graz", "Turku", "Ghent", "Cork",
          "Basel", "Malmo", "Bologna"]


def sentence(rng: random.Random, n: tuple[int, int] = (8, 18)) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(*n)))
    return text[0].upper() + text[1:] + "."


def paragraph(rng: random.Random, n: tuple[int, int] = (2, 5)) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(*n)))


def camel(word: str) -> str:
    """A word with its first letter upper-case (a part of a wiki page's name)."""
    return word[0].upper() + word[1:]


def wiki_page(rng: random.Random, title: str, links: list[str], numbers: int, *,
              heading: Callable[[str, int], str], bullet: str,
              link: Callable[[str], str]) -> str:
    """A wiki page in a wiki's own syntax (`heading`(text, level), list `bullet`, `link` to
    a page by name): a heading, one to three sections of paragraphs, some with a list, and
    a "See also" line linking `links` and, six times in ten, one to three of the tickets
    or issues 1..`numbers` (#N)."""
    out = [heading(title, 1), "", paragraph(rng, (1, 3)), ""]
    for _ in range(rng.randint(1, 3)):
        out += [heading(f"{camel(rng.choice(NOUNS))} and {rng.choice(NOUNS)}", 2), "",
                paragraph(rng), ""]
        if rng.random() < 0.5:
            out += [f"{bullet}{sentence(rng, (4, 10))}" for _ in range(rng.randint(2, 5))] + [""]
    refs = [link(name) for name in links]
    if numbers and rng.random() < 0.6:
        refs += [f"#{rng.randint(1, numbers)}" for _ in range(rng.randint(1, 3))]
    if refs:
        out += ["See also " + ", ".join(refs) + ".", ""]
    return "\n".join(out)


def wiki_names(rng: random.Random, room: int, start: dt.datetime, now: dt.datetime, *,
               howto: Callable[[str, str], str], meeting: Callable[[dt.datetime], str],
               share: float) -> tuple[list[str], list[str]]:
    """A project wiki's how-to and meeting-notes page names, `room` in all (the Trac and
    Fossil sites'): a how-to (`howto` of two nouns) `share` of the time, else the notes of a
    day between start and now (`meeting`), each name once."""
    howtos: list[str] = []
    meetings: list[str] = []
    while len(howtos) + len(meetings) < room:
        if rng.random() < share:
            name = howto(camel(rng.choice(NOUNS)), camel(rng.choice(NOUNS)))
            if name not in howtos:
                howtos.append(name)
        else:
            name = meeting(start + dt.timedelta(days=rng.randrange((now - start).days)))
            if name not in meetings:
                meetings.append(name)
    return howtos, meetings


def post_title(rng: random.Random) -> str:
    """A blog post's title, as the blogs' generators (Ghost, Mezzanine, Puput, Pelican) make
    them; every candidate is drawn, then one chosen (the draws are part of each build)."""
    return rng.choice([
        f"{rng.choice(NOUNS).capitalize()} and {rng.choice(NOUNS)}",
        f"Notes on the {rng.choice(NOUNS)} {rng.choice(NOUNS)}",
        f"A {rng.choice(NOUNS)} for the {rng.choice(NOUNS)}",
        f"{rng.choice(NOUNS).capitalize()} {rng.choice(NOUNS)} in {rng.choice(PLACES)}",
        f"How I fixed the {rng.choice(NOUNS)} {rng.choice(NOUNS)}"])


def user_name(rng: random.Random, first: str, last: str) -> str:
    """A forum user name made of a first and a last name, as members pick them."""
    return rng.choice([f"{first}{last}", f"{first.lower()}_{last.lower()}",
                       f"{first}{rng.randint(2, 99)}", f"{first.lower()}-{last[0].lower()}",
                       f"{last.lower()}{first[0].lower()}"])


def thread_times(rng: random.Random, start: dt.datetime, end: dt.datetime, replies: int,
                 min_gap: float = 0.0) -> list[dt.datetime]:
    """When a thread's first post and its `replies` were written: gaps of minutes to hours,
    growing as the thread goes on, squeezed to end by `end`; no gap under `min_gap` seconds."""
    gaps = [rng.expovariate(1 / rng.choice([1800, 7200, 28_800])) * (1 + k / 8)
            for k in range(replies)]
    room = (end - start).total_seconds()
    scale = min(1.0, room / sum(gaps)) if gaps else 1.0
    times, t = [start], start
    for g in gaps:
        t += dt.timedelta(seconds=max(g * scale, min_gap))
        times.append(t)
    return times


def slug(text: str) -> str:
    """A URL slug of a title: its words lowercased, letters and digits only, joined by "-"."""
    return "-".join("".join(c for c in w.lower() if c.isalnum()) for w in text.split())


def stamp(when: dt.datetime) -> str:
    return when.isoformat()


# A forum's topic titles, replies and members, shared by the django-machina, pybbm and Misago
# sites (`benchmarks.realsite.machina`, `pybbm`, `misago`): the same spread of thread lengths
# (Misago pages longer threads) and the same members, each site writing a signature's
# italics in its own markup
FORUM_TITLES = ["{A} {b} question", "Help with my {a} {b}", "My {a} {b} build", "{A} or {b}?",
                "Best {a} for {b}?", "{A} {b} {c}", "Notes on {a} and {b}", "First {a} {b}",
                "{A} {b}: what am I doing wrong?", "Show us your {a} {b}"]


def forum_replies(rng: random.Random) -> int:
    """Replies to a topic: mostly short threads, some of 30 to 44 (several pages)."""
    r = rng.random()
    for share, low, high in ((0.50, 0, 5), (0.75, 6, 14), (0.90, 15, 29)):
        if r < share:
            return rng.randint(low, high)
    return rng.randint(30, 44)


def forum_users(rng: random.Random, now: dt.datetime, italic: Callable[[str], str],
                n: int = 40, *, underscores: bool = False, real_names: bool = True
                ) -> list[dict[str, Any]]:
    """n users: the administrator, two moderators and the members; some with a signature
    (`italic` writes a sentence in italics in the forum's markup). `underscores`: user names
    of letters, digits and "_" (Misago's); `real_names`: half the members give their first
    and last names."""
    names = rng.sample([(f, last) for f in FIRST for last in LAST], n - 1)
    users, seen = [], set()
    for i, (first, last) in enumerate([("Admin", ""), *names]):
        name = "admin" if i == 0 else user_name(rng, first, last)
        if underscores:
            name = name.replace("-", "_")
        while name.lower() in seen:
            name += str(rng.randint(0, 9))
        seen.add(name.lower())
        real = real_names and i and rng.random() < 0.5
        joined = now - dt.timedelta(days=800 if i <= 2 else rng.uniform(30, 780))
        signature = ""
        if rng.random() < 0.35:
            signature = rng.choice([italic(sentence(rng, (4, 9))),
                                    f"{first} from {rng.choice(PLACES)}",
                                    f"Currently building: a {rng.choice(NOUNS)} "
                                    f"{rng.choice(NOUNS)}"])
        user = {"username": name, "email": f"{name.lower()}@example.org",
                "role": "admin" if i == 0 else "mod" if i <= 2 else "member",
                "first_name": first if real else "", "last_name": last if real else "",
                "signature": signature, "joined": stamp(joined),
                "lastseen": stamp(now - dt.timedelta(days=rng.uniform(0.1, 50)))}
        if not real_names:
            del user["first_name"], user["last_name"]
        users.append(user)
    return users


def mail_wrap(text: str, width: int = 72) -> str:
    """A paragraph wrapped as mail clients send it (the list archives: `hyperkitty`,
    `mhonarc`)."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def mail_quote(name: str, when: dt.datetime, body: str) -> str:
    """The parent's own text (its quotes and signature left out) quoted as mail clients
    do: an attribution line, then "> " before each line."""
    own = [line for line in body.split("\n-- \n")[0].splitlines()
           if not line.startswith(">") and not line.endswith(" wrote:")]
    while own and not own[0].strip():
        own.pop(0)
    text = "\n".join(own[:6]).strip()
    return (f"On {when.strftime('%a, %d %b %Y %H:%M')}, {name} wrote:\n"
            + "\n".join(f"> {line}" if line else ">" for line in text.splitlines()))

