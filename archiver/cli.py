"""Command-line interface: `archiver validate | crawl | learn | harvest | check | demo |
admin | eval`.

`main(argv)` returns the exit code: 0 success, 1 a check found problems, 2 a user error
(bad profile, locked job, ...), printed as one `archiver: error: ...` message without a
traceback. Unexpected exceptions keep their traceback: they are bugs.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from archiver import __version__
from archiver.errors import ArchiverError, ProfileError

if TYPE_CHECKING:
    from archiver.learning.navigation import NavigationTable
    from archiver.strategies.source import SourceStrategy

logger = logging.getLogger("archiver")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(eval_options="eval" in argv)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    try:
        return int(args.func(args))
    except ProfileError as err:
        for problem in err.problems:
            print(f"archiver: error: {problem}", file=sys.stderr)
        return 2
    except ArchiverError as err:
        print(f"archiver: error: {err}", file=sys.stderr)
        return 2


def _parser(eval_options: bool = True) -> argparse.ArgumentParser:
    """The CLI parser. `eval_options=False` leaves out the options of `eval`, whose defaults
    import the evaluation harness and the site zoo (~0.15 s of CPU at every start): pass it
    only when "eval" is not on the command line, so that subcommand cannot be chosen."""
    parser = argparse.ArgumentParser(prog="archiver", description=(
        "Archive the user-created content of CMS sites into WARC files."))
    parser.add_argument("--version", action="version", version=f"archiver {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check site profiles; exit 2 if any is invalid")
    p.add_argument("profiles", nargs="+", metavar="PROFILE")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("crawl", help="learn (if the strategy learns), then harvest; "
                       "running it again on the same job resumes")
    p.add_argument("profile", metavar="PROFILE")
    _crawl_flags(p)
    p.set_defaults(func=cmd_crawl)

    p = sub.add_parser("learn", help="run only the learning phase of a learning strategy "
                       "(SOUrCe) and save the model in the job's model folder")
    p.add_argument("profile", metavar="PROFILE")
    p.add_argument("--from-warc", nargs="+", metavar="FILE", default=None,
                   help="learn from these WARC files' archived responses; fetch nothing")
    _crawl_flags(p)
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser("harvest", help="harvest with the model `archiver learn` saved "
                       "(no learning phase); running it again resumes")
    p.add_argument("profile", metavar="PROFILE")
    _crawl_flags(p)
    p.set_defaults(func=cmd_harvest)

    p = sub.add_parser("check", help="validate WARC files beyond `warcio check`")
    p.add_argument("warcs", nargs="+", metavar="WARC")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("demo", help="serve the bundled demo forum on loopback and crawl it "
                       "into ./crawls/demo (no internet needed)")
    p.add_argument("--out", default="crawls/demo", help="job folder (default: crawls/demo)")
    p.add_argument("--max-requests", type=int, default=None)
    p.add_argument("--strategy", default=None)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("admin", help="read-only web admin over the job folders")
    p.add_argument("--jobs", default="crawls", help="folder holding job folders (default crawls)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8081,
                   help="default 8081 (pywb's wayback uses 8080)")
    p.add_argument("--replay-url", default=None, metavar="TEMPLATE",
                   help="replay link template, default "
                   "http://localhost:8080/{collection}/{timestamp}/{url} (pywb)")
    p.add_argument("--kb", default=None, metavar="DIR", help="knowledge base folder")
    p.add_argument("--token", default=None, help="required to bind a non-loopback address "
                   "(or set ARCHIVER_ADMIN_TOKEN); every request must carry it")
    p.set_defaults(func=cmd_admin)

    p = sub.add_parser("eval", help="compare crawlers on the site zoo (served on loopback) "
                       "and write <out>.md, .json, .png")
    if eval_options:
        from archiver.evaluation.arguments import add_arguments

        add_arguments(p)
    p.set_defaults(func=cmd_eval)
    return parser


def _crawl_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", metavar="DIR", help="job folder (overrides output.dir)")
    p.add_argument("--max-requests", type=int, metavar="N", help="overrides limits.max_requests")
    p.add_argument("--delay", type=float, metavar="S", help="overrides politeness.delay")
    p.add_argument("--strategy", metavar="NAME", help="overrides strategy.name")


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    flags = {"out": "output.dir", "max_requests": "limits.max_requests",
             "delay": "politeness.delay", "strategy": "strategy.name"}
    return {key: getattr(args, flag) for flag, key in flags.items()
            if getattr(args, flag, None) is not None}


def cmd_validate(args: argparse.Namespace) -> int:
    """`archiver validate PROFILE...`"""
    from archiver.profile import load_profile

    status = 0
    for path in args.profiles:
        try:
            profile = load_profile(path)
        except ProfileError as err:
            for problem in err.problems:
                print(f"archiver: error: {problem}", file=sys.stderr)
            status = 2
        else:
            print(f"{path}: ok ({profile.name}: {len(profile.seeds)} seed(s), "
                  f"strategy {profile.strategy.name})")
    return status


def cmd_crawl(args: argparse.Namespace) -> int:
    """`archiver crawl PROFILE`"""
    from archiver.profile import load_profile

    profile = load_profile(args.profile, _overrides(args))
    return run_crawl(profile)


def cmd_learn(args: argparse.Namespace) -> int:
    """`archiver learn PROFILE [--from-warc FILE...]`: SOUrCe's learning phase (§4.1–4.3)
    only, live or replayed from WARC files; the model goes to <job>/model."""
    from archiver.crawl import run_learning
    from archiver.job import JobFolder
    from archiver.learning.model import MANIFEST
    from archiver.profile import load_profile
    from archiver.strategies import get_strategy
    from archiver.strategies.source import SourceStrategy

    profile = load_profile(args.profile, _overrides(args))
    if not get_strategy(profile.strategy.name).learns:
        raise ArchiverError(f"strategy {profile.strategy.name!r} does not learn; "
                            "use `archiver crawl`")
    model_dir = JobFolder(profile.output.dir).model_dir
    if args.from_warc:
        from archiver.learning.offline import learn_from_warcs

        missing = [f for f in args.from_warc if not Path(f).is_file()]
        if missing:
            raise ArchiverError(f"no such WARC file: {missing[0]}")
        strategy = learn_from_warcs(profile, args.from_warc)
        if strategy.model is None:
            raise ArchiverError("the WARC files hold too few pages of the profile's site "
                                "to learn from")
        strategy.save(model_dir)
        model = strategy.model
        print(f"learned {model.n_clusters_} clusters from {len(model.urls_)} archived pages "
              f"into {model_dir}")
        print(cluster_summary(strategy))
        return 0
    if (model_dir / MANIFEST).exists():
        print(f"a model is already in {model_dir}; `archiver harvest` uses it "
              "(use a new --out to learn again)")
        return 0
    result = run_learning(profile)
    if not (model_dir / MANIFEST).exists():
        raise ArchiverError(f"learning ended ({result.stop_reason}) without a model")
    print(f"learned in {result.stats.requests} requests; model in {model_dir}")
    learned = get_strategy(profile.strategy.name).from_profile(profile)
    if isinstance(learned, SourceStrategy) and learned.load(model_dir):
        print(cluster_summary(learned))
    return 0


def cluster_summary(strategy: SourceStrategy) -> str:
    """The learned clusters of a SOUrCe strategy as a text table, best Score(C) first: what
    the score is made of (HITS, DSim, content share), so that an archivist sees why a
    cluster ranks low."""
    from archiver.learning.navigation import CONTENT_FULL

    rows = sorted(strategy.clusters(), key=lambda r: (r.id < 0, -r.score, r.id))
    lines = [f"{'cluster':>7} {'pages':>5} {'Score(C)':>9} {'hub':>5} {'auth':>5} {'DSim':>5} "
             f"{'content':>7}  pattern"]
    for r in rows:
        i = r.info
        if r.id < 0:
            lines.append(f"{'-1':>7} {r.size:>5} {'':>9} {'':>5} {'':>5} {'':>5} {'':>7}  "
                         f"{r.label}")
            continue
        lines.append(f"{r.id:>7} {r.size:>5} {r.score:>9.4f} {i.get('hub', 0):>5.2f} "
                     f"{i.get('authority', 0):>5.2f} {i.get('dsim', 0):>5.3f} "
                     f"{i.get('content', 1):>7.2f}  {r.label}")
    used = strategy.use_content and strategy.scorer is not None and strategy.scorer.mode == "ucc"
    lines.append("content: share of the sampled pages' visible text outside links; "
                 + (f"Score(C) is multiplied by min(1, content / {CONTENT_FULL}) (strategy "
                    "param content)" if used
                    else "not in Score(C) here"))
    types = sorted({tuple(r.info.get("page_type", ())) for r in rows} - {()})
    if any(len(t) > 1 for t in types):
        lines.append("scored as one page type (strategy param type_scores): " + "; ".join(
            "clusters " + ", ".join(map(str, t)) for t in types if len(t) > 1))
    if strategy.scorer is not None:
        lines += _split_summary(strategy.scorer.table, strategy.use_url_patterns)
    if strategy.model is not None:
        lines += _sample_summary(strategy.model.info)
        lines += _noindex_summary(strategy.model.info, strategy.content_cluster,
                                  strategy.target is not None)
        lines += _live_summary(strategy.model.info)
    return "\n".join(lines)


def _some(items: Sequence[str], examples: int = 6) -> str:
    """The first `examples` of `items`, comma-separated, and how many more; "none"."""
    more = len(items) - examples
    return ", ".join(items[:examples]) + (f" (+{more} more)" if more > 0 else "") \
        if items else "none"


def _sample_summary(info: Mapping[str, Any]) -> list[str]:
    """How the sample ended (`SiteSampler.stop_reason`), and how many of its pages the
    sampler never requested (`SiteSampler.unrequested_`: some request it waited for was
    not fetched); nothing for a model saved before these were kept."""
    if "sample_pages" not in info:
        return []
    line = f"sample: {info['sample_pages']} pages, ended: {info.get('sample_stop', '?')}"
    if unrequested := info.get("sample_unrequested"):
        line += (f"; {unrequested} of them links deferred while sampling, fetched while"
                 " the sample waited for requests the crawl did not fetch")
    return [line]


def _live_summary(info: Mapping[str, Any]) -> list[str]:
    """Which rare pages (outliers) the harvest still follows, crawling for UCC (strategy
    param live_outliers): the URL patterns of the content and of companion pages that
    credit a kind of link's live outliers, and how many kinds of link led to some."""
    rows = info.get("live_outliers") or []
    content = [str(p) for p in info.get("content_patterns") or []]
    companions = sorted({str(p) for row in rows for p in (row[4] if len(row) > 4 else [])})
    return [f"live outliers (rare pages followed last): {len(rows)} "
            f"kind{'' if len(rows) == 1 else 's'} of link led to "
            f"some; URL patterns of the content: {_some(content)}; of companion pages: "
            f"{_some(companions)}"]


