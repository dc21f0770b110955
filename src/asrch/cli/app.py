"""The command line: arguments to a use case, its report to text, an exit status.

cyclopts parses (D40). Its app is derived from the command table: each command's
function has the signature its table entry declares (positionals, then options with
their converters), built here. D25's grammar is held by the converters (a number is
ASCII digits, a flag takes no value, a choice is one of its words) and every error is
worded by asrch (`asrch.cli.errors`, cyclopts' exceptions caught and reworded), so no
error ever reaches the user as a Rich panel, in colour, or as a traceback (D20).
"""

import contextlib
import inspect
import os
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any, NamedTuple, TypeVar

from cyclopts import App, Parameter
from cyclopts.exceptions import CycloptsError

from asrch import __version__
from asrch.cli.errors import (
    ArgumentError,
    UnknownWordError,
    arguments_count,
    converter_for,
    one_mode,
    refuse_flag_values,
    worded,
)
from asrch.commands.arguments import Argument
from asrch.commands.table import COMMANDS, Command, run
from asrch.domain.errors import AsrchError, ExitStatus, InputError, OutputError
from asrch.domain.index_use import IndexUse, index_use
from asrch.domain.ports import Scopes, Searcher
from asrch.domain.words import Spelling
from asrch.engine.scope_reader import ScopeReader
from asrch.engine.searcher import RipgrepSearcher
from asrch.render.errors import error_line, error_text, internal_error_line
from asrch.render.lines import printed
from asrch.spelling import COMMAND_LINE

SearcherFor = Callable[[bool], Searcher]
"""How a composition root builds its searcher for one answer: with rg's binary census
in every count (True: an answer that carries it, D45) or not. A choice made once, when
the searcher is built (`RipgrepSearcher(census=...)`), never a searcher's state set
later."""

# Each command imports its own use case and renderer when it runs: an agent calls
# asrch many times, and start-up is most of a small search (docs/performance.md).


class Streams(NamedTuple):
    """Where one command line writes: the answer and the messages (None: closed)."""

    stdout: Any
    stderr: Any
    own: bool
    """The process's own standard streams: after an output error its stdout is pointed
    at /dev/null, so that the interpreter's last flush cannot fail again."""


_EMPTY = inspect.Parameter.empty


def _as_typed(type_: Any, tokens: Sequence[Any]) -> str:
    return str(tokens[0].value)


def _hint(argument: Argument, *, optional: bool = False) -> Any:
    """The parameter's type, with the converter that holds its rule (D25); `optional`:
    a positional that may be missing (None: cyclopts checks a default against the type
    when pydantic is loaded, as in the MCP server's process)."""
    names = (argument.spelling, *argument.aliases)
    if argument.positional:
        # The token as typed: no coercion of cyclopts' for `str | None` ("none").
        token: Any = str | None if optional else str
        return Annotated[token, Parameter(name=argument.spelling, converter=_as_typed)]
    base: Any = {
        "flag": bool,
        "text": str if argument.default is not None else str | None,
        "texts": list[str],
        "number": int if argument.default is not None else int | None,
        "choice": str,
    }[argument.value_type]
    return Annotated[base, Parameter(name=names, negative=(), converter=converter_for(argument))]


def _parameter(argument: Argument, *, filled_from_the_right: bool = False) -> inspect.Parameter:
    # After an optional positional every one is optional to cyclopts; `read` fills them
    # from the right and says what is missing (D46).
    required = argument.required and not filled_from_the_right
    default = _EMPTY if required else argument.default
    hint = _hint(argument, optional=argument.positional and default is None)
    if argument.positional and argument.many:
        return inspect.Parameter(argument.name, inspect.Parameter.VAR_POSITIONAL, annotation=hint)
    if argument.positional:
        return inspect.Parameter(
            argument.name, inspect.Parameter.POSITIONAL_ONLY, default=default, annotation=hint
        )
    default = () if argument.value_type == "texts" else argument.default
    return inspect.Parameter(
        argument.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint
    )


def _function(command: Command[Any]) -> Callable[..., int]:
    """A function whose signature is the command's grammar, for cyclopts to bind."""
    declared = tuple(a for a in command.arguments if a.cli is not None)
    positionals = [a for a in declared if a.positional]

    def call(*given: str, **options: Any) -> int:
        # Never run: cyclopts only binds a line to this signature (`read`), and `main`
        # runs the command (`_run`).
        raise AssertionError(f"{command.name}: cyclopts parses, asrch runs")

    call.__name__ = command.name
    options = [a for a in declared if not a.positional]
    right = any(a.unless for a in positionals)
    signature = inspect.Signature(
        [
            *(_parameter(a, filled_from_the_right=right) for a in positionals),
            *(_parameter(a) for a in options),
        ]
    )
    call.__signature__ = signature  # type: ignore[attr-defined]
    return call


