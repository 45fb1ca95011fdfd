"""Benchmark and measurements of the SOUrCe learning core (archiver.learning).

    python benchmarks/learning_bench.py [--rust-docs DIR] [--runs 3] [--out FILE]

Sites: the zoo's families that exist (archiver.zoo.make_site, size "full"), the generated
forum of tests/test_learning_sites.py, and – when present – a real site: the Rust
documentation installed by rustup (rustdoc + mdBook pages, ~48,000 files), read from disk.
Every site is sampled by `SiteSampler` through an in-process loop (no network).

Measures: learning time for a 1,000-page sample (vectorise + cluster + navigation table;
bag extraction reported apart since the crawl does it page by page), harvest-time
classification + scoring per page, the eps rules (paper, tail, gap; L1 vs L2; XPaths with
nested runs collapsed, as the model does), clustering quality against the true page types
(§5.2: purity, micro/macro F, 4-fold CV precision, on the crawl's sample and on the
literal 1,000-page one; compact table in benchmarks/results/clustering.md), the back-off
orders for unseen (cluster, Apath) pairs, and the sampler's early stop. Medians of --runs.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import itertools
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archiver.evaluation.clusterscore import (  # noqa: E402
    cv_precision,
    evaluable,
    f_measure,
    outlier_share,
    source_fit_classify,
)
from archiver.evaluation.clusterscore import purity as score_purity  # noqa: E402
from archiver.learning.clustering import EPS_RULES, PageClusterer, k_distances  # noqa: E402
from archiver.learning.features import (  # noqa: E402
    XPathVectorizer,
    canonical_apath,
    leaf_xpaths,
    signature,
)
from archiver.learning.model import SourceModel  # noqa: E402
from archiver.learning.navigation import NavigationTable  # noqa: E402
from archiver.learning.sampling import SiteSampler  # noqa: E402
from archiver.learning.urlshape import UrlPatterns  # noqa: E402
from archiver.page import Page, page_digest, parse_html  # noqa: E402
from archiver.strategies import Visit  # noqa: E402

RUST_DOCS = Path.home() / ".rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html"
RUST_KINDS = ("struct|enum|trait|fn|macro|constant|type|primitive|keyword|union|static|attr|"
              "derive|traitalias")
Fetch = Callable[[str], tuple[str, Page] | None]


# --- sites ---------------------------------------------------------------------------------
def zoo_site(family: str, variant: int) -> tuple[str, Fetch, Callable[[str], str], list[str]]:
    from archiver.zoo import make_site

    site = make_site(family, variant, "full")
    host = "http://zoo.test"

    def target(url: str) -> str:
        p = urlsplit(url)
        return (p.path or "/") + ("?" + p.query if p.query else "")

    def fetch(url: str) -> tuple[str, Page] | None:
        for _ in range(5):
            if not url.startswith(host):
                return None
            r = site.respond(target(url), host="zoo.test")
            headers = dict(r.headers)
            if 300 <= r.status < 400 and headers.get("Location"):
                url = urljoin(url, headers["Location"]).split("#")[0]
                continue
            if r.status != 200 or "html" not in headers.get("Content-Type", ""):
                return None
            return url, parse_html(url, r.body)
        return None

    def truth(url: str) -> str:
        t = site.truth(target(url))
        return t.page_type if t else "?"

    return host, fetch, truth, [host + s for s in site.seeds()]


def forum_site(seed: int) -> tuple[str, Fetch, Callable[[str], str], list[str]]:
    from tests.test_learning_sites import HOST, Forum

    site = Forum(seed=seed, n_topics=300, n_users=80)

    def fetch(url: str) -> tuple[str, Page] | None:
        page = site.fetch(url)
        return None if page is None else (url, page)

    return HOST, fetch, lambda u: site.page_type(u) or "?", [HOST + "/"]


def rust_site(root: Path) -> tuple[str, Fetch, Callable[[str], str], list[str]]:
    host = "http://rust.local/"

    def fetch(url: str) -> tuple[str, Page] | None:
        if not url.startswith(host):
            return None
        path = root / url[len(host):].split("?")[0]
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file() or path.suffix != ".html":
            return None
        return url, parse_html(url, path.read_bytes())

    def truth(url: str) -> str:
        # URL patterns as page types, as the paper annotates (§5.1); rustdoc renders every
        # item kind with one template, so the kinds count as one type ("item").
        rel = url[len(host):]
        if rel.startswith("src/"):
            return "source"
        if re.search(rf"/({RUST_KINDS})\.[^/]*\.html$", "/" + rel):
            return "item"
        top = rel.split("/")[0]
        if top in ("std", "core", "alloc", "proc_macro", "test"):
            return "all-items" if rel.endswith("all.html") else "module"
        return "mdbook" if "/" in rel else "top"

    return host, fetch, truth, [host + "std/index.html"]


def sample(site: tuple[str, Fetch, Callable[[str], str], list[str]], sampler: SiteSampler,
           ) -> dict[str, Any]:
    """The crawl loop for the sampler: priority order, FIFO among equals, redirects."""
    host, fetch, truth, seeds = site
    sampler.add_seeds(seeds)
    counter = itertools.count()
    heap = [(0.0, next(counter), u) for u in seeds]
    pages: dict[str, Page] = {}
    bags: dict[str, dict[str, int]] = {}
    extract: list[float] = []
    while heap and not sampler.done:
        _, _, url = heapq.heappop(heap)
        if not sampler.still_wanted(url):
            continue
        got = fetch(url)
        if got is None or got[1].tree is None:
            sampler.add_failure(url)
            continue
        final, page = got
        requested = url if url != final else None
        if final in pages:
            sampler.add_page(final, [], requested_url=requested)
            continue
        t0 = time.perf_counter()
        bags[final] = dict(leaf_xpaths(page.tree))
        extract.append(time.perf_counter() - t0)
        pages[final] = page
        links = [k for k in page.links if k.kind == "link" and k.url.startswith(host)]
        for req in sampler.add_page(final, links, requested_url=requested,
                                    signature=signature(bags[final])):
            heapq.heappush(heap, (-req.priority, next(counter), req.url))
    urls = list(pages)
    return {"urls": urls, "bags": [bags[u] for u in urls], "truth": [truth(u) for u in urls],
            "groups": sampler.groups_, "aliases": sampler.aliases_, "pages": pages,
            "extract": extract, "sampler": sampler}


# --- measures ------------------------------------------------------------------------------
SAMPLERS: dict[str, Callable[[], SiteSampler]] = {
    # what `source-ucc` builds (archiver/strategies/source.py): sample_size 1000 (profile
    # default), min_pages min(200, sample_size), saturation 0.01, random_state 0
    "crawl": lambda: SiteSampler(1000, min_pages=200, random_state=0),
    # §4.1 read literally: one random link per (page, Apath), no early stop, up to 1,000
    "literal": lambda: SiteSampler(1000, saturation=0.0, min_pts=10**9, random_state=0),
}


# Page types the zoo renders with one template (same renderer in archiver/zoo/*_pages.py),
# which SOUrCe cannot tell apart by structure; merging them is not a clustering error
# (§3.1: "each layout template defines a distinct page type"). Scores "by template" use it.
SAME_TEMPLATE: dict[str, dict[str, str]] = {
    # blog: pages.listing renders home, archives (tag/category/day/month/year), author pages
    "blog": {"home": "listing", "archive": "listing", "author": "listing",
             "calendar": "listing"},
    # qa: tag pages and question lists are one `_list`; a user's tabs are one `user`
    "qa": {"tag": "question list", "questions": "question list", "user_activity": "user"},
}


def cluster_scores(d: dict[str, Any], **params: Any) -> dict[str, Any]:
    """§5.2 / Fig. 5 on one sample D: the crawl's clustering (SourceModel) scored against the
    true types, and 4-fold stratified CV precision; annotation outliers (types with fewer
    than minPts pages in D) are clustered but not scored."""
    model = SourceModel(**params).fit(d["urls"], d["bags"], d["groups"], d["aliases"])
    truth = d["truth"]
    mask = evaluable(truth)
    lab = model.labels_[mask]
    kept = [t for t, m in zip(truth, mask, strict=True) if m]
    micro_f, macro_f = f_measure(lab, kept)
    cv = cv_precision(truth, source_fit_classify(d["bags"], **params), scored=mask)
    by_template = None
    if d.get("templates"):
        merged = [d["templates"].get(t, t) for t in truth]
        tmask = evaluable(merged)
        tkept = [t for t, m in zip(merged, tmask, strict=True) if m]
        by_template = (score_purity(model.labels_[tmask], tkept),
                       *f_measure(model.labels_[tmask], tkept))
    return {"by_template": by_template, "pages": len(truth), "scored": int(mask.sum()),
            "types": len(set(kept)),
            "clusters": model.n_clusters_, "outliers": outlier_share(model.labels_),
            "eps": model.eps_, "purity": score_purity(lab, kept), "micro_f": micro_f,
            "macro_f": macro_f, "cv_micro": cv.micro, "cv_macro": cv.macro,
            "cv_outliers": cv.outlier_share, "labels": model.labels_}


def confusion(d: dict[str, Any], labels: np.ndarray) -> list[str]:
    """Which true types each cluster holds (only clusters holding more than one type), and
    which types are split over several clusters."""
    truth = d["truth"]
    out = []
    for c in range(int(labels.max()) + 1):
        kinds = Counter(t for t, lab in zip(truth, labels, strict=True) if lab == c)
        if len(kinds) > 1:
            out.append(f"    cluster {c} merges {dict(kinds.most_common())}")
    for t in sorted(set(truth)):
        where = Counter(int(lab) for u, lab in zip(truth, labels, strict=True) if u == t)
        big = {c: n for c, n in where.items() if c >= 0}
        if len(big) > 1:
            out.append(f"    type {t} split over clusters {dict(sorted(big.items()))}"
                       f" (+{where.get(-1, 0)} outliers)")
    return out


def eps_sweep(d: dict[str, Any], norm: str = "l2") -> str:
    """The eps, over K-dist quantiles p50..p100, with the best macro-F on D (oracle)."""
    from sklearn.cluster import DBSCAN

    X = XPathVectorizer(norm=norm, collapse=True).fit_transform(d["bags"])
    kd = k_distances(X)
    mask = evaluable(d["truth"])
    kept = [t for t, m in zip(d["truth"], mask, strict=True) if m]
    best: tuple[float, ...] = (-1.0,)
    for q in np.linspace(50, 100, 51):
        eps = max(float(np.percentile(kd, q)), 1e-9)
        lab = DBSCAN(eps=eps, min_samples=4).fit(X).labels_
        mi, ma = f_measure(lab[mask], kept)
        if ma > best[0]:
            best = (ma, mi, score_purity(lab[mask], kept), eps, q, outlier_share(lab))
    ma, mi, pu, eps, q, out = best
    return (f"  oracle eps ({norm}, best macro-F over K-dist p50..p100): eps={eps:.3f} (p{q:.0f})"
            f" purity={pu:.3f} micro-F={mi:.3f} macro-F={ma:.3f} outliers={out * 100:.1f}%")


def score_line(r: dict[str, Any]) -> str:
    line = (f"pages={r['pages']:4d} (scored {r['scored']}, {r['types']} types)"
            f" clusters={r['clusters']:3d} outliers={r['outliers'] * 100:4.1f}%"
            f" eps={r['eps']:.3f} purity={r['purity']:.3f} micro-F={r['micro_f']:.3f}"
            f" macro-F={r['macro_f']:.3f} 4-fold precision micro={r['cv_micro']:.3f}"
            f" macro={r['cv_macro']:.3f} (held-out outliers {r['cv_outliers'] * 100:.1f}%)")
    if r["by_template"]:
        line += (" | by template: purity={:.3f} micro-F={:.3f} macro-F={:.3f}"
                 .format(*r["by_template"]))
    return line


def clustering_section(site: tuple[str, Fetch, Callable[[str], str], list[str]],
                       templates: dict[str, str] | None = None,
                       ) -> tuple[list[str], dict[str, dict[str, Any]]]:
    lines, rows = ["  clustering quality (§5.2, Fig. 5; outliers = singleton clusters,"
                   " annotation outliers not scored):"], {}
    for name, make in SAMPLERS.items():
        d = sample(site, make())
        d["templates"] = templates
        r = cluster_scores(d)
        r["stop"] = d["sampler"].stop_reason()
        rows[name] = r
        lines.append(f"  {name:8s} sample (stop={r['stop']}): {score_line(r)}")
        lines += confusion(d, r["labels"])
        lines.append("  " + eps_sweep(d))
    return lines, rows


def eps_rules(d: dict[str, Any]) -> list[str]:
    out = []
    for norm in ("l1", "l2"):
        X = XPathVectorizer(norm=norm, collapse=True).fit_transform(d["bags"])
        for rule in EPS_RULES:
            clusterer = PageClusterer(eps_rule=rule).fit(X)
            eps, lab = clusterer.eps_, clusterer.labels_
            out.append(f"  {norm} {rule:10s} eps={eps:.3f} (K-dist p"
                       f"{(clusterer.kdist_ <= eps).mean() * 100:3.0f})"
                       f" clusters={lab.max() + 1:3d} outliers={(lab < 0).mean() * 100:4.1f}%"
                       f" purity={score_purity(lab, d['truth']):.3f}")
    return out


BACKOFFS = {
    "exact→cluster→prior": ("exact", "cluster", "prior"),
    "exact→prior": ("exact", "prior"),
    "exact→any→cluster": ("exact", "any", "cluster", "prior"),
    "exact→general→coarse→cluster": ("exact", "general", "coarse", "cluster", "prior"),
    "default (any first)": ("exact", "any", "general", "any-general", "coarse", "any-coarse",
                            "cluster", "prior"),
}


def backoff(d: dict[str, Any], model: SourceModel, frac: float) -> list[str]:
    """Build the table from a fraction of the sampled pages; score the (cluster, Apath)
    pairs of the others that it never saw against their sampled destinations."""
    lab = dict(zip(model.urls_, model.labels_.tolist(), strict=True))
    n, aliases = model.n_clusters_, d["aliases"]
    out = []
    for name, order in BACKOFFS.items():
        tv, top1 = [], []
        for seed in range(3):
            urls = list(d["groups"])
            np.random.default_rng(seed).shuffle(urls)
            k = int(len(urls) * frac)
            table = NavigationTable(order).fit({u: d["groups"][u] for u in urls[:k]}, lab, n,
                                               aliases)
            seen = set(table.keys_)
            for u in urls[k:]:
                c = lab[u]
                for x, us in d["groups"][u].items():
                    dests = [lab[v] for v in (aliases.get(w, w) for w in us) if v in lab]
                    if (c, x) in seen or not dests:
                        continue
                    q = np.bincount([v if v >= 0 else n for v in dests], minlength=n + 1)
                    q = q / q.sum()
                    p, _ = table.distribution(c, x)
                    tv.append(0.5 * np.abs(p - q).sum())
                    top1.append(float(np.argmax(p) == np.argmax(q)))
        out.append(f"  {name:30s} unseen pairs={len(tv) // 3:4d}  total-variation="
                   f"{np.mean(tv) if tv else float('nan'):.3f}  top-1="
                   f"{np.mean(top1) if top1 else float('nan'):.3f}")
    return out


def timings(d: dict[str, Any], site: tuple[str, Fetch, Callable[[str], str], list[str]],
            runs: int) -> list[str]:
    fits, patterns = [], []
    every_url = [u for g in d["groups"].values() for us in g.values() for u in us]
    for _ in range(runs):
        t0 = time.perf_counter()
        model = SourceModel().fit(d["urls"], d["bags"], d["groups"], d["aliases"])
        fits.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        UrlPatterns.learn(every_url)       # the part of the fit that learns URL patterns
        patterns.append(time.perf_counter() - t0)
    extract = sorted(d["extract"])
    # held-out pages: linked from the sample, not in it
    host, fetch = site[0], site[1]
    sampled = set(d["urls"])
    candidates = list(dict.fromkeys(u for g in d["groups"].values() for us in g.values()
                                    for u in us if u not in sampled))[:300]
    pages = [p for p in (fetch(u) for u in candidates) if p is not None and p[1].tree is not None]
    scorer = model.scorer()
    per_page = []
    for _ in range(runs):
        times = []
        for _, page in pages:
            t0 = time.perf_counter()
            cluster = model.classify(page.tree)
            links = [k for k in page.links if k.kind == "link" and k.url.startswith(host)]
            scorer.score(cluster, [canonical_apath(k.anchor_path) for k in links],
                         [k.url for k in links])
            scorer.observe(cluster)
            times.append(time.perf_counter() - t0)
        per_page.append(times)
    med = statistics.median(statistics.median(t) for t in per_page) * 1000
    p90 = statistics.median(float(np.percentile(t, 90)) for t in per_page) * 1000
    # What the crawl runs per page once it is parsed: the page's digest (`page_digest`,
    # linking.py) and the strategy's describe + decide (bag of XPaths and body text, the
    # duplicate-view check, classification, the novelty step, eq. 12 with back-off, URL
    # patterns, duplicate-view factor and harvest evidence for every link), a fresh strategy
    # and fresh parses every run (a page reads its tree once: `Page.read`).
    per_page_strategy = []
    for _ in range(runs):
        strategy = _harvesting_strategy(host, model)
        fresh = [p for p in (fetch(u) for u in candidates)
                 if p is not None and p[1].tree is not None]
        times = []
        for _url, page in fresh:
            links = [k for k in page.links if k.kind == "link" and k.url.startswith(host)]
            t0 = time.perf_counter()
            visit = Visit(page=page, depth=1, digest=page_digest(page, b""))
            strategy.describe(visit)
            strategy.decide(visit, links)
            times.append(time.perf_counter() - t0)
        per_page_strategy.append(times)
    smed = statistics.median(statistics.median(t) for t in per_page_strategy) * 1000
    sp90 = statistics.median(float(np.percentile(t, 90)) for t in per_page_strategy) * 1000
    return [f"  pages={len(d['urls'])} features={len(model.vectorizer_.feature_names_)}"
            f" clusters={model.n_clusters_} outliers={int((model.labels_ < 0).sum())}"
            f" eps={model.eps_:.3f}",
            f"  learn (vectorise+cluster+navigation): median {statistics.median(fits):.2f} s"
            f" of {runs} runs, of which URL patterns {statistics.median(patterns):.2f} s"
            f" ({len(set(every_url))} distinct URLs)",
            f"  bag extraction while sampling: total {sum(extract):.2f} s, median"
            f" {statistics.median(extract) * 1000:.2f} ms/page, p90"
            f" {extract[int(0.9 * (len(extract) - 1))] * 1000:.2f} ms/page",
            f"  harvest classify+score ({len(pages)} held-out pages, incl. bag extraction):"
            f" median {med:.2f} ms/page, p90 {p90:.2f} ms/page",
            f"  harvest as crawled (digest+describe+decide, same pages, every extension):"
            f" median {smed:.2f} ms/page, p90 {sp90:.2f} ms/page"]


def _harvesting_strategy(host: str, model: SourceModel) -> Any:
    """A source-ucc strategy past its learning phase, using `model`."""
    import tempfile

    from archiver.profile import profile_from_dict
    from archiver.strategies import REGISTRY

    profile = profile_from_dict({"name": "bench", "seeds": [host + "/"],
                                 "output": {"dir": tempfile.gettempdir()},
                                 "strategy": {"name": "source-ucc"}}, source="<bench>")
    from archiver.strategies.source import SourceStrategy

    strategy = REGISTRY["source-ucc"].from_profile(profile)
    assert isinstance(strategy, SourceStrategy)
    model.info.setdefault("mode", "ucc")
    strategy._use(model)
    return strategy


def sampler_stops(site: tuple[str, Fetch, Callable[[str], str], list[str]]) -> list[str]:
    out = []
    settings: tuple[tuple[str, dict[str, Any]], ...] = (
        ("defaults (saturation 0.01, min 200, settled Apaths)", {}),
        ("paper literal: no saturation, no settling", {"saturation": 0.0, "min_pts": 10**9}))
    for label, kwargs in settings:
        d = sample(site, SiteSampler(1000, random_state=0, **kwargs))
        s = d["sampler"]
        kinds = Counter(d["truth"]).most_common(6)
        out.append(f"  {label:52s} pages={len(d['urls']):4d} stop={s.stop_reason():11s}"
                   f" missing-mass={s.missing_mass_:.4f} types={kinds}")
    return out


def markdown_table(table: list[tuple[str, dict[str, dict[str, Any]]]]) -> list[str]:
    out = ["| site | sample | pages | clusters | outliers | eps | purity | micro-F | macro-F"
           " | 4-fold micro-P | 4-fold macro-P | by template: purity / micro-F / macro-F |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, rows in table:
        for sampler, r in rows.items():
            tpl = " / ".join(f"{v:.3f}" for v in r["by_template"]) if r["by_template"] else ""
            out.append(f"| {name} | {sampler} ({r['stop']}) | {r['pages']} | {r['clusters']}"
                       f" | {r['outliers'] * 100:.1f}% | {r['eps']:.3f} | {r['purity']:.3f}"
                       f" | {r['micro_f']:.3f} | {r['macro_f']:.3f} | {r['cv_micro']:.3f}"
                       f" | {r['cv_macro']:.3f} | {tpl} |")
    return out


TABLE_START = "<!-- learning_bench table: start -->"
TABLE_END = "<!-- learning_bench table: end -->"


def write_table(path: Path, table: list[str]) -> None:
    """Replace the generated table between the markers of `path`, keeping the prose."""
    block = "\n".join([TABLE_START, *table, TABLE_END])
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if TABLE_START in text and TABLE_END in text:
        head, rest = text.split(TABLE_START, 1)
        text = head + block + rest.split(TABLE_END, 1)[1]
    else:
        text = f"{text}\n{block}\n" if text else block + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rust-docs", type=Path, default=RUST_DOCS)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/learning.txt")
    ap.add_argument("--table", type=Path, default=ROOT / "benchmarks/results/clustering.md",
                    help="where the compact clustering-quality table goes")
    ap.add_argument("--clustering-only", action="store_true",
                    help="only the clustering-quality figures (printed, no files written)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    import sklearn.cluster  # noqa: F401  (cold import, reported apart)
    lines = [f"# archiver.learning benchmark ({time.strftime('%Y-%m-%d')}, "
             f"{args.runs} runs, medians)",
             f"sklearn cold import: {time.perf_counter() - t0:.2f} s (not in the figures below)"]
    sites: list[tuple[str, tuple[str, Fetch, Callable[[str], str], list[str]]]] = []
    templates: dict[str, dict[str, str]] = {}
    if args.rust_docs.is_dir():
        sites.append(("real: Rust docs (rustdoc + mdBook)", rust_site(args.rust_docs)))
    from archiver.zoo import FAMILIES
    for family in FAMILIES:
        for variant in (0, 1):
            with contextlib.suppress(ImportError):  # families still being written
                sites.append((f"zoo {family} v{variant} full", zoo_site(family, variant)))
                templates[f"zoo {family} v{variant} full"] = SAME_TEMPLATE.get(family, {})
    sites.append(("generated forum (tests)", forum_site(0)))
    table: list[tuple[str, dict[str, dict[str, Any]]]] = []
    for name, site in sites:
        print(name, file=sys.stderr)
        quality, rows = clustering_section(site, templates.get(name))
        table.append((name, rows))
        if args.clustering_only:
            print("\n".join([f"## {name}", *quality]), flush=True)
            continue
        d = sample(site, SiteSampler(1000, saturation=0.0, random_state=0))
        model = SourceModel().fit(d["urls"], d["bags"], d["groups"], d["aliases"])
        lines += ["", f"## {name}: sample of up to 1,000 pages (saturation off)",
                  f"  page types: {Counter(d['truth']).most_common(8)}"]
        lines += timings(d, site, args.runs)
        lines += ["  eps rules (collapsed XPaths; purity: outliers count as singleton clusters,"
                  " §5.2):"]
        lines += eps_rules(d)
        for frac in (0.2, 0.5):
            lines += [f"  back-off for unseen pairs, table from {frac:.0%} of the pages:"]
            lines += backoff(d, model, frac)
        lines += ["  sampler stop:", *sampler_stops(site)]
        lines += quality
    if args.clustering_only:
        print("\n".join(markdown_table(table)))
        return 0
    write_table(args.table, markdown_table(table))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
