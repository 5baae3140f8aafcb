"""``skill-retriever stats``: what an index holds, as lines or ``--json`` (the keys README
lists): counts by kind, calibration, defaults, sources, dates, server and unfinished runs.
The libraries it reads with are imported when it runs, so ``--help`` stays light."""

from __future__ import annotations

import argparse

from skill_retriever.advice import Placeholder
from skill_retriever.advice import command as advised
from skill_retriever.safety.terminal import printable, printable_json

__all__ = ["cmd_stats"]


def cmd_stats(args: argparse.Namespace) -> int:
    from skill_retriever.calibration import calibration_of, redraw_advice, unreadable_calibration
    from skill_retriever.calibration.defaults import index_defaults
    from skill_retriever.dated_items import dated_summary, dated_words
    from skill_retriever.json_text import dumps
    from skill_retriever.sources import sources_of
    from skill_retriever.stats_lines import calibration_line, no_calibration, route_line, stats_json
    from skill_retriever.stores import manifest as mf
    from skill_retriever.stores import run_marks
    from skill_retriever.stores.embedder import DEFAULT_MODEL
    from skill_retriever.stores.index import Index
    from skill_retriever.stores.recorded_model import Recorded, mismatch_line
    from skill_retriever.stores.server_stats import server_line, server_status

    # Without the server: what the index holds is in items.sqlite, and a server that is
    # down is reported below rather than failing the whole command.
    with Index.open(args.index_dir, chroma_url=args.chroma_url, use_server=False) as index:
        status = index.status()
        snapshot = index.snapshot()
        calibration = calibration_of(snapshot)
        status["calibration"] = calibration.summary(status["version"]) if calibration else None
        status["calibration_unreadable"] = unreadable_calibration(snapshot)  # derived data: said, not fatal
        bundled = index.embedder.name == DEFAULT_MODEL  # what the note on a catalogue not in English names
        model_note = (mismatch_line(index.embedder.name, index.embedder.recorded, index.path)
                      if isinstance(index.embedder, Recorded) else None)
        suggested = index_defaults(snapshot)
        status["defaults"] = {"corpus": suggested.corpus, "settings": dict(suggested.settings),
                              "reasons": list(suggested.reasons)}
        manifest = {**mf.read_manifest(index.path), **({"chroma_url": args.chroma_url} if args.chroma_url else {})}
        own = (status["vectors"]["nodes"], status["vectors"]["edges"])  # what a server in step holds
        status["server"] = server_status(manifest, index.embedder, index.path, own, snapshot)  # snapshot: ids and hashes
        named, unnamed = sources_of(snapshot.nodes)
        status["sources"] = {"named": [c.to_dict() for c in named], "unnamed_items": unnamed}
        status["dated"] = dated_summary(snapshot.nodes.values())  # what since/until and a time can find
        if status["server"] is not None:
            status["chroma_url"] = status["server"]["url"]
    if args.json:
        print(printable_json(dumps(stats_json(status))))
    else:
        print(printable(f"index {status['path']} (version {status['version']}, embedder {status['embedder']})"))
        if model_note:  # index.json names another model than the items were embedded by
            print(printable(f"warning: {model_note}"))
        line = (calibration_line(status["calibration"], redraw_advice(snapshot), bundled) if status["calibration"]
                else status["calibration_unreadable"] or no_calibration(status))
        print(printable(f"calibration: {line}"))
        over = (" (over every item; a caller whose access hides some gets what its own items suggest)"
                if snapshot.has_access_labels else "")
        print(printable(f"defaults{over}: {'; '.join(status['defaults']['reasons'])}"))
        print(printable(f"route: {route_line(status['calibration'], suggested.settings)}"))
        for what in ("node", "edge"):  # "nodes 0: none", not a colon with nothing after it
            kinds = ", ".join(f"{k} {v}" for k, v in status[f"{what}_kinds"].items()) or "none"
            print(printable(f"{what}s {status[f'{what}s']}: {kinds}"))
        print(printable(f"dated: {dated_words(status['dated'])}"))
        held = [f"{c['name']} ({c['items']} items, {c['root'] or 'root not recorded'}"
                + (f", gone from disk: {_gone_advice(c['name'], status['path'])})" if c["gone"] else ")")
                for c in status["sources"]["named"]]
        held += [f"{unnamed} item(s) written through the API"] if (unnamed := status["sources"]["unnamed_items"]) else []
        print(printable(f"sources: {', '.join(held) or 'none'}"))
        if status["server"] is not None:
            print(printable(f"server: {server_line(status['server'], status['path'])}"))
        if unfinished := run_marks.stats_line(status.get("unfinished_runs", {}), status["path"]):
            print(printable(f"warning: {unfinished}"))
    return 0


def _gone_advice(name: str, index_dir: str) -> str:
    """The ways out for a source gone from disk: taken out, or, moved, taken in from its new
    folder under its name (`source_moves`: its vectors kept, where removing it first would
    embed every text again)."""
    moved = advised(["index", Placeholder("NEWPATH"), "--source-name", name], index_dir)
    return f"`{advised(['remove-source', name], index_dir)}` takes it out, or, moved, `{moved}` takes it in from there"
