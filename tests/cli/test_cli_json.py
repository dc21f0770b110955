"""`--format` on the command line: its own input errors, and every failure the same in
both formats (one line on stderr, the same status, nothing on stdout)."""

import io
import json
import os
import shutil
from pathlib import Path

import pytest

from asrch.cli import main
from asrch.engine.mock_rg import MockRg, Reply
from asrch.engine.searcher import RipgrepSearcher
from tests.contract.schemas import one_answer
from tests.end_to_end.helpers import asrch

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("json-cli") / "corpus"
    shutil.copytree(CORPUS, root)
    return root


@pytest.mark.parametrize("value", ["yaml", "", "JSON", "text,json", "toon"])
def test_a_format_that_is_not_text_or_json_is_an_input_error(corpus: Path, value: str) -> None:
    for command in (["scout", "connect"], ["survey", "--term", "connect"]):
        run = asrch(command[0], f"--format={value}", *command[1:], cwd=corpus)
        assert (run.status, run.out) == (2, ""), run
        assert run.err.startswith("error: --format takes text or json, got "), run
        assert run.err.count("\n") == 1, run
        assert (f'"{value}"' if value in ("", "text,json") else value) in run.err


def test_the_format_is_checked_before_anything_is_searched(corpus: Path) -> None:
    run = asrch("sample", "--format", "xml", "hit", "no-such-file", cwd=corpus)
    assert (run.status, run.out, run.err) == (
        2,
        "",
        "error: --format takes text or json, got xml\n",
    )


def test_a_format_without_its_value_is_an_input_error(corpus: Path) -> None:
    run = asrch("scout", "connect", "--format", cwd=corpus)
    assert (run.status, run.out, run.err) == (
        2,
        "",
        "error: --format needs a value; nothing follows it\n",
    ), run


def test_text_is_the_default_and_explicit_text_is_the_same(corpus: Path) -> None:
    plain = asrch("scout", "connect", "src", cwd=corpus)
    text = asrch("scout", "--format", "text", "connect", "src", cwd=corpus)
    assert plain.status == text.status == 0
    assert plain.stdout == text.stdout and plain.stdout.startswith(b"scout:\n")


@pytest.mark.parametrize(
    "reply",
    [
        Reply(stderr=b"rg: something broke\n", status=3),
        Reply(stdout=b"this is not ripgrep output\n"),
    ],
    ids=["failing-rg", "junk-rg"],
)
def test_an_engine_failure_is_the_same_in_both_formats(tmp_path: Path, reply: Reply) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    mock = MockRg(lambda request: reply)

    def run(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        status = main(
            list(argv),
            searchers=lambda census: RipgrepSearcher(
                "rg", cwd=str(tmp_path), transport=mock, census=census
            ),
            cwd=str(tmp_path),
            stdout=out,
            stderr=err,
        )
        return status, out.getvalue(), err.getvalue()

    for command in (["scout", "x", "."], ["show", "x", "a.txt"]):
        text = run(*command)
        as_json = run(command[0], "--format", "json", *command[1:])
        assert text[0] == as_json[0] == 4, (text, as_json)
        assert as_json[1] == "" and as_json[2] == text[2], (text, as_json)
        assert text[2].startswith("error: ") and text[2].count("\n") == 1, text


def test_a_name_that_is_not_utf8_is_shown_as_the_text_shows_it(tmp_path: Path) -> None:
    (tmp_path / os.fsdecode(b"caf\xe9 \x1b.py")).write_text("connect\nconnect()\n")
    run = asrch("scout", "--format", "json", "connect", ".", cwd=tmp_path)
    assert run.status == 0, run
    answer = one_answer(run.out)
    assert answer["top_files"] == [{"path": "caf\\xe9 \x1b.py", "matches": 2}]
    assert "\x1b" not in run.out, "JSON escapes control characters"
    text = asrch("scout", "connect", ".", cwd=tmp_path)
    assert '\n"caf\\xe9 \\u001b.py"\n1:connect\n' in text.out


def test_sample_and_show_files_with_hostile_lines(tmp_path: Path) -> None:
    lines = [b"hit \xff\xfe bytes", b"hit \x1b[31m red", b"hit \xc2\x85 nel \xe2\x80\xa8 ls", b"x"]
    (tmp_path / "f.txt").write_bytes(b"\r\n".join(lines) + b"\n")
    for command in (["sample", "hit", "f.txt"], ["show", "hit", "f.txt"]):
        run = asrch(command[0], "--format", "json", *command[1:], cwd=tmp_path)
        assert run.status == 0, run
        answer = one_answer(run.out)
        snippets = answer["shown"][0]["snippets"] if command[0] == "sample" else answer["snippets"]
        texts = [line["text"] for s in snippets for line in s["lines"]]
        assert "hit \\xff\\xfe bytes" in texts and "hit ␛[31m red" in texts
        assert "hit \\u0085 nel \\u2028 ls" in texts
        assert all("\r" not in t for t in texts)
        assert json.loads(run.out) == answer