def _noindex_summary(info: Mapping[str, Any], protected: int, target: bool,
                     examples: int = 6) -> list[str]:
    """What the sample learned from the site's noindex marks: the cluster taken for the
    content (or the target), the clusters it may not be, the kinds of URL the sample
    closed, and the query's modes (strategy params content_guard, noindex_kinds and
    query_modes)."""
    marked = [str(c) for c in info.get("noindex_clusters") or []]
    closed = [str(k) for k in info.get("closed_kinds") or []]
    modes = [f"{name}={'|'.join(values)}"
             for name, values in sorted((info.get("query_modes") or {}).items())]
    what = "target" if target else "content (never judged exhausted)"
    return [f"{what}: cluster {protected if protected >= 0 else 'none'}; clusters most of "
            f"whose sampled pages are noindex: {_some(marked, examples)}",
            f"kinds of URL the sample closed (noindex, no new pages): {_some(closed, examples)}",
            f"query modes: {_some(modes, examples)}"]


def _split_summary(table: NavigationTable, used: bool, examples: int = 3) -> list[str]:
    """Which (cluster, Apath) pairs the URL pattern of a link splits, with a few examples."""
    split = table.split_pairs()
    lines = [f"url patterns: {len(split)} of {len(table.keys_)} (cluster, Apath) pairs lead to "
             "several clusters by the URL pattern of the link"
             + ("" if used else " (not used: strategy param url_patterns is false)")]
    for (src, apath), dests in list(split.items())[:examples]:
        to = ", ".join(f"{p} -> {'outlier' if c == table.n_clusters_ else c}"
                       for p, c in list(dests.items())[:4])
        lines.append(f"  cluster {src} {apath}: {to}")
    return lines


