"""The command line: arguments to a use case, its report to text, an exit status.

cyclopts parses; asrch words every message itself, so no error ever reaches the
user as a Rich panel, in colour, or as a traceback (D20).
"""

import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, NoReturn, TypeVar

from cyclopts import App, Parameter
from cyclopts.exceptions import (
    CoercionError,
    CycloptsError,
    MissingArgumentError,
    UnknownCommandError,
    UnknownOptionError,
    UnusedCliTokensError,
)

from asrch import __version__
from asrch.domain.errors import AsrchError, ExitStatus, InputError
from asrch.domain.limits import SAMPLE_CLUSTERS_DEFAULT, SHOW_CONTEXT_DEFAULT
from asrch.domain.modes import mode_from_flags
from asrch.domain.values import quote
from asrch.engine.searcher import RipgrepSearcher
from asrch.help import APP_HELP, COMMAND_HELP
from asrch.render.lines import cap_text

# Each command imports its own use case and renderer when it runs: an agent calls
# asrch many times, and start-up is most of a small search (docs/performance.md).

Flag = Annotated[bool, Parameter(negative=())]
Format = Annotated[str, Parameter(name="--format")]
"""`--format text|json` on every command (D27), checked by `wants_json` before a search."""

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
    term: Annotated[list[str] | None, Parameter(name="--term")] = None,
    word: Flag = False,
    identifier: Flag = False,
    regex: Flag = False,
    output: Format = "text",
) -> int:
    from asrch.commands.survey import run_survey
    from asrch.render.survey import render_survey

    as_json = wants_json(output)
    mode = mode_from_flags(word=word, identifier=identifier, regex=regex, allow_regex=False)
    report = run_survey(searcher, term or [], list(paths) or ["."], mode)
    emit(report, render_survey, as_json=as_json)
    return ExitStatus.OK


@app.command
def scout(
    query: str,
    path: str = ".",
    /,
    *,
    word: Flag = False,
    identifier: Flag = False,
    regex: Flag = False,
    output: Format = "text",
) -> int:
    from asrch.commands.scout import run_scout
    from asrch.render.scout import render_scout

    as_json = wants_json(output)
    mode = mode_from_flags(word=word, identifier=identifier, regex=regex)
    report = run_scout(searcher, query, path, mode)
    emit(report, render_scout, as_json=as_json)
    return ExitStatus.OK


@app.command
def sample(
    query: str,
    file: str,
    /,
    *,
    clusters: int = SAMPLE_CLUSTERS_DEFAULT,
    page: int = 1,
    word: Flag = False,
    identifier: Flag = False,
    regex: Flag = False,
    output: Format = "text",
) -> int:
    from asrch.commands.sample import run_sample
    from asrch.render.sample import render_sample

    as_json = wants_json(output)
    mode = mode_from_flags(word=word, identifier=identifier, regex=regex)
    report = run_sample(searcher, query, file, mode, clusters=clusters, page=page)
    emit(report, render_sample, as_json=as_json)
    return ExitStatus.OK


@app.command
def show(
    query: str,
    file: str,
    /,
    *,
    line: int | None = None,
    context: int = SHOW_CONTEXT_DEFAULT,
    word: Flag = False,
    identifier: Flag = False,
    regex: Flag = False,
    output: Format = "text",
) -> int:
    from asrch.commands.show import run_show
    from asrch.render.show import render_show

    as_json = wants_json(output)
    mode = mode_from_flags(word=word, identifier=identifier, regex=regex)
    report = run_show(searcher, query, file, mode, line=line, context=context)
    emit(report, render_show, as_json=as_json)
    return ExitStatus.REFUSED if report.refused else ExitStatus.OK


def write(stream: object, text: str) -> None:
    """Every line capped at 800 bytes, and never a byte of invalid UTF-8 (D8)."""
    write_bytes(stream, cap_text(text).encode("utf-8", "backslashreplace"))