def _run(
    command: Command[Any],
    values: dict[str, Any],
    searchers: SearcherFor,
    scopes: Scopes,
    streams: Streams,
) -> int:
    one_mode(command, values)
    as_json = values.get("format") == "json"
    # D45: rg's binary census only where it is printed: JSON always; text only on a
    # zero answer, whose use case asks for it.
    searcher = searchers(as_json)
    report = run(command, searcher, values, scopes=scopes)
    used, note = _index_use(searcher)
    emit(report, command.render, as_json=as_json, to=streams.stdout, index=used)
    if note is not None:
        write(streams.stderr, f"note: {note}\n", "stderr")
    refused = command.refused_status and bool(getattr(report, "refused", False))
    return ExitStatus.REFUSED if refused else ExitStatus.OK


def _index_use(searcher: Searcher) -> tuple[IndexUse | None, str | None]:
    source = searcher.candidates if isinstance(searcher, RipgrepSearcher) else None
    return index_use(source)


def mcp(
    *,
    root: Annotated[list[str] | None, Parameter(name="--root")] = None,
    structured: Annotated[bool, Parameter(name="--structured", negative=())] = False,
) -> int:
    """D29: the tools over stdio; the only command that imports the MCP SDK. D47: text
    answers only, unless `--structured`."""
    from asrch.server.roots import Roots

    if sys.stdout is None:  # `asrch mcp >&-`: no client could read an answer
        raise OutputError("cannot serve: stdout is closed")
    roots = Roots.of(root or [])
    try:
        from asrch.server.stdio import serve
    except ImportError as exc:
        # Any piece of the extra (mcp, anyio, starlette, ...), not only `mcp` itself.
        missing = (exc.name or "").split(".")[0]
        if missing in ("", "asrch"):
            raise
        from asrch.installed import missing_extra_message

        raise InputError(missing_extra_message(missing)) from None
    try:
        return serve(roots, structured=structured)
    except Exception as exc:
        failed = _write_failure(exc)
        if failed is None:
            raise
        if isinstance(failed, BrokenPipeError):  # the client went away: as a hang-up
            return ExitStatus.OK
        raise OutputError(
            f"cannot answer the client: stdout: {failed.strerror or failed}"
        ) from None


def index(
    path: Annotated[str | None, Parameter(name="PATH")] = None,
    /,
    *,
    status: Annotated[bool, Parameter(name="--status", negative=())] = False,
    drop: Annotated[bool, Parameter(name="--drop", negative=())] = False,
) -> int:
    """D58: the index of a directory (run by `_index`, which has the searcher)."""
    raise AssertionError("read only: run_command_line runs it")


def _index(values: dict[str, Any], searcher: Searcher, streams: Streams) -> int:
    from asrch.cli.index import run_index

    if not isinstance(searcher, RipgrepSearcher):
        raise InputError("asrch index needs ripgrep's searcher")
    write(streams.stdout, run_index(values, searcher, streams.stderr))
    return ExitStatus.OK


