"""`scout` report to text."""

from asrch.domain.scout import ListedFile, ScoutReport
from asrch.domain.text_safety import quote
from asrch.domain.words import Spelling
from asrch.render.lines import printed
from asrch.render.next_step import next_lines
from asrch.render.notices import text_notice_lines
from asrch.render.snippets import Trail
from asrch.render.toon import block, count, table


def listed_path_line(path: str) -> str:
    """A listed file's path on its own line (D32): D2's quoting, and quoted too when it
    starts with a digit, so it never reads as a numbered line (`12:`, `12-`, `12=`)."""
    quoted = quote(path)
    return f'"{quoted}"' if quoted[:1].isdigit() else quoted


def listing_lines(listed: tuple[ListedFile, ...]) -> list[str]:
    """Each file's path, then its matches, each after its scope lines (D31) and mark
    (D48) as a show prints them."""
    out: list[str] = []
    for file in listed:
        out.append(listed_path_line(file.path))
        trail = Trail()
        for line in file.lines:
            out += trail.run((line,))
    return out


def listing_bytes(listed: tuple[ListedFile, ...]) -> int:
    """The bytes the listing prints, each line's LF included: what D44 holds to
    `SCOUT_LIST_BYTES`, measured on the lines themselves."""
    return sum(len(printed(line)) + 1 for line in listing_lines(listed))


def is_the_path(row: str, path: str) -> bool:
    """A one-file scout's row names the file searched (its name, issue 32): the table
    would repeat the path typed."""
    typed = path.rstrip("/")
    return typed == row or typed.endswith("/" + row)


def table_lines(report: ScoutReport) -> list[str]:
    """The tables that tell the agent something (D42): none beside a listing (it names
    every file and line), `top_directories` from 2 rows, `top_files` unless its one row
    is the file searched, `kinds` from 2 kinds; no empty table."""
    if report.listed:
        return []
    lines: list[str] = []
    if len(report.top_directories) > 1:
        rows = [(r.path, r.matches) for r in report.top_directories]
        lines += table("top_directories", ("path", "matches"), rows)
    files = report.top_files
    if files and not (len(files) == 1 and is_the_path(files[0].path, report.path)):
        lines += table("top_files", ("path", "matches"), [(r.path, r.matches) for r in files])
    if len(report.kinds) > 1:
        kinds = [(k.kind, k.matches, k.files) for k in report.kinds]
        lines += table("kinds", ("kind", "matches", "files"), kinds)
    return lines


def render_scout(report: ScoutReport, spelling: Spelling) -> str:
    """D42: the header holds what was computed, the counts; not what the agent typed."""
    lines = block(
        "scout",
        [
            ("matches", count(report.matches, report.capped)),
            ("files", count(report.files, report.capped)),
        ],
    )
    lines += table_lines(report)
    lines += listing_lines(report.listed)
    lines += text_notice_lines(report.notices, spelling)
    lines += next_lines(report.next_step, spelling, stopped=report.capped)
    return "\n".join(lines) + "\n"
