"""Rewrite the documented outputs of spec/ from what asrch prints now.

Only after an intended change (`nox -s update`): review the diff before committing.
Both languages get the same new text, example by example.
"""

import os
import shutil
from pathlib import Path

from tests.golden.examples import Example, parse_examples, render_expected
from tests.golden.runner import Trees, new_base, run_example, spec_pairs


def _rewrite(path: Path, examples: list[Example], bodies: list[list[str]]) -> bool:
    lines = path.read_text(encoding="utf-8").split("\n")
    # Bottom-up, so earlier line numbers stay valid.
    for example, body in sorted(zip(examples, bodies, strict=True), key=lambda p: -p[0].line):
        lines[example.line : example.end_line] = body
    new = "\n".join(lines)
    changed = new != path.read_text(encoding="utf-8")
    path.write_text(new, encoding="utf-8")
    return changed


def main() -> None:
    base = new_base()
    # The spec's `asrch index` examples write an index: into a cache of this run's own
    # (as the suite's, tests/conftest.py), never the user's `~/.cache/asrch`.
    cache = base / "xdg-cache"
    (cache / "asrch").mkdir(parents=True)
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(cache)
    try:
        _update(Trees(base))
    finally:
        if saved is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = saved
        # Each run copies the corpora (≈46 MB): left behind, they filled /tmp.
        shutil.rmtree(base, ignore_errors=True)


def _update(trees: Trees) -> None:
    for japanese, english in spec_pairs():
        ja = parse_examples(japanese)
        bodies = []
        for example in ja:
            result = run_example(example, trees)
            bodies.append(render_expected(result.out, result.err, result.status))
        for path in (japanese, english):
            examples = parse_examples(path)
            if len(examples) != len(ja):
                raise SystemExit(
                    f"{path.name}: {len(examples)} examples, {japanese.name} {len(ja)}"
                )
            if _rewrite(path, examples, bodies):
                print(f"rewrote {path.relative_to(path.parents[1])}")


if __name__ == "__main__":
    main()
