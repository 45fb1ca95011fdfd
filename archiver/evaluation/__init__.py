"""Evaluation harness: run crawlers on zoo sites and score their WARCs with the papers' metrics.

    from archiver.evaluation import evaluate
    evaluate(["forum"], variants=[0], size="small", budget=0.25, crawlers=["bfs", "wget"],
             out="benchmarks/results/zoo-bfs-wget")      # writes .json, .md, .png

Scoring reads only the WARCs (`captures`) and the site's ground truth (`truth`); the metric
definitions, each quoting its paper, are in `metrics`, and the budgets each reads in `scoring`.
"""

from __future__ import annotations

from archiver.evaluation.captures import Capture, read_captures, warc_paths
from archiver.evaluation.runner import (
    DEFAULT_BUDGET,
    EvaluationError,
    evaluate,
    known_crawlers,
    write_results,
)
from archiver.evaluation.scoring import Reference, score
from archiver.evaluation.truth import SiteTruth, zoo_truth

__all__ = ["DEFAULT_BUDGET", "Capture", "EvaluationError", "Reference", "SiteTruth", "evaluate",
           "known_crawlers", "read_captures", "score", "warc_paths", "write_results",
           "zoo_truth"]
