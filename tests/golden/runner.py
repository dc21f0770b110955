"""Run one spec example the way a user would: the CLI's entry, in a fresh tree
(tests/support/cli.py: in-process, or a fresh interpreter with ASRCH_TESTS_COLD=1)."""

import importlib
import os
import pkgutil
import re
import shlex
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.golden.examples import Example
from tests.support.cli import Result, run_asrch

ROOT = Path(__file__).resolve().parents[2]
SPEC_DIR = ROOT / "spec"
CORPUS = ROOT / "fixtures" / "corpus"

Generator = Callable[[Path], None]


def generators() -> dict[str, Generator]:
    """Every public function of the tests/golden/corpora*.py modules, by name."""
    found: dict[str, Generator] = {}
    package = Path(__file__).parent
    for info in pkgutil.iter_modules([str(package)]):
        if not info.name.startswith("corpora"):
            continue
        module = importlib.import_module(f"tests.golden.{info.name}")
        for name, obj in vars(module).items():
            if (
                callable(obj)
                and not name.startswith("_")
                and getattr(obj, "__module__", "") == module.__name__
            ):
                found[name] = obj
    return found


def spec_pairs(spec_dir: Path = SPEC_DIR) -> list[tuple[Path, Path]]:
    """(Japanese, English) files of spec/: `X.md` beside `X.en.md`.

    A file without its partner in the other language is an error, not a file skipped.
    """
    japanese = {p.name.removesuffix(".md") for p in spec_dir.glob("*.md")} - {
        p.name.removesuffix(".md") for p in spec_dir.glob("*.en.md")
    }
    english = {p.name.removesuffix(".en.md") for p in spec_dir.glob("*.en.md")}
    lonely = sorted(
        [f"{stem}.md has no {stem}.en.md" for stem in japanese - english]
        + [f"{stem}.en.md has no {stem}.md" for stem in english - japanese]
    )
    if lonely:
        raise LookupError(f"{spec_dir.name}/: " + "; ".join(lonely))
    return [(spec_dir / f"{stem}.md", spec_dir / f"{stem}.en.md") for stem in sorted(japanese)]


class Trees:
    """Fresh corpus copies per example; generated trees built once per session."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self._generated: dict[str, Path] = {}
        self._gens = generators()
        self._count = 0

    def for_example(self, example: Example) -> Path:
        if example.corpus is None:
            self._count += 1
            target = self.base / f"corpus-{self._count}"
            shutil.copytree(CORPUS, target, symlinks=True)
            return target
        if example.corpus not in self._generated:
            if example.corpus not in self._gens:
                raise LookupError(f"{example.location}: no corpus generator {example.corpus!r}")
            target = self.base / f"gen-{example.corpus}"
            target.mkdir()
            self._gens[example.corpus](target)
            self._generated[example.corpus] = target
        return self._generated[example.corpus]


def outside_git(path: Path) -> bool:
    return not any((parent / ".git").exists() for parent in [path, *path.parents])


def run_example(example: Example, trees: Trees, *, cwd: Path | None = None) -> Result:
    """`example` run in a tree of its corpus: `cwd` when the caller made it (to read it
    after), else a fresh one."""
    words = shlex.split(example.command)
    if not words or words[0] != "asrch":
        raise ValueError(f"{example.location}: examples run asrch, not {example.command!r}")
    cwd = trees.for_example(example) if cwd is None else cwd
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RIPGREP", "ASRCH_"))}
    return run_asrch(words[1:], cwd=cwd, environ=env)


def slug(example: Example) -> str:
    text = re.sub(r"[^A-Za-z0-9]+", "-", example.command.removeprefix("asrch ")).strip("-")
    stem = example.file.name.removesuffix(".md")
    prefix = f"{stem}-{example.corpus}" if example.corpus else stem
    return f"{prefix}-{text[:60]}"


def new_base() -> Path:
    return Path(tempfile.mkdtemp(prefix="asrch-golden-"))
