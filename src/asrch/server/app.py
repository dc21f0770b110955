"""The MCP server: the four tools on the SDK's `MCPServer`.

Each call runs its use case on a worker thread with a searcher of its own: rg starts in
the first root (so relative paths and the answer's paths are the command line's from
there), and every rg child belongs to the call's `Children`. Calls overlap freely; a
call that is cancelled (by the client, or because the client went away) stops and reaps
its children before the cancellation goes on.
"""

from collections.abc import Sequence
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from asrch import __version__
from asrch.contract.build import answer
from asrch.contract.models import validated
from asrch.contract.schema import schema
from asrch.domain.errors import AsrchError
from asrch.domain.limits import SAMPLE_CLUSTERS_DEFAULT, SCAN_CAP, SHOW_CONTEXT_DEFAULT
from asrch.domain.values import quote
from asrch.engine.process import Children
from asrch.engine.searcher import RipgrepSearcher
from asrch.render.lines import printed
from asrch.server.roots import Roots
from asrch.server.tools import (
    DESCRIPTIONS,
    ClustersArg,
    Common,
    ContextArg,
    FileArg,
    FixedModeArg,
    GlobArg,
    IgnoreCaseArg,
    LineArg,
    ModeArg,
    PageArg,
    PathArg,
    PathsArg,
    QueryArg,
    TermsArg,
    TypeArg,
    Work,
    sample_work,
    scout_work,
    show_work,
    survey_work,
)

INSTRUCTIONS = (
    "asrch narrows a search in small, exact answers: survey compares candidate terms, "
    "scout counts one term under one path, sample clusters its matches in one file, "
    "show prints them (or the lines around one line). Counts are matching lines; "
    f"`at least` / `capped` means the scan stopped at {SCAN_CAP}. Paths are relative to the "
    "server's first root; nothing outside its roots is searched."
)

ANNOTATIONS = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def _text(text: str) -> list[TextContent]:
    return [TextContent(type="text", text=printed(text).decode("utf-8"))]


def _refusal(message: str) -> CallToolResult:
    """A tool error: the command line's one-line message (what it prints on stderr)."""
    return CallToolResult(content=_text(message + "\n"), is_error=True)


class Calls:
    """Runs tool calls: one worker thread and one set of rg children each."""

    def __init__(self, roots: Roots, rg: str | None = None) -> None:
        self.roots = roots
        # Resolves rg once, on the first call: a missing rg is each call's engine error.
        self._engine = RipgrepSearcher(rg)

    async def answer(self, work: Work) -> CallToolResult:
        children = Children()
        try:
            return await anyio.to_thread.run_sync(self._run, work, children, abandon_on_cancel=True)
        finally:
            # Cancelled: the thread is abandoned; its rg children are not. Done: a no-op.
            children.stop()

    def _run(self, work: Work, children: Children) -> CallToolResult:
        try:
            searcher = RipgrepSearcher(self._engine.rg, cwd=self.roots.first, children=children)
            answered = work(searcher)
            structured = validated(answer(answered.report)).model_dump(mode="json")
            return CallToolResult(content=_text(answered.text), structured_content=structured)
        except AsrchError as exc:
            return _refusal(exc.message)
        except Exception as exc:  # a bug: one line, as the command line says it (D20)
            return _refusal(f"error: internal error: {type(exc).__name__}: {quote(str(exc))}")


class AsrchTools:
    """The tool functions; their signatures are the tools' input schemas (D29), their
    arguments keyword-only, as a tool call names each one."""

    def __init__(self, calls: Calls) -> None:
        self._calls = calls
        self._roots = calls.roots

    async def survey(
        self,
        *,
        terms: TermsArg,
        paths: PathsArg = (),
        mode: FixedModeArg = "fixed",
        ignore_case: IgnoreCaseArg = False,
        type: TypeArg = (),
        glob: GlobArg = (),
    ) -> CallToolResult:
        common = Common(mode, ignore_case, type, glob)
        return await self._calls.answer(survey_work(self._roots, terms, paths, common))

    async def scout(
        self,
        *,
        query: QueryArg,
        path: PathArg = ".",
        mode: ModeArg = "fixed",
        ignore_case: IgnoreCaseArg = False,
        type: TypeArg = (),
        glob: GlobArg = (),
    ) -> CallToolResult:
        common = Common(mode, ignore_case, type, glob)
        return await self._calls.answer(scout_work(self._roots, query, path, common))

    async def sample(
        self,
        *,
        query: QueryArg,
        file: FileArg,
        clusters: ClustersArg = SAMPLE_CLUSTERS_DEFAULT,
        page: PageArg = 1,
        mode: ModeArg = "fixed",
        ignore_case: IgnoreCaseArg = False,
        type: TypeArg = (),
        glob: GlobArg = (),
    ) -> CallToolResult:
        common = Common(mode, ignore_case, type, glob)
        work = sample_work(self._roots, query, file, common, clusters=clusters, page=page)
        return await self._calls.answer(work)

    async def show(
        self,
        *,
        query: QueryArg,
        file: FileArg,
        line: LineArg = None,
        context: ContextArg = SHOW_CONTEXT_DEFAULT,
        mode: ModeArg = "fixed",
        ignore_case: IgnoreCaseArg = False,
        type: TypeArg = (),
        glob: GlobArg = (),
    ) -> CallToolResult:
        common = Common(mode, ignore_case, type, glob)
        work = show_work(self._roots, query, file, common, line=line, context=context)
        return await self._calls.answer(work)


def _tool(function: Any, command: str) -> Tool:
    tool = Tool.from_function(
        function, name=command, description=DESCRIPTIONS[command], annotations=ANNOTATIONS
    )
    # The published contract is the output schema (schema/COMMAND.schema.json); the
    # answer was validated when its model was built, so the SDK need not re-validate.
    tool.fn_metadata.output_schema = schema(command)
    return tool


def build_server(roots: Roots | Sequence[str], *, rg: str | None = None) -> MCPServer:
    """The server for `roots` (a `Roots`, or directories as `--root` names them)."""
    confined = roots if isinstance(roots, Roots) else Roots.of(roots)
    tools = AsrchTools(Calls(confined, rg))
    return MCPServer(
        name="asrch",
        version=__version__,
        instructions=INSTRUCTIONS,
        # stderr is the client's log of the server: warnings only, not every call.
        log_level="WARNING",
        tools=[
            _tool(tools.survey, "survey"),
            _tool(tools.scout, "scout"),
            _tool(tools.sample, "sample"),
            _tool(tools.show, "show"),
        ],
    )
