"""The `Scopes` the composition roots hand the use cases (D31): the tree-sitter reader of
`engine/scopes/`, imported on the first line asked about. An answer that prints no
line (every count, survey) never imports it: start-up is most of a small search
(docs/performance.md; tests/cli/test_scope_imports.py)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from asrch.domain.definitions import NameLines, NotParsed
    from asrch.domain.lines import Definition, Placements, SourceLine, Unplaced
    from asrch.domain.regions import Header, Region
    from asrch.domain.units import Around
    from asrch.engine.scope_memo import ScopeMemo
    from asrch.engine.scopes import TreeSitterScopes


class ScopeReader:
    """Reads files as a searcher run from `cwd` does (None: this process's working
    directory); `here`: how a file is spelled to be opened (an MCP call's pinned object,
    `engine/pins.py`); `memo`: answers kept between calls (a server's,
    `engine/scope_memo.py`)."""

    def __init__(
        self,
        cwd: str | None = None,
        here: Callable[[str], str] | None = None,
        memo: ScopeMemo | None = None,
    ) -> None:
        self._cwd = cwd
        self._here = here
        self._memo = memo
        self._parser: TreeSitterScopes | None = None

    def of(self, file: str, lines: Sequence[SourceLine], largest: int | None = None) -> Placements:
        return self._loaded().of(file, lines, largest)

    def around(self, file: str, line: int) -> Definition | Unplaced:
        return self._loaded().around(file, line)

    def names(self, file: str, lines: Sequence[SourceLine]) -> NameLines | NotParsed:
        """D52: `engine/definitions.py` on the file as the scope reader reads it."""
        from asrch.engine.definitions import read_definitions

        return read_definitions(self._path(file), file, lines)

    def units(self, file: str, lines: Sequence[int]) -> dict[int, Around | Unplaced] | Unplaced:
        return self._loaded().units(file, lines)

    def regions(self, file: str) -> tuple[Region, ...]:
        """D53: `engine/regions.py` on the file as the scope reader reads it."""
        from asrch.engine.regions import read_regions

        return read_regions(self._path(file), file)

    def headers(self, files: Sequence[str]) -> dict[str, Header]:
        """D53 in scout: read without a parse, so without tree-sitter loaded."""
        from asrch.engine.headers import read_header

        found = {file: read_header(self._path(file), file) for file in files}
        return {file: region for file, region in found.items() if region is not None}

    def tests(self, file: str) -> tuple[Region, ...]:
        """D53 in scout: the parser is loaded only for a file whose text has a marker."""
        from asrch.engine.headers import may_hold_tests

        if not may_hold_tests(self._path(file), file):
            return ()
        from asrch.engine.regions import read_tests

        return read_tests(self._path(file), file)

    def _path(self, file: str) -> str:
        if self._here is not None:
            return self._here(file)
        return file if self._cwd is None else os.path.join(self._cwd, file)

    def _loaded(self) -> TreeSitterScopes:
        if self._parser is None:
            from asrch.engine.scopes import TreeSitterScopes

            self._parser = TreeSitterScopes(cwd=self._cwd, here=self._here, memo=self._memo)
        return self._parser
