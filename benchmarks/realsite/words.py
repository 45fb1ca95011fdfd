"""Words, names, places and thread timings for the generated content of the Python real
sites (`benchmarks.realsite.flaskbb`, `askbot`, `spirit`, `machina`, ...): one vocabulary, so
that the sites' texts are alike and a change to it is made once (it is part of neither site's
reuse marker: changing it changes every such site's content, so bump their VERSION too)."""

from __future__ import annotations

import datetime as dt
import random

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
