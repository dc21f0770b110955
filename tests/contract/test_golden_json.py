"""Every golden text example, run again with `--format json`: the same exit status, the
same stderr, and an answer that fits its schema and says what the text says (D27).

The text side is the spec's documented output (held to the real one by test_spec); it
is read back with a TOON reader written apart from the renderers.
"""

import dataclasses
import shlex
from collections.abc import Iterator
from typing import Any

import pytest

from asrch.domain.text_safety import json_text
from tests.contract import toon
from tests.contract.schemas import COMMANDS, as_the_models_print, one_answer
from tests.golden.examples import Example, parse_examples
from tests.golden.runner import Trees, run_example, slug, spec_pairs


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


def _printed_scopes(snippets: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """The `N=` lines the text prints for the JSON's snippets (D31, D48), read apart from
    the renderer: a reader has in mind the chain of the last placed line (nothing where
    that one was not placed). Before each snippet, the headers above it that its first
    placed line needs (a later line: those outside the chain) and that the reader has
    neither in mind nor in sight (printed since the last placed line); then, above each
    placed line, `(top level)` or `(unknown)` where it leaves what the reader has in mind."""
    printed: list[tuple[int, str]] = []
    mind: list[int] | None = []
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
                if ln["scope_known"] and not placed:
                    if mind is None:
                        headers.update(chain)
                    elif mind and mind[-1] in numbers:
                        headers.update(chain[numbers.index(mind[-1]) + 1 :])
                    else:
                        headers.update([h for h in chain if h[0] not in mind] or chain[-1:])
                elif ln["scope_known"]:
                    headers.update(h for h in chain if h[0] not in (mind or []))
                if not ln["scope_known"] and mind is not None:
                    marks.append((ln["line"], "(unknown)"))
                if ln["scope_known"] and not chain and mind != []:
                    marks.append((ln["line"], "(top level)"))
                mind = numbers if ln["scope_known"] else None
                in_sight = set()
                placed = True
            in_sight.add(ln["line"])
        printed += sorted(h for h in headers if h[0] < first and h[0] not in before)
        printed += marks
    return printed


def _same_scout(text: toon.Answer, answer: dict[str, Any]) -> None:
    f = text.fields
    assert (json_text(f["query"]), f.get("mode", "fixed"), json_text(f["path"])) == (
        answer["query"],
        answer["mode"],
        answer["path"],
    )
    _counts(f["matches"], answer["matches"], answer["capped"], "matches")
    _counts(f["files"], answer["files"], answer["capped"], "files")
    for name in ("top_directories", "top_files"):
        rows = [(json_text(r["path"]), int(r["matches"])) for r in text.tables[name].rows]
        assert rows == [(r["path"], r["matches"]) for r in answer[name]], name
    # D35: the table only from 2 kinds on; JSON lists every kind that matched.
    by_kind = [(k["kind"], k["matches"], k["files"]) for k in answer["kinds"]]
    if "kinds" in text.tables:
        printed = text.tables["kinds"].rows
        assert [(r["kind"], int(r["matches"]), int(r["files"])) for r in printed] == by_kind
    else:
        assert len(by_kind) <= 1
    assert sum(k[1] for k in by_kind) == answer["matches"]
    # D32: the same files and lines as the text lists.
    listed = [
        (f["path"], [(ln["line"], ln["match"], ln["text"]) for ln in f["lines"]])
        for f in answer["listed"]
    ]
    assert [
        (json_text(p), [(ln.number, ln.match, ln.text) for ln in lines]) for p, lines in text.listed
    ] == listed


def _same_survey(text: toon.Answer, answer: dict[str, Any]) -> None:
    f = text.fields
    # D33: the counts only when a term or path is repeated (the rows say the rest).
    repeated = len(set(answer["terms"])) < len(answer["terms"]) or len(set(answer["paths"])) < len(
        answer["paths"]
    )
    assert ("terms" in f) == ("paths" in f) == repeated
    terms, paths = len(answer["terms"]), len(answer["paths"])
    assert (int(f.get("terms", terms)), int(f.get("paths", paths)), f.get("mode", "fixed")) == (
        len(answer["terms"]),
        len(answer["paths"]),
        answer["mode"],
    )
    overall = text.tables["overall"].rows
    assert len(overall) == len(answer["overall"])
    for row, total in zip(overall, answer["overall"], strict=True):
        assert json_text(row["term"]) == total["term"]
        _counts(row["matches"], total["matches"], total["capped"], f"overall {row['term']}")
        _counts(row["files"], total["files"], total["capped"], f"overall {row['term']}")
        dominant = None if row["dominant_path"] == "-" else json_text(row["dominant_path"])
        assert dominant == total["dominant_path"]
    assert answer["terms"] == [t["term"] for t in answer["overall"]]
    assert answer["capped"] == any(t["capped"] for t in answer["overall"])
    assert text.sections_declared == len(text.sections) == len(answer["by_path"])
    assert [json_text(p) for p, _ in text.sections] == answer["paths"]
    for (path, table), section in zip(text.sections, answer["by_path"], strict=True):
        assert json_text(path) == section["path"]
        assert len(table.rows) == len(section["terms"])
        for row, item in zip(table.rows, section["terms"], strict=True):
            assert (json_text(row["term"]), json_text(row["top_file"])) == (
                item["term"],
                item["top_file"],
            )
            _counts(row["matches"], item["matches"], item["capped"], f"{path} {row['term']}")
            _counts(row["files"], item["files"], item["capped"], f"{path} {row['term']}")


def _same_sample(text: toon.Answer, answer: dict[str, Any]) -> None:
    f = text.fields
    assert (json_text(f["query"]), f.get("mode", "fixed"), json_text(f["file"])) == (
        answer["query"],
        answer["mode"],
        answer["file"],
    )
    _counts(f["matches"], answer["matches"], answer["capped"], "matches")
    assert int(f.get("clustered", answer["matches"])) == answer["clustered"]
    assert int(f["clusters"]) == answer["clusters"]
    if answer["page"] > answer["pages"]:  # past the end: the number of pages alone
        assert "page" not in f and int(f["pages"]) == answer["pages"]
    else:
        assert f["page"] == f"{answer['page']}/{answer['pages']}"
    assert len(text.clusters) == len(answer["shown"])
    for cluster, shown in zip(text.clusters, answer["shown"], strict=True):
        assert (cluster.index, cluster.start, cluster.end, cluster.hits) == (
            shown["index"],
            shown["start"],
            shown["end"],
            shown["hits"],
        )
        assert cluster.of == answer["clusters"]
        assert _lines(cluster.snippets) == _json_lines(shown["snippets"])
    snippets = [s for shown in answer["shown"] for s in shown["snippets"]]
    assert text.scopes == _printed_scopes(snippets)


def _same_show(text: toon.Answer, answer: dict[str, Any], status: int) -> None:
    f = text.fields
    # D46: `show FILE --line N` has no query.
    query = json_text(f["query"]) if "query" in f else None
    assert (query, f.get("mode", "fixed"), json_text(f["file"])) == (
        answer["query"],
        answer["mode"],
        answer["file"],
    )
    assert int(f.get("context", 2)) == answer["context"]  # D33: the default is not echoed
    if "line" in f:
        assert answer["matches"] is None
        window = answer["window"]
        assert (int(f["line"]), f["window"]) == (
            answer["line"],
            f"{window['start']}-{window['end']}",
        )
        matches = f.get("window_matches")
        assert (None if matches is None else int(matches)) == answer["window_matches"]
        if answer["definition"] is not None:  # `--scope`: the definition is the window
            assert answer["definition"] == window
        assert int(f["last_line"]) == answer["last_line"]
    else:
        assert None is answer["line"] is answer["window"] is answer["window_matches"]
        _counts(f["matches"], answer["matches"], answer["capped"], "matches")
    assert answer["refused"] == (status == 3)
    assert _lines(text.snippets) == _json_lines(answer["snippets"])
    assert text.scopes == _printed_scopes(answer["snippets"])


@pytest.mark.parametrize(("example", "again"), CASES, ids=[slug(e) for e, _ in CASES])
def test_the_json_answer_says_what_the_text_says(
    example: Example, again: Example, trees: Trees
) -> None:
    result = run_example(again, trees)
    where = f"$ {again.command}  (spec/{example.file.name}:{example.line})"
    assert result.status == example.exit_status, f"{where}: exit {result.status}"
    if example.on_stderr:
        assert result.out == "", f"{where}: an input error prints nothing on stdout"
        assert result.err == _text(example), f"{where}: not the text format's stderr"
        return
    assert result.err == "", where
    answer = one_answer(result.out)
    assert result.out == as_the_models_print(result.out), f"{where}: not the models' bytes"
    text = toon.read(_text(example))
    assert answer["command"] == text.block == shlex.split(example.command)[1], where
    assert answer["schema_version"] == "1"
    assert [n["message"] for n in answer["notices"]] == text.notes, where
    assert answer["next"] == text.next, f"{where}: JSON next is not the text's next: line"
    # D33: a text header leaves the defaults out; JSON keeps every field.
    assert answer["case"] == text.fields.get("case", "sensitive"), where
    assert "mode" not in text.fields or text.fields["mode"] != "fixed", where
    assert text.fields.get("case") != "sensitive", where
    assert answer["types"] == text.lists.get("types", []), where
    assert answer["globs"] == text.lists.get("globs", []), where
    match answer["command"]:
        case "scout":
            _same_scout(text, answer)
        case "survey":
            _same_survey(text, answer)
        case "sample":
            _same_sample(text, answer)
        case "show":
            _same_show(text, answer, result.status)
