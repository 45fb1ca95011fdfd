"""The SOUrCe model: features, page clusters, kNN classifier and navigation table learned from
one sample (Xu, Gao & Callan 2018, §4.1–4.3), and its storage as data: ``manifest.json`` +
``arrays.npz`` (loaded with ``allow_pickle=False``) + ``pages.jsonl``, never pickle.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
import uuid
import zipfile
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp
from lxml import etree

from archiver import __version__
from archiver.errors import ModelFormatError
from archiver.learning.classify import PageClassifier
from archiver.learning.clustering import EPS_RULES, TYPE_SHARE, PageClusterer
from archiver.learning.features import XPathVectorizer, leaf_xpaths
from archiver.learning.navigation import (
    BACKOFF_LEVELS,
    DEFAULT_BACKOFF,
    LinkScorer,
    NavigationTable,
    cluster_content,
    dsim,
)
from archiver.learning.urlshape import UrlPatterns, page_section, page_types

if TYPE_CHECKING:
    from typing import Self

logger = logging.getLogger(__name__)

__all__ = ["FORMAT", "FORMAT_VERSION", "SourceModel"]

FORMAT = "archiver.source-model"
FORMAT_VERSION = 1
MANIFEST, ARRAYS, PAGES = "manifest.json", "arrays.npz", "pages.jsonl"
_ARRAY_KEYS = ("idf", "x_data", "x_indices", "x_indptr", "labels", "nav_counts", "nav_sizes",
               "dsim")
# Arrays added after format version 1 was fixed: a bundle without them still loads, with the
# neutral value (content: 1 for every cluster, i.e. Score(C) without the content factor;
# nav_sub_counts: no (cluster, Apath) pair split by URL pattern; nav_distinct_sizes: every URL
# of a pair counted as distinct).
_OPTIONAL_KEYS = ("content", "nav_sub_counts", "nav_distinct_sizes")


class SourceModel:
    """Everything SOUrCe learns about one site from its sample.

    Parameters
    ----------
    min_pts : int, default=4
        DBSCAN minPts; also θ of the path filter and k + 1 of the classifier (§4.2, §5.1).
    eps : float or "auto", default="auto"
    eps_rule : {"silhouette", "knee", "gap", "tail", "paper"}, default="silhouette"
        See `archiver.learning.clustering.PageClusterer`. "gap" (the "tail" K-dist rule
        widened to the nearest break between clusters) replaced "tail" after the
        measurements in benchmarks/results/clustering.md; "silhouette" (the K-dist knee,
        widened where the pages' silhouettes support it) replaced "gap" after it failed
        on a real MediaWiki (purity 0.36; benchmarks/results/eps-rule.txt).
    norm : {"l2", "l1"}, default="l2"
        Row normalisation of the TF-IDF vectors. Eq. 2 is "l1"; "l2" is the default because
        on a real site the L1 geometry cannot separate templates: an L1-normalised page
        with m distinct XPaths has an L2 length of about 1/√m, so rich pages of different
        templates all sit close to the origin and to each other. On 1,000 pages of the Rust
        documentation, mdBook chapters and rustdoc item pages (no XPath in common) are 0.13
        apart at the closest while item pages have a median K-dist of 0.07, and every eps
        that leaves under 15% outliers merges them (purity 0.68–0.82). With unit-length
        rows, pages of disjoint templates are √2 apart whatever their size, and the same
        sample clusters at purity 0.88–0.91 with 0–10% outliers. On the zoo's sites both
        norms reach the same purity except Q&A variant 1, where L1 keeps a user's profile
        and activity tabs apart (0.999 against 0.721); "l1" stays one parameter away.
        Figures in benchmarks/results/learning.txt.
    collapse : bool, default=True
        Collapse nested runs in XPaths before weighting them
        (`archiver.learning.features.collapse_repeats`), so that threaded replies at any
        depth are one feature. Bundles saved before this parameter existed load with False.
    backoff : sequence of str
        Back-off levels of the navigation table (`archiver.learning.navigation`).
    type_share : float, default=0.1
        The "silhouette" rule's eps stays below the first merge of two groups of at least
        this share of the sampled pages that lie in two sections of the site
        (`archiver.learning.urlshape.page_section`, `archiver.learning.clustering.
        type_merges`); 0 turns it off, as in bundles saved before it existed.

    Attributes
    ----------
    vectorizer_ : XPathVectorizer
    classifier_ : PageClassifier
    navigation_ : NavigationTable
    urls_ : list[str]
        The sampled pages, in training-row order.
    labels_ : ndarray of int
        Their clusters (-1: outlier).
    eps_ : float
    n_clusters_ : int
    dsim_ : ndarray of shape (n_clusters,)
    content_ : ndarray of shape (n_clusters,)
        Content share of each cluster: the share of its sampled pages' visible text that is
        not link text, pooled over the pages with enough text
        (`archiver.learning.navigation.cluster_content`); 1 where no page had enough text, and
        for every cluster of a bundle saved before this attribute existed.
    info : dict
        Free-form facts about the sample (stop reason, ...), kept in the manifest.

    References
    ----------
    Xu, Gao & Callan (2018), §4 (learning phase, Fig. 3).
    """

    def __init__(
        self, *, min_pts: int = 4, eps: float | str = "auto", eps_rule: str = "silhouette",
        norm: str = "l2", collapse: bool = True, backoff: Sequence[str] = DEFAULT_BACKOFF,
        type_share: float = TYPE_SHARE,
    ) -> None:
        self.min_pts = min_pts
        self.type_share = type_share
        self.eps = eps
        self.eps_rule = eps_rule
        self.norm = norm
        self.collapse = collapse
        self.backoff = tuple(backoff)
        self.info: dict[str, Any] = {}

    def params(self) -> dict[str, Any]:
        """The constructor parameters, as stored in the manifest."""
        return {"min_pts": self.min_pts, "eps": self.eps, "eps_rule": self.eps_rule,
                "type_share": self.type_share,
                "norm": self.norm, "collapse": self.collapse, "backoff": list(self.backoff)}

    # --- learning --------------------------------------------------------------------------
    def fit(
        self, urls: Sequence[str], bags: Sequence[Mapping[str, int]],
        groups: Mapping[str, Mapping[str, Sequence[str]]],
        aliases: Mapping[str, str] | None = None, info: Mapping[str, Any] | None = None,
        dead: Collection[str] = (), texts: Sequence[tuple[int, int]] | None = None,
    ) -> Self:
        """Learn from a sample: features (§3.2), clusters (§4.2), navigation table (§4.3).

        Parameters
        ----------
        urls : sequence of str
            Sampled page URLs.
        bags : sequence of Counter
            Their bags of XPaths (`leaf_xpaths`), in the same order.
        groups, aliases, dead
            U(p,x), redirects and dead URLs from `archiver.learning.sampling.SiteSampler`.
        info : mapping, optional
            Facts to keep in the manifest.
        texts : sequence of (int, int), optional
            Each page's (characters outside links, all characters) of visible body text
            (`archiver.learning.features.text_chars`), in the order of `urls`; without it
            every cluster's content share is 1.
        """
        if len(urls) != len(bags):
            raise ValueError(f"{len(urls)} urls but {len(bags)} bags")
        if texts is not None and len(texts) != len(urls):
            raise ValueError(f"{len(urls)} urls but {len(texts)} text counts")
        if self.norm not in ("l1", "l2"):
            raise ValueError(f"norm must be 'l1' or 'l2'; got {self.norm!r}")
        vec = XPathVectorizer(min_df=self.min_pts, norm=self.norm,
                              collapse=self.collapse).fit(bags)
        X = vec.transform(bags)
        clusterer = PageClusterer(min_pts=self.min_pts, eps=self.eps, eps_rule=self.eps_rule,
                                  type_share=self.type_share).fit(
                                      X, [page_section(u) for u in urls])
        labels = clusterer.labels_
        self.vectorizer_ = vec
        self.urls_ = list(urls)
        self.labels_ = labels
        self.eps_ = clusterer.eps_
        self.n_clusters_ = clusterer.n_clusters_
        self.classifier_ = PageClassifier(self.min_pts - 1, clusterer.eps_).fit(X, labels)
        self.navigation_ = NavigationTable(self.backoff).fit(
            groups, dict(zip(self.urls_, labels.tolist(), strict=True)), self.n_clusters_,
            aliases, dead)
        self.dsim_ = dsim(X, labels, self.n_clusters_)
        self.content_ = (cluster_content(texts, labels, self.n_clusters_) if texts is not None
                         else np.ones(self.n_clusters_))
        self.info = dict(info or {})
        return self

    # --- harvest ---------------------------------------------------------------------------
    def transform(self, bags: Sequence[Mapping[str, int]]) -> sp.csr_matrix:
        """Feature vectors of pages (eq. 1–2 with the training idf)."""
        self._check_fitted()
        return self.vectorizer_.transform(bags)

    def classify(self, page: etree._Element | Mapping[str, int]) -> int:
        """Cluster of one page (an lxml tree or a bag of XPaths); -1 for outliers."""
        bag = leaf_xpaths(page) if isinstance(page, etree._Element) else page
        self._check_fitted()
        return int(self.classifier_.predict(self.vectorizer_.transform_one(bag))[0])

    def classify_many(self, bags: Sequence[Mapping[str, int]]) -> np.ndarray:
        """Clusters of many pages given as bags of XPaths."""
        return self.classifier_.predict(self.transform(bags))

    def scorer(self, mode: str = "ucc", *, target: int | Sequence[int] | None = None,
               alpha: float | None = None, self_links: bool | None = None,
               content: bool = False, balance: bool = True, per_page: bool = False,
               reset: float = 0.0, distinct: bool = False, by_type: bool = False,
               apart: Collection[int] = ()) -> LinkScorer:
        """A fresh `LinkScorer` (crawl-for-UCC or crawl-for-target, §4.4); `content` puts
        the clusters' content shares into Score(C), `per_page` scores hubs per sampled page
        of each cluster (see `LinkScorer`, ``pages``), `reset` > 0 takes randomized HITS
        (`archiver.learning.navigation.hits`), `distinct` weighs each pair of A as its
        distinct URLs (`LinkScorer`, ``distinct``), `by_type` values every page type as one
        (`LinkScorer`, ``types``): the clusters `urlshape.page_types` joins by URL form and
        shared links, those in `apart` (the clusters the site marks noindex) each a type of
        its own; DSim over all the type's sampled pages, its content share the mean of its
        clusters' weighted by their sampled pages. Clusters all of one type are scored
        apart: one node, eq. 6 without self links has no edge, and every score would be 0
        (a real MHonArc list archive, whose index and message pages share one URL form and
        one row of links: its crawls went in the order links were found)."""
        self._check_fitted()
        sizes = self.cluster_sizes()
        dsims, shares, types = self.dsim_, self.content_, None
        if by_type:
            types = np.asarray(page_types(self.urls_, self.labels_.tolist(), self.n_clusters_,
                                          self.navigation_.co_destinations, apart),
                               dtype=np.intp)
            if self.n_clusters_ > 1 and not types.any():
                types = None
        if types is not None:
            of_page = np.where(self.labels_ >= 0, types[np.maximum(self.labels_, 0)], -1)
            n_types = int(types.max()) + 1 if types.size else 0
            dsims = dsim(self.classifier_.X_, of_page, n_types)[types]
            text = np.bincount(types, weights=self.content_ * sizes, minlength=n_types)
            pages = np.bincount(types, weights=sizes, minlength=n_types)
            shares = np.divide(text, pages, out=np.ones(n_types), where=pages > 0)[types]
        return LinkScorer(self.navigation_, dsims, mode=mode, target=target, alpha=alpha,
                          self_links=self_links, content=shares if content else None,
                          balance=balance, pages=sizes if per_page else None,
                          reset=reset, distinct=distinct, types=types)

    def cluster_sizes(self) -> np.ndarray:
        """Sampled pages of every cluster (outliers not counted)."""
        return np.bincount(self.labels_[self.labels_ >= 0], minlength=self.n_clusters_)

    def _check_fitted(self) -> None:
        if not hasattr(self, "navigation_"):
            raise RuntimeError("SourceModel is not fitted; call fit() or load a model bundle")

    # --- storage ---------------------------------------------------------------------------
    def save(self, folder: str | os.PathLike[str]) -> Path:
        """Write the model to `folder` atomically (temp dir + rename); return the folder."""
        self._check_fitted()
        target = Path(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.parent / f".{target.name}.tmp-{uuid.uuid4().hex[:8]}"
        tmp.mkdir()
        try:
            X = self.classifier_.X_
            np.savez_compressed(
                tmp / ARRAYS, idf=self.vectorizer_.idf_, x_data=X.data,
                x_indices=X.indices.astype(np.int64), x_indptr=X.indptr.astype(np.int64),
                labels=self.labels_, nav_counts=self.navigation_.counts_,
                nav_sizes=self.navigation_.sizes_, dsim=self.dsim_, content=self.content_,
                nav_sub_counts=self.navigation_.sub_counts_,
                nav_distinct_sizes=self.navigation_.distinct_sizes_)
            with open(tmp / PAGES, "w", encoding="utf-8") as fh:
                for url, label in zip(self.urls_, self.labels_.tolist(), strict=True):
                    fh.write(json.dumps({"url": url, "cluster": label}) + "\n")
            manifest = {
                "format": FORMAT, "format_version": FORMAT_VERSION,
                "archiver_version": __version__, "params": self.params(),
                "eps": self.eps_, "n_clusters": self.n_clusters_, "n_pages": len(self.urls_),
                "n_docs": self.vectorizer_.n_docs_,
                "clusters": [{"id": c, "size": int((self.labels_ == c).sum()),
                              "dsim": float(self.dsim_[c]), "content": float(self.content_[c])}
                             for c in range(self.n_clusters_)],
                "outliers": int((self.labels_ < 0).sum()),
                "info": self.info,
                "vocabulary": self.vectorizer_.feature_names_,
                "navigation_keys": [[c, x] for c, x in self.navigation_.keys_],
                "navigation_sub_keys": [list(k) for k in self.navigation_.sub_keys_],
                "url_patterns": self.navigation_.patterns_.to_json(),
            }
            (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
            old = None
            if target.exists():
                old = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
                os.rename(target, old)
            os.rename(tmp, target)
            if old is not None:
                shutil.rmtree(old)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        logger.info("SOUrCe model saved to %s", target)
        return target

    @classmethod
    def load(cls, folder: str | os.PathLike[str]) -> SourceModel:
        """Read a model saved by `save`, validating it; sklearn objects are rebuilt.

        Raises
        ------
        ModelFormatError
            Naming the file, when the bundle is missing, malformed, of another format, of a
            newer format version, or has inconsistent shapes or labels.
        """
        root = Path(folder)
        m = _read_manifest(root / MANIFEST)
        where = root / ARRAYS
        a = _read_arrays(where)
        params = m["params"]
        try:
            self = cls(min_pts=int(params["min_pts"]), eps=params["eps"],
                       eps_rule=str(params["eps_rule"]), norm=str(params["norm"]),
                       collapse=bool(params.get("collapse", False)),
                       type_share=float(params.get("type_share", 0.0)),
                       backoff=tuple(params["backoff"]))
            vocab = [str(x) for x in m["vocabulary"]]
            keys = [(int(c), str(x)) for c, x in m["navigation_keys"]]
            sub_keys = [(int(c), str(x), str(u)) for c, x, u in m.get("navigation_sub_keys", [])]
            patterns = (UrlPatterns.from_json(m["url_patterns"]) if "url_patterns" in m
                        else None)
            n_clusters, eps = int(m["n_clusters"]), float(m["eps"])
            n_docs = int(m["n_docs"])
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ModelFormatError(f"{root / MANIFEST}: missing or invalid field: {err}") from err
        _check(self.norm in ("l1", "l2") and self.eps_rule in EPS_RULES
               and all(b in BACKOFF_LEVELS for b in self.backoff) and self.min_pts >= 2,
               root / MANIFEST, f"invalid params {params!r}")
        _check(math.isfinite(eps) and eps > 0, root / MANIFEST, f"eps must be > 0; got {eps}")
        n_feat, labels = len(vocab), a["labels"].astype(np.int64)
        n = labels.shape[0]
        ptr, ind = a["x_indptr"].astype(np.int64), a["x_indices"].astype(np.int64)
        _check(a["idf"].shape == (n_feat,), where, f"idf has shape {a['idf'].shape}, "
               f"vocabulary has {n_feat} entries")
        _check(n >= 1 and ptr.shape == (n + 1,) and ptr[0] == 0 and ptr[-1] == ind.size
               and bool(np.all(np.diff(ptr) >= 0)) and ind.size == a["x_data"].size,
               where, "x_indptr/x_indices/x_data do not form a CSR matrix of the sampled pages")
        _check(ind.size == 0 or (ind.min() >= 0 and ind.max() < n_feat), where,
               "x_indices point outside the vocabulary")
        _check(labels.size == 0 or (labels.min() >= -1 and labels.max() < n_clusters), where,
               f"labels outside -1..{n_clusters - 1}")
        _check(a["nav_counts"].shape == (len(keys), n_clusters + 1)
               and a["nav_sizes"].shape == (len(keys),), where,
               f"navigation arrays do not match {len(keys)} keys × {n_clusters + 1} columns")
        _check(a["dsim"].shape == (n_clusters,), where, "dsim does not match n_clusters")
        sub_counts = a.get("nav_sub_counts", np.zeros((0, n_clusters + 1)))
        _check(sub_counts.shape == (len(sub_keys), n_clusters + 1), where,
               f"nav_sub_counts do not match {len(sub_keys)} navigation_sub_keys × "
               f"{n_clusters + 1} columns")
        _check(all(-1 <= c < n_clusters for c, _, _ in sub_keys), root / MANIFEST,
               "navigation_sub_keys name unknown clusters")
        distinct = a.get("nav_distinct_sizes", a["nav_sizes"])
        _check(distinct.shape == (len(keys),), where,
               f"nav_distinct_sizes do not match {len(keys)} navigation_keys")
        content = a.get("content", np.ones(n_clusters))
        _check(content.shape == (n_clusters,) and bool(np.all((content >= 0) & (content <= 1))),
               where, "content does not match n_clusters or is outside 0..1")
        _check(all(-1 <= c < n_clusters for c, _ in keys), root / MANIFEST,
               "navigation_keys name unknown clusters")
        urls = _read_pages(root / PAGES, labels)
        self.vectorizer_ = XPathVectorizer.from_vocabulary(vocab, a["idf"], n_docs,
                                                           min_df=self.min_pts, norm=self.norm,
                                                           collapse=self.collapse)
        X = sp.csr_matrix((a["x_data"], ind, ptr), shape=(n, n_feat))
        self.urls_, self.labels_, self.eps_, self.n_clusters_ = urls, labels, eps, n_clusters
        self.classifier_ = PageClassifier(self.min_pts - 1, eps).fit(X, labels)
        self.navigation_ = NavigationTable.from_arrays(
            keys, a["nav_counts"], a["nav_sizes"], n_clusters, self.backoff, patterns=patterns,
            sub_keys=sub_keys, sub_counts=sub_counts, distinct_sizes=distinct)
        self.dsim_ = a["dsim"].astype(np.float64)
        self.content_ = content.astype(np.float64)
        self.info = dict(m.get("info") or {})
        return self


def _check(ok: bool, where: Path, message: str) -> None:
    if not ok:
        raise ModelFormatError(f"{where}: {message}; relearn the model (archiver learn)")


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        m = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise ModelFormatError(f"{path}: no model manifest here; learn one first") from err
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ModelFormatError(f"{path}: not a JSON manifest ({err})") from err
    _check(isinstance(m, dict), path, "the manifest is not a JSON object")
    _check(m.get("format") == FORMAT, path,
           f"format {m.get('format')!r} is not {FORMAT!r}")
    version = m.get("format_version")
    _check(isinstance(version, int) and version >= 1, path,
           f"invalid format_version {version!r}")
    if version > FORMAT_VERSION:
        raise ModelFormatError(f"{path}: format_version {version} is newer than supported "
                               f"({FORMAT_VERSION}); upgrade archiver or relearn the model")
    return m


def _read_arrays(path: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as npz:
            missing = [k for k in _ARRAY_KEYS if k not in npz.files]
            _check(not missing, path, f"missing arrays {missing}")
            arrays = {k: npz[k] for k in (*_ARRAY_KEYS, *_OPTIONAL_KEYS) if k in npz.files}
    except FileNotFoundError as err:
        raise ModelFormatError(f"{path}: missing; the bundle is incomplete") from err
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as err:
        # allow_pickle=False turns any pickled (object) array into a ValueError here.
        raise ModelFormatError(f"{path}: unreadable or not plain arrays ({err})") from err
    for k, v in arrays.items():
        _check(v.dtype.kind in "iuf", path, f"array {k!r} has dtype {v.dtype}, not numeric")
        _check(v.dtype.kind != "f" or bool(np.isfinite(v).all()), path,
               f"array {k!r} has non-finite values")
    return arrays


def _read_pages(path: Path, labels: np.ndarray) -> list[str]:
    urls: list[str] = []
    try:
        with open(path, encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                try:
                    rec = json.loads(line)
                    url, cluster = str(rec["url"]), int(rec["cluster"])
                except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
                    raise ModelFormatError(f"{path}:{lineno}: invalid record ({err})") from err
                _check(len(urls) < labels.size and cluster == labels[len(urls)],
                       path, f"line {lineno} disagrees with the labels in {ARRAYS}")
                urls.append(url)
    except FileNotFoundError as err:
        raise ModelFormatError(f"{path}: missing; the bundle is incomplete") from err
    _check(len(urls) == labels.size, path, f"{len(urls)} pages but {labels.size} labels")
    return urls
