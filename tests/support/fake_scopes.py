"""A `Scopes` that answers from a table and records what it is asked (D31): the use
cases' scope lines tested without a parse. Which definitions a real parse finds is
tests/engine/test_scopes*.py's."""

from collections.abc import Sequence

from asrch.domain.definitions import NameLines, NotParsed
from asrch.domain.lines import Definition, Placements, Scope, SourceLine, Unplaced
from asrch.domain.regions import Header, Region
from asrch.domain.units import Around


class NoScopes:
    """A `Scopes` that knows none: for tests of answers that print no scope lines."""

    def of(self, file: str, lines: Sequence[SourceLine], largest: int | None = None) -> Placements:
        return Placements({})

    def around(self, file: str, line: int) -> Definition | Unplaced:
        return "none"

    def names(self, file: str, lines: Sequence[SourceLine]) -> NameLines | NotParsed:
        return "no_grammar"

    def units(self, file: str, lines: Sequence[int]) -> dict[int, Around | Unplaced] | Unplaced:
        return dict.fromkeys(lines, "none")

    def regions(self, file: str) -> tuple[Region, ...]:
        return ()

    def headers(self, files: Sequence[str]) -> dict[str, Header]:
        return {}

    def tests(self, file: str) -> tuple[Region, ...]:
        return ()


class FakeScopes(NoScopes):
    """Scope lines, definitions, names and units from tables; no regions, headers or tests
    (NoScopes')."""

    def __init__(
        self,
        found: dict[int, tuple[Scope, ...] | None],
        definition: Definition | Unplaced = "none",
        heads: frozenset[int] = frozenset(),
        names: dict[str, NameLines | NotParsed] | None = None,
        units: dict[int, Around | Unplaced] | Unplaced | None = None,
    ) -> None:
        self.units_found = units
        self.names_of = names or {}
        """D52: per file, its definition name lines (or why not parsed); none: no grammar."""
        self.found = found
        self.heads = heads
        self.definition = definition
        self.asked: list[tuple[str, list[int]]] = []

    def of(self, file: str, lines: Sequence[SourceLine], largest: int | None = None) -> Placements:
        numbers = [line.number for line in lines]
        self.asked.append((file, numbers))
        found = {n: self.found[n] for n in numbers if n in self.found}
        return Placements(found, self.heads & found.keys())

    def around(self, file: str, line: int) -> Definition | Unplaced:
        self.asked.append((file, [-line]))
        return self.definition

    def names(self, file: str, lines: Sequence[SourceLine]) -> NameLines | NotParsed:
        self.asked.append((file, [0, *(line.number for line in lines)]))
        return self.names_of.get(file, "no_grammar")

    def units(self, file: str, lines: Sequence[int]) -> dict[int, Around | Unplaced] | Unplaced:
        self.asked.append((file, [-n for n in lines]))
        if self.units_found is None:
            return dict.fromkeys(lines, "none")
        if isinstance(self.units_found, str):
            return self.units_found
        return {n: self.units_found.get(n, "none") for n in lines}


NO_SCOPES = NoScopes()
