"""The header fields that say how the terms matched and which files were searched.

D33: a text header echoes only what the agent did not choose or could not know, so a
setting left at its default is not printed (JSON keeps every field)."""

from asrch.domain.filters import Filters
from asrch.domain.modes import Mode
from asrch.render.toon import Scalar


def case_word(ignore_case: bool) -> str:
    return "insensitive" if ignore_case else "sensitive"


def narrowing_fields(mode: Mode, ignore_case: bool, filters: Filters) -> list[tuple[str, Scalar]]:
    """`mode:` unless fixed, `case: insensitive` with -i, `types[N]:` and `globs[N]:` when
    given, as given."""
    fields: list[tuple[str, Scalar]] = []
    if mode is not Mode.FIXED:
        fields.append(("mode", mode.value))
    if ignore_case:
        fields.append(("case", case_word(ignore_case)))
    if filters.types:
        fields.append(("types", filters.types))
    if filters.globs:
        fields.append(("globs", filters.globs))
    return fields
