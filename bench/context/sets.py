"""The task sets and their trees: the stdlib (Python, copied from the running
interpreter) and curl (C, a checkout at a pinned commit that this repository never holds).

A tree that is not there, or not the pinned one, stops the run with a message that says
so and how to make it; nothing is downloaded here.
"""

import os
import subprocess
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from bench.context import answers, spans, tasks, tasks_curl, tree
from bench.context.answers import Location, UnresolvedAnswerError
from bench.context.tasks import Task

CURL_TREE_ENV = "ASRCH_CONTEXT_CURL"
CURL_TREE_DEFAULT = Path("/tmp/asrch-context-curl")


class TreeMissingError(RuntimeError):
    """The set's tree is not there, or is not the commit its tasks were written on."""


@dataclass(frozen=True, slots=True)
class TaskSet:
    name: str
    title: str
    """How the doc names the tree."""
    tasks: tuple[Task, ...]
    resolve: Callable[[Path, str], Location]
    json: Path
    """Where `nox -s context` writes the set's calls."""


STDLIB = TaskSet(
    "stdlib",
    "the running interpreter's standard library (Python)",
    tasks.TASKS,
    answers.resolve,
    Path("bench/results/context.json"),
)
CURL = TaskSet(
    "curl",
    f"curl at {tasks_curl.COMMIT[:12]} (C)",
    tasks_curl.TASKS,
    spans.resolve,
    Path("bench/results/context-curl.json"),
)
SETS = {s.name: s for s in (STDLIB, CURL)}


def curl_tree(given: Path | None = None) -> Path:
    """The curl checkout: `given`, else $ASRCH_CONTEXT_CURL, else /tmp/asrch-context-curl."""
    if given is not None:
        return given
    return Path(os.environ.get(CURL_TREE_ENV) or CURL_TREE_DEFAULT)


def how_to_make_curl(where: Path) -> str:
    commit = tasks_curl.COMMIT
    return (
        f"check out {tasks_curl.REPOSITORY} at {commit} there, e.g. "
        f"`git clone https://github.com/{tasks_curl.REPOSITORY} {where} && "
        f"git -C {where} checkout {commit}`, or from a mirror "
        f"`git --git-dir=MIRROR worktree add --detach {where} {commit}`; "
        f"or name another checkout with --tree DIR or ${CURL_TREE_ENV}"
    )


def check_curl(root: Path) -> None:
    """The tree is there and is curl at the pinned commit: HEAD when it is a git checkout,
    and in any case every task's witness on its answer's lines."""
    if not root.is_dir():
        raise TreeMissingError(f"the curl tree is not there: {root}; {how_to_make_curl(root)}")
    if (root / ".git").exists():
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
        head = done.stdout.strip()
        if done.returncode == 0 and head != tasks_curl.COMMIT:
            raise TreeMissingError(
                f"the curl tree {root} is at {head}, not {tasks_curl.COMMIT}; "
                f"{how_to_make_curl(root)}"
            )
    for task in tasks_curl.TASKS:
        try:
            location = spans.resolve(root, task.answer)
        except UnresolvedAnswerError as error:
            raise TreeMissingError(
                f"the curl tree {root} is not curl at {tasks_curl.COMMIT} "
                f"({task.id}: {error}); {how_to_make_curl(root)}"
            ) from None
        lines = (root / location.path).read_text(encoding="utf-8", errors="replace")
        inside = lines.splitlines()[location.start - 1 : location.end]
        if not any(task.witness in line for line in inside):
            raise TreeMissingError(
                f"the curl tree {root} is not curl at {tasks_curl.COMMIT} ({task.id}: "
                f"{task.witness!r} is not on {location.path} {location.start}-{location.end})"
            )


@contextmanager
def _stdlib() -> Iterator[Path]:
    with TemporaryDirectory(prefix="asrch-context-") as tmp:
        yield tree.build(Path(tmp) / "stdlib")


def open_tree(task_set: TaskSet, given: Path | None = None) -> AbstractContextManager[Path]:
    """The tree to search, for the length of the run: the stdlib copied to a temporary
    directory; curl checked in place (it is only read)."""
    if task_set.name == "stdlib":
        return _stdlib()
    root = curl_tree(given).resolve()
    check_curl(root)
    return nullcontext(root)
