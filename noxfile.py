"""Sessions: every test once on the interpreter at hand (D50), the default tier again
on each other interpreter found (D23), lint, typecheck, update, bench.

The suite is mostly real asrch and rg runs, so it runs on every core (pytest-xdist).
`tests` runs every test, the slow tier (`@pytest.mark.slow`, the long oracle checks)
included, on the interpreter nox runs on, and its property tests draw their full counts
(the hypothesis profile `more`, tests/support/tiers.py); `tests-on-3.X` runs the default
tier on each other interpreter, and a missing one is named at the end (`interpreters`).
Each run fails when a tier it was asked for ran no test (`--tiers`, tests/conftest.py).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nox

PYTHONS = ["3.11", "3.12", "3.13"]
HERE = f"{sys.version_info.major}.{sys.version_info.minor}"
OTHERS = [version for version in PYTHONS if version != HERE]
nox.options.sessions = ["tests", "tests-on", "lint", "typecheck", "interpreters"]
# Outside CI a missing interpreter is skipped (and named by `interpreters`); in CI it
# fails the run.
nox.options.error_on_missing_interpreters = bool(os.environ.get("CI"))
nox.options.reuse_existing_virtualenvs = True
# An interpreter is found, never downloaded (the registries here are offline mirrors).
nox.options.download_python = "never"
# uv makes each session's environment in ~2 s where venv and pip take ~20 s (six sessions
# on a fresh clone); plain virtualenv when uv is not installed (`pip install 'nox[uv]'`).
nox.options.default_venv_backend = "uv|virtualenv"


# A test file's tests run on one worker, so a module fixture (a tree, a server, the
# context run over the stdlib) is made once, not once per worker: 6% less CPU for the
# suite than `--dist load`. Files go out in collection order, the slow tier's first
# (tests/conftest.py), not largest first. (`loadgroup` would group by mark, but with
# pytest 9.2 and xdist 3.8 it groups nothing: xdist renames `item._nodeid`, which pytest
# no longer reads.)
PARALLEL = ("-n", "auto", "--dist", "loadfile", "--no-loadscope-reorder")
# The MCP server's tests (tests/server/) need its extra, so every test session has it.
TESTED = ".[test,mcp]"


def _pytest(
    session: nox.Session, *, tiers: str, chosen: tuple[str, ...] = (), profile: str = "asrch"
) -> None:
    """pytest on every core, the property tests drawing as many examples as the hypothesis
    `profile` says; without arguments of the caller's, the run fails unless each of
    `tiers` ran a test (D50). `nox -s tests -- tests/domain` narrows it, unchecked."""
    checked = () if session.posargs else ("--tiers", tiers)
    env = {"HYPOTHESIS_PROFILE": profile}
    session.run("pytest", "-q", *PARALLEL, *chosen, *checked, *session.posargs, env=env)


@nox.session
def tests(session: nox.Session) -> None:
    """Every test once, the slow tier included, on the interpreter nox runs on (D50), the
    property tests drawing their full counts."""
    session.install("-e", TESTED)
    _pytest(session, tiers="default,slow", profile="more")


@nox.session(name="tests-on", python=OTHERS)
def tests_on(session: nox.Session) -> None:
    """The default tier on another interpreter (D23): extra, skipped when missing
    outside CI."""
    session.install("-e", TESTED)
    _pytest(session, tiers="default", chosen=("-m", "not slow"))


@nox.session(python=PYTHONS[-1])
def slow(session: nox.Session) -> None:
    """The long checks (`@pytest.mark.slow`) alone: the oracles on the stdlib, a real
    install, the context benchmark end to end. `nox` runs them in `tests`."""
    session.install("-e", TESTED)
    _pytest(session, tiers="slow", chosen=("-m", "slow"))


@nox.session(python=PYTHONS[0])
def lint(session: nox.Session) -> None:
    session.install("ruff>=0.6,<1")
    paths = [p for p in ("src", "tests", "bench", "noxfile.py") if Path(p).exists()]
    session.run("ruff", "check", *paths)
    session.run("ruff", "format", "--check", *paths)


@nox.session(python=PYTHONS[0])
def typecheck(session: nox.Session) -> None:
    session.install("-e", TESTED, "mypy>=1.10,<3", "nox>=2024.4", "types-jsonschema>=4.18,<5")
    session.run("mypy")


@nox.session(python=PYTHONS[0])
def update(session: nox.Session) -> None:
    """After an intended change: rewrite the schemas, the README's option lists, spec
    outputs (both languages) and the tools' input-schema snapshots (they need the mcp extra)."""
    session.install("-e", ".[test,mcp]")
    session.run("python", "-m", "asrch.contract.schema", "schema")
    session.run("python", "-m", "asrch.cli.option_lists", "README.md")
    session.run("python", "-m", "tests.golden.update_spec")
    session.run("pytest", "-q", "tests/server/test_schemas.py", "--snapshot-update")


@nox.session(python=PYTHONS[0])
def bench(session: nox.Session) -> None:
    """asrch against bare rg in the same run, the command line and the MCP server (a warm
    `asrch mcp` over stdio), and what scope lines cost a call (D31); prints the tables,
    writes bench/results/.

    `nox -s bench -- --scenario large`: the rows on ≥ 320 MB of real source (issue 14)."""
    # Not editable: a user's install, byte-compiled, is what an agent runs.
    session.install(".[mcp]")
    session.run("python", "-m", "bench.run", *session.posargs)
    if "large" not in session.posargs:
        session.run("python", "-m", "bench.server", *session.posargs)
        session.run("python", "-m", "bench.scopes")
        session.run("python", "-m", "bench.importtime")


@nox.session(python=PYTHONS[0])
def context(session: nox.Session) -> None:
    """The context-economy benchmark (issues 15, 25): asrch's protocol against `rg -n` on
    two task sets, the stdlib and curl at a pinned commit; prints the summaries, writes
    docs/context.md and bench/results/. Without a curl checkout the curl set says how to
    make one and is left out (exit 2 accepted)."""
    # Not editable, as for bench: the asrch an agent installs is what is measured.
    session.install(".")
    common = ("--doc", "docs/context.md", *session.posargs)
    session.run("python", "-m", "bench.context.run", "--set", "stdlib", *common)
    session.run("python", "-m", "bench.context.run", "--set", "curl", *common, success_codes=[0, 2])


def _found(version: str) -> bool:
    """Whether `pythonX.Y` runs here (a pyenv shim of an inactive version does not)."""
    found = shutil.which(f"python{version}")
    if found is None:
        return False
    probe = subprocess.run([found, "-c", ""], capture_output=True, check=False)
    return probe.returncode == 0


@nox.session(python=False)
def interpreters(session: nox.Session) -> None:
    """Last: which interpreters the tests ran on, a missing one named (D50)."""
    missing = [version for version in OTHERS if not _found(version)]
    session.log(f"every test on {HERE}, the interpreter at hand (session tests)")
    found = [version for version in OTHERS if version not in missing]
    if found:
        sessions = ", ".join(f"tests-on-{version}" for version in found)
        session.log(f"the default tier on {', '.join(found)} too ({sessions})")
    if missing:
        skipped = ", ".join(f"tests-on-{version}" for version in missing)
        session.warn(
            f"NOT TESTED on Python {', '.join(missing)}: not found, so {skipped} did not run "
            "(with pyenv, name every version in PYENV_VERSION, e.g. 3.11.7:3.12.1:3.13.0)"
        )
