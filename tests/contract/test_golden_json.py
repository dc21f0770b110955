"""Every golden text example, run again with `--format json`: the same exit status, the
same stderr, and an answer that fits its schema and says what the text says (D27).

The text side is the spec's documented output (held to the real one by test_spec); it
is read back with a TOON reader written apart from the renderers.
"""

import dataclasses
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asrch.domain.text_safety import json_text
from asrch.engine.scopes import TreeSitterScopes
from asrch.render.scout import is_the_path
from tests.contract.schemas import COMMANDS, as_pydantic_prints, one_answer
from tests.golden.examples import Example, parse_examples
from tests.golden.runner import Trees, run_example, slug, spec_pairs
from tests.support import toon
from tests.support.source_lines import file_lines


def _as_json(example: Example) -> Example | None:
    """The example's command with `--format json` after the command name, if it has one."""
    words = shlex.split(example.command)
    if len(words) < 2 or words[1] not in COMMANDS or "--format" in example.command:
        return None
    options = words[: words.index("--")] if "--" in words else words
    if "-h" in options or "--help" in options:
        return None  # help is help, in either format
    command = shlex.join([*words[:2], "--format", "json", *words[2:]])
    return dataclasses.replace(example, command=command)


CASES = [
    (example, again)
    for japanese, _ in spec_pairs()
    for example in parse_examples(japanese)
    if (again := _as_json(example)) is not None
]


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Trees]:
    yield Trees(tmp_path_factory.mktemp("golden-json"))


def test_most_examples_are_rerun() -> None:
    assert len(CASES) >= 60, "the rerun should cover the spec, not a corner of it"
    assert {shlex.split(e.command)[1] for e, _ in CASES} == set(COMMANDS)


def _text(example: Example) -> str:
    return "".join(line + "\n" for line in example.expected)


def _counts(text: str, answer_count: int, answer_capped: bool, where: str) -> None:
    assert toon.count(text) == (answer_count, answer_capped), where


def _lines(snippets: list[list[toon.Line]]) -> list[list[tuple[int, bool, str]]]:
    return [[(ln.number, ln.match, ln.text) for ln in s] for s in snippets]


def _json_lines(snippets: list[dict[str, Any]]) -> list[list[tuple[int, bool, str]]]:
    return [[(ln["line"], ln["match"], ln["text"]) for ln in s["lines"]] for s in snippets]


def _indent(text: str) -> str:
    return text[: len(text) - len(text.lstrip(" \t"))]


def _printed_scopes(snippets: list[dict[str, Any]], heads: frozenset[int]) -> list[tuple[int, str]]:
    """The `N=` lines the text prints for the JSON's snippets (D31, D48), read apart from
    the renderer: a reader has in mind the chain of the last placed line, and its own
    definition when the line begins with its header (`heads`, which the JSON does not
    carry: the parse's, tests/engine); nothing where that line was not placed. Before
    each snippet, the headers above it that its first placed line needs (a later line:
    those outside the chain) and that the reader has neither in mind nor in sight
    (printed since the last placed line), but none for a line that begins with its own
    header indented as the inner one it leaves; then, above each placed line, `(top
    level)` (not before a line that begins at column 0 with its own header) or
    `(unknown)` where it leaves what the reader has in mind."""
    out: list[tuple[int, str]] = []
    mind: list[tuple[int, str]] | None = []
    in_sight: set[int] = set()
    for snippet in snippets:
        lines = snippet["lines"]
        first = lines[0]["line"]
        before = in_sight
        headers: set[tuple[int, str]] = set()
        marks: list[tuple[int, str]] = []
        placed = False
        for ln in lines:
            if ln["scope_known"] is not None:
                chain = [(s["line"], s["text"]) for s in ln["scope"]]
                numbers = [n for n, _ in chain]
                minded = [n for n, _ in mind or []]
                own = ln["line"] in heads
                if ln["scope_known"] and not placed:
                    if mind is None:
                        headers.update(chain)
                    elif mind and minded[-1] in numbers:
                        headers.update(chain[numbers.index(minded[-1]) + 1 :])
                    else:
                        new = [h for h in chain if h[0] not in minded]
                        depth = len(chain)
                        sibling = (
                            own
                            and minded[:depth] == numbers
                            and len(mind) > depth
                            and _indent(ln["text"]) == _indent(mind[depth][1])
                        )
                        headers.update(new or ([] if sibling or not chain else chain[-1:]))
                elif ln["scope_known"]:
                    headers.update(h for h in chain if h[0] not in minded)
                if not ln["scope_known"] and mind is not None:
                    marks.append((ln["line"], "(unknown)"))
                says = own and not _indent(ln["text"])
                if ln["scope_known"] and not chain and mind != [] and not says:
                    marks.append((ln["line"], "(top level)"))
                if ln["scope_known"]:
                    mind = [*chain, (ln["line"], ln["text"])] if own else chain
                else:
                    mind = None
                in_sight = set()
                placed = True
            in_sight.add(ln["line"])
        out += sorted(h for h in headers if h[0] < first and h[0] not in before)
        out += marks
    return out


