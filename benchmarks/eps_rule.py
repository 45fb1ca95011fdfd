"""How the automatic eps rules cluster the samples SOUrCe learns from, on every site at hand:
the Rust docs, the zoo's ten full-size sites and the real MediaWiki when Debian's package is
installed (`benchmarks/realsite/mediawiki.py`). Both samples: the crawl's (what `source-ucc`
samples: it stops early, ~200 pages) and §4.1's literal one (up to 1,000 pages). §5.2
scoring and 4-fold classification precision as in learning_bench.py; "by template" merges
the zoo's page types that share one template (`learning_bench.SAME_TEMPLATE`). The clustering
time is `PageClusterer.fit` alone (K-dist, merge tree, eps, DBSCAN), median of 3.

    python benchmarks/eps_rule.py [--out benchmarks/results/eps-rule.txt]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archiver.learning.clustering import PageClusterer  # noqa: E402
from archiver.learning.features import XPathVectorizer  # noqa: E402
from benchmarks import learning_bench as lb  # noqa: E402
from benchmarks.widen_guard import sites  # noqa: E402

RULES = ("gap", "knee", "silhouette")   # the previous default, the knee alone, the default


def fit_seconds(d: dict[str, Any], rule: str) -> float:
    X = XPathVectorizer(min_df=4, norm="l2", collapse=True).fit_transform(d["bags"])
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        PageClusterer(eps_rule=rule).fit(X)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def scores(name: str, site: Any, templates: dict[str, str] | None) -> list[str]:
    out = []
    for sampler in ("crawl", "literal"):
        d = lb.sample(site, lb.SAMPLERS[sampler]())
        d["templates"] = templates
        out.append(f"{name}, {sampler} sample ({len(d['urls'])} pages, "
                   f"{len(set(d['truth']))} types)")
        for rule in RULES:
            r = lb.cluster_scores(d, eps_rule=rule)
            tpl = (f" by-template purity {r['by_template'][0]:.3f} macro-F "
                   f"{r['by_template'][2]:.3f}" if r["by_template"] else "")
            out.append(f"  {rule:10s} eps {r['eps']:.3f} clusters {r['clusters']:2d} outliers "
                       f"{r['outliers']:.3f} purity {r['purity']:.3f} micro-F "
                       f"{r['micro_f']:.3f} macro-F {r['macro_f']:.3f} 4-fold precision "
                       f"{r['cv_micro']:.3f}{tpl} fit {fit_seconds(d, rule):.2f} s")
        print("\n".join(out[-len(RULES) - 1:]), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/eps-rule.txt")
    args = ap.parse_args(argv)
    lines = [f"# eps rules on the crawl's and the literal samples ({time.strftime('%Y-%m-%d')})"]
    for name, site, templates in sites():
        lines += scores(name, site, templates)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
