"""Talking to the server as a client does, and to the command line as a shell does."""

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import anyio
from mcp import Client
from mcp.server.lowlevel import Server
from mcp.types import CallToolResult

from tests.support.cli import Result, run_asrch

Call = tuple[str, dict[str, Any]]


def call_tools(server: Server[Any], *calls: Call) -> list[CallToolResult]:
    """Each call in turn, through the SDK's in-memory client."""

    async def run() -> list[CallToolResult]:
        async with Client(server) as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(run)


def call_tool(server: Server[Any], name: str, arguments: dict[str, Any]) -> CallToolResult:
    return call_tools(server, (name, arguments))[0]


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert block.type == "text"
    return block.text


def run_cli(cwd: Path, *args: str, env: Mapping[str, str] | None = None) -> Result:
    """`asrch ARGS` from `cwd`, as a shell runs it, with `env` over this process's
    environment (tests/support/cli.py)."""
    return run_asrch(args, cwd=cwd, env=env)


def cli_json(cwd: Path, args: Sequence[str]) -> Any:
    done = run_cli(cwd, args[0], "--format", "json", *args[1:])
    assert done.status in (0, 3), done.err
    return json.loads(done.stdout)


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)


class Member(NamedTuple):
    pid: int
    state: str
    ppid: int


def group_members(pgid: int) -> list[Member]:
    """The processes in process group `pgid`, zombies (exited, not yet reaped) included."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid:
            members.append(Member(int(entry), fields[0], int(fields[1])))
    return members


def left_behind(pgid: int, owner: int) -> list[Member]:
    """What of group `pgid` outlives its call: any process still running, or one that
    exited but `owner` (the server that started the group) has not reaped. A zombie
    whose parent died with it belongs to init, which reaps it when it will."""
    return [m for m in group_members(pgid) if m.state != "Z" or m.ppid == owner]


def slow_rg(
    directory: Path, real_rg: str, *, slow_term: str, seconds: int = 60, until: Path | None = None
) -> tuple[Path, Path]:
    """An rg that, for a search naming `slow_term`, records its pid and sleeps first,
    then is the real rg (exec). Its `sleep` child shares its process group, as any
    child of rg would: a kill of the group must take both. With `until`, it waits for
    that file to exist instead (the test releases it when it has seen what it needs),
    at most `seconds`.

    Returns (the script, the file its pids are appended to)."""
    pids = directory / "rg-pids"
    script = directory / "slow-rg"
    wait = (
        f"sleep {seconds}"
        if until is None
        else f"n=0; while [ ! -e {until} ] && [ $n -lt {seconds * 100} ]; do sleep 0.01; "
        "n=$((n+1)); done"
    )
    script.write_text(
        "#!/bin/sh\n"
        'case "$*" in\n'
        f"  *{slow_term}*) echo $$ >> {pids}; {wait} ;;\n"
        "esac\n"
        f'exec {real_rg} "$@"\n'
    )
    script.chmod(0o755)
    return script, pids


def recorded(pids: Path) -> list[int]:
    return [int(line) for line in pids.read_text().split()] if pids.exists() else []


def tool_text(stdout: str) -> str:
    """The command line's answer as a tool answers it: the same text, its `next:` line
    the call to make instead of the shell command (D37). The shell line is read back by
    the command line's own parser, and written as the tool's call."""
    import json
    import shlex

    from asrch.cli.app import read
    from asrch.commands.table import COMMANDS

    stdout = _notes_in_tool_words(stdout)
    body, _, last = stdout.rstrip("\n").rpartition("\n")
    if not last.startswith("next: asrch "):
        return stdout
    name, values = read(shlex.split(last.removeprefix("next: asrch ")))
    command = COMMANDS[name]
    mode = next((m for m in ("word", "identifier", "regex") if values.get(m)), None)
    given = {**values, "mode": mode}
    order = [a.name for a in command.positionals]
    order += ["mode", "ignore_case", "clusters", "page", "line", "context", "type", "glob"]
    keys = {a.name: a.tool_key for a in command.tool_arguments}
    call = ", ".join(
        f"{keys[n]}={json.dumps(given[n], ensure_ascii=False)}"
        for n in order
        if given.get(n) not in (None, False, [])
    )
    return f"{body}\nnext: {name}({call})\n"


def _notes_in_tool_words(text: str) -> str:
    """The `note:` lines with each option the command line spells as a tool names it
    (D49): `--identifier` is `mode identifier`, `-i` is `ignore_case`."""
    import re

    from asrch.commands.table import COMMANDS
    from asrch.domain.words import Reference
    from asrch.spelling import COMMAND_LINE, TOOL

    names = {a.name: a for c in COMMANDS.values() for a in c.options}
    words = {
        COMMAND_LINE.option(a): TOOL.reference(Reference("arg", name)) for name, a in names.items()
    }
    flags = re.compile("|".join(rf"(?<![\w-]){re.escape(f)}(?![\w-])" for f in words))
    # A tool caller runs no --help: its zero note ends at what was not searched (spec/mcp).
    return "".join(
        flags.sub(lambda m: words[m.group(0)], line).replace(" (see asrch --help)", "")
        if line.startswith("note: ")
        else line
        for line in text.splitlines(keepends=True)
    )