def _heads(cwd: Path, file: str, snippets: list[dict[str, Any]]) -> frozenset[int]:
    """The placed lines of `file` (as the answer names it, from `cwd`) that begin with
    their own definition's header, by the parse the answer was made with."""
    placed = [ln["line"] for s in snippets for ln in s["lines"] if ln["scope_known"]]
    if not placed:
        return frozenset()
    path = cwd / file
    return TreeSitterScopes(cwd=str(cwd)).of(file, file_lines(path, placed)).heads


ECHOED = ("query", "path", "file", "mode", "case", "types", "globs", "context", "clusters", "line")
"""What the agent typed: D42, never in a text header (JSON keeps them)."""


def _rows(table: toon.Table | None) -> list[tuple[str, int]]:
    return [] if table is None else [(json_text(r["path"]), int(r["matches"])) for r in table.rows]


def _same_scout(text: toon.Answer, answer: dict[str, Any]) -> None:
    f = text.fields
    _counts(f["matches"], answer["matches"], answer["capped"], "matches")
    _counts(f["files"], answer["files"], answer["capped"], "files")
    listed = bool(answer["listed"])
    # D42: a table only when it tells something: none beside a listing, top_directories
    # from 2 rows, top_files unless its 1 row is the file searched, kinds from 2 kinds.
    directories = [(r["path"], r["matches"]) for r in answer["top_directories"]]
    printed = _rows(text.tables.get("top_directories"))
    assert printed == ([] if listed or len(directories) < 2 else directories)
    files = [(r["path"], r["matches"]) for r in answer["top_files"]]
    alone = len(files) == 1 and is_the_path(files[0][0], answer["path"])
    assert _rows(text.tables.get("top_files")) == ([] if listed or alone else files)
    by_kind = [(k["kind"], k["matches"], k["files"]) for k in answer["kinds"]]
    if "kinds" in text.tables:
        printed_kinds = text.tables["kinds"].rows
        assert [(r["kind"], int(r["matches"]), int(r["files"])) for r in printed_kinds] == by_kind
    else:
        assert listed or len(by_kind) <= 1
    assert sum(k[1] for k in by_kind) == answer["matches"]
    # D32: the same files and lines as the text lists; D44: then no next step.
    listed_lines = [
        (f["path"], [(ln["line"], ln["match"], ln["text"]) for ln in f["lines"]])
        for f in answer["listed"]
    ]
    assert [
        (json_text(p), [(ln.number, ln.match, ln.text) for ln in lines]) for p, lines in text.listed
    ] == listed_lines
    if listed:
        assert answer["next"] is None


def _same_places(cell: str, item: dict[str, Any]) -> None:
    """D56: the text's `FILE:LINE` cell is JSON's `places`; 1 per matching line, at most
    3, exact counts only, the top file among them."""
    written = toon.places(cell)
    assert written is not None, f"{cell!r} is no places cell"
    assert [(json_text(p), n) for p, n in written] == [
        (p["path"], p["line"]) for p in item["places"]
    ]
    assert len(written) == item["matches"] <= 3 and not item["capped"]
    assert item["top_file"] in {p["path"] for p in item["places"]}