def cmd_harvest(args: argparse.Namespace) -> int:
    """`archiver harvest PROFILE`: crawl with the saved model, skipping the learning phase."""
    from archiver.job import JobFolder
    from archiver.learning.model import MANIFEST
    from archiver.profile import load_profile

    profile = load_profile(args.profile, _overrides(args))
    model_dir = JobFolder(profile.output.dir).model_dir
    if not (model_dir / MANIFEST).exists():
        raise ArchiverError(f"no learned model in {model_dir}; run `archiver learn` first")
    return run_crawl(profile)


def run_crawl(profile: Any) -> int:
    """Crawl with a progress display and signal handling; print the summary."""
    from archiver.crawl import Crawl
    from archiver.progress import Progress
    from archiver.report import summary_lines

    progress = Progress(profile.limits.max_requests)
    crawl = Crawl(profile, on_progress=progress)
    signals = {"count": 0}

    def on_signal(signum: int, frame: FrameType | None) -> None:
        signals["count"] += 1
        if signals["count"] > 1:
            raise KeyboardInterrupt  # second signal: stop at once; the next run repairs
        name = signal.Signals(signum).name
        logger.warning("%s: stopping after the current URL (again to stop at once)", name)
        crawl.request_stop(f"signal:{name}")

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        result = crawl.run()
    except KeyboardInterrupt:
        progress.close()
        print(f"archiver: stopped at once; run the same command to resume "
              f"({profile.output.dir})", file=sys.stderr)
        return 130
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    progress.close()
    import json

    report = json.loads((result.job_dir / "report.json").read_text("utf-8"))
    for line in summary_lines(report):
        print(line)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """`archiver check WARC...`: 0 if every file is valid, 1 otherwise."""
    from archiver.warccheck import check_paths

    return check_paths([Path(p) for p in args.warcs])


