"""Domain reports to contract answers, with the stdlib alone (D41): each report written
by its answer's one declaration (`answers.py`), keys in the declared order, terms and
paths already `json_text`, tuples for arrays. The command line serializes it
(`render.py`); `schema.validated` checks it through pydantic at the MCP boundary and in
the tests. The numbers come from the same report the text renderer reads, and every
string the text prints (notices, line text) from the same render functions."""

from typing import Any

from asrch.contract.answers import ANSWERS

_BY_REPORT = dict(ANSWERS.values())


def answer(report: object) -> dict[str, Any]:
    """The report's JSON answer, as `--format json` prints it."""
    declared = _BY_REPORT.get(type(report))
    if declared is None:
        raise TypeError(f"no JSON answer for {type(report).__name__}")
    return declared.build(report)