def _same_survey(text: toon.Answer, answer: dict[str, Any]) -> None:
    f = text.fields
    # D33: the counts only when a term or path is repeated (the rows say the rest).
    repeated = len(set(answer["terms"])) < len(answer["terms"]) or len(set(answer["paths"])) < len(
        answer["paths"]
    )
    assert ("terms" in f) == ("paths" in f) == repeated == (text.block == "survey")
    if repeated:
        assert (int(f["terms"]), int(f["paths"])) == (len(answer["terms"]), len(answer["paths"]))
    assert answer["terms"] == [t["term"] for t in answer["overall"]]
    assert answer["capped"] == any(t["capped"] for t in answer["overall"])
    if len(answer["paths"]) == 1:
        # D42: 1 path, 1 table: each term's counts there and its top file.
        assert "overall" not in text.tables and not text.sections
        rows = text.tables["terms"].rows
        found = {item["term"]: item for item in answer["by_path"][0]["terms"]}
        assert [json_text(r["term"]) for r in rows] == answer["terms"]
        for row, total in zip(rows, answer["overall"], strict=True):
            _counts(row["matches"], total["matches"], total["capped"], f"terms {row['term']}")
            _counts(row["files"], total["files"], total["capped"], f"terms {row['term']}")
            item = found.get(total["term"])
            if item and item["places"]:
                _same_places(row["top_file"], item)
                continue
            top = None if row["top_file"] == "-" else json_text(row["top_file"])
            assert top == (item["top_file"] if item else None)
        return
    overall = text.tables["overall"].rows
    assert len(overall) == len(answer["overall"])
    for row, total in zip(overall, answer["overall"], strict=True):
        assert json_text(row["term"]) == total["term"]
        _counts(row["matches"], total["matches"], total["capped"], f"overall {row['term']}")
        _counts(row["files"], total["files"], total["capped"], f"overall {row['term']}")
        dominant = None if row["dominant_path"] == "-" else json_text(row["dominant_path"])
        assert dominant == total["dominant_path"]
    # No empty table: only the paths where a term matched.
    sections = [s for s in answer["by_path"] if s["terms"]]
    assert (text.sections_declared or 0) == len(text.sections) == len(sections)
    for (path, table), section in zip(text.sections, sections, strict=True):
        assert json_text(path) == section["path"]
        assert len(table.rows) == len(section["terms"])
        for row, item in zip(table.rows, section["terms"], strict=True):
            assert json_text(row["term"]) == item["term"]
            if item["places"]:
                _same_places(row["top_file"], item)
            else:
                assert json_text(row["top_file"]) == item["top_file"]
            _counts(row["matches"], item["matches"], item["capped"], f"{path} {row['term']}")
            _counts(row["files"], item["files"], item["capped"], f"{path} {row['term']}")


def _same_sample(text: toon.Answer, answer: dict[str, Any], cwd: Path) -> None:
    f = text.fields
    _counts(f["matches"], answer["matches"], answer["capped"], "matches")
    assert int(f.get("clustered", answer["matches"])) == answer["clustered"]
    # D42: the page only when there are 2 or more; past the end the number of pages alone.
    if answer["page"] > answer["pages"]:
        assert "page" not in f and int(f["pages"]) == answer["pages"]
    else:
        assert f.get("page") == (
            f"{answer['page']}/{answer['pages']}" if answer["pages"] > 1 else None
        )
    assert len(text.clusters) == len(answer["shown"])
    for cluster, shown in zip(text.clusters, answer["shown"], strict=True):
        assert (cluster.start, cluster.end, cluster.hits) == (
            shown["start"],
            shown["end"],
            shown["hits"],
        )
        # `cluster I/C` only when the clusters take more than 1 page (there: the page says
        # which clusters are shown, on 1 page all are).
        if answer["pages"] > 1:
            assert (cluster.index, cluster.of) == (shown["index"], answer["clusters"])
        else:
            assert cluster.index is None is cluster.of
            assert [s["index"] for s in answer["shown"]] == list(range(1, answer["clusters"] + 1))
        assert _lines(cluster.snippets) == _json_lines(shown["snippets"])
    snippets = [s for shown in answer["shown"] for s in shown["snippets"]]
    assert text.scopes == _printed_scopes(snippets, _heads(cwd, answer["file"], snippets))


