"""The header fields that say how the terms matched and which files were searched."""

from asrch.domain.filters import Filters
from asrch.render.toon import Scalar


def case_word(ignore_case: bool) -> str:
    return "insensitive" if ignore_case else "sensitive"


def narrowing_fields(ignore_case: bool, filters: Filters) -> list[tuple[str, Scalar]]:
    """`case:` always (D30); `types[N]:` and `globs[N]:` when given, as given."""
    fields: list[tuple[str, Scalar]] = [("case", case_word(ignore_case))]
    if filters.types:
        fields.append(("types", filters.types))
    if filters.globs:
        fields.append(("globs", filters.globs))
    return fields
