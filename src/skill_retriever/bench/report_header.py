"""The head of report.md: the last run (finished, stopped or still going), the machine,
and what earlier runs left in the same folder.

The runner writes ``results/_run.json`` when a run starts (``state`` "running"), when it
ends ("finished") and when Ctrl-C stops it ("interrupted", with the section it was in),
or when an error stops it ("failed", with the section and the error), so a report rebuilt
at any moment says which of these it is.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.bench.data_failures import failures_summary
from skill_retriever.bench.figures import failed_all

__all__ = ["earlier_sections", "failed_note", "header_lines", "reused_line", "section_name"]


def section_name(section: dict[str, Any]) -> str:
    """``family/name`` of a set's section, else the section's kind (``startup``)."""
    if section.get("family") and section.get("name"):
        return f"{section['family']}/{section['name']}"
    return str(section.get("section") or section.get("family") or "?")


def earlier_sections(run: dict[str, Any], sections: list[dict[str, Any]]) -> list[str]:
    """The sections an earlier run left in the folder: those finished before the last run
    started (ISO times in UTC compare as strings). Empty when the run file has no start
    time (a report of one run, or one written before it was kept)."""
    started = run.get("started_at")
    if not started:
        return []
    reused = {r.get("set") for r in run.get("reused") or []}  # said as reused (`reused_line`)
    return [f"{section_name(s)} ({s.get('finished_at') or 'undated'})" for s in sections
            if str(s.get("finished_at") or "") < started and section_name(s) not in reused]


def reused_line(run: dict[str, Any]) -> list[str]:
    """The header's paragraph on the results the last run reused (`reuse`), and from which run."""
    reused = run.get("reused") or []
    if not reused:
        return []
    named = ", ".join(f"{r.get('set')} (run started {r.get('run_started_at')}, finished {r.get('finished_at')})"
                      for r in reused)
    return [(f"Reused {len(reused)} set(s) measured by an earlier run in this folder with the same options, data "
             f"files, code, package versions and models, not measured again: {named}. `--fresh` measures them again."), ""]


def _during(stop: dict[str, Any]) -> str:
    """Where a run stopped: its section, and the set when the section runs several."""
    if not stop.get("during"):
        return ""
    return f" during the {stop['during']} section" + (f" (set {stop['set']})" if stop.get("set") else "")


#: A run that stopped before its end, by its state: the header's first words, how it
#: stopped, and what to do (the state's own entry of the run file says where and when).
_STOPPED = {
    "interrupted": ("**Interrupted.**", "(Ctrl-C)", ("Run the same command again to finish: the sets it finished are "
                    "reused, not measured again (`--fresh` measures everything).")),
    "failed": ("**Failed.**", "by an error", ("Mend what the error names and run the same command again: the sets it "
               "finished are reused, not measured again (`--fresh` measures everything).")),
}


def _last_run(run: dict[str, Any]) -> str:
    profile = f"`{run.get('command')}` ({'quick' if run.get('quick') else 'full'} profile)"
    state = run.get("state", "finished")  # a run file older than the state finished, or has none
    if state in _STOPPED:
        head, how, advice = _STOPPED[state]
        stop = run.get(state) or {}
        error = f": {stop.get('error', '?')}" if state == "failed" else ""
        return (f"{head} Last run: {profile}, started {run.get('started_at')}, stopped {how}{_during(stop)} "
                f"after {stop.get('after_s', '?')} s{error}. The sections and sets it finished are below; the set it "
                "was measuring and those after it are not (any of theirs shown come from earlier runs: see the "
                f"made-by lines). {advice}")
    if state == "running":
        return (f"Last run: {profile}, started {run.get('started_at')}, not finished: still running, or stopped "
                "without a word (killed, an error, or the machine went down). The sections it finished so far are "
                "below.")
    failed = failures_summary(run)
    return f"Last run: {profile}, finished {run.get('finished_at')}, {run.get('seconds')} s.{' ' + failed if failed else ''}"


def _code(run: dict[str, Any]) -> str:
    """The commit the last run measured (sections of earlier runs name theirs under their tables)."""
    code = run.get("code")
    if not isinstance(code, dict) or not code.get("commit"):
        return ""
    return f" Code: commit {code['commit']}{' with local changes' if code.get('local_changes') else ''}."


def _data(run: dict[str, Any]) -> list[str]:
    """The data folder the last run read (a run file older than the key claims nothing)."""
    if "data" not in run:
        return []
    return [f"Data: {run['data']}." if run["data"] else "Data: none (only the sections that need no data ran)."]


def header_lines(run: dict[str, Any], sections: list[dict[str, Any]]) -> list[str]:
    """The report's lines between its title and the tables."""
    if not run:
        return []
    m = run.get("machine", {})
    lines = [_last_run(run),
             (f"Machine: {m.get('cpu')}, {m.get('cores')} cores, {m.get('ram_gb')} GB RAM, {m.get('platform')}, "
              f"Python {m.get('python')}; load average at start {m.get('load_avg_at_start')}; {m.get('threads')}."),
             f"Embedding model: {run.get('embedder') or 'the bundled all-MiniLM-L6-v2'}.{_code(run)}",
             *_data(run), ""]
    if run.get("skipped"):
        lines += ["Skipped: " + "; ".join(run["skipped"]), ""]
    lines += reused_line(run)
    if kept := earlier_sections(run, sections):
        lines += [(f"Kept {len(kept)} section(s) from earlier runs in this folder: {', '.join(kept)}; each "
                   "names the run that made it under its table."), ""]
    return lines


def failed_note(sections: list[dict[str, Any]]) -> list[str]:
    """A paragraph naming the methods that failed on every query of a set (none: no lines)."""
    failed = [f"{section_name(s)}: {', '.join(repr(n) for n in names)}" for s in sections
              if (names := [n for n in s.get("methods", {}) if failed_all(s, n)])]
    if not failed:
        return []
    return [(f"FAILED ({'; '.join(failed)}): each failed on every query of its set (the first errors are in "
             "results/<set>.json under the method's \"failures\"), so it has no figures: it reads FAILED or n/a, "
             "never 0, and is no set's best."), ""]
