"""Near-duplicate views without a rel=canonical: another URL showing a page already fetched,
with a different body (a photo shown in an album's context, a question's answers sorted
another way). `SourceStrategy` counts them as duplicate views, as it counts pages whose
``rel=canonical`` names another URL and repeated bodies (`archiver.learning.duplicates`).

A page's fingerprint is the SimHash (Charikar 2002) of the distinct words of its visible
text outside links, 64 bits; two pages are near-duplicates when they have the same
``<title>`` and fingerprints at most `MAX_DISTANCE` bits apart (Manku, Jain & Das Sarma 2007
use 3 of 64 bits for web pages). Link text is left out because navigation (menus, album
strips, pagers) is what differs between views of one page and what pages of one template
share. The title is required to match because different pages of one template can share
most of their words; measured on the zoo, the views above are 0 and 2 bits from their
canonical page, while valid pages with one title are 11 or more bits apart (and, without
the title, some valid questions were 4–6 bits apart). Pages with fewer than `MIN_WORDS`
distinct words outside links (login forms, lists) are never judged: too few words for
their fingerprint to mean anything. A number with a unit is one word, as novelty reads it
(`archiver.learning.discovery`): the digits a word begins with count as one digit, so the
time a page took to render ("generated in about 0.007s", a real Fossil's footer) does
not move its fingerprint from run to run. Read as it was, it made near-duplicate verdicts
differ between two runs of one crawl, and with ``menus`` and ``near_duplicates`` on, three
Fossil runs parted at their first or 35th harvest request (source-ucc recall 0.333, 0.459,
0.618); with it, two of three made the same crawl and the third parted at its 303rd
(0.529, 0.655, 0.529; session 52).

References
----------
Charikar (2002), "Similarity estimation techniques from rounding algorithms", STOC.
Manku, Jain & Das Sarma (2007), "Detecting near-duplicates for web crawling", WWW.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

import numpy as np
from lxml import etree

from archiver.learning.features import Text, body_text, units_as_words

__all__ = ["MAX_DISTANCE", "MIN_WORDS", "NearDuplicates", "content_words", "simhash"]

MAX_DISTANCE = 3
MIN_WORDS = 20
_WORD = re.compile(r"\w+")


def content_words(root: etree._Element,
                  text: Text | None = None) -> set[str]:
    """The distinct lower-cased words of a page's visible text outside links. `text`: the
    page's `body_text`, when already extracted (`archiver.page.Page.body_text`)."""
    own, _ = body_text(root) if text is None else text
    return set(_WORD.findall(units_as_words(" ".join(own).lower())))


def simhash(words: Iterable[str]) -> int:
    """64-bit SimHash of a set of words, each weighing 1 (a stable hash, not Python's
    salted one, so that a crawl decides the same way every run)."""
    ordered = sorted(set(words))
    if not ordered:
        return 0
    digests = b"".join(hashlib.blake2b(w.encode(), digest_size=8).digest() for w in ordered)
    bits = np.unpackbits(np.frombuffer(digests, dtype=np.uint8).reshape(-1, 8), axis=1,
                         bitorder="little")
    majority = bits.sum(axis=0, dtype=np.int64) * 2 > len(ordered)
    return int(np.packbits(majority, bitorder="little").view("<u8")[0])


class NearDuplicates:
    """The fingerprints of the pages fetched so far, by title."""

    def __init__(self, max_distance: int = MAX_DISTANCE, min_words: int = MIN_WORDS) -> None:
        self.max_distance = max_distance
        self.min_words = min_words
        self._by_title: dict[str, np.ndarray] = {}

    def repeats(self, title: str, root: etree._Element,
                text: Text | None = None) -> bool:
        """Whether the page (its title and parse tree) is a near-duplicate of one seen
        before; the page is remembered either way. A page without a title or with fewer
        than `min_words` words outside links is never a near-duplicate. `text`: the page's
        `body_text`, when already extracted."""
        title = " ".join(title.split())
        if not title:
            return False
        words = content_words(root, text)
        if len(words) < self.min_words:
            return False
        fp = np.array([simhash(words)], dtype=np.uint64)
        known = self._by_title.get(title)
        if known is None:
            self._by_title[title] = fp
            return False
        distance = np.unpackbits((known ^ fp).view(np.uint8)).reshape(-1, 64).sum(axis=1)
        near = bool((distance <= self.max_distance).any())
        self._by_title[title] = np.concatenate([known, fp])
        return near
