"""The benchmark itself, on three tasks, end to end: it runs, and what it writes holds.

The end-to-end run (~100 s of rg and asrch over the stdlib) is `slow`: it runs once, with
the newest interpreter's tests, not on each."""

import json
from pathlib import Path
from typing import Any

import pytest
from bench.context import run, tree
from bench.context.answers import resolve
from bench.context.tasks import TASKS

Result = tuple[dict[str, Any], str]
THREE = ("json-circular", "tarfile-blocksize", "getpass-user")


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> Result:
    out = tmp_path_factory.mktemp("context")
    doc = out / "context.md"
    doc.write_text("# Kept\n\nwritten by hand\n")
    run.main(["--tasks", ",".join(THREE), "--json", str(out / "c.json"), "--doc", str(doc)])
    return json.loads((out / "c.json").read_text()), doc.read_text()


@pytest.mark.slow
def test_every_policy_scored_on_every_task(result: Result) -> None:
    data, _ = result
    tasks = data["tasks"]
    assert isinstance(tasks, list)
    assert [t["id"] for t in tasks] == list(THREE)
    for task in tasks:
        assert set(task["policies"]) == {*run.POLICIES, *run.VARIANTS}
        for name, attempt in task["policies"].items():
            calls = attempt["calls"]
            assert calls, name
            assert attempt["bytes_read"] == sum(c["bytes_read"] for c in calls)
            shown = [c["shows_answer"] for c in calls]
            # Found exactly when the last call showed the answer, and nothing after it.
            assert attempt["found"] == shown[-1]
            assert not any(shown[:-1])
        uncapped = task["policies"]["rg"]["calls"]
        for capped in ("rg 30k chars", "rg 100 matches"):
            for c, u in zip(task["policies"][capped]["calls"], uncapped, strict=False):
                assert c["argv"] == u["argv"]
                assert c["bytes_read"] <= u["bytes_read"]
        assert len(task["policies"]["asrch"]["calls"]) <= data["asrch_budget"]
        assert task["policies"]["asrch"]["calls"][0]["argv"][0] == "survey"


@pytest.mark.slow
def test_rg_found_where_an_independent_reading_says(
    result: Result,
) -> None:
    """Uncapped `rg -n` finds the answer with the first candidate that is on one of the
    answer's lines, read here with plain Python."""
    data, _ = result
    source = tree.stdlib_source()
    by_id = {t.id: t for t in TASKS}
    for task in data["tasks"]:
        spec = by_id[task["id"]]
        location = resolve(source, spec.answer)
        lines = (source / location.path).read_text(encoding="utf-8").splitlines()
        inside = lines[location.start - 1 : location.end]
        first = next(
            (i for i, c in enumerate(spec.candidates) if any(c in line for line in inside)),
            None,
        )
        rg = task["policies"]["rg"]
        assert rg["found"] == (first is not None)
        expected_calls = len(spec.candidates) if first is None else first + 1
        assert len(rg["calls"]) == expected_calls
        assert task["location"] == {
            "path": location.path,
            "start": location.start,
            "end": location.end,
        }


@pytest.mark.slow
def test_summary_and_doc(result: Result) -> None:
    data, doc = result
    summaries = data["summaries"]
    assert isinstance(summaries, dict)
    assert set(summaries) == {*run.POLICIES, *run.VARIANTS}
    for s in summaries.values():
        assert s["tasks"] == 3
        assert 0 <= s["found"] <= 3
        assert s["p90_bytes"] >= s["median_bytes"]
    assert doc.startswith("# Kept\n\nwritten by hand\n")
    assert doc.count(run.START) == 1
    assert doc.rstrip().endswith(run.END)
    for task_id in THREE:
        assert f"| {task_id} |" in doc
    assert f"The three tasks where `{run.AGENT}` did worst" in doc


def test_write_doc_keeps_what_is_around_the_generated_part(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text(f"head\n{run.START}\nold\n{run.END}\ntail\n")
    run.write_doc(doc, f"{run.START}\nnew\n{run.END}\n")
    assert doc.read_text() == f"head\n{run.START}\nnew\n{run.END}\ntail\n"


def test_unknown_task_id_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        run.main(["--tasks", "json-circular,nope"])
    assert stop.value.code == 2
    assert "unknown task ids: nope" in capsys.readouterr().err
