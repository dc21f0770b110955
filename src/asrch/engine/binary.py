"""Which rg to run (D10): ASRCH_RG, then the rg beside the interpreter, then PATH."""

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from asrch.domain.errors import EngineError
from asrch.domain.text_safety import quote


def resolve_rg(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    override = env.get("ASRCH_RG")
    if override:
        if not (os.path.isfile(override) and os.access(override, os.X_OK)):
            raise EngineError(
                f"ASRCH_RG={quote(override)} is not an executable file; "
                "point it at an rg binary or unset it"
            )
        return override
    exe_name = "rg.exe" if os.name == "nt" else "rg"
    beside = Path(sys.executable).parent / exe_name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = _on_path(exe_name, env.get("PATH", os.defpath))
    if found:
        return found
    raise EngineError(
        "rg (ripgrep) not found beside the interpreter or on PATH; "
        "reinstall asrch (it depends on the ripgrep wheel) or set ASRCH_RG"
    )


def _on_path(name: str, search_path: str) -> str | None:
    """The first executable file `name` in the directories of `search_path`, as
    `shutil.which` finds it (an empty entry is the working directory). Not shutil
    itself: importing it (bz2, lzma, zlib) costs every call ~4 ms of start-up."""
    if not search_path:
        return None
    for directory in search_path.split(os.pathsep):
        candidate = os.path.join(directory, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None
