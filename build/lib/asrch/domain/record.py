"""The one base of every domain model, and how the domain builds them.

asrch runs once per question, so what a process pays before its first search is most
of a small search's cost (docs/performance.md). Two choices follow:

- `defer_build`: pydantic would build a core schema for each of the ~20 models when
  its class is defined; deferred, a schema is built only if a model is validated.
- The domain builds its models with `model_construct`, from values it made itself and
  that mypy (with the pydantic plugin) has type-checked at every call. Nothing is
  validated at run time, so no schema is ever built on the command path;
  `tests/engine/test_reports_validate.py` validates every kind of report instead.
"""

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
