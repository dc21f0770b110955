"""The golden harness fails loudly: nothing in spec/ can be skipped without a word."""

from pathlib import Path

import pytest

from tests.golden.examples import SpecFormatError, parse_examples
from tests.golden.prose import numeral_differences
from tests.golden.runner import spec_pairs

FENCE = "```"


def _spec(tmp_path: Path, body: str, name: str = "x.md") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("block", "why"),
    [
        ("$asrch scout a\nout\n", "not a command line"),
        ("  $ asrch scout a\nout\n", "not a command line"),
        ("$ python -m asrch scout a\n", "not a command line"),
        ("out before\n$ asrch scout a\n", "output before the first"),
        ("", "without a command"),
    ],
)
def test_a_malformed_console_block_is_an_error(tmp_path: Path, block: str, why: str) -> None:
    path = _spec(tmp_path, f"# t\n\n{FENCE}console\n{block}{FENCE}\n")
    with pytest.raises(SpecFormatError, match=why):
        parse_examples(path)


def test_an_unclosed_block_and_a_command_in_another_block_are_errors(tmp_path: Path) -> None:
    with pytest.raises(SpecFormatError, match="never closed"):
        parse_examples(_spec(tmp_path, f"{FENCE}console\n$ asrch scout a\n"))
    with pytest.raises(SpecFormatError, match="never run"):
        parse_examples(_spec(tmp_path, f"{FENCE}sh\n$ asrch scout a\n{FENCE}\n"))


def test_well_formed_blocks_parse_every_command(tmp_path: Path) -> None:
    body = f"{FENCE}console\n$ asrch scout a\nx\n$ asrch\n[stderr, exit 2]\n{FENCE}\n"
    found = parse_examples(_spec(tmp_path, body))
    assert [(e.command, e.expected, e.exit_status) for e in found] == [
        ("asrch scout a", ("x",), 0),
        ("asrch", (), 2),
    ]


def test_a_spec_file_without_its_partner_is_an_error(tmp_path: Path) -> None:
    _spec(tmp_path, "# a", "a.md")
    _spec(tmp_path, "# a", "a.en.md")
    _spec(tmp_path, "# b", "b.md")
    _spec(tmp_path, "# c", "c.en.md")
    with pytest.raises(LookupError, match=r"b\.md has no b\.en\.md; c\.en\.md has no c\.md"):
        spec_pairs(tmp_path)


def test_a_number_changed_in_one_language_only_is_found(tmp_path: Path) -> None:
    ja = _spec(tmp_path, "# 題\n\n## 上限\n\n一致は最大 20 件、context は 0〜5。\n", "s.md")
    en = _spec(tmp_path, "# Title\n\n## Bounds\n\nAt most 25 matches, context 0-5.\n", "s.en.md")
    assert numeral_differences(ja, en) == [
        "s.en.md section '## Bounds': only in Japanese ['20'], only in English ['25']"
    ]
    en.write_text("# Title\n\n## Bounds\n\nAt most 20 matches, context 0–5.\n", encoding="utf-8")
    assert numeral_differences(ja, en) == []


def test_numbers_inside_code_blocks_are_left_to_the_example_check(tmp_path: Path) -> None:
    ja = _spec(tmp_path, f"# 題\n\n{FENCE}text\n7\n{FENCE}\n", "s.md")
    en = _spec(tmp_path, f"# Title\n\n{FENCE}text\n8\n{FENCE}\n", "s.en.md")
    assert numeral_differences(ja, en) == []
