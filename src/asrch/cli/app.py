"""The command line: arguments to a use case, its report to text, an exit status.

cyclopts declares the commands (their signatures are the grammar); `asrch.arguments`
reads the tokens against it and binds them as cyclopts would; asrch words every
message itself, so no error ever reaches the user as a Rich panel, in colour, or as a
traceback (D20).
"""

import os
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any, NamedTuple, TypeVar

from cyclopts import App, Parameter

from asrch import __version__
from asrch.arguments import (
    ArgumentError,
    Choice,
    CommandLine,
    Flag,
    Text,
    WholeNumber,
    bind,
    grammar_of,
    read_command_line,
)
from asrch.cli.help import APP_HELP, COMMAND_HELP
from asrch.domain.errors import AsrchError, ExitStatus, InputError
from asrch.domain.limits import (
    SAMPLE_CLUSTERS_DEFAULT,
    SAMPLE_CLUSTERS_MAX,
    SHOW_CONTEXT_DEFAULT,
    SHOW_CONTEXT_MAX,
)
from asrch.domain.modes import mode_from_flags
from asrch.domain.query import SearchOptions
from asrch.domain.values import quote
from asrch.engine.searcher import RipgrepSearcher
from asrch.render.lines import printed

# Each command imports its own use case and renderer when it runs: an agent calls
# asrch many times, and start-up is most of a small search (docs/performance.md).

# Each option is declared once: its type for cyclopts, its rule for asrch.arguments.
OnOff = Annotated[bool, Parameter(negative=()), Flag()]


class CommonOptions(NamedTuple):
    """The options all four commands take: a field here is an option of each of them."""

    word: OnOff = False
    identifier: OnOff = False
    regex: OnOff = False
    ignore_case: Annotated[bool, Parameter(negative=()), Flag(aliases=("-i",))] = False
    """D30: letters match in either case, in every mode."""
    type: Annotated[list[str] | None, Text(repeatable=True)] = None
    """D30: only files of these rg types (`rg --type-list`)."""
    glob: Annotated[list[str] | None, Text(repeatable=True)] = None
    """D30: only files matching these globs, and none of the `!GLOB` ones."""
    format: Annotated[str, Choice(("text", "json"))] = "text"
    """D27: the answer as text, or as one JSON object."""

    @property
    def as_json(self) -> bool:
        return self.format == "json"

    def options(self, *, allow_regex: bool = True) -> SearchOptions:
        """The search options of the call, for its use case."""
        mode = mode_from_flags(
            word=self.word, identifier=self.identifier, regex=self.regex, allow_regex=allow_regex
        )
        return SearchOptions(
            mode=mode,
            ignore_case=self.ignore_case,
            types=tuple(self.type or ()),
            globs=tuple(self.glob or ()),
        )


Common = Annotated[CommonOptions, Parameter(name="*")]
DEFAULTS = CommonOptions()

app = App(
    name="asrch",
    help_flags=(),
    version_flags=(),
    result_action="return_value",
)
searcher = RipgrepSearcher()


@app.command
def survey(
    *paths: str,
    term: Annotated[list[str] | None, Text(repeatable=True)] = None,
    common: Common = DEFAULTS,
) -> int:
    from asrch.commands.survey import run_survey
    from asrch.render.survey import render_survey

    options = common.options(allow_regex=False)
    report = run_survey(searcher, term or [], list(paths) or ["."], options)
    emit(report, render_survey, as_json=common.as_json)
    return ExitStatus.OK


@app.command
def scout(query: str, path: str = ".", /, *, common: Common = DEFAULTS) -> int:
    from asrch.commands.scout import run_scout
    from asrch.render.scout import render_scout

    report = run_scout(searcher, query, path, common.options())
    emit(report, render_scout, as_json=common.as_json)
    return ExitStatus.OK


@app.command
def sample(
    query: str,
    file: str,
    /,
    *,
    clusters: Annotated[int, WholeNumber(1, SAMPLE_CLUSTERS_MAX)] = SAMPLE_CLUSTERS_DEFAULT,
    page: Annotated[int, WholeNumber(1)] = 1,
    common: Common = DEFAULTS,
) -> int:
    from asrch.commands.sample import run_sample
    from asrch.render.sample import render_sample

    options = common.options()
    report = run_sample(searcher, query, file, options, clusters=clusters, page=page)
    emit(report, render_sample, as_json=common.as_json)
    return ExitStatus.OK


@app.command
def show(
    query: str,
    file: str,
    /,
    *,
    line: Annotated[int | None, WholeNumber(1, allowed="1 to the file's last line")] = None,
    context: Annotated[int, WholeNumber(0, SHOW_CONTEXT_MAX)] = SHOW_CONTEXT_DEFAULT,
    common: Common = DEFAULTS,
) -> int:
    from asrch.commands.show import run_show
    from asrch.render.show import render_show

    options = common.options()
    report = run_show(searcher, query, file, options, line=line, context=context)
    emit(report, render_show, as_json=common.as_json)
    return ExitStatus.REFUSED if report.refused else ExitStatus.OK


