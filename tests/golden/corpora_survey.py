"""Generated trees for the survey examples that need volume (not committed)."""

from pathlib import Path


def survey_volume(root: Path) -> None:
    """`beta` is broad in `wide/` (1,500 lines) and capped in `deep/` (60,000 lines)."""
    (root / "wide").mkdir()
    (root / "deep").mkdir()
    (root / "wide" / "a.txt").write_text("beta\n" * 1_500 + "alpha\n" * 20)
    (root / "deep" / "huge.txt").write_text("beta\n" * 60_000)
    (root / "deep" / "small.txt").write_text("alpha\n" * 5)