def write_bytes(stream: object, data: bytes) -> None:
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        raise TypeError("stream has no binary buffer")
    buffer.write(data)
    buffer.flush()


FORMATS = ("text", "json")
Report = TypeVar("Report")


def wants_json(output: str) -> bool:
    """`--format`'s value, checked before any search runs."""
    if output not in FORMATS:
        raise InputError(f"error: --format takes text or json, got {quote(output)}")
    return output == "json"


def emit(report: Report, render_text: Callable[[Report], str], *, as_json: bool) -> None:
    """The one place that picks the renderer: text (D1, D8) or the JSON contract (D27)."""
    if not as_json:
        write(sys.stdout, render_text(report))
        return
    # Only here does asrch import pydantic: after cyclopts has parsed (see
    # docs/performance.md), and never on the text path.
    from asrch.contract.render import render_json

    # Not cut to 800 bytes: a cut would break the JSON; its strings are bounded instead
    # (docs/json.md). The text is valid UTF-8 by construction.
    write_bytes(sys.stdout, render_json(report).encode("utf-8"))


def _command_of(tokens: Sequence[str]) -> str | None:
    return tokens[0] if tokens and tokens[0] in COMMAND_HELP else None


def _help_for(command: str | None) -> str:
    return COMMAND_HELP[command] if command else APP_HELP


def _usage_error(tokens: Sequence[str], exc: CycloptsError) -> tuple[str, bool]:
    """The first stderr line for a parse error, and whether help follows it."""
    command = _command_of(tokens)
    where = f" for {command}" if command else ""
    match exc:
        case UnknownCommandError():
            bad = (exc.unused_tokens or [tokens[0] if tokens else ""])[0]
            kind = "option" if bad.startswith("-") else "command"
            return f"unknown {kind}: {quote(bad)}", True
        case UnknownOptionError():
            bad = exc.token.keyword or exc.token.value
            return f"unknown option: {quote(bad)}", True
        case MissingArgumentError():
            name = exc.argument.name if exc.argument is not None else "an argument"
            name = name.lstrip("-").upper() if not name.startswith("--") else name
            return f"error: missing {name}{where}; see the usage below", True
        case UnusedCliTokensError():
            extra = " ".join(quote(t) for t in exc.unused_tokens or [])
            return f"error: unexpected argument{where}: {extra}; see the usage below", True
        case CoercionError():
            name = exc.argument.name if exc.argument is not None else "a value"
            got = exc.token.value if exc.token is not None else ""
            if exc.target_type is bool:
                return f"error: {name} is a flag and takes no value, got {quote(got)}", False
            return f"error: {name} takes a whole number, got {quote(got)}", False
        case _:
            return f"error: {quote(str(exc))}", True


def run(tokens: Sequence[str]) -> int:
    before_dashes = list(tokens[: tokens.index("--")]) if "--" in tokens else list(tokens)
    if not tokens:
        write(sys.stderr, "error: missing command\n" + APP_HELP)
        return ExitStatus.INPUT
    if "-h" in before_dashes or "--help" in before_dashes:
        write(sys.stdout, _help_for(_command_of(tokens)))
        return ExitStatus.OK
    if tokens[0] == "--version":
        write(sys.stdout, f"asrch {__version__}\n")
        return ExitStatus.OK
    try:
        result = app(list(tokens), exit_on_error=False, print_error=False, help_on_error=False)
    except CycloptsError as exc:
        first, with_help = _usage_error(tokens, exc)
        text = first + "\n" + (_help_for(_command_of(tokens)) if with_help else "")
        write(sys.stderr, text)
        return ExitStatus.INPUT
    return int(result)


def _terminate(signum: int, frame: object) -> NoReturn:
    # Unwinding runs every `finally`, which kills and reaps the rg child.
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    tokens = sys.argv[1:] if argv is None else list(argv)
    signal.signal(signal.SIGTERM, _terminate)
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
