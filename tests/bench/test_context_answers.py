"""The answer resolver, and the task set held to the issue's rules on this interpreter."""

import ast
import re
from pathlib import Path

import pytest
from bench.context import tree
from bench.context.answers import Location, UnresolvedAnswerError, resolve
from bench.context.tasks import KINDS, TASKS, Task

MODULE = '''\
"""A module."""
import sys

LIMIT = 10
NAMED: int = 3


class Box:
    size = 4

    @property
    @staticmethod
    def width(self):
        return 1

    def grow(self):
        def helper():
            return 2

        return helper()


if sys.platform == "win32":
    def spawn():
        return "win"
else:
    try:
        import fcntl
    except ImportError:
        def lock():
            return None

    def spawn():
        return "posix"

    def spawn_posix():
        return "posix"


def twice():
    pass


def twice():
    pass
'''


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("VERSION = '1'\n")
    (tmp_path / "pkg" / "sub" / "mod.py").write_text(MODULE)
    (tmp_path / "flat.py").write_text("def f():\n    return 0\n")
    return tmp_path


@pytest.mark.parametrize(
    ("name", "start", "end"),
    [
        ("pkg.sub.mod:LIMIT", 4, 4),
        ("pkg.sub.mod:NAMED", 5, 5),
        ("pkg.sub.mod:Box", 8, 20),
        ("pkg.sub.mod:Box.size", 9, 9),
        ("pkg.sub.mod:Box.width", 11, 14),  # from the first decorator
        ("pkg.sub.mod:Box.grow.helper", 17, 18),
        ("pkg.sub.mod:lock", 30, 31),  # inside if/else and try/except
        ("pkg.sub.mod:spawn_posix", 36, 37),
        ("pkg:VERSION", 1, 1),  # a package is its __init__.py
        ("flat:f", 1, 2),
    ],
)
def test_resolves_to_file_and_lines(lib: Path, name: str, start: int, end: int) -> None:
    location = resolve(lib, name)
    assert location.start == start
    assert location.end == end
    assert (lib / location.path).is_file()
    assert "\\" not in location.path


def test_paths_are_relative_to_the_tree(lib: Path) -> None:
    assert resolve(lib, "pkg.sub.mod:LIMIT").path == "pkg/sub/mod.py"
    assert resolve(lib, "pkg:VERSION").path == "pkg/__init__.py"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("pkg.sub.mod:spawn", "defined 2 times (lines 24, 33)"),  # if and else branches
        ("pkg.sub.mod:twice", "defined 2 times"),
        ("pkg.sub.mod:missing", "missing is not defined there"),
        ("pkg.sub.mod:LIMIT.real", "LIMIT is not defined there"),  # only a definition has parts
        ("pkg.sub.mod:Box.size.real", "size is not defined there"),
        ("pkg.sub.mod:Box.helper", "helper is not defined there"),  # not searched deeper
        ("pkg.nothere:x", "module pkg.nothere has no source file"),
        ("pkg.sub.mod", "is not of the form"),
        ("pkg.sub.mod:sys", "sys is not defined there"),  # an import is no definition
    ],
)
def test_refuses_what_names_nothing_or_two_things(lib: Path, name: str, reason: str) -> None:
    with pytest.raises(UnresolvedAnswerError, match=re.escape(reason)):
        resolve(lib, name)


def test_alternatives_first_that_resolves(lib: Path) -> None:
    assert resolve(lib, "pkg.gone:f | flat:f") == Location("flat.py", 1, 2)
    assert resolve(lib, "flat:f | pkg:VERSION") == Location("flat.py", 1, 2)
    with pytest.raises(UnresolvedAnswerError, match=r"pkg\.gone.*flat:g"):
        resolve(lib, "pkg.gone:f | flat:g")


def test_location_holds_only_its_file_and_lines() -> None:
    location = Location("a/b.py", 10, 12)
    assert location.holds("a/b.py", 10)
    assert location.holds("a/b.py", 12)
    assert not location.holds("a/b.py", 9)
    assert not location.holds("a/b.py", 13)
    assert not location.holds("b.py", 11)
    assert not location.holds("./a/b.py", 11)


# --- the task set ---------------------------------------------------------------------


def test_task_set_follows_the_issue() -> None:
    assert len(TASKS) >= 25
    assert len({t.id for t in TASKS}) == len(TASKS)
    assert {t.kind for t in TASKS} == set(KINDS)
    top_level = {t.answer.split(":")[0].split(".")[0] for t in TASKS}
    assert len(top_level) >= 20, "spread over packages"
    for task in TASKS:
        assert 2 <= len(task.candidates) <= 6, task.id
        assert len(set(task.candidates)) == len(task.candidates), task.id
        identifier = task.answer.split(" | ")[0].rsplit(":", 1)[1].rsplit(".", 1)[-1]
        assert list(task.candidates) != [identifier], task.id
        assert not any(c.startswith("-") for c in task.candidates), task.id
        assert task.witness not in task.candidates or len(task.candidates) > 1, task.id


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_every_answer_resolves_here_and_holds_its_witness(task: Task) -> None:
    """Resolved against this interpreter's stdlib, as the benchmark resolves it (the
    copy has the same files): the answer exists once and still says what the task says."""
    source = tree.stdlib_source()
    location = resolve(source, task.answer)
    lines = (source / location.path).read_text(encoding="utf-8").splitlines()
    assert any(task.witness in line for line in lines[location.start - 1 : location.end])
    # The range is the definition itself: it starts on a def/class/assignment line.
    first = lines[location.start - 1].strip()
    assert first.startswith(("def ", "async def ", "class ", "@")) or "=" in first


def test_the_tree_leaves_out_site_packages_and_caches(tmp_path: Path) -> None:
    source = tmp_path / "lib"
    (source / "site-packages" / "thirdparty").mkdir(parents=True)
    (source / "site-packages" / "thirdparty" / "x.py").write_text("x = 1\n")
    (source / "email" / "__pycache__").mkdir(parents=True)
    (source / "email" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0pyc")
    (source / "email" / "a.py").write_text("A = 1\n")
    built = tree.build(tmp_path / "copy", source)
    assert sorted(p.relative_to(built).as_posix() for p in built.rglob("*")) == [
        "email",
        "email/a.py",
    ]
    assert ast.parse((built / "email" / "a.py").read_text()).body
