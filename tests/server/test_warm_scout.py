"""A warm server's scout that lists its lines (issue 41, item 5): one rg run for the
count and the lines of a small tree, and the scope lines kept between calls, which a
file changed between two calls never outlives."""

from pathlib import Path
from typing import Any

from asrch.engine.process import PROCESSES
from asrch.engine.transport import RgCall, Site
from asrch.server.app import build_server
from tests.server.helpers import call_tools, run_cli, text_of

BEFORE = "class Box:\n    def size(self):\n        return needle\n"
AFTER = "class Bag:\n    def mass(self):\n        return needle\n"


class Recording:
    """rg as a child process, each argv kept."""

    def __init__(self) -> None:
        self.argvs: list[list[str]] = []

    def start(self, argv: list[str], launch: Site, **how: Any) -> RgCall:
        self.argvs.append(argv)
        return PROCESSES.start(argv, launch, **how)


def test_a_listed_answer_is_one_rg_run(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "box.py").write_text(BEFORE)
    (tmp_path / "src" / "other.py").write_text("needle = 2\n")
    rg = Recording()
    server = build_server([str(tmp_path)], transport=rg)
    [answer] = call_tools(server, ("scout", {"query": "needle", "path": "src"}))
    assert text_of(answer) == run_cli(tmp_path, "scout", "needle", "src").stdout.decode()
    assert "3:        return needle" in text_of(answer)
    assert len(rg.argvs) == 1
    assert "--json" in rg.argvs[0]


def test_a_file_changed_between_calls_is_answered_as_it_is_now(tmp_path: Path) -> None:
    """One server, three calls; before the third call's rg starts, the file is rewritten
    in place (same length): that answer is the command line's on the new file, not the
    scopes kept from the calls before."""
    box = tmp_path / "box.py"
    box.write_text(BEFORE)

    class Rewriting(Recording):
        def start(self, argv: list[str], launch: Site, **how: Any) -> RgCall:
            if len(self.argvs) == 2:  # the third call's one run: no sleep, no race
                box.write_text(AFTER)
            return super().start(argv, launch, **how)

    rg = Rewriting()
    call = ("scout", {"query": "needle", "path": "."})
    first, again, after = call_tools(build_server([str(tmp_path)], transport=rg), call, call, call)
    assert len(rg.argvs) == 3
    assert text_of(first) == text_of(again)
    assert "1=class Box:" in text_of(first)
    assert text_of(after) == run_cli(tmp_path, "scout", "needle", ".").stdout.decode()
    assert "1=class Bag:" in text_of(after)
