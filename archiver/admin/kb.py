"""Admin view of the knowledge base: CMS families, their model bundles, which jobs used them.

Layout (STYLE §5): KB_DIR/<cms-family>/<bundle-id>/manifest.json (+ arrays.npz). A job's own
model is crawls/<job>/model/manifest.json; a job "used" a bundle when its model manifest names
the bundle (`bundle`, `bundle_id` or `kb_bundle`) or was learned from the same profile
(`profile_sha256`), and it "shares the family" when only `cms_family` matches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, render_template

from archiver.admin import jobs

bp = Blueprint("kb", __name__)

MAX_MANIFEST_BYTES = 64_000_000  # manifests carry the vocabulary; refuse absurd files
_BUNDLE_KEYS = ("bundle", "bundle_id", "kb_bundle")


def read_manifest(path: Path) -> dict[str, Any] | None:
    """A manifest.json as a dict, or None when missing, too large or not a JSON object."""
    try:
        if path.stat().st_size > MAX_MANIFEST_BYTES:
            return None
        value = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _summary(manifest: dict[str, Any]) -> dict[str, Any]:
    clusters = manifest.get("clusters")
    vocabulary = manifest.get("vocabulary")
    params = manifest.get("params")
    return {
        "format": str(manifest.get("format", "")),
        "format_version": manifest.get("format_version"),
        "archiver_version": str(manifest.get("archiver_version", "")),
        "cms_family": str(manifest.get("cms_family", "")),
        "strategy": str(manifest.get("strategy", "")),
        "created_at": manifest.get("created_at"),
        "profile_sha256": str(manifest.get("profile_sha256", "")),
        "clusters": len(clusters) if isinstance(clusters, list) else None,
        "vocabulary": len(vocabulary) if isinstance(vocabulary, list) else None,
        "params": sorted(params) if isinstance(params, dict) else [],
        "bundle": next((str(manifest[k]) for k in _BUNDLE_KEYS if manifest.get(k)), ""),
    }


def job_models(jobs_dir: Path) -> list[dict[str, Any]]:
    """The learned model summary of every job folder that has one."""
    out = []
    for job_dir in jobs.job_dirs(jobs_dir):
        manifest = read_manifest(job_dir / "model" / "manifest.json")
        if manifest is not None:
            out.append({"job": job_dir.name, **_summary(manifest)})
    return out


def families(kb_dir: Path, models: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each CMS family with its bundles and the jobs that used each bundle."""
    out = []
    for family_dir in sorted(p for p in kb_dir.iterdir() if p.is_dir()
                             and not p.name.startswith(".")):
        bundles = []
        for bundle_dir in sorted(p for p in family_dir.iterdir() if p.is_dir()
                                 and not p.name.startswith(".")):
            manifest = read_manifest(bundle_dir / "manifest.json")
            summary = _summary(manifest) if manifest is not None else {}
            sha = summary.get("profile_sha256")
            used = [m["job"] for m in models
                    if m["bundle"] == bundle_dir.name or (sha and m["profile_sha256"] == sha)]
            arrays = bundle_dir / "arrays.npz"
            bundles.append({"id": bundle_dir.name, "ok": manifest is not None, **summary,
                            "arrays_size": arrays.stat().st_size if arrays.is_file() else None,
                            "used_by": used})
        same_family = sorted({m["job"] for m in models if m["cms_family"] == family_dir.name})
        out.append({"name": family_dir.name, "bundles": bundles, "jobs": same_family})
    return out


@bp.get("/kb/")
def index() -> str:
    """The knowledge base: families, bundles, and the jobs that used them."""
    kb_dir: Path | None = current_app.config["KB_DIR"]
    models = job_models(current_app.config["JOBS_DIR"])
    found = kb_dir is not None and kb_dir.is_dir()
    return render_template("kb.html", kb_dir=kb_dir, found=found, models=models,
                           families=families(kb_dir, models) if found and kb_dir else [])
