"""Run crawlers on zoo sites under one budget and score their WARCs (DESIGN.md §7).

Per site: serve it on loopback, crawl a full mirror (archiver BFS, no budget) as the
reference, run every crawler for the same number of requests, read each crawl's WARCs back
and score them with `scoring.score` against the zoo's ground truth. `evaluate` writes
`<out>.json`, `<out>.md` and `<out>.png` (harvest curves).
"""

from __future__ import annotations

import json
import logging
import math
import platform
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from archiver import __version__
from archiver.errors import ArchiverError
from archiver.evaluation.captures import ParseCache, read_captures
from archiver.evaluation.crawlers import (
    WGET,
    WGET_PATH,
    CrawlRun,
    run_archiver,
    run_wget,
    wget_version,
)
from archiver.evaluation.metrics import focus_topic
from archiver.evaluation.scoring import Reference, score
from archiver.evaluation.truth import SiteTruth, zoo_truth

logger = logging.getLogger(__name__)

_POINT = re.compile(r"\[\s*(\d+),\s*(\d+)\s*\]")

DEFAULT_BUDGET = 0.25        # SOUrCe §5.3: B = 5,000 pages of a 20,000-page mirror
DEFAULT_OUT = "benchmarks/results/zoo-bfs-wget"
MIRROR = "mirror"
MIRROR_FACTOR = 4.0          # the mirror stops at this many times the site's URLs (traps)
TARGET_STRATEGIES = frozenset({"source-target"})   # need strategy.target_example
FORMAT = "archiver.evaluation"
FORMAT_VERSION = 1


class EvaluationError(ArchiverError, ValueError):
    """The harness was asked for something it cannot do (unknown crawler, family, budget)."""


def known_crawlers() -> list[str]:
    """Every registered strategy, then wget."""
    from archiver.strategies import REGISTRY

    return [*sorted(REGISTRY), WGET]


def budget_requests(budget: float, urls: int) -> int:
    """The request budget B: an int is a request count; a float is a fraction of the site's
    registered URLs (0.25 is SOUrCe's 5,000 of 20,000)."""
    if isinstance(budget, bool) or budget <= 0:
        raise EvaluationError(f"budget must be a positive fraction of the site's URLs or a "
                              f"request count; got {budget!r}")
    if isinstance(budget, int):
        return budget
    return max(1, math.ceil(budget * urls))


