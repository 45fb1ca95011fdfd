"""Deterministic text for zoo sites: a template grammar over a general vocabulary plus
topical vocabularies, so 2-gram, shingle and diversity measures behave as on real sites.

Every generator takes a `random.Random`; callers seed one per entity (`rng_for`), so a page
renders the same bytes whenever it is asked for, without storing its text.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Sequence

_w = str.split

NOUNS = _w("""
time year week day month people way thing problem issue idea question answer reason result
part place case point fact example group number system program method setting option value
change update version release feature detail step rule list page note post thread reply topic
board member user friend neighbour family child parent teacher student expert beginner owner
moment minute hour morning evening night weekend season summer winter spring autumn weather
house garden kitchen room window door street road bridge station market shop office school
book story picture photo video song article guide manual tutorial review report study survey
money price cost budget deal offer order delivery package box bag bottle cup table chair
light sound colour shape size weight length distance speed level power energy heat water
air fire earth stone wood metal glass paper plastic cloth rope wire screen phone camera
computer laptop battery cable charger lens tripod engine wheel tyre brake seat mirror
trip journey holiday flight ticket hotel map route border island coast mountain river lake
forest field valley village town city country region capital museum gallery theatre park
habit hobby skill lesson practice mistake success failure progress plan goal choice chance
risk benefit advantage difference balance pattern detail texture surface edge corner centre
""")
ADJECTIVES = _w("""
good great small large little big old new young long short high low early late easy hard
simple clear strange odd common rare useful useless cheap expensive quick slow quiet loud
bright dark warm cold hot cool dry wet fresh stale clean dirty soft rough smooth sharp heavy
light strong weak safe risky local foreign public private main minor recent ancient modern
classic original official popular famous obscure happy sad lucky tired busy calm wild gentle
careful careless curious serious funny weird lovely beautiful ugly tiny huge narrow wide deep
shallow empty full rich poor fair honest whole broken perfect decent solid fragile stable
noisy silent friendly helpful patient stubborn generous crisp vivid pale golden silver
""")
VERBS = _w("""
try use need want find keep give take make see look check fix build test run start stop
change move open close read write send share post reply ask answer explain learn teach
help follow suggest recommend compare choose buy sell order return replace repair clean
cook bake grow plant water cut paint draw shoot edit print install upgrade remove measure
visit travel walk drive ride climb swim carry watch listen play sing count collect avoid
""")
ADVERBS = _w("""
really quite rather pretty very almost nearly simply actually probably certainly maybe
usually often sometimes rarely never always already still just finally suddenly slowly
quickly carefully easily honestly seriously luckily apparently basically definitely
""")
PEOPLE = ("I", "we", "you", "they", "my friend", "my brother", "my sister", "our neighbour",
          "a colleague", "everyone", "the mechanic", "my dad", "a mate")
DETERMINERS = ("the", "a", "my", "this", "that", "our", "every", "some", "no", "each",
               "another", "his", "her", "their", "your", "one", "the old", "the new")
PREPOSITIONS = ("in", "on", "at", "with", "for", "from", "near", "under", "after", "before",
                "without", "behind", "during", "around", "through", "about", "like", "over",
                "inside", "beside", "against", "along")
CONJUNCTIONS = ("and", "but", "so", "because", "while", "although", "when", "until", "since",
                "unless", "and then", "or", "yet")
OPENERS = [
    "Thanks for the reply.", "Good point.", "Same here.", "Interesting.", "Hi all,",
    "Hello everyone,", "Quick question:", "Update:", "Edit: fixed a typo.", "Agreed.",
    "Not sure about that.", "Welcome to the board!", "Cheers,", "Just my two cents.",
    "Bump.", "Any ideas?", "Thanks in advance!", "Well said.", "Following this thread.",
]

# Topical vocabularies: nouns/things, descriptive words, and tags (cotagging in the
# profile-focused paper §6, Table 2: "flowers flower nature macro spring yellow pink ...").
TOPICS: dict[str, tuple[str, ...]] = {
    "flowers": tuple(_w("""flower flowers rose tulip daisy orchid lily sunflower petal bloom
        blossom bud stem pollen bouquet garden meadow nature macro spring yellow pink purple
        red white green plants bee seeds vase peony lavender poppy dahlia iris magnolia""")),
    "city": tuple(_w("""city street skyline downtown building tower bridge subway traffic taxi
        avenue plaza rooftop neon night graffiti architecture urban alley crowd station
        skyscraper harbour tram metro nyc manhattan brooklyn london paris tokyo lights""")),
    "animals": tuple(_w("""animal animals dog puppy cat kitten bird eagle owl horse cow sheep
        fox deer rabbit squirrel bear lion tiger elephant zoo wildlife pet fur paws feathers
        nest farm safari whiskers tail parrot dolphin""")),
    "food": tuple(_w("""food recipe dinner lunch breakfast bread cake pasta pizza soup salad
        cheese sauce garlic onion tomato pepper spice oven grill dessert chocolate coffee
        tea noodles rice curry dough flavour kitchen baking vegan""")),
    "travel": tuple(_w("""travel trip journey beach sea ocean island mountain hiking trail
        camping backpack passport airport flight hostel hotel sunset sunrise landscape road
        desert lake waterfall temple castle village coast cruise adventure""")),
    "tech": tuple(_w("""python java javascript linux windows server database query index table
        function variable compiler error exception stack memory thread process kernel driver
        network socket packet router cache script library framework module package api json
        regex string integer array loop debugger commit branch merge build deploy""")),
    "cars": tuple(_w("""car engine gearbox clutch turbo diesel petrol tyre brake suspension
        exhaust radiator battery alternator spark plug mileage sedan hatchback coupe pickup
        garage mechanic oil filter dashboard headlight bumper chassis torque""")),
    "music": tuple(_w("""music guitar bass drums piano keyboard violin amp pedal chord melody
        riff song album band concert gig vinyl record tune rhythm tempo scale singer lyrics
        studio mixer microphone headphones synth""")),
    "photography": tuple(_w("""photography camera lens aperture shutter iso exposure tripod
        flash bokeh portrait landscape sensor zoom prime filter raw lightroom composition
        framing focus histogram nikon canon sony mirrorless film""")),
    "history": tuple(_w("""history empire king queen war battle treaty castle dynasty
        revolution republic century medieval ancient roman greek archive manuscript map
        colony trade parliament monument chronicle siege""")),
    "science": tuple(_w("""science physics chemistry biology atom molecule cell gene protein
        energy gravity orbit planet star galaxy telescope experiment theory hypothesis data
        measurement laboratory microscope climate fossil evolution""")),
    "sports": tuple(_w("""football soccer basketball tennis cycling running marathon league
        match goal team coach season score referee stadium player transfer training fitness
        derby tournament championship penalty keeper striker""")),
    "gardening": tuple(_w("""gardening soil compost seedling greenhouse shovel hose weed
        mulch fertiliser pruning hedge lawn vegetable tomato herb potato harvest raised bed
        orchard allotment watering irrigation pests""")),
}

TITLE_TEMPLATES = (
    "Problem with {t} after {n}", "Best {t} for a {a} {n}?", "{T} question", "Help with my {t}",
    "Anyone tried the {a} {t}?", "My {t} keeps {g}", "{T} vs {t2}: which one?",
    "How do you {v} a {t}?", "Looking for {a} {t} advice", "Show us your {t}!",
    "First {t} in ages", "Is this {t} {a}?", "{T} tips for beginners", "{A} {t} and {t2}",
    "Weird {t} {n} - any idea?", "Finally fixed my {t}", "{T} {n} thread", "Why is my {t} so {a}?",
    "Cheap {t} recommendations", "{T}: {a} or {a2}?", "What {t} do you use?",
)
SENTENCE_TEMPLATES = (
    "{P} {v} the {t} every {n}.", "The {a} {t} was {r} {a2}.", "Have you tried to {v} the {t}?",
    "{R} the {n} is the {a} part.", "It {r} depends on the {t} and the {n}.",
    "I would {v} a {a} {t} first, then {v2} the {n}.", "My {t} is {r} {a} after the {n}.",
    "Does anyone know why the {t} gets {a} in the {n}?", "We had to {v} it twice.",
    "The {n} near the {t} looked {a}.", "{P} said the {a} {t} is worth it.",
    "You can {v} the {t} with a {a} {n}.", "Try to {v} it {r}, it {r2} works.",
    "After a {n} the {t} was {a2} again.", "There is a {a} {n} about {t} on page two.",
    "I think the {t} and the {t2} are {r} {a}.", "Not every {t} needs a {a} {n}.",
    "{P} {r} {v} {t} in the {n}.", "The {a} {n} made the {t} {a2}.",
    "If the {t} is {a}, {v} the {n} and wait a {n2}.", "Mine came with a {a} {t}.",
    "It took about a {n} to {v} the whole {t}.", "{R}, the {t} was {a} and {a2}.",
    "I posted a picture of the {t} in the other thread.", "Keep the {t} away from the {n}.",
    "The {t} {n} here is {r} {a}.", "That {a} {t} reminds me of my {n}.",
    "Check the {n} before you {v} the {t}.", "Which {t} did you end up with?",
)
_SLOTS = re.compile(r"\{(\w+)\}")
Compiled = tuple[str, tuple[tuple[tuple[str, ...], int], ...]]


def rng_for(*key: object) -> random.Random:
    """A Random seeded from `key` (stable across runs and PYTHONHASHSEED)."""
    return random.Random(":".join(map(str, key)))


def _ing(verb: str) -> str:
    return (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing"


def _third(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x")) or verb in ("go", "do"):
        return verb + "es"
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return {"have": "has"}.get(verb, verb + "s")


def _pick(r: Callable[[], float], pool: Sequence[str]) -> str:
    return pool[int(r() * len(pool))]


def _cap(words: Sequence[str]) -> tuple[str, ...]:
    return tuple(w[0].upper() + w[1:] for w in words)


class Writer:
    """Sentence, paragraph and title generator over one topical vocabulary.

    Templates are compiled once into literal strings and word pools, so filling one is a
    handful of `random()` calls (rendering must stay well under a millisecond per page).
    """

    def __init__(self, topic: str) -> None:
        self.topic = topic
        self.terms = TOPICS[topic]
        terms = self.terms
        pools: dict[str, tuple[str, ...]] = {
            "t": terms, "T": _cap(terms),
            "n": tuple(NOUNS) + terms * 3,       # about 30% topical nouns
            "a": tuple(ADJECTIVES), "A": _cap(ADJECTIVES), "v": tuple(VERBS),
            "g": tuple(_ing(v) for v in VERBS), "r": tuple(ADVERBS), "R": _cap(ADVERBS),
            "P": _cap(PEOPLE),
        }
        pools["vs"] = tuple(_third(v) for v in VERBS)
        for k in ("t", "n", "a", "v", "r"):
            pools[k + "2"] = pools[k]
        self._pools = pools
        self._sentences = [self._compile(t, pools) for t in SENTENCE_TEMPLATES]
        self._titles = [self._compile(t, pools) for t in TITLE_TEMPLATES]

    @staticmethod
    def _compile(template: str, pools: dict[str, tuple[str, ...]]) -> Compiled:
        slots: list[tuple[tuple[str, ...], int]] = []

        def hole(m: re.Match[str]) -> str:
            pool = pools[m.group(1)]
            slots.append((pool, len(pool)))
            return "{}"

        fmt = _SLOTS.sub(hole, template.replace("{{", "").replace("}}", ""))
        return fmt, tuple(slots)

    @staticmethod
    def _fill(rng: random.Random, compiled: Compiled) -> str:
        r = rng.random
        fmt, slots = compiled
        return fmt.format(*[p[int(r() * n)] for p, n in slots])

    def sentence(self, rng: random.Random) -> str:
        """One sentence: half from templates, half from a small phrase-structure grammar
        (S -> NP VP [PP] [CONJ S]), which keeps 2-gram diversity close to real text."""
        r = rng.random
        if r() < 0.5:
            return self._fill(rng, self._sentences[int(r() * len(self._sentences))])
        out = self._clause(r)
        if r() < 0.35:
            out += " " + _pick(r, CONJUNCTIONS) + " " + self._clause(r)
        return out[0].upper() + out[1:] + ("?" if r() < 0.08 else ".")

    def _clause(self, r: Callable[[], float]) -> str:
        p = self._pools
        if r() < 0.3:
            subject, verb = _pick(r, PEOPLE), _pick(r, p["v"])
        else:
            subject, verb = self._np(r), _pick(r, p["vs"])
        if r() < 0.3:
            verb = _pick(r, p["r"]) + " " + verb
        out = f"{subject} {verb} {self._np(r)}"
        if r() < 0.55:
            out += f" {_pick(r, PREPOSITIONS)} {self._np(r)}"
        return out

    def _np(self, r: Callable[[], float]) -> str:
        p = self._pools
        noun = _pick(r, p["n"])
        if r() < 0.45:
            noun = _pick(r, p["a"]) + " " + noun
        return _pick(r, DETERMINERS) + " " + noun

    def title(self, rng: random.Random) -> str:
        """A thread/post/question title."""
        return self._fill(rng, self._titles[int(rng.random() * len(self._titles))])

    def paragraph(self, rng: random.Random, sentences: int) -> str:
        """`sentences` sentences, sometimes opened by a conversational phrase."""
        out = [rng.choice(OPENERS)] if rng.random() < 0.25 else []
        out.extend(self.sentence(rng) for _ in range(max(1, sentences)))
        return " ".join(out)

    def paragraphs(self, rng: random.Random, words: int) -> list[str]:
        """About `words` words split into paragraphs of 2-7 sentences."""
        out: list[str] = []
        remaining = max(6, words)
        while remaining > 0:
            n = rng.randint(2, 7)
            out.append(self.paragraph(rng, n))
            remaining -= n * 9
        return out

    def tags(self, rng: random.Random, k: int) -> list[str]:
        """`k` distinct tags from this topic's vocabulary."""
        return rng.sample(self.terms, min(k, len(self.terms)))