def cmd_demo(args: argparse.Namespace) -> int:
    """`archiver demo`: crawl the bundled demo forum, served on a free loopback port."""
    from archiver.demo import demo_profile, serve_demo

    with serve_demo() as site:
        profile = demo_profile(site.url, Path(args.out), max_requests=args.max_requests,
                               strategy=args.strategy)
        print(f"demo site served at {site.url}/ (bundled forum, loopback only)")
        status = run_crawl(profile)
    warcs = Path(args.out) / "warcs"
    print(f"\nWARC files: {warcs}/")
    print("Replay them in pywb:")
    print("  wb-manager init demo")
    print(f"  wb-manager add demo {warcs}/*.warc.gz")
    print("  wayback            # then open http://localhost:8080/demo/")
    print(f"Browse the crawl: archiver admin --jobs {Path(args.out).parent}")
    return status


def cmd_admin(args: argparse.Namespace) -> int:
    """`archiver admin`"""
    import os

    from archiver.admin.serve import run_admin

    token = args.token or os.environ.get("ARCHIVER_ADMIN_TOKEN")
    run_admin(Path(args.jobs), args.host, args.port, token,
              kb_dir=Path(args.kb) if args.kb else None, replay_url_template=args.replay_url)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """`archiver eval`: the zoo comparison of benchmarks/evaluate.py, one line per site."""
    import time

    from archiver.evaluation import evaluate
    from archiver.evaluation.arguments import evaluate_kwargs, summary_line

    level = logger.level
    if not args.verbose:        # the crawls' INFO lines would bury the one line per site
        logger.setLevel(logging.WARNING)
    started = time.monotonic()
    try:
        evaluate(**evaluate_kwargs(args),
                 on_site=lambda site: print(summary_line(site), flush=True))
    finally:
        logger.setLevel(level)
    print(f"wrote {args.out}.md, .json, .png in {time.monotonic() - started:.0f}s")
    return 0
