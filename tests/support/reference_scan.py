"""The D9 reference count, a test oracle: `rg --json --sort=path` stopped at the cap.

The count plan (`count_files`) and survey's one-pass plan must give the same Tally as
this scan; it reads rg's JSON records on its own (only `split_lines` is shared), so a
slip in asrch's JSON event parser cannot hide in both sides.
"""

import base64
import json
import os
from typing import Any

from asrch.domain.counting import FileCount, Tally
from asrch.domain.query import Query
from asrch.engine.argv import BASE_FLAGS, LOG_BINARY, as_typed, json_argv, operand
from asrch.engine.counts import binary_met, rg_path_order
from asrch.engine.json_events import split_lines
from asrch.engine.process import HERE
from asrch.engine.transport import judged


def _path(data: dict[str, Any]) -> str:
    # rg writes valid UTF-8 as {"text": …} and anything else as {"bytes": base64}.
    field = data["path"]
    if "text" in field:
        return os.fsdecode(str(field["text"]).encode("utf-8"))
    return os.fsdecode(base64.b64decode(field["bytes"]))


def tally_from_json(rg: str, query: Query, target: str, *, cap: int) -> Tally:
    """The reference count: a path-ordered JSON scan stopped at the cap (D9).

    A walked file holding NUL is binary: rg stops in it at the NUL and says so in the
    file's `end` event, after any matches before it; those are not counted, as
    `rg --count` does not count them. So the scan stops at the cap only at the end of
    the file it was reached in, once that file is known not to be binary.
    """
    named = operand(target)
    counts: dict[str, int] = {}
    total = 0
    full_in: str | None = None
    stop = False
    argv = json_argv(rg, query, target)
    # rg's debug log names each binary file met while walking (for `binary_met`).
    flags_end = 1 + len(BASE_FLAGS)
    argv = [*argv[:flags_end], LOG_BINARY, *argv[flags_end:]]
    with HERE.transport.start(argv, HERE, stream=True) as run:
        for line in split_lines(run.chunks()):
            if not line:
                continue
            record = json.loads(line.decode("utf-8"))
            if record["type"] == "end":
                path = _path(record["data"])
                if record["data"].get("binary_offset") is not None and path != named:
                    total -= counts.pop(path, 0)
                if path == full_in:
                    stop = total >= cap
                    full_in = None if not stop else full_in
            elif record["type"] in ("match", "context"):
                # Stopped at the next event, as the scan always was: rg's skips and
                # binary files are the ones it reported by then.
                if stop:
                    run.stop()
                    break
                if record["type"] == "context" or full_in is not None:
                    continue
                path = _path(record["data"])
                counts[path] = counts.get(path, 0) + 1
                total += 1
                if total >= cap:
                    full_in = path
        said = judged(argv, run.end())
    capped = total >= cap
    last = list(counts)[-1] if capped else None
    files = tuple(FileCount(path=as_typed(p, target), matches=n) for p, n in counts.items())
    return Tally(
        files=files,
        capped=capped,
        skipped=said.skipped,
        binary=binary_met(said, None if last is None else rg_path_order(os.fsencode(last))),
    )