def _same_show(text: toon.Answer, answer: dict[str, Any], status: int, cwd: Path) -> None:
    f = text.fields
    if "window" in f:
        assert answer["matches"] is None
        window = answer["window"]
        assert f["window"] == f"{window['start']}-{window['end']}"
        definition = answer["definition"]
        if definition is not None and window["end"] < definition["end"]:
            # A long definition's beginning (issue 40): the rest said in 1 line.
            a, b = window["end"] + 1, definition["end"]
            assert window["start"] == definition["start"]
            assert text.rest == (b - a + 1, a, b)
        elif definition is not None:  # `--scope`: the definition is the window
            assert definition == window
            assert text.rest is None
        assert int(f["last_line"]) == answer["last_line"]
        marked = sum(ln.match for s in text.snippets for ln in s)
        # D46: `show FILE --line N` has no query, so no line is a match.
        assert marked == (answer["window_matches"] or 0)
        assert (answer["query"] is None) == (answer["window_matches"] is None)
    else:
        assert None is answer["line"] is answer["window"] is answer["window_matches"]
        _counts(f["matches"], answer["matches"], answer["capped"], "matches")
    assert answer["refused"] == (status == 3)
    # D51: the unit printed (with --line, its kind; without, the table of units).
    units = answer["units"] or []
    assert f.get("unit") == (units[0]["kind"] if "window" in f and units else None)
    if "window" not in f:
        rows = text.tables["units"].rows if "units" in text.tables else []
        assert rows == [{"kind": u["kind"], "lines": f"{u['start']}-{u['end']}"} for u in units]
    assert _lines(text.snippets) == _json_lines(answer["snippets"])
    heads = _heads(cwd, answer["file"], answer["snippets"])
    assert text.scopes == _printed_scopes(answer["snippets"], heads)
    folded = [(r["start"], r["end"], r["matches"], r["what"]) for r in answer["folded"]]
    assert text.folded == folded


@pytest.mark.parametrize(("example", "again"), CASES, ids=[slug(e) for e, _ in CASES])
def test_the_json_answer_says_what_the_text_says(
    example: Example, again: Example, trees: Trees
) -> None:
    cwd = trees.for_example(again)
    result = run_example(again, trees, cwd=cwd)
    where = f"$ {again.command}  (spec/{example.file.name}:{example.line})"
    assert result.status == example.exit_status, f"{where}: exit {result.status}"
    if example.on_stderr:
        assert result.out == "", f"{where}: an input error prints nothing on stdout"
        assert result.err == _text(example), f"{where}: not the text format's stderr"
        return
    assert result.err == "", where
    answer = one_answer(result.out)
    assert result.out == as_pydantic_prints(result.out), f"{where}: not pydantic's bytes"
    text = toon.read(_text(example))
    assert answer["command"] == shlex.split(example.command)[1], where
    # survey's block only holds repeated counts (D42): often it is not printed at all.
    assert text.block == answer["command"] or (answer["command"] == "survey" and not text.block)
    assert answer["schema_version"] == "1"
    # D45: the binary count is printed only inside the zero note; JSON carries it always.
    said = [n["message"] for n in answer["notices"] if n["kind"] != "binary"]
    assert said == text.notes, where
    # D54: the text writes the step only after a refusal or a stopped scan; JSON always.
    stopped = answer.get("refused") or answer["capped"]
    if stopped or text.next is not None:
        assert answer["next"] == text.next, f"{where}: JSON next is not the text's next: line"
    # D42: a text answer repeats nothing the agent typed; JSON keeps every field.
    assert not set(ECHOED) & (set(text.fields) | set(text.lists)), where
    echoed = {"mode", "case", "types", "globs"} | ({"query"} if "query" in answer else set())
    assert echoed <= set(answer), where
    match answer["command"]:
        case "scout":
            _same_scout(text, answer)
        case "survey":
            _same_survey(text, answer)
        case "sample":
            _same_sample(text, answer, cwd)
        case "show":
            _same_show(text, answer, result.status, cwd)
