"""Charts drawn on the server as inline SVG: no scripts, fonts or CDN, every text escaped.

`bar_chart` (counts per label), `harvest_chart` (valuable pages against requests, per cluster)
and `sitemap_chart` (learned clusters as nodes sized by pages, navigation edges weighted by
transition probability) return `markupsafe.Markup` for direct use in templates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf", "#7f7f7f", "#bcbd22")
FONT = 'font-family="sans-serif" font-size="11"'


def _svg(width: int, height: int, label: str, body: list[str]) -> Markup:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'aria-label="{escape(label)}"><title>{escape(label)}</title>')
    # Markup is safe here: every text and attribute value above went through escape().
    return Markup(head + "".join(body) + "</svg>")


def _text(x: float, y: float, text: object, anchor: str = "start", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT} {extra}>'
            f"{escape(str(text))}</text>")


def nice_ticks(top: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least `top` (steps of 1, 2 or 5 × 10^k)."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    n = math.ceil(top / step)
    return [i * step for i in range(n + 1)]


def _short(value: float) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:g}M"
    if value >= 1000:
        return f"{value / 1000:g}k"
    return f"{value:g}"


def bar_chart(items: Sequence[tuple[object, float]], title: str, width: int = 560,
              max_bars: int = 40) -> Markup:
    """Horizontal bars, one per (label, value), in the given order."""
    items = list(items)[:max_bars]
    row, left, right = 18, 150, 70
    height = max(row * len(items) + 10, 30)
    top = max((float(v) for _, v in items), default=0.0) or 1.0
    body = []
    if not items:
        body.append(_text(10, 20, "nothing yet"))
    for i, (label, value) in enumerate(items):
        y = 5 + i * row
        w = (width - left - right) * float(value) / top
        body.append(_text(left - 6, y + 12, _clip(str(label), 24), "end"))
        body.append(f'<rect x="{left}" y="{y + 2}" width="{w:.1f}" height="{row - 5}" '
                    f'fill="{PALETTE[0]}"><title>{escape(str(label))}: {value:,.0f}</title>'
                    "</rect>")
        body.append(_text(left + w + 4, y + 12, f"{value:,.0f}"))
    return _svg(width, height, title, body)


def harvest_chart(harvest: Mapping[str, Any], title: str = "Harvest curve", width: int = 560,
                  height: int = 320) -> Markup:
    """Valuable pages (y) against requests (x): one line overall, one per top cluster."""
    left, right, top_pad, bottom = 56, 170, 14, 36
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    series: list[Mapping[str, Any]] = list(harvest.get("series", []))
    xmax = float(harvest.get("requests") or 0)
    ymax = max((p[1] for s in series for p in s["points"]), default=0)
    body: list[str] = []
    if xmax <= 0:
        body.append(_text(width / 2, height / 2, "no requests yet", "middle"))
        return _svg(width, height, title, body)
    xticks, yticks = nice_ticks(xmax), nice_ticks(float(ymax))
    xspan, yspan = xticks[-1], yticks[-1]

    def px(x: float) -> float:
        return left + plot_w * x / xspan

    def py(y: float) -> float:
        return top_pad + plot_h * (1 - y / yspan)

    for t in yticks:
        body.append(f'<line x1="{left}" y1="{py(t):.1f}" x2="{left + plot_w}" y2="{py(t):.1f}" '
                    'stroke="#ddd"/>')
        body.append(_text(left - 6, py(t) + 4, _short(t), "end"))
    for t in xticks:
        body.append(_text(px(t), top_pad + plot_h + 16, _short(t), "middle"))
    body.append(f'<path d="M{left},{top_pad} V{top_pad + plot_h} H{left + plot_w}" '
                'stroke="#333" fill="none"/>')
    body.append(_text(left + plot_w / 2, height - 4, "requests", "middle"))
    body.append(_text(12, top_pad + plot_h / 2, "valuable pages", "middle",
                      f'transform="rotate(-90 12 {top_pad + plot_h / 2:.1f})"'))
    for i, s in enumerate(series):
        color = "#222" if i == 0 else PALETTE[(i - 1) % len(PALETTE)]
        points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in s["points"])
        last = s["points"][-1][1] if s["points"] else 0
        body.append(f'<polyline points="{points}" fill="none" stroke="{color}" '
                    f'stroke-width="{2.5 if i == 0 else 1.5}">'
                    f"<title>{escape(str(s['name']))}: {last:,} pages</title></polyline>")
        ly = top_pad + 6 + i * 16
        body.append(f'<line x1="{width - right + 10}" y1="{ly}" x2="{width - right + 28}" '
                    f'y2="{ly}" stroke="{color}" stroke-width="2.5"/>')
        body.append(_text(width - right + 32, ly + 4, _clip(f"{s['name']} ({last:,})", 24)))
    return _svg(width, height, title, body)


def sitemap_chart(clusters: Sequence[Mapping[str, Any]], edges: Sequence[Mapping[str, Any]],
                  title: str = "Learned sitemap", width: int = 560, height: int = 420,
                  max_nodes: int = 24) -> Markup:
    """Clusters on a circle, area ∝ pages; arrows weighted by transition probability."""
    ranked = sorted(clusters, key=lambda c: -(c["pages"] or c["sample_size"]))[:max_nodes]
    body: list[str] = [
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#555"/></marker></defs>']
    if not ranked:
        body.append(_text(width / 2, height / 2, "no learned clusters", "middle"))
        return _svg(width, height, title, body)
    cx, cy = width / 2, height / 2
    ring = min(width, height) / 2 - 70 if len(ranked) > 1 else 0
    biggest = max(float(c["pages"] or c["sample_size"]) for c in ranked) or 1.0
    nodes: dict[int, tuple[float, float, float]] = {}
    for i, c in enumerate(ranked):
        angle = 2 * math.pi * i / len(ranked) - math.pi / 2
        r = 6 + 22 * math.sqrt(float(c["pages"] or c["sample_size"]) / biggest)
        nodes[c["id"]] = (cx + ring * math.cos(angle), cy + ring * math.sin(angle), r)
    names = {c["id"]: str(c["label"]) for c in ranked}
    for e in edges:
        if e["src"] not in nodes or e["dst"] not in nodes:
            continue
        w = max(0.0, min(float(e["weight"]), 1.0))
        style = (f'stroke="#555" stroke-opacity="{0.25 + 0.75 * w:.2f}" '
                 f'stroke-width="{0.5 + 5 * w:.1f}" fill="none" marker-end="url(#arrow)"')
        tip = escape(f"{names[e['src']]} → {names[e['dst']]}: {float(e['weight']):.2f}")
        x1, y1, r1 = nodes[e["src"]]
        if e["src"] == e["dst"]:  # page flipping: a loop outside the node, beside its label
            ox, oy = _unit(x1 - cx, y1 - cy) if ring else (0.0, -1.0)
            dx, dy = ox * 0.5 - oy * 0.866, oy * 0.5 + ox * 0.866  # turned 60° off the label
            ax, ay = x1 + dx * r1, y1 + dy * r1
            body.append(f'<path d="M{ax - dy * 6:.1f},{ay + dx * 6:.1f} '
                        f'C{ax + dx * 40 - dy * 20:.1f},{ay + dy * 40 + dx * 20:.1f} '
                        f'{ax + dx * 40 + dy * 20:.1f},{ay + dy * 40 - dx * 20:.1f} '
                        f'{ax + dy * 6:.1f},{ay - dx * 6:.1f}" {style}><title>{tip}</title>'
                        "</path>")
            continue
        x2, y2, r2 = nodes[e["dst"]]
        dx, dy = _unit(x2 - x1, y2 - y1)
        # a slight bend keeps A→B and B→A apart
        mx, my = (x1 + x2) / 2 - dy * 18, (y1 + y2) / 2 + dx * 18
        body.append(f'<path d="M{x1 + dx * r1:.1f},{y1 + dy * r1:.1f} Q{mx:.1f},{my:.1f} '
                    f'{x2 - dx * r2:.1f},{y2 - dy * r2:.1f}" {style}><title>{tip}</title></path>')
    for i, c in enumerate(ranked):
        x, y, r = nodes[c["id"]]
        color = "#bbb" if c["id"] == -1 else PALETTE[i % len(PALETTE)]
        tip = escape(f"{c['label']}: {c['pages']:,} pages, score {c['score']:.2f}")
        body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{color}" '
                    f'fill-opacity="0.85" stroke="#333"><title>{tip}</title></circle>')
        dx, dy = _unit(x - cx, y - cy) if ring else (0.0, -1.0)
        anchor = "start" if dx > 0.3 else "end" if dx < -0.3 else "middle"
        body.append(_text(x + dx * (r + 6), y + dy * (r + 6) + 4,
                          _clip(f"{c['label']} ({c['pages']:,})", 26), anchor))
    return _svg(width, height, title, body)


def _unit(dx: float, dy: float) -> tuple[float, float]:
    norm = math.hypot(dx, dy) or 1.0
    return dx / norm, dy / norm


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
