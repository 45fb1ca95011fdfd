"""Crawl throughput: archiver vs the bare floor vs `wget --mirror --warc-file`, in one run.

A generated static site of 2,000 HTML pages is served by a fast local server (nginx when
installed, else Python's http.server in its own process), politeness off. Measured per run:
- archiver: `python -m archiver crawl` in a subprocess: wall-clock pages/s, CPU ms per page
  (the child's user+system time, so the server's CPU is not counted);
- the bare floor: lxml parse + warcio gzip write of the same bodies, in one process;
- wget: `wget --mirror --warc-file` on the same site, wall-clock pages/s and CPU ms per page.
Medians over --runs runs; ratios are taken within each run, then their median reported.

    python benchmarks/bench_crawl.py --runs 5 --out benchmarks/results/crawl.txt
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import lxml.html
import yaml
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[1]
WORDS = ["archive", "forum", "thread", "reply", "member", "board", "topic", "post", "quote",
         "page", "user", "profile", "library", "crawl", "record", "harvest", "content",
         "history", "collection", "digital", "preservation", "national", "university", "web",
         "site", "link", "anchor", "cluster", "model"]


def generate_site(folder: Path, n_pages: int = 2000, seed: int = 7) -> list[Path]:
    """A static site: index → 40 section pages → leaf pages; every page links to 10 others."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "robots.txt").write_text("User-agent: *\nDisallow:\n")
    paths = []
    for i in range(n_pages):
        name = "index.html" if i == 0 else f"page{i}.html"
        children = [j for j in range(i * 10 + 1, i * 10 + 11) if j < n_pages]
        others = rng.sample(range(n_pages), 5)
        links = "".join(f'<li><a class="item" href="/{_name(j)}">Page {j}</a></li>'
                        for j in children + others)
        paragraphs = "".join(
            "<p>" + " ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 400))) + "</p>"
            for _ in range(rng.randint(2, 8)))
        html = (f"<!DOCTYPE html><html><head><title>Page {i}</title>"
                f'<meta charset="utf-8"></head><body><div id="nav"><a href="/">Home</a></div>'
                f'<div class="content">{paragraphs}</div><ul class="links">{links}</ul>'
                "</body></html>")
        path = folder / name
        path.write_text(html, encoding="utf-8")
        paths.append(path)
    return paths


def _name(j: int) -> str:
    return "index.html" if j == 0 else f"page{j}.html"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(site: Path, work: Path) -> tuple[subprocess.Popen[bytes], str, str]:
    """nginx if installed (the fast server), else http.server with HTTP/1.1 keep-alive."""
    port = _free_port()
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                      else None)
    if nginx:
        conf = work / "nginx.conf"
        conf.write_text(f"""
worker_processes 1; daemon off; pid {work}/nginx.pid; error_log {work}/nginx-error.log;
events {{ worker_connections 64; }}
http {{ access_log off; default_type text/html; keepalive_requests 100000;
  client_body_temp_path {work}/tmp; proxy_temp_path {work}/tmp; fastcgi_temp_path {work}/tmp;
  uwsgi_temp_path {work}/tmp; scgi_temp_path {work}/tmp;
  types {{ text/html html; text/plain txt; }}
  server {{ listen 127.0.0.1:{port}; root {site}; index index.html; }} }}
""")
        (work / "tmp").mkdir(exist_ok=True)
        proc = subprocess.Popen([nginx, "-c", str(conf), "-p", str(work)])
        kind = "nginx"
    else:
        proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                                 "127.0.0.1", "--protocol", "HTTP/1.1", "-d", str(site)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kind = "python http.server (separate process)"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, f"http://127.0.0.1:{port}", kind


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_archiver(base: str, work: Path, profile_to: Path | None = None
                 ) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, HTML pages archived) of one archiver crawl; under
    cProfile, writing its stats to `profile_to`, if given (its timings are then inflated)."""
    out = work / "archiver-job"
    shutil.rmtree(out, ignore_errors=True)
    profile = work / "bench.yaml"
    profile.write_text(yaml.safe_dump({
        "name": "bench", "seeds": [base + "/"],
        "politeness": {"delay": 0, "robots": "obey"},
        "limits": {"max_requests": 10_000}, "output": {"dir": str(out)}}))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cpu0, t0 = _child_cpu(), time.perf_counter()
    prof = ["-m", "cProfile", "-o", str(profile_to)] if profile_to else []
    subprocess.run([sys.executable, *prof, "-m", "archiver", "crawl", str(profile)], env=env,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall, cpu = time.perf_counter() - t0, _child_cpu() - cpu0
    import sqlite3

    conn = sqlite3.connect(out / "crawl.sqlite3")
    pages = conn.execute("SELECT COUNT(*) FROM page").fetchone()[0]
    conn.close()
    if not pages:
        raise RuntimeError(f"archiver archived no HTML page; see {out / 'crawl.log'}")
    return wall, cpu, int(pages)


def run_wget(base: str, work: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, HTML pages saved) of `wget --mirror --warc-file`."""
    out = work / "wget"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    cpu0, t0 = _child_cpu(), time.perf_counter()
    subprocess.run(["wget", "--mirror", "--no-verbose", "--warc-file=" + str(out / "wget"),
                    "-P", str(out / "files"), base + "/"], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall, cpu = time.perf_counter() - t0, _child_cpu() - cpu0
    pages = sum(1 for _ in (out / "files").rglob("*.html"))
    return wall, cpu, pages


def run_floor(paths: list[Path], work: Path) -> float:
    """CPU seconds of the bare floor: lxml parse + warcio gzip write of every body."""
    bodies = [p.read_bytes() for p in paths]
    t0 = time.process_time()
    with (work / "floor.warc.gz").open("wb") as fh:
        writer = WARCWriter(fh, gzip=True, warc_version="1.1")
        for i, body in enumerate(bodies):
            lxml.html.document_fromstring(body)
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html"),
                                                  ("Content-Length", str(len(body)))],
                                       protocol="HTTP/1.1")
            rec = writer.create_warc_record(f"http://127.0.0.1/page{i}.html", "response",
                                            payload=io.BytesIO(body), http_headers=headers)
            writer.write_record(rec)
    return time.process_time() - t0


