"""How a JSON object is declared once and read twice: its keys, in order, each with its
type as the schema writes it and how its value is read from the domain value (a report,
a row of one) the object stands for.

    ROW = Obj("PathMatches", "A top-5 row.", Field("path", PATH), Field("matches", Count))

`build` walks a declaration over a domain value into the JSON value (`--format json`,
stdlib only); `schema.py` walks the same declaration into the types pydantic writes the
schemas from and checks the MCP answers with. A field reads the attribute of its own
name unless told otherwise (`read=`): most keys are the report's own fields, published.
No pydantic here, nor on any path that builds an answer (D41).
"""

from collections.abc import Callable
from operator import attrgetter
from typing import Any

Read = Callable[[Any], Any]


class Scalar:
    """A value written as it is read, after `convert` (`json_text`, a rendering)."""

    __slots__ = ("annotation", "convert")

    def __init__(self, annotation: object, convert: Read | None = None) -> None:
        self.annotation = annotation
        self.convert = convert

    def build(self, value: object) -> object:
        return value if self.convert is None else self.convert(value)


class Field:
    """One key: its name, its kind (a `Scalar`, `Obj`, `Many`, `Maybe`, or a type a
    value is written as read), its description, and how its value is read."""

    __slots__ = ("by_name", "doc", "kind", "name", "read", "required")

    def __init__(
        self,
        name: str,
        kind: "Kind | object",
        doc: str | None = None,
        *,
        read: Read | None = None,
        required: bool = True,
    ) -> None:
        self.name = name
        self.kind: Kind = kind if isinstance(kind, Scalar | Obj | Many | Maybe) else Scalar(kind)
        self.doc = doc
        self.read: Read = attrgetter(name) if read is None else read
        self.by_name = read is None and required
        """The value is the source's attribute of the key's name (tests/contract holds
        each such name to the domain type the object is made from)."""
        self.required = required
        """False: a key only some answers hold, added where it applies (`index`, D58);
        the object built from a domain value leaves it out."""


class Obj:
    """A JSON object: its name and description in the schema, its keys in order, and the
    domain type it is made from (`source`; None for a plain tuple). `closed`: it holds its
    keys and no other (the schema says so)."""

    __slots__ = ("closed", "doc", "fields", "name", "source")

    def __init__(
        self,
        name: str,
        doc: str | None,
        *fields: Field,
        source: type | None = None,
        closed: bool = True,
    ) -> None:
        self.name = name
        self.doc = doc
        self.fields = fields
        self.source = source
        self.closed = closed

    def build(self, value: object) -> dict[str, object]:
        return {f.name: f.kind.build(f.read(value)) for f in self.fields if f.required}


class Many:
    """An array: each item of a sequence, as `item`."""

    __slots__ = ("item",)

    def __init__(self, item: "Kind") -> None:
        self.item = item

    def build(self, value: Any) -> tuple[object, ...]:
        return tuple(self.item.build(v) for v in value)


class Maybe:
    """`kind`, or null for None."""

    __slots__ = ("kind",)

    def __init__(self, kind: "Kind") -> None:
        self.kind = kind

    def build(self, value: object) -> object:
        return None if value is None else self.kind.build(value)


Kind = Scalar | Obj | Many | Maybe
"""What a key's value is."""


def spread(read: Read, *fields: Field) -> tuple[Field, ...]:
    """`fields` read from a part of the value (`read`), as keys of the object itself: a
    report's query, written as `query`, `mode`, `case`, ..."""
    return tuple(
        Field(f.name, f.kind, f.doc, read=_then(read, f.read), required=f.required) for f in fields
    )


def _then(first: Read, second: Read) -> Read:
    return lambda value: second(first(value))
