"""Which kinds of link still bring something new: an extension of SOUrCe's stop rule
(`archiver.strategies.source`), after ACEBot's redundancy test (Faheem & Senellart 2014,
§3.3: a navigation pattern whose pages hold no 2-grams not seen before is not followed; "a
same blog post may be accessible by tag, year, etc.").

A listing is worth fetching for what it leads to. Once a site's content pages are known,
its tag, date, category and author archives list nothing new, yet eq. 12 values them as it
did in the sample: on a real 1,000-post WordPress, source-ucc had found its last post
after 1,154 requests and went on to make 550 more, all archive pages (benchmarks/realsite).

A fetched page is **productive** when it brought new text (at least `NOVEL_SHARE` of its
word shingles were never seen on an earlier page) or when one of the new links it found
(links no earlier page had, that the strategy followed and ranks at least as high as
the page itself: a link ranked lower comes after the rest of the page's kind, too late to
judge it) led to a productive page. The
second part is settled when those pages are fetched, so a page waits ("pending") until
then; a page with no new links is settled at once. Chains thus count as a whole: tag page
1 is productive only if page 2 (or what page 2 found) brought something, so pagination
does not pass for discovery. A kind of link, the (cluster, Apath) of the link that found
the page, is **exhausted** once its last `RUN_LENGTH` settled pages in a row were not
productive. If such links still brought something new one time in ten, twenty misses in a
row would happen with probability 0.9^20 = 0.12; one time in five, 0.01.

Kinds of one **family** (given by the caller: the holder's cluster and the cluster the
kind's links lead to most, see `archiver.strategies.source`) also share a run of misses, and
a kind is exhausted when its family's run reaches `RUN_LENGTH` and its own run `FAMILY_OWN`
(one miss for a kind that never brought anything: a real Askbot's tag lists have a kind of
link per sort and scope, some thirty, and each cost four requests once the questions were
known).
Once a real WordPress's posts were all known, its archives' sidebar widgets, page numbers
and previous-page links, three kinds that all lead to archives, each needed twenty misses
of its own. The guard on a kind's own run keeps a kind that was seldom followed out of its
siblings' verdict: without it, the header menu's three static pages, fetched last, were
lost with the archives (recall 1.000 -> 0.990).

A second, wider family (`destination`, also given by the caller) holds every kind whose
links lead mostly to one cluster, from whichever other cluster holds them, and is judged
the same way, with the same guard (a listing's links to more of itself keep their own
family only, `archiver.strategies.source`). A real django-wiki's article views
(history, source, attachments, directory) each link every other view, so each view
cluster held a kind of link to each of the others, and each (holder, destination) family
needed its own twenty misses: about 850 requests after the last article, few of which
brought anything. The destination's run ends them together once twenty pages of that
destination in a row, from any holder, brought nothing.

Shingles are runs of `SHINGLE` words within one text node of the body (link text
included), or, with ``blocks`` (`Shingles`, the strategy's ``block_shingles``, on by
default), within one block (a paragraph, a list item, a cell, with the text of its
emphases; a link's text apart: `archiver.learning.features.block_text`), hashed into a
bitmap of 2^`BITMAP_BITS` bits (16 MiB): a set of every shingle seen, with about 4% false
"seen" after 6 million shingles (a 20,000-page site), which only makes a share slightly
smaller. Measured on the real WordPress (5-word shingles): posts had a median new share of
0.59 (10th percentile 0.41), archive pages fetched after the last post 0.02-0.09 (90th
percentile at most 0.14). Pages with fewer than `MIN_SHINGLES` shingles (a login form, a
short profile) are too short to judge by the share: they count as new when one of their
words (of `MIN_WORD` characters or more) is new, or when they have no shingle at all, and
otherwise need as many new shingles as a page of `MIN_SHINGLES` would (`News.novel`).
Until 2026-11 they all counted as new, and a real Askbot's empty tag lists (15-17
shingles, the site's chrome) kept its tag lists productive; then one new shingle was
enough, and its users' empty tabs were new by the title's user name ("anna-b's profile -
followed questions": known words, new shingles). Numbers are not words (a word has a
letter): a user's karma tab, a date per vote, and listings' counts and dates are not new
text. Nor is a number with a unit (session 52): the digits a word begins with are read as
one digit, so Fossil's footer, "generated in about 0.007s", gives the same word whatever
the time the page took. It had been new whenever the server was slower or faster than
before, and two runs of one code on a real Fossil parted after 724 identical fetches, a
kind of link exhausted in one of them only (source-ucc recall 0.225 and 0.292; with it,
0.292 in four runs of four). A word that begins with a letter keeps its digits
(``python3``, ``ipv6``, a wiki's ``MorningChecklist2``). Every digit masked instead, a
real MoinMoin's source-ucc crawl made 477 requests in one run of four (577, 577 and 601
in the others; this rule: 477 in four of four; the code before it: three of four), and a
real Roundup's issue and message numbers (``issue12``) stopped being new words (580 -> 537
requests, 95% of its issues after as many). On the 22 other real sites this rule changed
Trac's source-target crawl (599 -> 596 requests) and nothing else.

An underscore is no letter either (session 57). A real Fossil answers a visitor who is not
logged in with a robot wall ("Please demonstrate that you are human") instead of a file's
annotation, blame or age list, and shows its sign-in form, each with a captcha drawn anew
for every request in ASCII art (``|___ \\  / _ \\``), whose runs of underscores were read
as words: a second fetch of one wall had 31 new shingles of 48, new text because of its
captcha, and two runs of one build parted after 685 identical fetches. Not words, the runs
repeat, and at one sample draw source-ucc's recall at 2,000 requests went from 0.318 to
0.590 (wget: 0.461); the zoo and the 22 other real sites are the same crawls, but for one
crawl 2 requests longer and MoinMoin's known drift (benchmarks/results/ascii-art.md).

References
----------
Faheem & Senellart (2014), "Intelligent and adaptive crawling of web applications for web
archiving", §3.3 (the score of a navigation pattern: distinct 2-grams per page).
Broder (1997), "On the resemblance and containment of documents" (w-shingles).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from archiver.learning.features import Text, block_text, body_text, units_as_words

__all__ = ["CONTENT_SHARE", "MIN_SHINGLES", "NOVEL_SHARE", "RUN_LENGTH", "SHINGLE",
           "WORTH_FULL", "WORTH_PRIOR", "Discovery", "News", "Shingles", "Worth"]

SHINGLE = 5          # words per shingle (Broder uses 4-10; 2-grams were all "seen" on a
#                      real blog after a few hundred pages of a small vocabulary)
NOVEL_SHARE = 0.2    # share of a page's shingles that must be new for it to count as new
MIN_WORD = 3         # characters of the shortest word counted as new on a short page
MIN_SHINGLES = 20    # below this a page is too short to judge by the share of new shingles
RUN_LENGTH = 20      # settled pages in a row, none productive, after which a kind of link
#                      is exhausted (module docstring)
BITMAP_BITS = 27
FAMILY_OWN = 4       # misses in a row of its own a kind needs before its family can end it
WORTH_PRIOR = 4      # harvested pages a cluster's worth weighs its prior (1) as (`Worth`)
WORTH_FULL = 0.5     # worth from which a cluster keeps its whole Score(C) (`Worth.factors`)
CONTENT_SHARE = 0.25  # text share below which a cluster brings no text of its own (`Worth`):
#                      with the prior, after 12 harvested pages none of which was new
_TOKEN = re.compile(r"\w*[^\W\d_]\w*|\x00")   # a word has a letter: numbers are not words,
#                                               nor are underscores (ASCII art)
_MIX = np.uint64(0x9E3779B97F4A7C15)   # 2^64 / golden ratio, odd (Knuth's multiplicative hash)

Key = tuple[int, str]


class Shingles:
    """Every word shingle seen so far, as a bitmap (module docstring)."""

    def __init__(self, bits: int = BITMAP_BITS, blocks: bool = False) -> None:
        self.blocks = blocks
        self._bits = np.zeros(1 << (bits - 3), dtype=np.uint8)
        self._mask = np.int64((1 << bits) - 1)
        self._vocab = {"\x00": 0}            # word → id; 0 parts text nodes

    def of(self, pieces: Iterable[str], w: int = SHINGLE) -> np.ndarray:
        """Hashes of the distinct w-word shingles within each text piece: the words' ids
        in a row, mixed by a 64-bit multiply-xorshift (numpy, no per-shingle Python)."""
        return self._shingle(self._ids(pieces)[0], w)

    def _ids(self, pieces: Iterable[str]) -> tuple[np.ndarray, int]:
        """The ids of the words of the text pieces in order (0 where a piece ends), and how
        many distinct words were never seen before."""
        vocab = self._vocab
        text = units_as_words("\x00".join(pieces).lower())   # NUL: a piece ends
        tokens = _TOKEN.findall(text)
        fresh = [t for t in dict.fromkeys(tokens) if t not in vocab]
        for token in fresh:                  # in order: the same ids, hence the same
            vocab[token] = len(vocab)        # crawl, every run
        words = sum(len(t) >= MIN_WORD for t in fresh)    # "anna-b": "b" is no new word
        return np.array(list(map(vocab.__getitem__, tokens)), dtype=np.uint64), words

    @staticmethod
    def _shingle(a: np.ndarray, w: int = SHINGLE) -> np.ndarray:
        n = len(a) - w + 1
        if n <= 0:
            return np.zeros(0, dtype=np.int64)
        h = np.zeros(n, dtype=np.uint64)
        valid = np.ones(n, dtype=bool)
        for i in range(w):
            part = a[i:i + n]
            valid &= part != 0
            h = (h ^ part) * _MIX          # wraps: arithmetic modulo 2^64
            h ^= h >> np.uint64(29)
        return np.unique(h[valid]).view(np.int64)

    def add(self, hashes: np.ndarray) -> int:
        """Mark `hashes` as seen; returns how many were not seen before."""
        if hashes.size == 0:
            return 0
        idx = hashes & self._mask
        byte, bit = idx >> 3, (idx & 7).astype(np.uint8)
        new = (self._bits[byte] >> bit) & 1 == 0
        np.bitwise_or.at(self._bits, byte, np.left_shift(np.uint8(1), bit))
        return int(new.sum())

    def novel(self, root: etree._Element,
              text: Text | None = None) -> bool:
        """Whether a parsed page brought new text (module docstring); its shingles are
        marked as seen. `text`: the page's `body_text`, when already extracted."""
        return self.judge(root, text).novel

    def judge(self, root: etree._Element, text: Text | None = None) -> News:
        """What a parsed page's text brought (`News`); its shingles are marked as seen.
        Shingles run within the page's blocks (`archiver.learning.features.block_text`:
        across an emphasis, not across a link or paragraphs), or, with ``blocks`` off,
        within its text nodes (`text`: the page's `body_text`, when already extracted)."""
        if self.blocks:
            pieces = block_text(root)
        else:
            own, linked = body_text(root) if text is None else text
            pieces = [*own, *linked]
        ids, fresh = self._ids(pieces)
        hashes = self._shingle(ids)
        return News(int(hashes.size), self.add(hashes), fresh)


