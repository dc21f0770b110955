"""The MCP server: the four tools on the SDK's low-level `Server` (public API only).

The tools are listed from the command table: each one's input schema is generated from
its arguments (`asrch.server.tools`), its description the table's. A result is its text
alone (D47: hosts differ in which of text and structured content they give the model,
and the text is the small one); a server built `structured` (`asrch mcp --structured`)
also lists each tool's output schema, the committed contract
(`schema/COMMAND.schema.json`, as `asrch.contract.schema` generates it), and answers
with the D27 object beside the text. A call's arguments are validated against the input
model, then its use case runs on a worker thread with a searcher of its own: rg starts
in the first root (so relative paths and the answer's paths are the command line's from
there), and every rg child belongs to the call's `Children`. Calls overlap freely; a
call that is cancelled (by the client, or because the client went away) stops and reaps
its children before the cancellation goes on.
"""

import weakref
from collections.abc import Sequence
from functools import cache
from typing import Any

import anyio
from mcp.server import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)

from asrch import __version__
from asrch.commands.table import COMMANDS
from asrch.contract.build import answer
from asrch.contract.schema import schema, validated
from asrch.domain.errors import AsrchError, InputError
from asrch.domain.index_use import index_use
from asrch.domain.limits import FILTERS_MAX
from asrch.domain.text_safety import quote
from asrch.engine import pins, watched
from asrch.engine.process import Children
from asrch.engine.scope_memo import ScopeMemo
from asrch.engine.scope_reader import ScopeReader
from asrch.engine.searcher import RipgrepSearcher
from asrch.engine.transport import Transport
from asrch.render.errors import error_line, error_text, internal_error_line
from asrch.render.lines import printed
from asrch.server.arguments import input_schema, read_arguments
from asrch.server.roots import Roots
from asrch.server.tools import Work, work
from asrch.spelling import TOOL

INSTRUCTIONS = (
    "Paths are relative to the first root; nothing outside the roots is searched. "
    "Counts are matching lines. mode: fixed "
    "(substring, default), word, identifier (not touching [A-Za-z0-9_]) or regex "
    "(ripgrep's). type (ripgrep's names) and glob (gitignore-style, !GLOB excludes; "
    "with /: from the first root), "
    f"{FILTERS_MAX} each at most, only narrow the search. def (scout, show): only lines "
    "naming a definition."
)

# Read-only and closed-world. MCP reads destructiveHint and idempotentHint only when
# readOnlyHint is false (a read-only tool is neither destructive nor one whose repeat
# matters), so they are not sent: 44 bytes a tool of the 4 KB (D37, D47).
ANNOTATIONS = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def _text(text: str) -> list[TextContent]:
    return [TextContent(type="text", text=printed(text).decode("utf-8"))]


def _refusal(line: str) -> CallToolResult:
    """A tool error: what the command line prints on stderr (one line, and a `next:`
    line after a refusal that names the call answering it)."""
    return CallToolResult(content=_text(line + "\n"), is_error=True)


class Calls:
    """Runs tool calls: one worker thread and one set of rg children each."""

    def __init__(
        self,
        roots: Roots,
        rg: str | None = None,
        *,
        structured: bool = False,
        transport: Transport | None = None,
    ) -> None:
        self.roots = roots
        self.structured = structured
        self._transport = transport
        # Resolves rg once, on the first call: a missing rg is each call's engine error.
        self._engine = RipgrepSearcher(rg)
        # D58, issue 41: a root's walk (an index's, a call's ignore rules) is kept fresh
        # between calls (inotify), not walked again; let go when the server is.
        weakref.finalize(self, watched.keep_fresh(roots.real))
        # Scope lines outlive a call, for files that read the same bytes (issue 41).
        self.scope_memo = ScopeMemo()

    async def answer(self, work: Work) -> CallToolResult:
        children = Children()
        try:
            return await anyio.to_thread.run_sync(self._run, work, children, abandon_on_cancel=True)
        finally:
            # Cancelled: the thread is abandoned; its rg children are not. Done: a no-op.
            children.stop()

    def _run(self, work: Work, children: Children) -> CallToolResult:
        # Closed when this thread ends, not when the call does: an abandoned (cancelled)
        # thread may still name its pinned objects until it finds its rg gone.
        held = None
        try:
            if pins.SUPPORTED:
                held = pins.Pins(self.roots.real)
            # D45: rg's binary census only where it is carried: the structured answer.
            searcher = RipgrepSearcher(
                self._engine.rg,
                cwd=self.roots.first,
                children=children,
                census=self.structured,
                pins=held,
                transport=self._transport,
            )
            # A parse, not a search: the same files, through the same pins (D31).
            scopes = ScopeReader(
                cwd=self.roots.first,
                here=None if held is None else held.here,
                memo=self.scope_memo,
            )
            answered = work(searcher, scopes, held)
            if not self.structured:
                return CallToolResult(content=_text(answered.text))
            # D58: whether the answer read the index's candidates, as JSON says it.
            used, _ = index_use(searcher.candidates)
            values = answer(answered.report)
            if used is not None:
                values["index"] = used
            structured = validated(values)
            return CallToolResult(content=_text(answered.text), structured_content=structured)
        except AsrchError as exc:
            return _refusal(error_text(exc, TOOL))
        except Exception as exc:  # a bug: one line, as the command line says it (D20)
            return _refusal(internal_error_line(exc))
        finally:
            if held is not None:
                held.close()


@cache
def tools(structured: bool = False) -> list[Tool]:
    """The tools as a client lists them, derived from the command table; with their
    output schemas when the server is `structured`."""
    return [
        Tool(
            name=name,
            description=command.tool,
            input_schema=input_schema(name),
            output_schema=schema(name) if structured else None,
            annotations=ANNOTATIONS,
        )
        for name, command in COMMANDS.items()
    ]


def build_server(
    roots: Roots | Sequence[str],
    *,
    rg: str | None = None,
    structured: bool = False,
    transport: Transport | None = None,
) -> Server[Any]:
    """The server for `roots` (a `Roots`, or directories as `--root` names them); text
    answers only unless `structured` (D47); rg run through `transport` (default: as
    child processes, `engine.transport`)."""
    confined = roots if isinstance(roots, Roots) else Roots.of(roots)
    calls = Calls(confined, rg, structured=structured, transport=transport)

    async def list_tools(
        context: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        return ListToolsResult(tools=tools(structured))

    async def call_tool(
        context: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult:
        name = params.name
        if name not in COMMANDS:
            unknown = InputError(
                f"unknown tool: {quote(name)}; the tools are {', '.join(COMMANDS)}"
            )
            return _refusal(error_line(unknown, TOOL))
        try:
            given = read_arguments(name, params.arguments)
        except AsrchError as exc:
            return _refusal(error_line(exc, TOOL))
        return await calls.answer(work(name, confined, given))

    return Server(
        "asrch",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
