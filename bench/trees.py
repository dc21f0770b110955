"""The benchmark's trees: tiny, the stdlib, a generated ~10,000-file tree, and `large`
(≥ 320 MB of real source text)."""

import random
import shutil
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


# The `large` tree: real source text, ≥ LARGE_MIN_BYTES of it, as a monorepo holds it.
LARGE_MIN_BYTES = 320_000_000
# Text a code search reads; archives, objects, audio and images are left behind.
TEXT_SUFFIXES = frozenset(
    [
        ".py",
        ".pyi",
        ".txt",
        ".rst",
        ".md",
        ".c",
        ".h",
        ".json",
        ".toml",
        ".cfg",
        ".ini",
        ".html",
        ".xml",
        ".css",
        ".js",
        ".sh",
        ".decTest",
        ".pem",
        ".csv",
        ".yaml",
        ".yml",
    ]
)
_NOT_SOURCE = frozenset(("site-packages", "dist-packages", "__pycache__"))


def _text_files(root: Path) -> list[tuple[Path, int]]:
    """(path relative to root, size) of every text file below root, sorted, no links."""
    found: list[tuple[Path, int]] = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if _NOT_SOURCE.intersection(rel.parts) or path.is_symlink() or not path.is_file():
            continue
        if path.suffix in TEXT_SUFFIXES:
            found.append((rel, path.stat().st_size))
    return found


def large() -> Path:
    """The interpreter's stdlib (its text files) copied under `copy00/`, `copy01/`, …
    until the copies with the interpreter's own site-packages (`site/`, its text files)
    hold ≥ LARGE_MIN_BYTES.

    Deterministic for a given interpreter and environment: sorted walks, a fixed
    number of copies. Built once under .bench-cache/ (ignored by git); a changed
    source (another interpreter or venv) rebuilds it.
    """
    source = f"{sysconfig.get_paths()['stdlib']}\n{sysconfig.get_paths()['purelib']}\n"
    root = CACHE / "large"
    done = root / ".complete"
    if done.exists() and done.read_text().startswith(source):
        return root
    if root.exists():
        shutil.rmtree(root)
    lib = _text_files(stdlib())
    site_root = Path(sysconfig.get_paths()["purelib"])
    site = _text_files(site_root) if site_root.is_dir() else []
    lib_bytes = sum(size for _, size in lib)
    site_bytes = sum(size for _, size in site)
    copies = max(1, -(-(LARGE_MIN_BYTES - site_bytes) // lib_bytes))
    for k in range(copies):
        _copy(stdlib(), lib, root / f"copy{k:02d}")
    _copy(site_root, site, root / "site")
    total = copies * lib_bytes + site_bytes
    done.write_text(f"{source}copies={copies} bytes={total}\n")
    return root


def _copy(src: Path, files: list[tuple[Path, int]], dest: Path) -> None:
    for rel, _ in files:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((src / rel).read_bytes())


# --- issue 23: the survey's bounds -----------------------------------------------------

REPETITIVE_LINE = (
    b"import asyncio, socket, pickle, thread; class Tkinter(frozenset): "
    b"decode = lambda: (yield); raise\n"
)
"""One line holding every term of the bench's survey (bench.run.SURVEY_TERMS)."""


def repetitive(total: int = 576 << 20, files: int = 72) -> Path:
    """`files` files of the same line over and over, `total` bytes in all: every term is
    past the 50,000-line cap within the first file. Built once under .bench-cache/."""
    root = CACHE / f"repetitive-{total}-{files}"
    done = root / ".complete"
    if done.exists():
        return root
    root.mkdir(parents=True, exist_ok=True)
    per_file = total // files
    body = REPETITIVE_LINE * (per_file // len(REPETITIVE_LINE))
    for k in range(files):
        (root / f"same{k:03d}.py").write_bytes(body)
    done.write_text("ok\n")
    return root


def one_long_line(size: int = 200 << 20) -> Path:
    """A directory holding one file of one line of `size` bytes (minified-like text with
    the bench's survey terms in it). Built once under .bench-cache/."""
    root = CACHE / f"long-line-{size}"
    path = root / "minified.js"
    done = root / ".complete"
    if done.exists():
        return root
    root.mkdir(parents=True, exist_ok=True)
    unit = b"var a=import_socket(lambda){decode(x);yield b};class c extends thread{};"
    path.write_bytes((unit * (size // len(unit) + 1))[:size] + b"\n")
    done.write_text("ok\n")
    return root


def long_line_file(size: int = 300_000_000) -> Path:
    """A directory holding `long.txt`: a short line, one line of `size` bytes with one
    `needle` at its head (minified text), a short line (for `show --line 2`). Built once
    under .bench-cache/."""
    root = CACHE / f"long-show-{size}"
    done = root / ".complete"
    if done.exists():
        return root
    root.mkdir(parents=True, exist_ok=True)
    unit = b"var hay=stack; "
    line = (b"needle; " + unit * (size // len(unit) + 1))[:size]
    (root / "long.txt").write_bytes(b"first needle\n" + line + b"\nlast needle\n")
    done.write_text("ok\n")
    return root


# --- issue 42: a tree where reading, not walking, is the cost ----------------------------

HEAVY_NEEDLE = "QuillonRarelyFound"
"""In 8 of the heavy tree's files, once each: a rare term's answer there."""


def heavy(total: int = 2 << 30, files: int = 2_000) -> Path:
    """`files` files of real source text (the stdlib's .py files run together, each file
    from its own starting point), `total` bytes in all, 20 directories; `HEAVY_NEEDLE` on
    one line of every 250th file. The scan of it is reading, not walking: the tree the
    index's CLI goal is set on (a few GB in a few thousand files). Built once under
    .bench-cache/."""
    root = CACHE / f"heavy-{total}-{files}"
    done = root / ".complete"
    if done.exists():
        return root
    sources = [path for path, _ in _text_files(stdlib()) if path.suffix == ".py"]
    pool = b"".join((stdlib() / path).read_bytes() for path in sources)
    per_file = total // files
    step = max(1, (len(pool) - per_file) // files)
    for k in range(files):
        folder = root / f"part{k % 20:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        start = (k * step) % max(1, len(pool) - per_file)
        body = pool[start : start + per_file]
        if k % 250 == 0:
            body = body[: per_file // 2] + f"\n# {HEAVY_NEEDLE}\n".encode() + body[per_file // 2 :]
        (folder / f"chunk{k:04d}.py").write_bytes(body)
    done.write_text("ok\n")
    return root
