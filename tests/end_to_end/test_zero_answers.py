"""D43 and D45 end to end: a zero answer's one note comes from at most one more search,
and a probe that fails drops only the hint, never the answer."""

import os
import stat
from pathlib import Path

import pytest

from asrch.engine.binary import resolve_rg
from asrch.engine.mock_rg import MockRg, Reply, Request, recorded
from tests.end_to_end.helpers import as_json, asrch, check_invariants
from tests.support.cli import run_asrch
from tests.support.toon import notes

NOTE_MAX = 160


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    (root / "src" / "net").mkdir(parents=True)
    (root / "src" / "net" / "log.h").write_text("#define LOG_DEBUG 1\nLOG_DEBUG(x);\n")
    (root / "src" / "codec.py").write_text("def py_encode_basestring_ascii(s):\n")
    (root / "blob.bin").write_bytes(b"LOG_DEBUG\0binary\n")
    return root


def _wrapper(tmp_path: Path, when: str, then: str) -> dict[str, str]:
    """An rg that runs as the real one unless one of its arguments is `when`."""
    script = tmp_path / "rg-wrapper"
    script.write_text(
        "#!/bin/sh\n"
        f'for a in "$@"; do [ "$a" = "{when}" ] && {{ {then}; }}; done\n'
        f'exec {resolve_rg()} "$@"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "ASRCH_RG": str(script)}


def _note(out: str) -> str:
    (note,) = notes(out)
    assert len(note.removeprefix("note: ").encode()) <= NOTE_MAX, note
    return note


def test_each_probe_points_where_the_term_is(tree: Path) -> None:
    # D57: under . in either case, 1 search: the term elsewhere, or elsewhere in another case.
    wider = asrch("scout", "LOG_DEBUG", "src/codec.py", cwd=tree)
    assert _note(wider.out) == (
        "note: no matches here; under . with -i: 2 lines in 1 file, most in src/net/log.h"
    )
    other_case = asrch("scout", "log_debug", "src/codec.py", cwd=tree)
    assert _note(other_case.out) == _note(wider.out)
    nowhere = asrch("scout", "absent_everywhere", "src", cwd=tree)
    assert _note(nowhere.out).startswith("note: no matches, under . either, even with -i; ")
    case = asrch("scout", "log_debug", cwd=tree)
    assert _note(case.out) == (
        "note: no matches in this case; with -i: 2 lines in 1 file, most in src/net/log.h"
    )
    inside = asrch("scout", "-i", "--identifier", "encode_basestring_ascii", cwd=tree)
    assert "most in src/codec.py" in _note(inside.out)
    here = asrch("scout", "LOG_DEBUG", "src/net/log.h", cwd=tree)
    assert notes(here.out) == []
    elsewhere = asrch("show", "LOG_DEBUG", "src/codec.py", cwd=tree)
    assert _note(elsewhere.out) == (
        "note: no matches here; under . with -i: 2 lines in 1 file, most in src/net/log.h"
    )
    for run in (wider, other_case, nowhere, case, inside, here, elsewhere):
        check_invariants(run, frozenset({0}))
        assert "next:" not in run.out


def test_the_binary_count_is_said_only_in_the_zero_note(tree: Path) -> None:
    """D45: 1 binary file; the text says it only when nothing matched; JSON always."""
    found = asrch("scout", "LOG_DEBUG", cwd=tree)
    assert "binary" not in found.out
    binary = [n for n in as_json(found)["notices"] if n["kind"] == "binary"]
    assert binary == [{"kind": "binary", "message": "1 binary file skipped"}]
    missing = asrch("scout", "-i", "absent_everywhere", cwd=tree)
    assert _note(missing.out) == (
        "note: no matches; not searched: 1 binary file, and ignored, hidden and excluded "
        "ones (see asrch --help)"
    )


def test_a_grep_construct_is_named(tree: Path) -> None:
    run = asrch("scout", "-i", "--regex", r"LOG_DEBUG\|codec", cwd=tree)
    assert _note(run.out) == (
        r"note: no matches; \| is a literal |, not OR: use survey --term A --term B"
    )
    run = asrch("scout", "-i", "--regex", r"LOG_\(DEBUG\)\+", cwd=tree)
    said = r"note: no matches; rg reads \( \) \+ literally, not as grep does: write ( ) +"
    assert _note(run.out) == said


def _probe_broke(request: Request) -> Reply:
    """rg as it is, but for the case probe, which it refuses."""
    if "--ignore-case" in request.argv:
        return Reply(stderr=b"rg: the probe broke\n", status=2)
    return recorded(request)


@pytest.mark.parametrize("fails", ["rg breaks", "the tree goes"])
def test_a_probe_that_fails_drops_only_the_hint(tree: Path, tmp_path: Path, fails: str) -> None:
    """The case probe (`--ignore-case`) fails: rg breaks, or what it searches goes away
    between the search and the probe (a race: the rg before the probe's removes it).
    The answer stands: 0, exit 0, the plain zero note."""
    if fails == "rg breaks":
        run = run_asrch(["scout", "log_debug"], cwd=tree, transport=MockRg(_probe_broke))
    else:
        env = _wrapper(tmp_path, "--ignore-case", f"cd {tree} && rm -rf src")
        run = asrch("scout", "log_debug", cwd=tree, env=env)
    check_invariants(run, frozenset({0}))
    assert run.out.startswith("scout:\n  matches: 0\n  files: 0\nnote: no matches"), str(run)
    assert "with -i" not in run.out


def test_a_survey_where_nothing_matched_says_the_binary_files_in_its_note(tree: Path) -> None:
    """D43/D45 in survey: only when every pair is zero, one note, the binary count in it;
    no short-term hint for a term that matched nowhere."""
    run = asrch("survey", "--term=zq", "--term=absent_everywhere", cwd=tree)
    check_invariants(run, frozenset({0}))
    assert notes(run.out) == [
        "note: no matches; not searched: 1 binary file, and ignored, hidden and excluded "
        "ones (see asrch --help)"
    ]
    some = asrch("survey", "--term=zq", "--term=LOG_DEBUG", cwd=tree)
    assert not any("binary" in n or "no matches" in n for n in notes(some.out)), str(some)


LONG = "a-glob-long-enough-that-several-overflow-the-note-*.zz"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # A filter that kept no file is why: it is the note, and nothing else is.
        (
            ("scout", "LOG_DEBUG", "src/net", "--glob", "*.py"),
            'note: --glob "*.py" matched no file under src/net',
        ),
        # The wider search (the same filters under .) is added only when it found lines.
        (
            ("scout", "py_encode", "src/net", "--glob", "*.py"),
            'note: --glob "*.py" matched no file under src/net; under .: 1 line in 1 file, '
            "most in src/codec.py",
        ),
        # A type that matched no file is said as a glob is (D38), in place of the zero note.
        (("scout", "LOG_DEBUG", "--type", "rust"), "note: --type rust matched no file under ."),
        (
            ("scout", "-i", "LOG_DEBUG", "--type", "rust"),
            "note: --type rust matched no file under .",
        ),
        (
            ("survey", "--term=LOG_DEBUG", "--term=zq", "--type=rust", "src"),
            "note: --type rust matched no file under src",
        ),
        # Each of several include globs matched nothing: one note names them all.
        (
            ("scout", "LOG_DEBUG", "--glob", "*.c", "--glob", "*.rs"),
            'note: --glob "*.c", "*.rs" matched no file under .',
        ),
        # Names that do not fit 160 bytes are counted, the first one kept.
        (
            ("scout", "py_encode", "src/net", "--glob", "*.py", *(["--glob", LONG] * 3)),
            f'note: --glob "*.py", "{LONG}" and 2 more matched no file under src/net',
        ),
        # The filters kept files: the zero note alone; `--type c` removed none of src/net's
        # files, but did not make the answer zero.
        (
            ("scout", "-i", "absent_everywhere", "src/net", "--type", "c"),
            "note: no matches in the files --type / --glob keep, under . either; not "
            "searched: ignored, hidden and excluded files (see asrch --help)",
        ),
    ],
)
def test_a_zero_answer_with_filters_has_one_note(
    tree: Path, args: tuple[str, ...], said: str
) -> None:
    """D43 with D38: 1 note of at most 160 bytes, the most useful one."""
    run = asrch(*args, cwd=tree)
    check_invariants(run, frozenset({0}))
    assert _note(run.out) == said
    json_notes = as_json(run)["notices"]
    assert [n["message"] for n in json_notes if n["kind"] != "binary"] == [
        said.removeprefix("note: ")
    ]


def test_a_survey_filter_that_emptied_one_directory_did_something(tmp_path: Path) -> None:
    """D38 in survey: `--glob '*.h'` matched no file under b (it removed b's files) and
    removed none under a: it did something, so no note says it removed none anywhere."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.h").write_text("LOGGER\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "y.py").write_text("LOGGER\n")
    run = asrch("survey", "--term=LOGGER", "--glob=*.h", "a", "b", cwd=tmp_path)
    check_invariants(run, frozenset({0}))
    assert notes(run.out) == [], run.out
    both = asrch("survey", "--term=LOGGER", "--glob=*.c", "a", "b", cwd=tmp_path)
    assert notes(both.out) == ['note: --glob "*.c" matched no file under any path searched']
