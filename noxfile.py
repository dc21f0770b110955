"""Sessions: every test once on the interpreter at hand (D50), a compatibility subset of
the default tier on each other interpreter found (D23), lint, typecheck, update, bench.

The suite is mostly real asrch and rg runs, so it runs on every core (pytest-xdist).
`tests` runs every test, the slow tier (`@pytest.mark.slow`, the long oracle checks)
included, on the interpreter nox runs on, and its property tests draw their full counts
(the hypothesis profile `more`, tests/support/tiers.py). `tests-on-3.X` is extra (D50):
on each other interpreter it runs the default tier's tests of `COMPATIBILITY` below,
what can differ between Python versions (the syntax and stdlib our code uses, and the
wheels built per version: pydantic-core, tree-sitter's, the mcp SDK's asyncio), not rg's
or the OS's answers, which the run of every test has checked already: the whole default
tier again on two more interpreters took the command past its 5 minutes (6 min 28 s),
this subset is about a fifth of its CPU. A missing interpreter is named at the end
(`interpreters`). Each run fails when a tier it was asked for ran no test (`--tiers`,
tests/conftest.py).
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


# What another interpreter runs (`tests-on-3.X`; the default tier of these, at the ordinary
# example counts): the code whose behaviour can change with the Python version, each
# through tests that exercise it rather than rg. Left out: the oracles of rg's and the
# OS's answers (`end_to_end/`, most of `engine/`), the fresh interpreters that only
# count imports (`cli/test_imports.py`, `cli/test_runner.py`), the repository's own
# texts (`docs/`, `bench/`), and the spec's examples again as JSON or over an index.
COMPATIBILITY = (
    # The pure rules and renderers: the syntax and stdlib of every module they import.
    "tests/domain",
    "tests/render",
    "tests/commands",
    # The JSON contract: pydantic-core's wheel, jsonschema, the committed schemas.
    "tests/contract/test_answers.py",
    "tests/contract/test_render_json.py",
    "tests/contract/test_schema.py",
    "tests/contract/test_docs.py",
    # Every spec example byte for byte: cyclopts, the rg adapter, every renderer.
    "tests/golden/test_spec.py",
    "tests/golden/test_next_steps.py",
    "tests/golden/test_readme.py",
    "tests/golden/test_harness.py",
    # The command line's grammar as cyclopts reads it, exits, --format.
    "tests/cli/test_command_line.py",
    "tests/cli/test_exit.py",
    "tests/cli/test_cli_json.py",
    "tests/cli/test_filter_count.py",
    # The MCP server: the SDK and asyncio in memory, one real stdio server, cancellation
    # and signals, the pinned reads (os's dir_fd calls), the index it keeps.
    "tests/server/test_tools.py",
    "tests/server/test_schemas.py",
    "tests/server/test_roots.py",
    "tests/server/test_wire.py",
    "tests/server/test_pinned.py",
    "tests/server/test_index.py",
    "tests/server/test_processes.py",
    "tests/server/test_stdio.py::test_asrch_mcp_over_stdio_answers_every_tool",
    # tree-sitter's wheels (scopes, headers, definitions), sqlite3 as the interpreter was
    # built (the index's FTS5 trigrams), the rg child's process handling.
    "tests/engine/test_scopes.py",
    "tests/engine/test_headers.py",
    "tests/engine/test_definition_around.py",
    "tests/engine/test_node_text.py",
    "tests/engine/test_scope_memo.py",
    "tests/engine/test_index.py",
    "tests/engine/test_processes.py",
)


@nox.session(name="tests-on", python=OTHERS)
def tests_on(session: nox.Session) -> None:
    """`COMPATIBILITY`'s default tier on another interpreter (D23): extra (D50), skipped
    when missing outside CI. `nox -s tests-on-3.12 -- tests/engine` runs those instead."""
    session.install("-e", TESTED)
    chosen = () if session.posargs else COMPATIBILITY
    _pytest(session, tiers="default", chosen=("-m", "not slow", *chosen))


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
        session.log(f"the compatibility subset on {', '.join(found)} too ({sessions})")
    if missing:
        skipped = ", ".join(f"tests-on-{version}" for version in missing)
        session.warn(
            f"NOT TESTED on Python {', '.join(missing)}: not found, so {skipped} did not run "
            "(with pyenv, name every version in PYENV_VERSION, e.g. 3.11.7:3.12.1:3.13.0)"
        )