@functools.lru_cache(maxsize=64)
def writer(topic: str) -> Writer:
    """The (immutable, shared) Writer for `topic`."""
    return Writer(topic)


def body_length(rng: random.Random, median: int = 60, spread: float = 0.9,
                cap: int = 1500) -> int:
    """A heavy-tailed length in words: most posts are short, a few are very long."""
    return min(cap, max(3, int(rng.lognormvariate(0, spread) * median)))


_SYL = _w("ka ri to ma lu ne so vi da mo re ta li za po ke ba ni fe gu ro sa mi do la ve yo")
_SUFFIX = ("", "", "", "_", "x", "77", "99", "2000", "_uk", "42", "fan", "cat", "dev")


def username(rng: random.Random) -> str:
    """A plausible, deterministic user name."""
    name = "".join(rng.choice(_SYL) for _ in range(rng.randint(2, 3)))
    if rng.random() < 0.4:
        name = name.capitalize()
    return name + rng.choice(_SUFFIX) + (str(rng.randint(1, 99)) if rng.random() < 0.3 else "")


def slugify(text: str, max_len: int = 60) -> str:
    """URL slug: lowercase words joined by '-'."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:max_len].rstrip("-") or "untitled"


def weighted_pick(rng: random.Random, items: Sequence[int], skew: float = 0.6) -> int:
    """Zipf-like pick: early items (the 'regulars') are chosen far more often."""
    n = len(items)
    idx = min(n - 1, int(n * (rng.random() ** (1 + skew * 2))))
    return items[idx]
