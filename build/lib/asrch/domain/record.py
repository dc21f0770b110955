"""The one base of every domain model: immutable, and its validator built on first use.

`defer_build` matters to start-up, not to correctness: pydantic builds a model's core
schema when the class is defined, and asrch defines some twenty models of which one
command touches a handful. Deferred, each is built the first time it validates.
"""

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
