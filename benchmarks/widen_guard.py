"""How `widen_eps`'s big-share guard (`archiver.learning.clustering.BIG_SHARE`) changes SOUrCe's
clusters of the crawl's sample (200 pages, as `source-ucc` samples) on every site at hand:
the Rust docs, the zoo's ten full-size sites, and the real MediaWiki when Debian's package
is installed (`benchmarks/realsite/mediawiki.py`). §5.2 scoring as in learning_bench.py;
"none" is the K-dist rule without widening. The "gap" rule was the default until the
"silhouette" rule replaced it (benchmarks/eps_rule.py).

    python benchmarks/widen_guard.py [--out benchmarks/results/widen-guard.txt]
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import archiver.learning.clustering as clustering  # noqa: E402
from benchmarks import learning_bench as lb  # noqa: E402
from benchmarks.realsite import mediawiki as mw  # noqa: E402

SHARES: tuple[float | None, ...] = (0.2, 0.15, 0.1, None)


def scores(name: str, site: Any, templates: dict[str, str] | None) -> list[str]:
    d = lb.sample(site, lb.SAMPLERS["crawl"]())
    d["templates"] = templates
    widen = clustering.widen_eps
    out = [f"{name} ({len(d['urls'])} pages)"]
    try:
        for share in SHARES:
            def guarded(heights: Any, smaller: Any, eps: float, share: float | None = share,
                        ) -> float:
                return eps if share is None else widen(heights, smaller, eps, big_share=share)
            clustering.widen_eps = guarded  # type: ignore[assignment]  # PageClusterer.fit's
            r = lb.cluster_scores(d, eps_rule="gap")
            tpl = f"  by template macro-F {r['by_template'][2]:.3f}" if r["by_template"] else ""
            out.append(f"  share {share!s:5s} clusters {r['clusters']:2d} outliers "
                       f"{r['outliers']:.3f} purity {r['purity']:.3f} micro-F "
                       f"{r['micro_f']:.3f} macro-F {r['macro_f']:.3f}{tpl}")
    finally:
        clustering.widen_eps = widen
    return out


@contextlib.contextmanager
def mediawiki() -> Iterator[Any]:
    """The live wiki as a learning_bench site, or None without Debian's packages."""
    if not mw.CODE.is_dir() or shutil.which("php") is None:
        yield None
        return
    from benchmarks.realsite.bench import sample_site

    with mw.serve(mw.build(Path("/tmp/mwbench"))) as seed:
        yield sample_site(seed)


def sites() -> Iterator[tuple[str, Any, dict[str, str] | None]]:
    """(name, learning_bench site, same-template types) of every site at hand: the Rust docs,
    the zoo's ten full-size sites, the real MediaWiki."""
    if lb.RUST_DOCS.is_dir():
        yield "real: Rust docs", lb.rust_site(lb.RUST_DOCS), None
    for variant in (0, 1):
        for family in ("forum", "qa", "blog", "wiki", "media"):
            yield (f"zoo {family} v{variant}", lb.zoo_site(family, variant),
                   lb.SAME_TEMPLATE.get(family, {}))
    with mediawiki() as site:
        if site is not None:
            yield "real: MediaWiki 1.39", site, None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/widen-guard.txt")
    args = ap.parse_args(argv)
    lines = [f"# widen_eps big-share guard on the crawl's 200-page sample "
             f"({time.strftime('%Y-%m-%d')}; shipped: {clustering.BIG_SHARE})"]
    for name, site, templates in sites():
        lines += scores(name, site, templates)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
