"""The benchmark's trees: tiny, the stdlib, and a generated ~10,000-file tree."""

import random
import sysconfig
from pathlib import Path

CACHE = Path(__file__).resolve().parents[1] / ".bench-cache"
WORDS = ("alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "lambda", "theta")


def tiny(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "a.py").write_text("def connect():\n    return 1\n")
    (root / "b.py").write_text("connect()\n")
    return root


def stdlib() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def generated() -> Path:
    """10,000 files in 100 directories; `needle` is on 60,000 lines in all.

    Built once (deterministic: a fixed seed) and kept under .bench-cache/.
    """
    root = CACHE / "gen10k"
    done = root / ".complete"
    if done.exists():
        return root
    rng = random.Random(20261202)
    for d in range(100):
        folder = root / f"pkg{d:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        for f in range(100):
            lines = []
            for i in range(30):
                if i < 6:
                    lines.append(f"needle {rng.choice(WORDS)} {i}")
                else:
                    lines.append(" ".join(rng.choice(WORDS) for _ in range(8)))
            (folder / f"mod{f:03d}.py").write_text("\n".join(lines) + "\n")
    done.write_text("ok\n")
    return root


def dense_file(root: Path) -> Path:
    """One file of 60,000 matching lines, for sample and show."""
    root.mkdir(parents=True, exist_ok=True)
    path = root / "dense.txt"
    path.write_text("".join(f"dense line {i}\n" for i in range(60_000)))
    return path
