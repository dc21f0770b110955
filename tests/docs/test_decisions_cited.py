"""Every decision and issue number the repository cites is defined in docs/decisions.md,
so no reference points outside the repository."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECISIONS = ROOT / "docs" / "decisions.md"
CITING = ("src", "tests", "docs", "spec", "bench", "README.md", "CHANGELOG.md", "noxfile.py")
SUFFIXES = {".py", ".md"}


def _cited(pattern: re.Pattern[str]) -> dict[str, str]:
    """Each cited number with one file that cites it."""
    found: dict[str, str] = {}
    for name in CITING:
        top = ROOT / name
        files = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in files:
            if path.suffix not in SUFFIXES or path == DECISIONS or not path.is_file():
                continue
            for number in pattern.findall(path.read_text(encoding="utf-8", errors="replace")):
                found.setdefault(number, str(path.relative_to(ROOT)))
    return found


def test_every_cited_decision_is_defined() -> None:
    defined = set(re.findall(r"^\| (D\d+) \|", DECISIONS.read_text(encoding="utf-8"), re.M))
    cited = _cited(re.compile(r"\b(D\d{1,2})\b"))
    missing = {number: where for number, where in cited.items() if number not in defined}
    assert not missing, f"cited but not in docs/decisions.md: {missing}"


def test_every_cited_issue_is_listed() -> None:
    listed = set(re.findall(r"^\| (\d+) \|", DECISIONS.read_text(encoding="utf-8"), re.M))
    cited = _cited(re.compile(r"\b[Ii]ssues? (\d+)\b"))
    missing = {number: where for number, where in cited.items() if number not in listed}
    assert not missing, f"cited but not in docs/decisions.md: {missing}"
