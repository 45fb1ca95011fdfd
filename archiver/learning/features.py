"""Bag-of-XPaths page features (SOUrCe §3.2–3.3): leaf XPaths and anchor paths (Apaths) of an
lxml tree, and `XPathVectorizer`, which weights them by TF-IDF (eq. 1), L1-normalises them
(eq. 2) and drops paths of low document frequency (θ = minPts, §5.1). Also one shallow text
feature, `text_chars` (how much of a page's visible text lies outside links), behind the
content-share factor of `archiver.learning.navigation.LinkScorer`.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from lxml import etree

if TYPE_CHECKING:
    from typing import Self

# Elements that are not displayed (§3.2 keeps "the elements displayed in browsers"); line
# breaks are formatting inside text, not leaves of their own.
_HIDDEN = frozenset({"head", "script", "style", "noscript", "template", "br", "wbr"})
_ANCHORS = frozenset({"a", "area"})
# Phrasing elements (HTML's "phrasing content" that holds text, and the old presentational
# tags) but links: text inside them is part of the sentence around them (`block_text`);
# a line break is formatting inside it
_INLINE = frozenset({
    "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn",
    "em", "font", "i", "img", "ins", "kbd", "label", "mark", "nobr", "q", "s", "samp",
    "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr"})
_UNSHOWN = _HIDDEN - _INLINE     # elements whose text is not displayed (`block_text`)
_SPACE = re.compile(r"\s+")
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n\s*")
# One step of `archiver.page.element_path`: tag, then optional [@id="…"] and [@class="…"].
_STEP = re.compile(r'/([^/\[\]"]+)((?:\[@(?:id|class)="[^"]*"\])*)')
_CLASS = re.compile(r'\[@class="([^"]*)"\]')
_DIGITS = re.compile(r"\d+")
_LEADING_DIGITS = re.compile(r"\b\d+")    # the digits a word begins with (`units_as_words`)

__all__ = ["MIN_TEXT_CHARS", "Text", "XPathVectorizer", "block_text", "body_text",
           "canonical_apath",
           "collapse_repeats", "content_share", "generalize_apath", "leaf_xpaths", "read_tree",
           "signature", "text_chars", "units_as_words"]

# Pages with less visible body text than this (non-whitespace characters) say nothing about
# their template's text: the zoo's redirect bodies hold 24, error pages 20, soft-404s 42,
# while its shortest listing pages hold 87.
MIN_TEXT_CHARS = 64

Text = tuple[list[str], list[str]]   # a page's visible body text: (outside links, inside)


def _leaf_class(el: etree._Element) -> str:
    klass = el.get("class")
    if klass and klass.strip():
        return f'[@class="{_SPACE.sub(" ", klass.strip())}"]'
    return ""


def leaf_xpaths(root: etree._Element) -> Counter[str]:
    """Count the root-to-leaf XPaths of a parsed page (its bag of XPaths).

    A leaf is a displayed element without element children (text, image, input, ...), an
    element whose own text is interleaved with children (the text node is the leaf), or an
    anchor. Steps are bare tag names; an anchor's path ends with its ``class`` attribute,
    which makes it the page's Apath (``/html/body/div/ul/li/a[@class="title"]``). Elements
    inside ``head``, ``script``, ``style``, ``noscript`` and ``template`` are skipped.

    Parameters
    ----------
    root : lxml element
        The document root (`archiver.page.Page.tree`).

    Returns
    -------
    Counter mapping each XPath to its term frequency in the page.

    References
    ----------
    Xu, Gao & Callan (2018), §3.2 (bag of XPaths over leaf nodes), §3.3 and Fig. 1 (Apaths
    with the class attribute of the leaf ``a``).
    """
    return read_tree(root)[0]


def read_tree(root: etree._Element) -> tuple[Counter[str], Text]:
    """A parsed page's bag of XPaths (`leaf_xpaths`) and its body text (`body_text`), read
    in one walk of the tree. The harvest needs both for every page (the bag to classify it,
    the text for its digest and its novelty); one walk instead of two took the blog's pages
    from 1.8 to 1.1 ms and Rust docs' from 4.9 to 2.2 ms (median, session 13).
    `archiver.page.Page.read` keeps the result."""
    counts: Counter[str] = Counter()
    own: list[str] = []
    linked: list[str] = []
    if not isinstance(root.tag, str):
        return counts, (own, linked)
    # An explicit stack, not recursion: pages nest deeper than Python's recursion limit.
    # Each entry: element, its path, its tag, inside a link, inside the body.
    rtag = root.tag.lower()
    stack: list[tuple[etree._Element, str, str, bool, bool]] = [
        (root, "/" + rtag, rtag, False, rtag == "body")]
    pop, push = stack.pop, stack.append
    while stack:
        el, path, tag, in_link, in_body = pop()
        out = linked if in_link else own
        text = el.text
        if in_body and text:
            out.append(text)
        leaf = True
        mixed = text is not None and not text.isspace()
        for child in el:
            ctag = child.tag
            tail = child.tail
            if tail:
                mixed = mixed or not tail.isspace()
                if in_body:       # a child's tail is its parent's text, hidden child or not
                    out.append(tail)
            if type(ctag) is not str:  # comment or processing instruction
                continue
            leaf = False
            ctag = ctag.lower()
            if ctag not in _HIDDEN:
                push((child, f"{path}/{ctag}", ctag, in_link or ctag in _ANCHORS,
                      in_body or (ctag == "body" and el is root)))
        if tag in _ANCHORS:
            counts[path + _leaf_class(el)] += 1
        elif leaf or mixed:
            counts[path] += 1
    return counts, (own, linked)


def text_chars(root: etree._Element, text: Text | None = None) -> tuple[int, int]:
    """Visible body text of a parsed page: (characters outside links, all characters).

    Characters are the non-whitespace characters of the text nodes under ``body`` (element
    text and tails). Text inside ``script``, ``style``, ``noscript`` and ``template`` is not
    displayed and is not counted; text anywhere inside an ``a`` or ``area`` element (nested
    markup, nested anchors included, each character counted once) is link text. A page
    without a ``body`` gives (0, 0). `text`: the page's `body_text`, when already read
    (`archiver.page.Page.read`).

    References
    ----------
    Kohlschütter, Fankhauser & Nejdl (2010), "Boilerplate detection using shallow text
    features" (link density: the share of a block's text that is anchor text).
    """
    own, linked = body_text(root) if text is None else text
    outside = sum(map(len, "".join(own).split()))
    return outside, outside + sum(map(len, "".join(linked).split()))


def units_as_words(text: str) -> str:
    """`text` with the digits each word begins with read as one digit: a number with a
    unit is one word whatever the number ("0.007s" -> "0.0s", "23rd" -> "0rd"), a word
    that begins with a letter keeps its digits ("python3"). Novelty and near-duplicates
    read text so (`archiver.learning.discovery`, `archiver.learning.neardup`): the time a
    page took to render is no new word."""
    return _LEADING_DIGITS.sub("0", text)


def body_text(root: etree._Element) -> Text:
    """The visible text pieces of a page's body, (outside links, inside links), as
    `text_chars` counts them; not in document order (`read_tree`)."""
    return read_tree(root)[1]


def block_text(root: etree._Element) -> list[str]:
    """The visible text of a page's body by blocks, in document order: the text of a block
    element (a paragraph, a list item, a cell, a heading, a ``pre``, ...) with the text of
    the phrasing elements inside it (an emphasis, a ``code``, a ``span``) joined into its
    sentences. A nested block starts a piece of its own, and so do a link's text, the text
    after it, and a blank line (a paragraph of plain text in a ``pre`` or a ``textarea``).

    `body_text` gives every text node apart, so a word shingle never spans an emphasis,
    while another rendering of the same words does: a wiki article's source view holds its
    markdown in one block ("during sensor brake as *route file* we tools"). On a real
    django-wiki 46 of the 256 source views source-ucc fetched after their article counted as
    new text by `body_text`'s pieces (`archiver.learning.discovery`), 5 by these. A link
    stays a piece of its own because a listing sets its titles beside other words (a
    directory's title and date in one cell, a timeline's "Ticket #12 (title) closed by"):
    joined, those made shingles no page had, and such listings counted as new more often
    (the django-wiki's directory views 4 -> 7 of 54; its crawl then fetched 74 pages
    through its articles' menus instead of 14)."""
    pieces: list[str] = []
    body = root if isinstance(root.tag, str) and root.tag.lower() == "body" else \
        root.find("body")
    if body is None:
        return pieces
    part: list[str] = []

    def flush() -> None:
        # a blank line ends a paragraph of plain text (a ``pre``, a ``textarea``)
        pieces.extend(p for p in _BLANK_LINE.split(" ".join(part)) if p and not p.isspace())
        part.clear()

    hidden = 0               # depth inside elements that are not displayed
    for event, el in etree.iterwalk(body, events=("start", "end")):
        tag = el.tag.lower() if isinstance(el.tag, str) else None
        if event == "start":
            if tag in _UNSHOWN:
                hidden += 1
            elif not hidden and tag is not None:
                if tag not in _INLINE:
                    flush()
                if el.text:
                    part.append(el.text)
            continue
        if tag in _UNSHOWN:
            hidden -= 1
        elif not hidden and tag is not None and tag not in _INLINE:
            flush()
        if not hidden and el.tail and el is not body:
            part.append(el.tail)
    flush()
    return pieces


def content_share(root: etree._Element, min_chars: int = MIN_TEXT_CHARS) -> float | None:
    """Share of a page's visible body text that is not inside links (`text_chars`), or None
    when the page holds fewer than `min_chars` characters of text (a redirect or error
    body: too little to tell content from navigation)."""
    outside, total = text_chars(root)
    return outside / total if total >= max(min_chars, 1) else None


def signature(bag: Mapping[str, int]) -> str:
    """A short digest of a bag of XPaths: equal for pages of identical structure."""
    h = hashlib.blake2b(digest_size=12)
    for x, n in sorted(bag.items()):
        h.update(f"{x}\t{n}\n".encode())
    return h.hexdigest()


@lru_cache(maxsize=65_536)  # anchor paths repeat across the pages of a site
def canonical_apath(anchor_path: str) -> str:
    """Reduce a link's anchor path (`archiver.page.Link.anchor_path`) to the paper's Apath.

    The crawl records each link's root-to-link path with the id and class of every step;
    SOUrCe keys its navigation table on tag names plus the class of the leaf anchor only, so
    that ids such as ``post-1234`` do not make every page's Apaths unique. A path that does
    not parse is returned unchanged (it still works as a key, just a more specific one).

    References
    ----------
    Xu, Gao & Callan (2018), §3.3 ("adding class attributes for leaf elements of Apaths").
    """
    steps: list[re.Match[str]] = []
    pos = 0
    for m in _STEP.finditer(anchor_path):
        if m.start() != pos:
            return anchor_path
        steps.append(m)
        pos = m.end()
    if not steps or pos != len(anchor_path):
        return anchor_path
    out = "/" + "/".join(m.group(1).lower() for m in steps)
    klass = _CLASS.search(steps[-1].group(2))
    if klass and klass.group(1).strip():
        out += f'[@class="{klass.group(1)}"]'
    return out


def _collapse_runs(tokens: list[str], widths: Sequence[int]) -> list[str]:
    """Collapse immediately repeated runs of `widths` steps (a/b/a/b -> a/b), in place."""
    changed = True
    while changed:
        changed = False
        for width in widths:
            i = 0
            while i + 2 * width <= len(tokens):
                if tokens[i : i + width] == tokens[i + width : i + 2 * width]:
                    del tokens[i + width : i + 2 * width]
                    changed = True
                else:
                    i += 1
    return tokens


@lru_cache(maxsize=65_536)  # XPaths repeat across the pages of a site
def collapse_repeats(xpath: str) -> str:
    """An XPath with recursively nested runs of two or three steps collapsed to one:
    ``.../ol/li/ol/li/article/p`` becomes ``.../ol/li/article/p``.

    Why: threaded comments, nested replies and nested lists repeat one template fragment
    to a depth the users choose, so with raw XPaths every depth is a new feature and pages
    of one template split by how deep their discussions go (on the zoo's blogs, posts with
    replies to replies formed clusters of their own; see benchmarks/results/clustering.md).
    Runs of a single step (``div/div/div``) are left alone: that is fixed layout depth,
    which tells templates apart. The class of a leaf anchor is kept.
    """
    m = _CLASS.search(xpath)
    suffix = m.group(0) if m and xpath.endswith(m.group(0)) else ""
    base = xpath[: len(xpath) - len(suffix)]
    if base.count("/") < 4:  # too short to hold a doubled run of two steps
        return xpath
    tokens = _collapse_runs(base.strip("/").split("/"), (2, 3))
    return "/" + "/".join(tokens) + suffix


def generalize_apath(apath: str) -> str:
    """A coarser Apath for back-off: digits in the class become ``0`` and repeated runs of
    one to three steps collapse (nested replies ``ol/li/ol/li`` become ``ol/li``).

    Used by `archiver.learning.navigation.NavigationTable` when a harvested page shows a
    (cluster, Apath) pair the sample never saw.
    """
    klass = ""
    m = _CLASS.search(apath)
    base = apath
    if m and apath.endswith(m.group(0)):
        klass = _DIGITS.sub("0", m.group(0))
        base = apath[: -len(m.group(0))]
    tokens = _collapse_runs(base.strip("/").split("/"), (1, 2, 3))
    return "/" + "/".join(tokens) + klass


class XPathVectorizer:
    """Turn bags of XPaths into L1-normalised TF-IDF vectors (a scipy CSR matrix).

    Parameters
    ----------
    min_df : int, default=4
        θ: an XPath seen in fewer than `min_df` training pages is dropped (the paper sets
        θ = minPts for every site).
    norm : {"l1", "l2", None}, default="l1"
        Row normalisation: "l1" is eq. 2; "l2" gives unit-length rows, so that Euclidean
        distance ranks pages like cosine similarity does (why `SourceModel` uses it by
        default is explained there); None leaves the raw eq. 1 weights.
    collapse : bool, default=False
        Map every XPath through `collapse_repeats` first (nested replies at any depth are
        one feature); `SourceModel` turns it on. False is the paper's bag as extracted.

    Attributes
    ----------
    vocabulary_ : dict[str, int]
        XPath → column.
    feature_names_ : list[str]
        Column → XPath (sorted).
    idf_ : ndarray of shape (n_features,)
        ``log(|D| / df + 1)`` per column.
    n_docs_ : int
        |D|, the number of training pages.

    References
    ----------
    Xu, Gao & Callan (2018), §3.2 eq. 1–2; §5.1 ("Path Filtering", θ = minPts).
    """

    def __init__(self, min_df: int = 4, norm: str | None = "l1", collapse: bool = False) -> None:
        self.min_df = min_df
        self.norm = norm
        self.collapse = collapse

    def _bag(self, doc: Mapping[str, int]) -> Mapping[str, int]:
        if not self.collapse:
            return doc
        out: Counter[str] = Counter()
        for x, n in doc.items():
            out[collapse_repeats(x)] += n
        return out

    def fit(self, docs: Sequence[Mapping[str, int]]) -> Self:
        """Learn the vocabulary and the idf of eq. 1 from training bags."""
        if self.min_df < 1:
            raise ValueError(f"min_df must be >= 1; got {self.min_df}")
        if self.norm not in ("l1", "l2", None):
            raise ValueError(f"norm must be 'l1', 'l2' or None; got {self.norm!r}")
        df: Counter[str] = Counter()
        for doc in docs:
            df.update(self._bag(doc).keys())
        names = sorted(x for x, n in df.items() if n >= self.min_df)
        n_docs = len(docs)
        self.feature_names_ = names
        self.vocabulary_ = {x: i for i, x in enumerate(names)}
        self.idf_ = np.array([math.log(n_docs / df[x] + 1.0) for x in names], dtype=np.float64)
        self.n_docs_ = n_docs
        return self

    @classmethod
    def from_vocabulary(
        cls, feature_names: Sequence[str], idf: np.ndarray, n_docs: int, *, min_df: int = 4,
        norm: str | None = "l1", collapse: bool = False,
    ) -> XPathVectorizer:
        """Rebuild a fitted vectorizer from stored data (a model bundle)."""
        self = cls(min_df=min_df, norm=norm, collapse=collapse)
        self.feature_names_ = list(feature_names)
        self.vocabulary_ = {x: i for i, x in enumerate(self.feature_names_)}
        self.idf_ = np.asarray(idf, dtype=np.float64)
        self.n_docs_ = n_docs
        return self

    def transform(self, docs: Iterable[Mapping[str, int]]) -> sp.csr_matrix:
        """Weight bags by eq. 1 and normalise by eq. 2; unknown XPaths are ignored."""
        data, cols, ptr = self._weigh(docs)
        return sp.csr_matrix((data, cols, ptr), shape=(len(ptr) - 1, len(self.feature_names_)))

    def transform_one(self, doc: Mapping[str, int]) -> np.ndarray:
        """`transform` of one bag as a dense 1 × features row: what the harvest classifies
        page by page. Building a sparse matrix cost more than the rest of a page's
        classification (scipy's format checks, five matrices a page)."""
        data, cols, _ = self._weigh([doc])
        row = np.zeros((1, len(self.feature_names_)))
        row[0, cols] = data
        return row

    def _weigh(self, docs: Iterable[Mapping[str, int]]
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The weights of `docs` (eq. 1–2) in CSR form: data, column indices, row pointers."""
        if not hasattr(self, "vocabulary_"):
            raise RuntimeError("XPathVectorizer is not fitted; call fit() or load a model bundle")
        vocab = self.vocabulary_
        indptr = [0]
        indices: list[int] = []
        tfs: list[float] = []
        for doc in docs:
            row = sorted((vocab[x], tf) for x, tf in self._bag(doc).items() if x in vocab)
            indices.extend(col for col, _ in row)
            tfs.extend(tf for _, tf in row)
            indptr.append(len(indices))
        cols = np.asarray(indices, dtype=np.int32)
        data = np.log1p(np.asarray(tfs, dtype=np.float64)) * self.idf_[cols]
        ptr = np.asarray(indptr, dtype=np.int32)
        if self.norm is not None and data.size:
            lengths = np.diff(ptr)
            filled = lengths > 0
            if self.norm == "l1":  # eq. 2 (weights are positive)
                sums = np.add.reduceat(data, ptr[:-1][filled])
            else:
                sums = np.sqrt(np.add.reduceat(data * data, ptr[:-1][filled]))
            data /= np.repeat(sums, lengths[filled])
        return data, cols, ptr

    def fit_transform(self, docs: Sequence[Mapping[str, int]]) -> sp.csr_matrix:
        """`fit` then `transform` the same bags."""
        return self.fit(docs).transform(docs)
