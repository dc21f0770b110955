"""rg's stderr sorted by rule (D21): per-path lines of met paths are skipped files,
log lines name binary files, anything else is a complaint, never a skip."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.errors import EngineError
from asrch.engine.stderr import RgRefusedError, RgSaid, judge, read_stderr, reason_of

# Names as rg prints them: anything but `/` and NUL, `: ` and newlines included, but
# no line of theirs starting `rg: ` (rg's own framing could not tell that apart).
_NAME = st.text(
    st.characters(exclude_characters="/\0", exclude_categories=["Cs"]), min_size=1
).filter(lambda n: "\nrg: " not in n and not n.startswith("rg: "))
_OPERAND = st.sampled_from([".", "./", "src", "src/", "src//", "./src", "/abs/dir", "-", "a b"])
_REASON = st.sampled_from(
    [
        "Permission denied (os error 13)",
        "Input/output error (os error 5)",
        "No such file or directory (os error 2)",
    ]
)
_COMPLAINT = st.sampled_from(
    [
        'the literal "\\n" is not allowed in a regex\n\nConsider enabling multiline mode.',
        "error parsing flag --regexp: value is not valid UTF-8",
        "regex parse error:\n    (?:a()\n       ^\nerror: unclosed group",
        "compiled regex exceeds size limit of 104857600",
        "unrecognized flag --frobnicate",
        "something broke",
    ]
)


def _joined(operand: str, names: list[str]) -> str:
    """A walked path as rg prints it: the operand, `/` unless it ends in one, names."""
    return operand + ("" if operand.endswith("/") else "/") + "/".join(names)


@st.composite
def _stderr(draw: st.DrawFn) -> tuple[bytes, list[str], int, list[bytes]]:
    operands = draw(st.lists(_OPERAND, min_size=1, max_size=3, unique=True))
    lines: list[str] = []
    skipped = 0
    binary: list[bytes] = []
    for _ in range(draw(st.integers(0, 12))):
        operand = draw(st.sampled_from(operands))
        kind = draw(st.sampled_from(["skip", "self", "binary", "debug"]))
        if kind == "skip":
            path = _joined(operand, draw(st.lists(_NAME, min_size=1, max_size=3)))
            lines.append(f"rg: {path}: {draw(_REASON)}")
            skipped += 1
        elif kind == "self":
            lines.append(f"rg: {operand}: {draw(_REASON)}")
            skipped += 1
        elif kind == "binary":
            path = _joined(operand, draw(st.lists(_NAME, min_size=1, max_size=3)))
            offset = draw(st.integers(0, 10**9))
            lines.append(
                "rg: DEBUG|grep_printer::summary|crates/printer/src/summary.rs:698: "
                f"ignoring {path}: found binary data at offset {offset}"
            )
            binary.append(path.encode())
        else:
            lines.append("rg: DEBUG|rg::flags::hiargs|crates/core/flags/hiargs.rs:174: x")
    data = "".join(line + "\n" for line in lines).encode()
    return data, operands, skipped, binary


@given(_stderr())
def test_per_path_lines_are_skips_and_log_lines_name_binary_files(
    case: tuple[bytes, list[str], int, list[bytes]],
) -> None:
    data, operands, skipped, binary = case
    said = read_stderr(data, operands)
    assert said._replace(log=b"") == RgSaid(skipped=skipped, binary=len(binary))
    assert said.binary_paths() == binary


@given(_stderr(), _COMPLAINT, st.integers(0, 12))
def test_any_other_message_is_a_complaint_wherever_it_stands(
    case: tuple[bytes, list[str], int, list[bytes]], complaint: str, at: int
) -> None:
    data, operands, skipped, binary = case
    lines = data.split(b"\n")[:-1]
    # Between messages only: a name holding a newline spans several lines.
    starts = [i for i, line in enumerate(lines) if line.startswith(b"rg: ")] + [len(lines)]
    lines.insert(starts[min(at, len(starts) - 1)], b"rg: " + complaint.encode())
    said = read_stderr(b"".join(line + b"\n" for line in lines), operands)
    assert said.complaint == complaint
    assert (said.skipped, said.binary, said.binary_paths()) == (skipped, len(binary), binary)
    for status in (0, 1, 2):
        with pytest.raises(RgRefusedError):
            judge(status, said)


@pytest.mark.parametrize(
    ("operand", "message"),
    [
        ("src", "rg: src2/a.py: Permission denied (os error 13)"),
        ("src", "rg: srca.py: Permission denied (os error 13)"),
        (".", "rg: error parsing flag --regexp: value is not valid UTF-8"),
        ("the", 'rg: the literal "\\n" is not allowed in a regex'),
    ],
)
def test_a_path_that_is_not_the_operand_or_under_it_is_no_skip(operand: str, message: str) -> None:
    said = read_stderr(message.encode() + b"\n", [operand])
    assert said.skipped == 0 and said.complaint is not None


def test_a_non_utf8_operand_is_matched_as_rg_displays_it() -> None:
    operand = b"caf\xe9".decode("utf-8", "surrogateescape")
    line = "rg: caf\ufffd/x.txt: Permission denied (os error 13)\n".encode()
    assert read_stderr(line, [operand]).skipped == 1


@pytest.mark.parametrize(
    ("complaint", "reason"),
    [
        (
            'the literal "\\n" is not allowed in a regex\n\nConsider enabling multiline mode',
            'the literal "\\n" is not allowed in a regex',
        ),
        ("error parsing flag --regexp: value is not valid UTF-8", "value is not valid UTF-8"),
        ("regex parse error:\n    (?:a()\n       ^\nerror: unclosed group", "unclosed group"),
        ("weird\x1b[31m", "weird\\u001b[31m"),
        ("", "rg gave no reason"),
    ],
)
def test_reason_is_one_printable_line(complaint: str, reason: str) -> None:
    assert reason_of(complaint) == reason


def test_statuses() -> None:
    skipped = RgSaid(skipped=1)
    assert judge(0, RgSaid()) == RgSaid()
    assert judge(1, RgSaid()) == RgSaid()
    assert judge(2, skipped) == skipped
    for status, said in ((2, RgSaid()), (3, skipped), (101, RgSaid()), (-9, RgSaid())):
        with pytest.raises(EngineError) as caught:
            judge(status, said)
        assert not isinstance(caught.value, RgRefusedError)
