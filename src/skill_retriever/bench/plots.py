"""PNG plots of the results (matplotlib, from the ``bench`` extra, Agg backend).

A method that failed on every query of a set has no bar and no cell: its place is
labelled FAILED (:func:`~skill_retriever.bench.figures.failed_all`), never drawn as 0.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from skill_retriever.bench.extras import require
from skill_retriever.bench.figures import FAILED, failed_all, score
from skill_retriever.bench.summary import subset_of
from skill_retriever.bench.tables import HEADLINE, group_rows


def write_plots(out: Path, sections: list[dict[str, Any]]) -> list[Path]:
    """Bar charts of the headline metric per retrieval family, the incident matrix, and
    latency against graph size. Matplotlib with the Agg backend (no display)."""
    require("matplotlib").use("Agg")  # no display; before pyplot is imported
    plt = require("matplotlib.pyplot")

    folder = out / "plots"
    folder.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []
    for family in ("multihop", "skills", "toolret"):
        secs = [s for s in sections if s.get("family") == family]
        if not secs:
            continue
        metric = HEADLINE[family]
        methods = list(dict.fromkeys(m for s in secs for m in s["methods"]))
        fig, ax = plt.subplots(figsize=(min(14.0, max(7.0, 0.35 * len(methods) * (len(secs) + 1))), 4.8))
        width = 0.8 / len(secs)
        for j, s in enumerate(secs):
            xs = [i + j * width for i in range(len(methods))]
            vals = [100 * (score(s, m, metric) or 0) for m in methods]
            # Marked as the summary table's column is: a quick subset is no measure of the set.
            label = s["name"] + (" (quick subset)" if subset_of(s) is not None else "")
            bars = ax.bar(xs, vals, width, label=label)
            for x, m, bar in zip(xs, methods, bars):
                if failed_all(s, m):  # no bar: a label where it would stand
                    bar.set_visible(False)
                    ax.text(x, 1, FAILED, rotation=90, ha="center", va="bottom", fontsize=6, color="firebrick")
        ax.set_xticks([i + width * (len(secs) - 1) / 2 for i in range(len(methods))])
        ax.set_xticklabels(methods, rotation=40, ha="right", fontsize=8)
        ax.set_ylabel(metric)
        ax.set_title(f"{family}: {metric} per method")
        ax.legend(fontsize=7, ncol=min(4, len(secs)), loc="lower center", bbox_to_anchor=(0.5, 1.08))
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        made.append(_save(fig, folder / f"{family}.png", plt))
    for s in sections:
        if s.get("section") == "incidents":
            header, rows = group_rows(s, "R@10")
            fig, ax = plt.subplots(figsize=(7, 3.8))
            # A FAILED or undefined cell is NaN: drawn grey, labelled with its text.
            data = [[float(x) if x.replace(".", "", 1).isdigit() else float("nan") for x in r[1:]] for r in rows]
            cmap = plt.get_cmap("viridis").with_extremes(bad="lightgrey")
            im = ax.imshow(data, cmap=cmap, vmin=0, vmax=100, aspect="auto")
            ax.set_xticks(range(len(header) - 1))
            ax.set_xticklabels(header[1:], rotation=30, ha="right", fontsize=8)
            ax.set_yticks(range(len(rows)))
            ax.set_yticklabels([r[0] for r in rows], fontsize=8)
            for i, r in enumerate(data):
                for j, v in enumerate(r):
                    text = rows[i][j + 1] if math.isnan(v) else f"{v:.0f}"  # NaN: the cell's own text
                    ax.text(j, i, text, ha="center", va="center", color="w" if v < 60 else "k", fontsize=7)
            fig.colorbar(im, ax=ax, label="R@10")
            ax.set_title("incidents: R@10 by query shape")
            fig.tight_layout()
            made.append(_save(fig, folder / "incidents.png", plt))
        if s.get("section") == "speed" and s.get("sizes"):
            fig, ax = plt.subplots(figsize=(6, 4))
            routes = list(dict.fromkeys(r for size in s["sizes"] for r in size["routes"]))
            xs = [size["nodes"] for size in s["sizes"]]
            for route in routes:
                ax.plot(xs, [size["routes"].get(route, {}).get("e2e", {}).get("p50", float("nan")) for size in s["sizes"]],
                        marker="o", label=f"{route} p50")
            ax.plot(xs, [size["dense"]["e2e"]["p50"] for size in s["sizes"]], "k--", marker="x", label="dense search p50")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("nodes")
            ax.set_ylabel("ms per query")
            ax.set_title("latency against graph size")
            ax.legend(fontsize=7)
            fig.tight_layout()
            made.append(_save(fig, folder / "speed.png", plt))
    return made


def _save(fig: Any, path: Path, plt: Any) -> Path:
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
