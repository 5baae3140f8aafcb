"""The shapes Claude Code documents for the files an install writes, as plain checks.

``.claude/settings.json`` hooks: ``{"hooks": {"<Event>": [{"matcher": "<pattern>",
"hooks": [{"type": "command", "command": "...", "timeout": N}]}]}}`` (``matcher``
optional; ``timeout`` a positive number of seconds). ``if``, ``async``, ``asyncRewake``,
``statusMessage``, ``once``, ``shell`` and ``args`` are accepted on a command hook as well
(Claude Code's hooks reference: ``if`` filters a hook, ``async`` runs it in the background,
``asyncRewake`` too but wakes the model on exit 2, ``statusMessage`` is shown while it
runs, ``once`` is honoured in a skill's frontmatter only, ``shell`` is ``bash`` or
``powershell``, ``args`` spawns ``command`` with them and no shell), and the installer
keeps them rather than change what the hook does. The other types have their own fields
(every hook's ``type``, ``timeout``, ``if``, ``statusMessage``, ``once``, and a ``prompt``
or ``agent`` hook's ``prompt``, ``model``; an ``http`` hook's ``url``, ``headers``,
``allowedEnvVars``; an ``mcp_tool`` hook's ``server``, ``tool``, ``input``).

``.mcp.json``: ``{"mcpServers": {"<name>": {"command", "args", "env"}}}`` for a local
server, ``{"type", "url", "headers"}`` for a remote one (``type`` may also say ``stdio``).
"""

from __future__ import annotations

from typing import Any

from skill_retriever.hook_events import HOOK_EVENTS

GROUP_KEYS = {"matcher", "hooks"}
HOOK_KEYS = {"type", "command", "timeout", "if", "async", "asyncRewake", "statusMessage", "once", "shell", "args"}
COMMON_KEYS = {"type", "timeout", "if", "statusMessage", "once"}
OTHER_TYPES = {
    "prompt": ({"prompt"}, COMMON_KEYS | {"prompt", "model"}),
    "agent": ({"prompt"}, COMMON_KEYS | {"prompt", "model"}),
    "http": ({"url"}, COMMON_KEYS | {"url", "headers", "allowedEnvVars"}),
    "mcp_tool": ({"server", "tool"}, COMMON_KEYS | {"server", "tool", "input"}),
}
LOCAL_KEYS = {"type", "command", "args", "env"}
REMOTE_KEYS = {"type", "url", "headers"}


def settings_problems(data: Any) -> list[str]:
    """What in a settings.json does not have the documented hooks shape ([] when fine)."""
    if not isinstance(data, dict):
        return ["settings.json is not an object"]
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        return ["'hooks' is not an object"]
    out: list[str] = []
    for event, groups in hooks.items():
        if not isinstance(event, str) or not isinstance(groups, list) or not groups:
            out.append(f"hooks.{event} is not a non-empty list")
            continue
        if event not in HOOK_EVENTS:  # Claude Code skips the whole file over it
            out.append(f"hooks.{event} is not an event Claude Code knows")
        for i, group in enumerate(groups):
            where = f"hooks.{event}[{i}]"
            if not isinstance(group, dict) or set(group) - GROUP_KEYS:
                out.append(
                    f"{where} has keys {sorted(group) if isinstance(group, dict) else group}"
                )
                continue
            if "matcher" in group and not isinstance(group["matcher"], str):
                out.append(f"{where}.matcher is not a string")
            if not isinstance(group.get("hooks"), list) or not group["hooks"]:
                out.append(f"{where}.hooks is not a non-empty list")
                continue
            for j, hook in enumerate(group["hooks"]):
                w = f"{where}.hooks[{j}]"
                if isinstance(hook, dict) and hook.get("type") in OTHER_TYPES:
                    needs, keys = OTHER_TYPES[hook["type"]]
                    if set(hook) - keys or not all(isinstance(hook.get(k), str) and hook[k] for k in needs):
                        out.append(f"{w}: a {hook['type']} hook with keys {sorted(hook)}")
                    elif "timeout" in hook and (
                        type(hook["timeout"]) not in (int, float) or not 0 < hook["timeout"] < float("inf")
                    ):
                        out.append(f"{w}.timeout is not a positive number")
                elif not isinstance(hook, dict) or set(hook) - HOOK_KEYS:
                    out.append(f"{w} has keys {sorted(hook) if isinstance(hook, dict) else hook}")
                elif hook.get("type") != "command":
                    out.append(f"{w}.type is {hook.get('type')!r}, not 'command'")
                elif not isinstance(hook.get("command"), str) or not hook["command"].strip():
                    out.append(f"{w}.command is not a string")
                elif "timeout" in hook and (
                    type(hook["timeout"]) not in (int, float) or not 0 < hook["timeout"] < float("inf")
                ):
                    out.append(f"{w}.timeout is not a positive number")
                elif any(f in hook and not isinstance(hook[f], bool) for f in ("async", "asyncRewake", "once")):
                    out.append(f"{w}: async, asyncRewake or once is not true or false")
                elif hook.get("shell", "bash") not in ("bash", "powershell"):
                    out.append(f"{w}.shell is not bash or powershell")
                elif not isinstance(hook.get("args", []), list) or not all(isinstance(a, str) for a in hook.get("args", [])):
                    out.append(f"{w}.args is not a list of strings")
    return out


def mcp_problems(data: Any) -> list[str]:
    """What in an .mcp.json does not have the documented shape ([] when fine)."""
    if not isinstance(data, dict) or not isinstance(data.get("mcpServers"), dict):
        return [".mcp.json has no 'mcpServers' object"]
    out: list[str] = []
    for name, entry in data["mcpServers"].items():
        if not isinstance(entry, dict):
            out.append(f"{name} is not an object")
        elif "url" in entry:
            if set(entry) - REMOTE_KEYS or not isinstance(entry["url"], str):
                out.append(f"{name}: remote entry with keys {sorted(entry)}")
            if not isinstance(entry.get("headers", {}), dict):
                out.append(f"{name}: headers is not an object")
        elif set(entry) - LOCAL_KEYS or not isinstance(entry.get("command"), str):
            out.append(f"{name}: local entry with keys {sorted(entry)}")
        else:
            if not all(isinstance(a, str) for a in entry.get("args", [])):
                out.append(f"{name}: args are not all strings")
            env = entry.get("env", {})
            if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
                out.append(f"{name}: env is not an object of strings")
    return out