@dataclass(frozen=True, slots=True)
class News:
    """A page's distinct shingles, how many of them were new when it was fetched, and how
    many distinct words it had that no earlier page had."""

    shingles: int
    new: int
    words: int = 0

    @property
    def judged(self) -> bool:
        """Long enough to judge by its text (`MIN_SHINGLES`)."""
        return self.shingles >= MIN_SHINGLES

    @property
    def novel(self) -> bool:
        """New text (module docstring). A page too short to judge by the share counts as
        new when one of its words is (a short profile: its user's name), or when it has
        no shingle (an image page, a login form of two words); else it needs the new
        shingles a page of `MIN_SHINGLES` would (an empty listing, or a user's empty tab
        whose title recombines known words, is not new)."""
        if not self.judged and (self.words > 0 or self.shingles == 0):
            return True
        return self.new >= NOVEL_SHARE * max(self.shingles, MIN_SHINGLES)


@dataclass
class _Pending:
    key: Key | None           # the kind of link that found the page (None: a seed, ...)
    waiting: set[str]         # new links it found, not yet settled


@dataclass
class Discovery:
    """Productive and exhausted kinds of link (module docstring). The strategy reports
    every fetched page (`fetched`) and every link that led nowhere (`settle`); `exhausted`
    answers for a kind of link."""

    run_length: int = RUN_LENGTH
    # the family of a kind (several kinds judged together as well), None for none
    family: Callable[[Key], Key | None] | None = None
    # a wider family, judged the same way: the kinds leading to one cluster from the
    # holders the caller groups (module docstring); None for none
    destination: Callable[[Key], Key | None] | None = None
    runs: dict[Key, int] = field(default_factory=dict)          # misses in a row
    counts: dict[Key, list[int]] = field(default_factory=dict)  # [settled, productive]
    _pending: dict[str, _Pending] = field(default_factory=dict)
    _found_by: dict[str, str] = field(default_factory=dict)     # new link → page that found it

    def fetched(self, link: str, key: Key | None, novel: bool, found: Sequence[str]) -> None:
        """The page reached by `link` (found at `key`) was fetched; it brought new text or
        not, and found these new, followed links."""
        if novel or not found:
            self._settle(link, key, novel)
            return
        self._pending[link] = _Pending(key, set(found))
        for url in found:
            self._found_by.setdefault(url, link)

    def settle(self, link: str, key: Key | None, productive: bool) -> None:
        """A link settled without a page of its own to report: an error, a feed, a
        document; or one the strategy dropped unfetched (key None: it counts for the page
        that found it, not against its own kind)."""
        self._settle(link, key, productive)

    def exhausted(self, key: Key) -> bool:
        if self.run_length <= 0:
            return False
        own = self.runs.get(key, 0)
        if own >= self.run_length:
            return True
        # a kind that never brought anything needs one miss of its own, else FAMILY_OWN
        need = FAMILY_OWN if self.counts.get(key, [0, 0])[1] else 1
        return own >= need and any(self.runs.get(family, 0) >= self.run_length
                                   for family in self._families(key))

    def _families(self, key: Key) -> list[Key]:
        """The families `key` is judged with: its own, then its destination's."""
        found = (self.family(key) if self.family is not None else None,
                 self.destination(key) if self.destination is not None else None)
        return [family for family in found if family is not None]

    def barren(self, key: Key) -> bool:
        """Whether a kind of link never led to anything and its own last `run_length`
        settled pages were misses: exhausted by its own evidence alone, whatever its
        family and its destination."""
        return 0 < self.run_length <= self.runs.get(key, 0) \
            and self.counts.get(key, [0, 0])[1] == 0

    def _settle(self, link: str, key: Key | None, productive: bool) -> None:
        while True:
            if key is not None:
                for k in (key, *self._families(key)):
                    row = self.counts.setdefault(k, [0, 0])
                    row[0] += 1
                    row[1] += productive
                    self.runs[k] = 0 if productive else self.runs.get(k, 0) + 1
            parent = self._found_by.pop(link, "")
            pending = self._pending.get(parent)
            if pending is None:
                return
            pending.waiting.discard(link)
            if not productive and pending.waiting:
                return
            # the parent is settled: productive through this link, or all its links missed
            del self._pending[parent]
            for other in pending.waiting:
                self._found_by.pop(other, None)
            link, key = parent, pending.key