def print_profile(path: Path, top: int = 25) -> None:
    """The functions with the most own time, then the most cumulative time, to stderr."""
    import pstats

    stats = pstats.Stats(str(path), stream=sys.stderr)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--profile", type=Path, default=None, metavar="PSTATS",
                        help="after the runs, crawl once more under cProfile, save the stats "
                             "here and print the top functions (not counted in the results)")
    args = parser.parse_args()
    rows: dict[str, list[float]] = {k: [] for k in (
        "arch_pps", "arch_cpu_ms", "wget_pps", "wget_cpu_ms", "floor_cpu_ms", "cpu_ratio",
        "speed_ratio", "arch_pages", "wget_pages")}
    load_before = os.getloadavg()[0]  # other processes inflate every CPU figure alike
    with tempfile.TemporaryDirectory(prefix="archiver-bench-") as tmp:
        work = Path(tmp)
        # nginx started as root serves files as `nobody`, which cannot enter a 0700 temp dir
        # (every page would be a 403).
        work.chmod(0o755)
        paths = generate_site(work / "site", args.pages)
        server, base, kind = start_server(work / "site", work)
        try:
            for run in range(args.runs):
                a_wall, a_cpu, a_pages = run_archiver(base, work)
                w_wall, w_cpu, w_pages = run_wget(base, work)
                floor = run_floor(paths, work)
                rows["arch_pps"].append(a_pages / a_wall)
                rows["arch_cpu_ms"].append(1000 * a_cpu / a_pages)
                rows["wget_pps"].append(w_pages / w_wall)
                rows["wget_cpu_ms"].append(1000 * w_cpu / max(1, w_pages))
                rows["floor_cpu_ms"].append(1000 * floor / len(paths))
                rows["cpu_ratio"].append(rows["arch_cpu_ms"][-1] / rows["floor_cpu_ms"][-1])
                rows["speed_ratio"].append(rows["arch_pps"][-1] / rows["wget_pps"][-1])
                rows["arch_pages"].append(a_pages)
                rows["wget_pages"].append(w_pages)
                print(f"run {run + 1}: archiver {a_pages} pages {rows['arch_pps'][-1]:.0f}/s "
                      f"{rows['arch_cpu_ms'][-1]:.2f} CPU ms/page; wget {w_pages} pages "
                      f"{rows['wget_pps'][-1]:.0f}/s; floor {rows['floor_cpu_ms'][-1]:.2f} ms/page",
                      file=sys.stderr)
            if args.profile:
                run_archiver(base, work, profile_to=args.profile.resolve())
                print_profile(args.profile)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)
    med = {k: statistics.median(v) for k, v in rows.items()}
    report = f"""# Crawl throughput benchmark (benchmarks/bench_crawl.py)
date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}
machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}
load average (1 min) before / after the runs: {load_before:.2f} / {os.getloadavg()[0]:.2f}
site: {args.pages} generated static HTML pages, server: {kind}, politeness off
runs: {args.runs} (medians below; ratios taken within each run, then the median)

| crawler | pages | pages/s (wall) | CPU ms/page |
|---|---|---|---|
| archiver (bfs, robots obeyed, WARC gzip) | {med['arch_pages']:.0f} | {med['arch_pps']:.1f} \
| {med['arch_cpu_ms']:.2f} |
| wget --mirror --warc-file | {med['wget_pages']:.0f} | {med['wget_pps']:.1f} \
| {med['wget_cpu_ms']:.2f} |
| bare floor (lxml parse + warcio gzip write) | {args.pages} | - | {med['floor_cpu_ms']:.2f} |

archiver CPU / floor CPU: {med['cpu_ratio']:.2f}  (target <= 2.0)
archiver pages/s / wget pages/s: {med['speed_ratio']:.2f}  (target >= 0.5)
per-run archiver CPU ms/page: {', '.join(f'{x:.2f}' for x in rows['arch_cpu_ms'])}
per-run speed ratio: {', '.join(f'{x:.2f}' for x in rows['speed_ratio'])}
"""
    emit(report, args.out)
    return 0


def emit(report: str, out: Path | None) -> None:
    """Print a benchmark's report and, with `out`, write it there too."""
    print(report)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(report)


if __name__ == "__main__":
    sys.exit(main())
