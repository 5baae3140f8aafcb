"""A plugin's hooks outside the plugin: its ``${CLAUDE_PLUGIN_ROOT}`` paths.

A plugin's ``hooks/hooks.json`` names its scripts by ``${CLAUDE_PLUGIN_ROOT}/...``
(``"${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"``). Claude Code sets that variable to the
plugin's folder for the plugin's own hooks only; in a project's (or the user's)
``settings.json`` it is unset, so the command would run ``/scripts/check.sh``. Installing
such a hook copies each file a command names that way (read inside the plugin's folder,
inside the source root) to ``.claude/hooks/``, below the same path it has below the hook
file's folder when it lies there (where `render_hook` puts a hook's scripts:
``hooks/format.py`` -> ``.claude/hooks/format.py``), else below the plugin's folder
(``scripts/check.sh`` -> ``.claude/hooks/scripts/check.sh``), with the files it uses
from beside it (`script_helpers`), and points the command at
the copy: ``"$CLAUDE_PROJECT_DIR"/.claude/hooks/scripts/check.sh`` (``"$HOME"/...`` for
a user install; inside double quotes, without quotes of its own). A hook that uses the
variable any other way (alone, for a folder or a file that is not there, inside single
quotes, outside a plugin's folder) is skipped with the reason: installing it would run
something else, or nothing.

A hook in exec form (``args``) is spawned with no shell: Claude Code substitutes the path
placeholders ``${CLAUDE_PROJECT_DIR}`` and ``${CLAUDE_PLUGIN_ROOT}`` into its ``command``
and into each argument as plain strings (https://code.claude.com/docs/en/hooks, "Exec
form and shell form"). There each ``${CLAUDE_PLUGIN_ROOT}/<file>`` becomes
``${CLAUDE_PROJECT_DIR}/.claude/hooks/<file>``, the file copied as above. For the user the
copies lie in the home folder, which has no such placeholder (no shell expands ``$HOME``
there): such a hook is skipped with the reason.

The plugin's folder is the nearest folder, from the hook file's up to the source root,
that holds ``.claude-plugin/``; else the folder above a ``hooks`` folder holding the hook
file (Claude Code's default place, ``<plugin>/hooks/hooks.json``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from skill_retriever.components.install.hook_fields import shown_command
from skill_retriever.components.install.layout import HOOK_SCRIPTS_DIR
from skill_retriever.components.install.paths import read_inside, relative_parts
from skill_retriever.components.install.plan import HookEntry
from skill_retriever.components.install.rendered import FileOut, SkipComponent
from skill_retriever.components.install.script_helpers import helper_files
from skill_retriever.components.install.user_hook_paths import PROJECT_VAR
from skill_retriever.ingest.shell_paths import escaped, quote_at, shell_path

__all__ = ["PLUGIN_VAR_RE", "plugin_folder", "plugin_scripts"]

#: The variable, in either spelling.
PLUGIN_VAR_RE = re.compile(r"\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT(?!\w)")
#: What an unquoted part of the path after the variable may hold (`shell_path` reads
#: quoted parts whole: ``"${CLAUDE_PLUGIN_ROOT}/scripts/other helper.sh"``).
_PLAIN = r"[\w.+@/-]"
#: The same in exec form, where a quote is a character of the argument like any other.
_EXEC_USE_RE = re.compile("(?:" + PLUGIN_VAR_RE.pattern + ")" + r"(/[\w.+@-]+(?:/[\w.+@-]+)*)?")


def plugin_folder(hook_folder: Path, root: Path) -> Path | None:
    """The plugin folder of a hook file in ``hook_folder`` (see the module docstring);
    None when the hook is not inside one below ``root``."""
    folder = hook_folder
    while folder.is_relative_to(root):
        if (folder / ".claude-plugin").is_dir():
            return folder
        if folder == root:
            break
        folder = folder.parent
    if hook_folder.name == "hooks" and hook_folder.parent.is_relative_to(root):
        return hook_folder.parent
    return None


def plugin_scripts(
    entries: list[HookEntry], hook_folder: Path | None, root: Path | None, var: str, plugin: Path | None = None
) -> tuple[list[HookEntry], list[FileOut]]:
    """``entries`` with each ``${CLAUDE_PLUGIN_ROOT}/<file>`` pointed at its copy under
    ``.claude/hooks/`` (``$<var>`` the root it is installed under), and those copies.
    ``plugin`` is the plugin's folder when known otherwise than from the hook file's
    place (a marketplace entry's hooks: `entry_members`), else `plugin_folder` finds it.

    Raises:
        SkipComponent: A command uses the variable in a way that cannot be installed.
        UnsafePathError: A named file resolves outside the source root.
    """
    if not any(PLUGIN_VAR_RE.search(text) for e in entries for text in _texts(e.hook)):
        return entries, []
    if plugin is None and hook_folder is not None and root is not None:
        plugin = plugin_folder(hook_folder, root)
    if plugin is None or root is None or hook_folder is None:
        raise SkipComponent(
            "its commands use ${CLAUDE_PLUGIN_ROOT}, which Claude Code sets only for a "
            "plugin's own hooks, and the plugin's folder is not known: install the plugin "
            "with /plugin install, or add the hook by hand"
        )
    files: dict[str, FileOut] = {}
    out = []
    for entry in entries:
        if "args" in entry.hook:  # exec form: no shell, its placeholders substituted as text
            out.append(_exec_form(entry, var, lambda rel: _copy(plugin, hook_folder, root, rel, files)))
            continue
        command = str(entry.hook["command"])
        pieces: list[str] = []
        last = 0
        for m in PLUGIN_VAR_RE.finditer(command):
            written = _pointed(command, m, var, lambda rel: _copy(plugin, hook_folder, root, rel, files))
            pieces += [command[last : m.start()], written[0]]
            last = written[1]
        command = "".join(pieces) + command[last:]
        out.append(HookEntry(entry.event, entry.matcher, {**entry.hook, "command": command}))
    return out, list(files.values())


def _pointed(command: str, m: re.Match[str], var: str, copy: Callable[[str], str]) -> tuple[str, int]:
    """What replaces the variable ``m`` found and the path after it, and where that path
    ends: ``$<var>`` and the copy's place, the path's own text (quotes, escapes) kept.

    Raises:
        SkipComponent: The variable stands other than before a file of the plugin.
    """
    quote = quote_at(command, m.start())
    path, end = shell_path(command, m.end(), _PLAIN)
    raw = command[m.end() : end]
    lead = '"/' if raw.startswith('"/') and quote == '"' else "/"  # "${VAR}"/x closes a quote
    rel = path.lstrip("/")
    if quote == "'" or not rel or not raw.startswith(lead):
        raise SkipComponent(
            "a command uses ${CLAUDE_PLUGIN_ROOT} other than to name a file of the "
            f"plugin ({shown_command(command)!r:.120}): it is unset outside the plugin; install the "
            "plugin with /plugin install, or add the hook by hand"
        )
    below = copy(rel).removeprefix(f"{HOOK_SCRIPTS_DIR}/")
    rest = raw[len(lead) :].lstrip("/")
    dropped = rel[: len(rel) - len(below)]  # the hook file's folder, which the copy loses
    if rest.startswith(dropped):
        rest = rest[len(dropped) :]
    else:  # quoted across that folder's name: write the copy's path afresh, closing as before
        opened, after = quote_at(command, end - len(rest)), quote_at(command, end)
        if after not in ("", opened):
            raise SkipComponent(f"a command names ${{CLAUDE_PLUGIN_ROOT}}/{rel} in quotes it leaves open "
                                f"({shown_command(command)!r:.120}); add the hook by hand")
        rest = escaped(below, opened) + (opened if after != opened else "")
    target = f"${var}" if quote == '"' else f'"${var}"'
    return f"{target}{lead}{HOOK_SCRIPTS_DIR}/{rest}", end


def _texts(hook: Mapping[str, Any]) -> list[str]:
    """The command of ``hook`` and, in exec form, each of its arguments."""
    args = hook.get("args")
    return [str(hook["command"]), *(a for a in args if isinstance(a, str))] if isinstance(args, list) else [str(hook["command"])]


def _exec_form(entry: HookEntry, var: str, copy: Callable[[str], str]) -> HookEntry:
    """``entry``, in exec form, with each ``${CLAUDE_PLUGIN_ROOT}/<file>`` of its command
    and arguments replaced by ``${CLAUDE_PROJECT_DIR}/<copy>`` (``copy`` copies the file
    and says where to).

    Raises:
        SkipComponent: It is installed for the user, or uses the variable other than to
            name a file of the plugin.
    """
    if not any(PLUGIN_VAR_RE.search(text) for text in _texts(entry.hook)):
        return entry
    if var != PROJECT_VAR:
        raise SkipComponent(
            f"a {entry.event} hook runs in exec form (args), with no shell, and names files of "
            "its plugin by ${CLAUDE_PLUGIN_ROOT}: for the user their copies lie in the home "
            "folder, which exec form has no placeholder for (Claude Code substitutes only "
            "${CLAUDE_PROJECT_DIR}, ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} there); "
            "install it into a project, or add it by hand"
        )

    def swap(text: str) -> str:
        def one(m: re.Match[str]) -> str:
            rel = (m.group(1) or "").lstrip("/")
            if not rel:
                raise SkipComponent(
                    "a command uses ${CLAUDE_PLUGIN_ROOT} other than to name a file of the "
                    f"plugin ({shown_command(text)!r:.120}): it is unset outside the plugin; install the "
                    "plugin with /plugin install, or add the hook by hand"
                )
            return f"${{{PROJECT_VAR}}}/{copy(rel)}"

        return _EXEC_USE_RE.sub(one, text)

    hook = dict(entry.hook)
    hook["command"] = swap(str(hook["command"]))
    hook["args"] = [swap(a) if isinstance(a, str) else a for a in hook["args"]]
    return HookEntry(entry.event, entry.matcher, hook)


def _copy(plugin: Path, hook_folder: Path, root: Path, rel: str, files: dict[str, FileOut]) -> str:
    """Where the plugin's file ``rel`` is installed (added to ``files``).

    Raises:
        SkipComponent: It is not a file of the plugin on disk.
    """
    parts = relative_parts(rel, "a file the command names below ${CLAUDE_PLUGIN_ROOT}")
    src = plugin.joinpath(*parts)
    got = read_inside(src, root, f"${{CLAUDE_PLUGIN_ROOT}}/{rel}")
    if got is None:
        raise SkipComponent(
            f"its command runs ${{CLAUDE_PLUGIN_ROOT}}/{rel}, which is not a file of the "
            "plugin on disk, so there is nothing to copy: install the plugin with "
            "/plugin install, or add the hook by hand"
        )
    below = posixpath.relpath(hook_folder.as_posix(), plugin.as_posix())
    if below != "." and rel.startswith(f"{below}/"):
        rel = rel[len(below) + 1 :]
    dest = f"{HOOK_SCRIPTS_DIR}/{rel}"
    files.setdefault(dest, FileOut(dest, got.data, got.mode))
    for helper in helper_files(src, dest, root):  # what it imports or sources from beside it
        files.setdefault(helper.rel, helper)
    return dest
