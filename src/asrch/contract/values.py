"""The JSON values' types, as the schemas write them: plain typing, no pydantic.

What only a schema or a check needs (a description, a lower bound, a list of allowed
strings) rides on `Annotated` as the small markers below, whose `__get_pydantic_*__`
hooks pydantic calls by name when `schema.py` builds a schema; nothing on the command
line's path runs them.
"""

from collections.abc import Callable
from typing import Annotated, Any, Literal, NamedTuple

from asrch.domain.text_safety import has_surrogate

# --- the markers (pydantic's hooks, called by name; no pydantic import) ----------------

Handler = Callable[[Any], Any]


class Doc(NamedTuple):
    """A field's description in the schema."""

    text: str

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Handler) -> Any:
        schema = handler(core_schema)
        schema["description"] = self.text
        return schema


class AtLeast(NamedTuple):
    """A number's lower bound: checked, and the schema's `minimum`."""

    least: int

    def __get_pydantic_core_schema__(self, source: Any, handler: Handler) -> Any:
        schema = handler(source)
        schema["ge"] = self.least
        return schema


class Default(NamedTuple):
    """The schema's `default` of a constant (`schema_version`, `command`): every answer
    holds the field, and code generated from the schema reads the default."""

    value: str

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Handler) -> Any:
        schema = handler(core_schema)
        schema["default"] = self.value
        return schema


class OneOf(NamedTuple):
    """A string that is one of `values`, checked and listed as the schema's `enum`;
    for a list known at run time (the domain's notice kinds), where `Literal` cannot
    be written."""

    values: tuple[str, ...]

    def __get_pydantic_core_schema__(self, source: Any, handler: Handler) -> Any:
        from pydantic_core import core_schema  # noqa: PLC0415  (only where pydantic runs)

        return core_schema.literal_schema(list(self.values))


def _printed(value: str) -> str:
    # A surrogate escape is a byte the builder did not write `\\xNN`: no JSON string
    # can hold it.
    if has_surrogate(value):
        raise ValueError("a surrogate escape (an undecodable byte not made printable)")
    return value


class Printed(NamedTuple):
    """A string no surrogate escape is left in (`json_text` made it printable)."""

    def __get_pydantic_core_schema__(self, source: Any, handler: Handler) -> Any:
        from pydantic_core import core_schema  # noqa: PLC0415  (only where pydantic runs)

        return core_schema.no_info_after_validator_function(_printed, handler(source))


# --- the values ----------------------------------------------------------------------

Text = Annotated[str, Printed()]
"""A string from the command line or the file system (a term, a path), `json_text`."""
Count = Annotated[int, AtLeast(0)]
LineNumber = Annotated[int, AtLeast(1)]

Case = Annotated[
    Literal["sensitive", "insensitive"],
    Doc("D30: `insensitive` with `-i`/`--ignore-case`, in any mode."),
]
Types = Annotated[
    tuple[Text, ...], Doc("D30: the `--type` names given, in order (empty: every type).")
]
Globs = Annotated[
    tuple[Text, ...], Doc("D30: the `--glob` values given, in order; `!GLOB` excludes.")
]
NextStep = Annotated[
    tuple[str, ...] | None,
    Doc(
        "D28: the protocol's next command as argument strings, `asrch` first; "
        "shell-quoted and joined with spaces it is the text answer's `next:` line, to be run "
        "from the same working directory. null where there is nothing to do."
    ),
]