def _write_failure(exc: BaseException) -> OSError | None:
    """The OSError that ended the server, alone or as every leaf of the SDK's task
    groups (its stdout writer failed: a full disk), else None."""
    if isinstance(exc, OSError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        leaves = [_write_failure(inner) for inner in exc.exceptions]
        if leaves and all(leaf is not None for leaf in leaves):
            return leaves[0]
    return None


def build_app(only: str | None = None) -> App:
    """The cyclopts app of every command: the table's four, and `mcp`; or of the one
    named `only` (a line that names a command is parsed by its own alone: the same
    answer, without building the others' signatures on every start-up)."""
    app = App(
        name="asrch",
        help_flags=(),
        version_flags=(),
        result_action="return_value",
        print_error=False,
        exit_on_error=False,
        help_on_error=False,
        verbose=False,
    )
    for name, command in COMMANDS.items():
        if only in (None, name):
            app.command(_function(command), name=name)
    if only in (None, "mcp"):
        app.command(mcp, name="mcp")
    if only in (None, "index"):
        app.command(index, name="index")
    return app


_APPS: dict[str | None, App] = {}
_OTHERS = ("mcp", "index")
"""The commands that are no search: not in the command table, not MCP tools."""


def app_for(tokens: Sequence[str]) -> App:
    """The app that reads `tokens`: the named command's own, or every command's for a
    line that names none (its error names the word and the commands, as before)."""
    only = tokens[0] if tokens and (tokens[0] in COMMANDS or tokens[0] in _OTHERS) else None
    if only not in _APPS:
        _APPS[only] = build_app(only)
    return _APPS[only]


def write(stream: Any, text: str, name: str = "stdout") -> None:
    """Every line capped at 800 bytes, and never a byte of invalid UTF-8 (D8)."""
    write_bytes(stream, printed(text), name)


def write_bytes(stream: Any, data: bytes, name: str = "stdout") -> None:
    """To the stream's bytes when it has them (a process's stdout); a text stream (an
    in-process caller's `io.StringIO`) gets the same text. An output error (exit 74),
    naming the stream by `name`, if it cannot be written."""
    if stream is None:  # started with the descriptor closed (`>&-`): Python's None
        raise OutputError(f"cannot write the answer: {name} is closed")
    buffer = getattr(stream, "buffer", None)
    try:
        if buffer is None:
            stream.write(data.decode("utf-8"))
            stream.flush()
            return
        buffer.write(data)
        buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write the answer to {name}: {exc.strerror or exc}") from None


Report = TypeVar("Report")


def emit(
    report: Report,
    render_text: Callable[[Report, Spelling], str],
    *,
    as_json: bool,
    to: Any,
    index: str | None = None,
) -> None:
    """The one place that picks the renderer: text (D1, D8) or the JSON contract (D27),
    each spelled as the command line spells (D49), written `to` a stdout."""
    if not as_json:
        write(to, render_text(report, COMMAND_LINE))
        return
    # Only here, and only for JSON: the text path imports no contract module. The JSON
    # path imports no pydantic either (D41, docs/architecture.md).
    from asrch.contract.render import render_json

    # Not cut to 800 bytes: a cut would break the JSON; its strings are bounded instead
    # (docs/json.md). The text is valid UTF-8 by construction.
    write_bytes(to, render_json(report, index=index).encode("utf-8"))


def _command_of(tokens: Sequence[str]) -> str | None:
    return tokens[0] if tokens and (tokens[0] in COMMANDS or tokens[0] in _OTHERS) else None


def _help_for(command: str | None) -> str:
    # The help texts are built only when one is printed (`--help`, a usage error), not
    # on every start-up (`tests/cli/test_imports.py`).
    from asrch.cli.help import APP_HELP, COMMAND_HELP

    return COMMAND_HELP[command] if command else APP_HELP


def read(tokens: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """The command a line names and its values by argument name (those given), read by
    cyclopts; or an `ArgumentError` in asrch's words. Runs nothing."""
    if not tokens:
        raise ArgumentError("missing command", with_help=True)
    refuse_flag_values(tokens)
    _refuse_too_many_filters(tokens)
    try:
        _, bound, _ = app_for(tokens).parse_args(list(tokens))
    except CycloptsError as exc:
        raise worded(exc, tokens) from None
    values = dict(bound.arguments)
    for name, value in values.items():
        if isinstance(value, tuple):  # `*paths`
            values[name] = list(value)
    command = COMMANDS.get(tokens[0])
    if command is not None and any(a.unless for a in command.positionals):
        _fill_from_the_right(command, values, tokens)
    return tokens[0], values


def _refuse_too_many_filters(tokens: Sequence[str]) -> None:
    """A filter repeated more than its `most` (`FILTERS_MAX`) is refused before cyclopts
    reads the line: cyclopts takes time quadratic in an option's repeats (it builds the
    rest of the line for each), 15 s for 2,000 `--glob`s (issue 39, item 7). The use
    case holds the same bound for every caller (`domain/filters.py`)."""
    command = COMMANDS.get(tokens[0])
    if command is None:
        return
    before = tokens[: tokens.index("--")] if "--" in tokens else tokens
    for argument in command.arguments:
        if argument.role != "search" or argument.most is None or argument.positional:
            continue
        names = (argument.spelling, *argument.aliases)
        joined = tuple(name + "=" for name in names)
        given = sum(1 for token in before if token in names or token.startswith(joined))
        if given > argument.most:
            raise ArgumentError(
                f"{argument.spelling} given {given} times; at most {argument.most} are allowed"
            )


def _fill_from_the_right(
    command: Command[Any], values: dict[str, Any], tokens: Sequence[str]
) -> None:
    """D46: an argument needed only `unless` another is given (show's QUERY, unless
    --line) comes first, so the positionals given fill from the right: `show FILE
    --line N` is FILE. Too few for what was given: what the command needs."""
    positionals = command.positionals
    given = [values.pop(a.name) for a in positionals if values.get(a.name) is not None]
    takers = positionals[len(positionals) - len(given) :] if given else ()
    values.update((a.name, value) for a, value in zip(takers, given, strict=True))
    for argument in positionals:
        needed = argument.required or (argument.unless and values.get(argument.unless) is None)
        if needed and values.get(argument.name) is None:
            raise arguments_count(command.name, tokens)


def run_command_line(
    tokens: Sequence[str], searchers: SearcherFor, scopes: Scopes, streams: Streams
) -> int:
    before_dashes = list(tokens[: tokens.index("--")]) if "--" in tokens else list(tokens)
    if "-h" in before_dashes or "--help" in before_dashes:
        write(streams.stdout, _help_for(_command_of(tokens)))
        return ExitStatus.OK
    if tokens and tokens[0] == "--version":
        write(streams.stdout, f"asrch {__version__}\n")
        return ExitStatus.OK
    if list(tokens) == ["--type-list"]:
        # The names `--type` takes, from the rg asrch runs (rg itself may not be on PATH).
        known = searchers(False).file_types()
        write(streams.stdout, "".join(f"{name}: {', '.join(known[name])}\n" for name in known))
        return ExitStatus.OK
    try:
        name, values = read(tokens)
    except ArgumentError as exc:
        usage = _help_for(_command_of(tokens)) if exc.with_help else ""
        # An unknown command or option is named bare, the usage after it (D20).
        line = exc.message if isinstance(exc, UnknownWordError) else error_line(exc, COMMAND_LINE)
        write(streams.stderr, line + "\n" + usage, "stderr")
        return ExitStatus.INPUT
    if name == "index":
        return _index(values, searchers(False), streams)
    if name == "mcp":
        # The server's stdio is the process's own, whatever the caller's streams.
        return mcp(**values)
    return _run(COMMANDS[name], values, searchers, scopes, streams)


def main(
    argv: Sequence[str] | None = None,
    *,
    searchers: SearcherFor | None = None,
    scopes: Scopes | None = None,
    cwd: str | None = None,
    stdout: Any = None,
    stderr: Any = None,
) -> int:
    """Run one command line (`argv`: the arguments after `asrch`, default `sys.argv[1:]`)
    with a searcher from `searchers` (default: rg, run from `cwd`, default this
    process's working directory), called with whether the answer carries rg's binary
    census (D45: JSON), and `scopes` (D31; default: the tree-sitter reader of files from `cwd`):
    the answer on `stdout`, messages on `stderr` (default: the process's own), the exit
    status returned. Nothing of the process is read or changed besides
    those defaults: `asrch.entry` adds the process's own settings (SIGTERM)."""
    tokens = sys.argv[1:] if argv is None else list(argv)
    own = stdout is None
    streams = Streams(
        sys.stdout if stdout is None else stdout, sys.stderr if stderr is None else stderr, own
    )
    if searchers is None:

        def searchers(census: bool) -> Searcher:
            return RipgrepSearcher(cwd=cwd, census=census)

    if scopes is None:
        scopes = ScopeReader(cwd=cwd)
    try:
        return run_command_line(tokens, searchers, scopes, streams)
    except AsrchError as exc:
        from asrch.engine.process import stop_requested

        if stop_requested():
            # A signal came while the searches ran; a search of survey's, cut by it, may
            # raise its own error first: the answer is still "interrupted", said by none.
            return ExitStatus.INTERRUPTED
        if isinstance(exc, OutputError) and streams.own:
            _drop_stdout()
        _complain(streams.stderr, error_text(exc, COMMAND_LINE))
        return exc.status
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`asrch … | head -1`): leave quietly, like grep does.
        if streams.own:
            _drop_stdout()
        return ExitStatus.OK
    except Exception as exc:  # a bug: still one plain line, never a traceback (D20)
        _complain(streams.stderr, internal_error_line(exc))
        return ExitStatus.INTERNAL


def _drop_stdout() -> None:
    """Point stdout at /dev/null: what is left in its buffer must not fail again (and
    print Python's own complaint) when the interpreter flushes it on exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)


def _complain(stderr: Any, message: str) -> None:
    """The error's line on stderr (and its `next:` line, if any); if stderr itself cannot
    take it, the status says it all."""
    with contextlib.suppress(OutputError, BrokenPipeError):
        write(stderr, message + "\n", "stderr")