@app.command
def mcp(*, root: Annotated[list[str] | None, Text(repeatable=True)] = None) -> int:
    """D29: the tools over stdio; the only command that imports the MCP SDK."""
    from asrch.server.roots import Roots

    roots = Roots.of(root or [])
    try:
        from asrch.server.stdio import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "mcp_types"):
            raise
        raise InputError(
            "error: asrch mcp needs the MCP SDK, which is not installed; "
            "install it with: pip install 'asrch[mcp]'"
        ) from None
    return serve(roots)


COMMANDS: dict[str, Callable[..., int]] = {
    "survey": survey,
    "scout": scout,
    "sample": sample,
    "show": show,
}
"""The search commands, which share `CommonOptions`."""
EVERY_COMMAND: dict[str, Callable[..., int]] = {**COMMANDS, "mcp": mcp}


def write(stream: Any, text: str) -> None:
    """Every line capped at 800 bytes, and never a byte of invalid UTF-8 (D8)."""
    write_bytes(stream, printed(text))


def write_bytes(stream: Any, data: bytes) -> None:
    """To the stream's bytes when it has them (a process's stdout); a text stream (an
    in-process caller's `io.StringIO`) gets the same text."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(data.decode("utf-8"))
        stream.flush()
        return
    buffer.write(data)
    buffer.flush()


Report = TypeVar("Report")


def emit(report: Report, render_text: Callable[[Report], str], *, as_json: bool) -> None:
    """The one place that picks the renderer: text (D1, D8) or the JSON contract (D27)."""
    if not as_json:
        write(sys.stdout, render_text(report))
        return
    # Only here, and only for JSON: the text path imports no contract module. The JSON
    # path imports no pydantic either (D41, docs/architecture.md).
    from asrch.contract.render import render_json

    # Not cut to 800 bytes: a cut would break the JSON; its strings are bounded instead
    # (docs/json.md). The text is valid UTF-8 by construction.
    write_bytes(sys.stdout, render_json(report).encode("utf-8"))


def _command_of(tokens: Sequence[str]) -> str | None:
    return tokens[0] if tokens and tokens[0] in COMMAND_HELP else None


def _help_for(command: str | None) -> str:
    return COMMAND_HELP[command] if command else APP_HELP


def _read(tokens: Sequence[str]) -> tuple[Callable[..., int], CommandLine]:
    """The command and what was given to it, or an ArgumentError in asrch's words."""
    if not tokens:
        raise ArgumentError("error: missing command", with_help=True)
    command = tokens[0]
    function = EVERY_COMMAND.get(command)
    if function is None:
        kind = "option" if command.startswith("-") else "command"
        raise ArgumentError(f"unknown {kind}: {quote(command)}", with_help=True)
    return function, read_command_line(grammar_of(command, function), tokens[1:])


def run(tokens: Sequence[str]) -> int:
    before_dashes = list(tokens[: tokens.index("--")]) if "--" in tokens else list(tokens)
    if "-h" in before_dashes or "--help" in before_dashes:
        write(sys.stdout, _help_for(_command_of(tokens)))
        return ExitStatus.OK
    if tokens and tokens[0] == "--version":
        write(sys.stdout, f"asrch {__version__}\n")
        return ExitStatus.OK
    try:
        function, line = _read(tokens)
        bound = bind(function, line)
    except ArgumentError as exc:
        usage = _help_for(_command_of(tokens)) if exc.with_help else ""
        write(sys.stderr, exc.message + "\n" + usage)
        return ExitStatus.INPUT
    # Bound as cyclopts binds `line.tokens()` (a property test holds the two equal),
    # without its parse: ~10 ms of every call's start-up (docs/performance.md).
    return int(function(*bound.arguments, **bound.options))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line (`argv`: the arguments after `asrch`, default `sys.argv[1:]`):
    the answer on `sys.stdout`, messages on `sys.stderr`, the exit status returned. No
    process-wide setting: `asrch.entry` adds those (SIGTERM) for the process."""
    tokens = sys.argv[1:] if argv is None else list(argv)
    try:
        return run(tokens)
    except AsrchError as exc:
        write(sys.stderr, exc.message + "\n")
        return exc.status
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`asrch … | head -1`): leave quietly, like grep does.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return ExitStatus.OK
    except Exception as exc:  # a bug: still one plain line, never a traceback (D20)
        write(sys.stderr, f"error: internal error: {type(exc).__name__}: {quote(str(exc))}\n")
        return ExitStatus.INTERNAL
