"""Sessions: tests on every interpreter found (D23), the slow checks once, lint,
typecheck, update, bench.

The suite is mostly real asrch and rg runs, so it runs on every core (pytest-xdist);
the long oracle checks (`slow`) run once, with the newest interpreter's tests, not on
each (`nox -s slow` runs them alone).
"""

import os
from pathlib import Path

import nox

PYTHONS = ["3.11", "3.12", "3.13"]
nox.options.sessions = ["tests", "lint", "typecheck"]
# Outside CI a missing interpreter is skipped; in CI it fails the run.
nox.options.error_on_missing_interpreters = bool(os.environ.get("CI"))
nox.options.reuse_existing_virtualenvs = True
# uv makes each session's environment in ~2 s where venv and pip take ~20 s (six sessions
# on a fresh clone); plain virtualenv when uv is not installed (`pip install 'nox[uv]'`).
nox.options.default_venv_backend = "uv|virtualenv"


PARALLEL = ("-n", "auto")
# The MCP server's tests (tests/server/) need its extra, so every test session has it.
TESTED = ".[test,mcp]"


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    session.install("-e", TESTED)
    # The newest interpreter's run takes the slow checks too: one environment and one
    # start-up fewer, and the long checks share the cores with the others instead of
    # running alone at the end, one core idle.
    chosen = () if session.python == PYTHONS[-1] else ("-m", "not slow")
    session.run("pytest", "-q", *PARALLEL, *chosen, *session.posargs)


@nox.session(python=PYTHONS[-1])
def slow(session: nox.Session) -> None:
    """The long checks (`@pytest.mark.slow`) alone: the stdlib oracle, more random
    examples, the context benchmark end to end. `nox` runs them in `tests-3.13`."""
    session.install("-e", TESTED)
    session.run("pytest", "-q", *PARALLEL, "-m", "slow", *session.posargs)


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
    outputs (both languages) and snapshots (the tools' input schemas need the mcp extra)."""
    session.install("-e", ".[test,mcp]")
    session.run("python", "-m", "asrch.contract.schema", "schema")
    session.run("python", "-m", "asrch.cli.option_lists", "README.md")
    session.run("python", "-m", "tests.golden.update_spec")
    session.run("pytest", "-q", "tests/golden", "tests/server/test_schemas.py", "--snapshot-update")


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
