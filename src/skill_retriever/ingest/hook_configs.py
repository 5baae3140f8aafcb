"""Hook definitions in JSON -> one HOOK `Record` per file, complete enough to install.

Two forms are read:

- A Claude Code ``settings.json`` fragment (what claude-code-templates ships)::

      {"description": "...", "hooks": {"PostToolUse": [{"matcher": "Edit",
        "hooks": [{"type": "command", "command": "ruff format", "timeout": 30}]}]},
       "supportingFiles": [{"source": "x.py", "destination": ".claude/hooks/x.py"}]}

- The flat form ``{"name", "description", "event", "matcher", "command"}``.

A JSON object with none of ``hooks``, ``event``, ``matcher`` or ``command`` is no hook
definition (a pattern catalogue, a package.json) and is skipped without a problem.

The index keeps no secret a command holds: the body text (embedded, keyword-indexed and
returned to callers), ``attrs["hooks"]``, ``attrs["runs"]`` and ``attrs["command"]`` carry
each command with its secrets replaced by ``[redacted]`` (`secrets.redact_command`: URL
credentials, values of secret-looking flags, ``API_KEY=...`` assignments, auth headers,
well-known token formats; an exec-form hook's ``args`` list as the command line it
is, `command_line`). The description and a ``prompt`` / ``agent`` hook's prompt
are prose, not shell, and are redacted as a skill's text is (`prose_secrets.redact_prose`:
tokens of well-known formats, PEM private keys, URL credentials, ``Bearer`` credentials,
the literal values of secret-looking assignments such as ``export DB_PASSWORD=...`` and
of Markdown table rows); an ``http`` hook's URL loses what is a secret wherever it
stands (`secrets.redact_text`: a webhook URL's secret path, URL credentials), and the
values of its secret-looking ``headers`` go (`secrets.redact_headers`). A reference such
as ``$SLACK_TOKEN`` or ``"${API_KEY}"`` is kept, and a command or prompt without secrets
is stored byte for byte as written. The installer reads the commands from the hook's source file
(`settings_hooks`), so what it installs is what the user wrote.

Attributes an installer uses (Claude Code merges ``hooks`` into ``.claude/settings.json``
by event and matcher and runs the commands from the project root):

- ``attrs["hooks"]``: the fragment's ``hooks`` mapping as written but for redacted
  secrets, in Claude Code's settings schema: ``{event: [{"matcher": str (optional),
  "hooks": [{"type": "command", "command": str, "timeout": int (optional)}, ...]}]}``
  (``prompt`` / ``agent`` hooks and extra keys such as ``if`` are kept too). The flat
  form is converted to it (`settings_hooks`).
- ``attrs["scripts"]``: the files the hook runs that ship with it, as sorted POSIX paths
  relative to the hook file's folder (join them to ``source_root`` / the folder of
  ``attrs["path"]``): a same-stem file (``context-timeline.json`` ->
  ``context-timeline.py``; ``.json`` and ``.md`` siblings are not scripts), every file of
  a same-stem folder (``plan-mode-game/start.sh``), each ``supportingFiles`` source, and
  any file a command (as written, before redaction) names by a relative path (a bare
  script name, ``python3 check.py``, when that script lies beside the hook) or whose
  trailing path parts match a file beside the hook
  (``"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`` -> ``x.sh``). Every listed file exists
  inside the source root; one named elsewhere in the root starts with ``../``.
- ``attrs["supporting_files"]``: the fragment's ``supportingFiles`` list as written
  (``source``, ``destination``, ``executable``), when it has one: some hooks run their
  scripts from a fixed place such as ``~/.claude/scripts/``.
- ``attrs["runs"]``: ``[{"event", "matcher", "command"}]`` per command hook, flattened
  (commands redacted as in ``attrs["hooks"]``; an exec-form hook's ``command`` followed
  by its ``args``, so its scripts are found and its text says what it runs); a flat
  hook's ``attrs["command"]`` too.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Collection, Mapping
from typing import Any

from skill_retriever.hook_events import events_problem
from skill_retriever.ingest.hook_commands import SCRIPT_EXTENSIONS, command_line, text_list
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import redact_command, redact_headers, redact_text
from skill_retriever.ingest.skill_records import Record, RecordError, jsonable, record_from_fields
from skill_retriever.ingest.skill_records import text_field as _text_field
from skill_retriever.model import NodeKind

_HOOK_KEYS = ("hooks", "event", "matcher", "command")
_NOT_SCRIPTS = frozenset({".json", ".md"})
#: Path-like words of a shell command (quotes removed first).
_WORD_RE = re.compile(r"[\w.~${}/+@%-]+")
#: Leading ``$VAR/``, ``${VAR}/`` or ``~/`` of a path.
_ANCHOR_RE = re.compile(r"^(?:\$\{?\w+\}?|~)/+")
_MAX_PROMPT_CHARS = 300


def is_hook_definition(data: Any) -> bool:
    """Whether a JSON document below a ``hooks`` folder claims to define a hook."""
    return isinstance(data, dict) and any(k in data for k in _HOOK_KEYS)


def hook_record(data: Any, rel: str, default_name: str, files: Collection[str] = ()) -> Record:
    """A HOOK record from a settings fragment or the flat form, its commands redacted
    (see the module docstring).

    Args:
        data: The parsed JSON document.
        rel: The file's path relative to the source root.
        default_name: The name when the document has none (the file's stem).
        files: Every file of the source root (relative paths), to find the scripts.

    Raises:
        RecordError: The document is not an object, or its ``hooks`` mapping does not
            have Claude Code's shape (the message names the entry).
    """
    written = settings_hooks(data)
    hooks = redacted_hooks(written)
    runs = _runs(hooks)
    description = redact_prose(_text_field(data, "description"))
    body = hook_body(description, hooks)
    record = record_from_fields(
        {**data, "description": description}, rel, NodeKind.HOOK, default_name, body=body
    )
    record.attrs["hooks"] = hooks
    record.attrs["runs"] = runs
    supporting = data.get("supportingFiles")
    if isinstance(supporting, list):
        record.attrs["supporting_files"] = jsonable(supporting)
    # The scripts are found from the commands as written: a redacted word could have
    # named one, and which files ship with the hook is no secret.
    record.attrs["scripts"] = hook_scripts(rel, _runs(written), supporting, files)
    for key in ("event", "matcher", "command"):
        if isinstance(data.get(key), str):
            record.attrs[key] = redact_command(data[key]) if key == "command" else data[key]
    # Said now, not first at install: a hook under an event Claude Code does not know is
    # one that install refuses to write (Claude Code would skip the whole settings.json).
    if (unknown := events_problem(hooks)) is not None:
        record.warnings.append(f"indexed, but install will not write it: {unknown}")
    return record


def settings_hooks(data: Any) -> dict[str, list[dict[str, Any]]]:
    """The hooks a hook definition declares, in Claude Code's settings schema: a
    fragment's ``hooks`` mapping as written, or the flat form converted to it.

    The installer reads a hook's source file through this too, so that what it installs
    is what the indexer read, secrets included (the index keeps them redacted).

    Raises:
        RecordError: ``data`` is no object, its ``hooks`` mapping does not have Claude
            Code's shape, or a flat hook lacks its ``event`` or ``command``.
    """
    if not isinstance(data, dict):
        raise RecordError(f"a hook config must be a JSON object, got {type(data).__name__}")
    if "hooks" in data:
        return _checked_hooks(data["hooks"])
    if isinstance(data.get("command"), str) and isinstance(data.get("event"), str):
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": data["command"]}]}
        if isinstance(data.get("matcher"), str) and data["matcher"]:
            group = {"matcher": data["matcher"], **group}
        return {data["event"]: [group]}
    raise RecordError(
        "a flat hook needs 'event' and 'command' strings (or write a 'hooks' mapping "
        "as in Claude Code's settings.json)"
    )


def redacted_hooks(hooks: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """A copy of ``hooks`` with every hook's secrets replaced by ``[redacted]``
    (`redacted_hook`); everything else, and a hook without secrets, as written."""
    return {
        event: [
            {**group, "hooks": [redacted_hook(hook) for hook in group["hooks"]]}
            for group in groups
        ]
        for event, groups in hooks.items()
    }


def redacted_hook(hook: Mapping[str, Any]) -> dict[str, Any]:
    """One hook (or any mapping of a hook's settings, as ``repair`` walks them) with its
    ``command`` redacted as shell (`redact_command`), its exec-form ``args`` as the shell
    words they are (`_redacted_args`), its ``prompt`` as prose (`redact_prose`), its
    ``url`` as a URL in prose (`redact_text`) and its ``headers`` values
    (`redact_headers`); the rest as written."""
    out = dict(hook)
    for key, value in hook.items():
        if key == "command" and isinstance(value, str):
            out[key] = redact_command(value)
        elif key == "args" and text_list(value):
            out[key] = _redacted_args(value)
        elif key == "prompt" and isinstance(value, str):
            out[key] = redact_prose(value)
        elif key == "url" and isinstance(value, str):
            out[key] = redact_text(value)
        elif key == "headers" and isinstance(value, Mapping):
            out[key] = redact_headers(dict(value))
    return out


def _redacted_args(args: list[str]) -> list[str]:
    """An exec-form hook's arguments with their secrets redacted: read together, as a
    command line (``["--api-key", "sk-..."]`` is a flag and its value), and split back;
    each alone where the redacted line no longer splits into as many words."""
    line = redact_command(shlex.join(args))
    try:
        words = shlex.split(line)
    except ValueError:
        words = []
    return words if len(words) == len(args) else [redact_command(a) for a in args]


def hook_body(description: str, hooks: dict[str, list[dict[str, Any]]]) -> str:
    """A hook's text: its description, then one line per hook (`_describe`)."""
    return "\n".join([description.strip(), *_describe(hooks)]).strip()


def _runs(hooks: dict[str, list[dict[str, Any]]]) -> list[dict[str, str]]:
    """``{"event", "matcher", "command"}`` per command hook, flattened (an exec-form
    hook's command with its arguments: `command_line`)."""
    return [
        {"event": event, "matcher": str(g.get("matcher") or ""), "command": line}
        for event, groups in hooks.items()
        for g in groups
        for h in g["hooks"]
        if (line := command_line(h)) is not None
    ]


def _checked_hooks(hooks: Any) -> dict[str, list[dict[str, Any]]]:
    """The ``hooks`` mapping, unchanged, once it has Claude Code's settings shape."""
    fix = "; write it as in Claude Code's settings.json"
    if not isinstance(hooks, dict):
        raise RecordError(f"'hooks' must map event names to lists, got {type(hooks).__name__}{fix}")
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            raise RecordError(f"hooks.{event} must be a list of matcher groups{fix}")
        for i, group in enumerate(groups):
            where = f"hooks.{event}[{i}]"
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                raise RecordError(f"{where} must be an object with a 'hooks' list{fix}")
            if "matcher" in group and not isinstance(group["matcher"], str):
                raise RecordError(f"{where}.matcher must be a string{fix}")
            for j, hook in enumerate(group["hooks"]):
                if not isinstance(hook, dict) or not isinstance(hook.get("type"), str):
                    raise RecordError(f"{where}.hooks[{j}] must be an object with a 'type'{fix}")
                if hook["type"] == "command" and not isinstance(hook.get("command"), str):
                    raise RecordError(
                        f"{where}.hooks[{j}] is a command hook without a command{fix}"
                    )
    return hooks


def _describe(hooks: dict[str, list[dict[str, Any]]]) -> list[str]:
    """One searchable line per hook: when it fires and what it runs."""
    lines = []
    for event, groups in hooks.items():
        for group in groups:
            matcher = group.get("matcher")
            when = f"On {event}{f' for tools matching {matcher}' if matcher else ''}"
            for hook in group["hooks"]:
                if (line := command_line(hook)) is not None:
                    lines.append(f"{when}, runs: {line}")
                elif isinstance(hook.get("prompt"), str):
                    lines.append(f"{when}, asks a model: {hook['prompt'][:_MAX_PROMPT_CHARS]}")
    return lines


def hook_scripts(
    rel: str, runs: list[dict[str, str]], supporting: Any, files: Collection[str]
) -> list[str]:
    """The files of the source root the hook runs (see the module docstring)."""
    folder = posixpath.dirname(rel)
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    inside = f"{folder}/{stem}/" if folder else f"{stem}/"
    found: set[str] = set()
    for f in files:
        base, ext = posixpath.splitext(posixpath.basename(f))
        beside = posixpath.dirname(f) == folder and base == stem and ext.lower() not in _NOT_SCRIPTS
        if beside or f.startswith(inside):
            found.add(f)
    named = (
        [
            s["source"]
            for s in supporting
            if isinstance(s, dict) and isinstance(s.get("source"), str)
        ]
        if isinstance(supporting, list)
        else []
    )
    for path in named:
        found.update(_existing([posixpath.join(folder, path)], files))
    for run in runs:
        for word in _command_words(run["command"]):
            found.update(_referenced(word, folder, files))
    found.discard(rel)
    return sorted(posixpath.relpath(f, folder or ".") for f in found)


def _command_words(command: str) -> list[str]:
    """The path-like words of ``command``, each shell word also whole as the shell reads it.

    Quotes go, not become spaces: ``"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`` is one path
    (split at the quote, its tail would read as an absolute path). A quoted or escaped
    blank stays in its word (``"$CLAUDE_PROJECT_DIR/.claude/hooks/scan staged.py"``,
    ``scan\\ staged.py``: one script); an unquoted blank splits it, as the shell does.
    """
    pieces = _WORD_RE.findall(command.replace('"', "").replace("'", ""))
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    try:
        whole = [w for w in lexer if any(c.isspace() for c in w)]
    except ValueError:  # an unclosed quote: the path-like runs alone
        whole = []
    return [*pieces, *whole]


def _referenced(word: str, folder: str, files: Collection[str]) -> list[str]:
    """Files a command word names: relative to the hook, to the root, or by its tail."""
    while (anchored := _ANCHOR_RE.sub("", word)) != word:
        word = anchored
    if "/" not in word:  # a bare word: a script beside the hook, or no file
        script = posixpath.splitext(word)[1].lower() in SCRIPT_EXTENSIONS
        return _existing([posixpath.join(folder, word)], files) if script else []
    if word.startswith("/"):
        return []  # an absolute path outside any source root
    parts = [p for p in word.split("/") if p not in ("", ".")]
    tails = ["/".join(parts[i:]) for i in range(len(parts))]
    candidates = [posixpath.join(folder, word), word, *(posixpath.join(folder, t) for t in tails)]
    return _existing(candidates, files)[:1]


def _existing(paths: list[str], files: Collection[str]) -> list[str]:
    out = []
    for path in paths:
        norm = posixpath.normpath(path)
        if not norm.startswith("../") and norm in files:
            out.append(norm)
    return out
