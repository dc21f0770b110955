"""Every console example in spec/sample_show*.md runs and prints exactly what it shows."""

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPECS = (ROOT / "spec" / "sample_show.md", ROOT / "spec" / "sample_show.en.md")
_BLOCK = re.compile(r"(?:<!-- corpus: (\w+) -->\n)?```console\n(.*?)```", re.S)

sys.path.insert(0, str(Path(__file__).parent))
import corpora_sample_show as corpora  # noqa: E402


def examples(path: Path) -> list[tuple[str | None, str]]:
    return [(m.group(1), m.group(2)) for m in _BLOCK.finditer(path.read_text("utf-8"))]


def test_both_languages_carry_identical_examples() -> None:
    ja, en = (examples(p) for p in SPECS)
    assert ja == en
    assert len(ja) >= 20


@pytest.fixture(scope="module")
def roots(tmp_path_factory: pytest.TempPathFactory) -> dict[str | None, Path]:
    base = tmp_path_factory.mktemp("spec")
    found: dict[str | None, Path] = {None: base / "corpus"}
    shutil.copytree(ROOT / "fixtures" / "corpus", found[None])
    for name, _ in examples(SPECS[1]):
        if name and name not in found:
            found[name] = base / name
            found[name].mkdir()
            getattr(corpora, name)(found[name])
    return found


@pytest.mark.parametrize("example", examples(SPECS[1]), ids=lambda e: e[1].split("\n")[0])
def test_example(example: tuple[str | None, str], roots: dict[str | None, Path]) -> None:
    corpus, body = example
    command, *expected = body.rstrip("\n").split("\n")
    assert command.startswith("$ asrch ")
    status, on_stderr = 0, False
    if expected and (m := re.fullmatch(r"\[(stderr, )?exit (\d+)\]", expected[-1])):
        on_stderr, status = bool(m.group(1)), int(m.group(2))
        expected = expected[:-1]
    done = subprocess.run(
        [sys.executable, "-m", "asrch", *shlex.split(command)[2:]],
        check=False, cwd=roots[corpus], capture_output=True, timeout=60,
    )
    shown = done.stderr if on_stderr else done.stdout
    assert done.returncode == status
    if on_stderr:
        assert done.stdout == b""
    assert shown.decode("utf-8") == "".join(line + "\n" for line in expected)