def evaluate(families: Sequence[str] | None = None, variants: Sequence[int] = (0, 1),
             size: str = "small", budget: float = DEFAULT_BUDGET,
             crawlers: Sequence[str] | None = None, out: str | Path | None = DEFAULT_OUT, *,
             seed: int = 0, work_dir: str | Path | None = None,
             strategy_options: Mapping[str, Mapping[str, Any]] | None = None,
             mirror_factor: float = MIRROR_FACTOR, wget: str = WGET_PATH,
             on_site: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Compare `crawlers` on the zoo sites `families` × `variants` and return the results.

    With `out` ("benchmarks/results/zoo-bfs-wget"), writes out.json, out.md and out.png.
    `work_dir` keeps every crawl folder (WARCs, crawl DB) there; by default they go to a
    temporary folder that is deleted. `strategy_options` maps a strategy name to extra
    `strategy:` profile keys. `on_site` is called with each site's results as they come.
    """
    from archiver.zoo import FAMILIES

    families = list(families or FAMILIES)
    crawlers = list(crawlers or known_crawlers())
    _check(families, FAMILIES, "zoo family")
    _check(crawlers, known_crawlers(), "crawler")
    _check([str(v) for v in variants], ["0", "1"], "zoo variant")
    budget_requests(budget, 1)
    if WGET in crawlers and not Path(wget).exists():
        raise EvaluationError(f"{wget} not found: install wget (apt-get install wget) or "
                              "leave it out of --crawlers")
    results: dict[str, Any] = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "archiver_version": __version__,
        "settings": {"families": families, "variants": list(variants), "size": size,
                     "budget": budget, "seed": seed, "crawlers": crawlers,
                     "mirror_factor": mirror_factor,
                     "wget": wget_version(wget) if WGET in crawlers else None,
                     "python": platform.python_version()},
        "sites": [],
    }
    with _folder(work_dir) as root:
        for family in families:
            for variant in variants:
                site = evaluate_site(family, variant, size, budget, crawlers, root, seed=seed,
                                     strategy_options=strategy_options or {},
                                     mirror_factor=mirror_factor, wget=wget)
                results["sites"].append(site)
                if on_site is not None:
                    on_site(site)
    if out is not None:
        write_results(results, out)
    return results


def _check(asked: Sequence[str], known: Sequence[str], what: str) -> None:
    unknown = [a for a in asked if a not in known]
    if unknown:
        raise EvaluationError(f"unknown {what} {', '.join(map(repr, unknown))}; "
                              f"known: {', '.join(known)}")


def evaluate_site(family: str, variant: int, size: str, budget: float, crawlers: Sequence[str],
                  root: Path, *, seed: int = 0,
                  strategy_options: Mapping[str, Mapping[str, Any]] | None = None,
                  mirror_factor: float = MIRROR_FACTOR, wget: str = WGET_PATH) -> dict[str, Any]:
    """Mirror one zoo site, run `crawlers` on it and score them; the site's result dict."""
    from archiver.zoo import make_site, serve

    label = f"{family}-v{variant}"
    try:
        site = make_site(family, variant, size, seed)
    except ModuleNotFoundError as err:      # a zoo family not built yet
        logger.warning("%s: skipped: %s", label, err)
        return {"site": label, "family": family, "variant": variant, "unavailable": str(err)}
    started = time.monotonic()
    counts = site.manifest(with_digest=False)["counts"]
    folder = root / label
    with serve(site) as served:
        host = urlsplit(served.url).hostname or ""
        truth = zoo_truth(site, host)
        seeds = [served.url + path for path in site.seeds()]
        b = budget_requests(budget, counts["urls"])
        length = max([b, *(len(t) for t in truth.targets.values())])
        topic = focus_topic(truth)
        cache: ParseCache = {}
        logger.info("%s: mirroring (%d URLs)", label, counts["urls"])
        cap = max(length, math.ceil(mirror_factor * counts["urls"]))
        mirror_run = run_archiver("bfs", seeds, folder / MIRROR, cap, name=MIRROR)
        mirror_caps = read_captures(mirror_run.warcs, keep_payload=False, cache=cache)
        reference = Reference.of(mirror_caps, host)
        mirror = {**_run_info(mirror_run, cap),
                  **score(mirror_caps, truth, budget=None, reference=reference, topic=topic)}
        runs: dict[str, Any] = {}
        for name, strategy, limit, options in _run_specs(crawlers, truth, served.url, b, length,
                                                         strategy_options or {}, cap):
            logger.info("%s: running %s for %d requests", label, name, limit)
            if strategy == WGET:
                run = run_wget(seeds, folder / name, limit, wget=wget)
            else:
                run = run_archiver(strategy, seeds, folder / name, limit, options=options,
                                   name=name, learn_first=strategy in TARGET_STRATEGIES)
            caps = read_captures(run.warcs, keep_payload=False, cache=cache)
            runs[name] = {**_run_info(run, limit),
                          **score(caps, truth, budget=b, reference=reference, topic=topic,
                                  learning_requests=run.learning_requests)}
    return {
        "site": label, "family": family, "variant": variant, "size": size, "seed": seed,
        "digest": site.digest(), "urls": counts["urls"],
        "ucc_urls": len(truth.ucc_urls), "ucc_entities": len(truth.ucc_entities),
        "valuable": len(truth.valuable),
        "targets": {kind: len(keys) for kind, keys in sorted(truth.targets.items())},
        "budget": b, "run_length": length, "topic": topic,
        "mirror": mirror, "runs": runs, "seconds": round(time.monotonic() - started, 1),
    }


def _run_specs(crawlers: Sequence[str], truth: SiteTruth, base: str, budget: int, length: int,
               options: Mapping[str, Mapping[str, Any]], cap: int | None = None
               ) -> Iterator[tuple[str, str, int, dict[str, Any]]]:
    """(label, crawler, max requests, strategy options) for every run on one site.

    A learned strategy crawling for UCC, and wget, run until they stop by themselves (at
    most `cap`, the mirror's cap): the budget metrics read the first B requests, which are
    the same as a run stopped at B, and the whole run gives the requests needed for 95% of
    the UCC entities and the size of the crawl when it ended on its own (issue 4's
    efficiency measure; BFS's is the mirror's). Target runs get #(All Target) after learning.
    """
    from archiver.strategies import REGISTRY

    for name in crawlers:
        if name == WGET:
            yield name, name, max(length, cap or 0), {}
            continue
        opts = dict(options.get(name, {}))
        if REGISTRY[name].learns:
            # SOUrCe §5.3 samples 1,000 pages for a 5,000-page budget: a fifth, counted in it.
            opts.setdefault("sample_size", max(20, budget // 5))
        if name in TARGET_STRATEGIES:       # SOUrCe §5.4: one run per target kind
            for kind, keys in sorted(truth.targets.items()):
                if keys and kind in truth.target_examples:
                    # a URL of the target type (the keys are entities, not paths)
                    example = base + truth.target_examples[kind]
                    yield (f"{name}:{kind}", name, len(keys),
                           {**opts, "target_example": example})
            continue
        yield name, name, max(length, cap or 0) if REGISTRY[name].learns else length, opts


def _run_info(run: CrawlRun, limit: int) -> dict[str, Any]:
    return {"crawler": run.crawler, "limit": limit, "stop": run.stop,
            "seconds": round(run.seconds, 2), "learning_requests": run.learning_requests}


@contextmanager
def _folder(path: str | Path | None) -> Iterator[Path]:
    """`path` (created), or a temporary folder deleted at exit."""
    if path is not None:
        Path(path).mkdir(parents=True, exist_ok=True)
        yield Path(path)
        return
    with tempfile.TemporaryDirectory(prefix="archiver-eval-") as tmp:
        yield Path(tmp)


def write_results(results: Mapping[str, Any], out: str | Path) -> list[Path]:
    """Write `<out>.json`, `<out>.md` and `<out>.png`; return the paths written."""
    from archiver.evaluation.plot import plot_curves
    from archiver.evaluation.tables import markdown

    base = Path(out)
    base.parent.mkdir(parents=True, exist_ok=True)
    paths = [base.with_name(base.name + ".json"), base.with_name(base.name + ".md"),
             base.with_name(base.name + ".png")]
    text = json.dumps(results, indent=1)
    # One curve point ([requests, entities]) per line, not four: the file stays diffable.
    text = _POINT.sub(r"[\1, \2]", text)
    paths[0].write_text(text + "\n", encoding="utf-8")
    paths[1].write_text(markdown(results), encoding="utf-8")
    plot_curves(results, paths[2])
    return paths