@dataclass
class Worth:
    """What the harvested pages of each cluster have been worth: their own new text, or
    new links to pages that bring it.

    A cluster's *text share* is the share of its harvested pages that brought new text
    (`News.novel`, and no duplicate view); it is a *content* cluster while that share is at
    least `CONTENT_SHARE`. A fetched page is worth 1 when it brought new text, else
    y / (y + 1), y being the new links it found (links no earlier page had, followed) that
    are predicted to lead to a content cluster, each weighed by that cluster's text share:
    fetching the page and the y pages it leads to costs y + 1 requests for y pages of
    content (the listings' L/(L+1) of `archiver.strategies.source`). A cluster's worth is
    the mean over its harvested pages. Both means start from a prior of 1 weighing as
    `prior` pages, so a cluster not yet harvested is worth what eq. 11 says.

    Links to clusters that bring no text of their own do not count: an unbounded space of
    listings that list each other (a Q&A site's tag lists, each with links to every
    combination of one more tag) would otherwise value itself by the many new links to
    more of itself. On a real Askbot the tag lists were 873 of source-ucc's 1,500 requests.

    An extension of SOUrCe's Score(C) (eq. 11), which values a cluster by the sample and
    never by what its pages bring once known; after ACEBot's score of a navigation pattern
    by its new 2-grams per page (Faheem & Senellart 2014, §3.3), here per cluster, with one
    step of look-ahead through the links found.
    """

    n_clusters: int
    prior: float = WORTH_PRIOR
    _pages: np.ndarray = field(init=False)
    _novel: np.ndarray = field(init=False)
    _worth: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self._pages = np.zeros(self.n_clusters + 1)    # the last: outliers
        self._novel = np.zeros(self.n_clusters + 1)
        self._worth = np.zeros(self.n_clusters + 1)

    def observe(self, cluster: int, novel: bool, found: Iterable[int], files: int = 0
                ) -> None:
        """A harvested page of `cluster` (-1: outlier) brought new text or not, and found
        new, followed links predicted to lead to these clusters (-1: outlier) and `files`
        new links to files, each worth a page of content (a photo page without a caption
        brings its original)."""
        if novel:
            value = 1.0
        else:
            text = self.text_shares()
            y = float(sum(text[c] for c in found if text[c] >= CONTENT_SHARE)) + files
            value = y / (y + 1.0)
        self._pages[cluster] += 1.0
        self._novel[cluster] += novel
        self._worth[cluster] += value

    def text_shares(self) -> np.ndarray:
        """Text share of every cluster, outliers last: (novel + prior) / (pages + prior)."""
        return (self._novel + self.prior) / (self._pages + self.prior)

    def content(self, cluster: int) -> bool:
        """Whether `cluster`'s pages (-1: outliers) still bring text of their own."""
        return bool(self.text_shares()[cluster] >= CONTENT_SHARE)

    def shares(self) -> np.ndarray:
        """Worth of every cluster, outliers last: (Σ page worth + prior) / (pages + prior)."""
        return (self._worth + self.prior) / (self._pages + self.prior)

    def factors(self) -> np.ndarray:
        """The factor of Score(C) for every cluster, outliers last: min(1, worth /
        `WORTH_FULL`). A cluster at least half of whose pages bring something keeps eq. 11's
        value: text is a proxy, and a profile made of its user's name and known titles is
        still content; only clusters whose pages mostly bring nothing fall behind."""
        return np.minimum(1.0, self.shares() / WORTH_FULL)
