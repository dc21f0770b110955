"""The TOON-like writer (D1, D2): blocks of fields and tables of rows."""

from collections.abc import Iterable, Sequence

from asrch.domain.text_safety import quote

Scalar = str | int | tuple[str, ...]
"""A value; a tuple is written as TOON's inline list, `name[N]: a,b` (see `field_name`)."""


class Written(str):
    """A value already in its written form, of D2 values and the characters between
    them (survey's places, D56): printed as it is."""


def value(item: Scalar) -> str:
    if isinstance(item, Written):
        return str(item)
    if isinstance(item, tuple):
        return ",".join(quote(each) for each in item)
    return str(item) if isinstance(item, int) else quote(item)


def field_name(key: str, item: Scalar) -> str:
    return f"{key}[{len(item)}]" if isinstance(item, tuple) else key


def block(name: str, fields: Iterable[tuple[str, Scalar]], indent: str = "") -> list[str]:
    """`name:` then one `key: value` line per field, two spaces deeper."""
    lines = [f"{indent}{name}:"]
    lines += [f"{indent}  {field_name(key, item)}: {value(item)}" for key, item in fields]
    return lines


def table(
    name: str, columns: Sequence[str], rows: Iterable[Sequence[Scalar]], indent: str = ""
) -> list[str]:
    """`name[col,col]:` then one comma-separated row per line; empty tables keep the header."""
    lines = [f"{indent}{name}[{','.join(columns)}]:"]
    lines += [f"{indent}  " + ",".join(value(item) for item in row) for row in rows]
    return lines


def count(n: int, capped: bool, *, survey: bool = False) -> Scalar:
    """A count that may have hit the scan cap: `at least N` (or `>=N` in survey)."""
    if not capped:
        return n
    return f">={n}" if survey else f"at least {n}"
