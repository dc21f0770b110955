"""Each JSON answer is declared once, on its report (contract/answers.py): the keys that
publish a report field by its name are held here to the domain type they are read from,
name and type, so a renamed or retyped report field fails here, not in a reader."""

import types
import typing
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

import pytest

from asrch.contract.answers import ANSWERS
from asrch.contract.objects import Field, Kind, Many, Maybe, Obj, Scalar


def _objects(kind: Kind, seen: dict[str, Obj]) -> dict[str, Obj]:
    if isinstance(kind, Obj) and kind.name not in seen:
        seen[kind.name] = kind
        for f in kind.fields:
            _objects(f.kind, seen)
    elif isinstance(kind, Many):
        _objects(kind.item, seen)
    elif isinstance(kind, Maybe):
        _objects(kind.kind, seen)
    return seen


OBJECTS: dict[str, Obj] = {}
for _, declared in ANSWERS.values():
    _objects(declared, OBJECTS)
BY_NAME = [
    (obj, f) for obj in OBJECTS.values() if obj.source is not None for f in obj.fields if f.by_name
]


def _plain(annotation: Any) -> Any:
    """A type as the values it allows: `Annotated` markers and `None`'s spelling dropped."""
    if get_origin(annotation) is Annotated:
        return _plain(get_args(annotation)[0])
    if get_origin(annotation) is Literal:
        return frozenset(get_args(annotation))
    if get_origin(annotation) in {typing.Union, types.UnionType}:
        return frozenset(map(_plain, get_args(annotation)))
    if get_origin(annotation) is tuple:
        return ("array", _plain(get_args(annotation)[0]))
    return annotation


def _declared(kind: Kind) -> Any:
    """What the report field must be for the key to publish it as it is read (`tuple`:
    any tuple, for an object read by position)."""
    if isinstance(kind, Obj):
        return kind.source or tuple
    if isinstance(kind, Many):
        return ("array", _declared(kind.item))
    if isinstance(kind, Maybe):
        return frozenset({_declared(kind.kind), type(None)})
    assert isinstance(kind, Scalar)
    return _plain(kind.annotation)


def test_every_object_is_read_from_one_domain_type_or_a_tuple() -> None:
    assert {obj.name for obj in OBJECTS.values() if obj.source is None} == {
        "Notice",  # (kind, words): render.notices.notes
        "NextCall",  # (tool, arguments): spelling.TOOL.call
        "Window",  # (start, end): render.show.window
    }


@pytest.mark.parametrize(("obj", "field"), BY_NAME, ids=[f"{o.name}.{f.name}" for o, f in BY_NAME])
def test_a_key_read_by_name_is_its_report_field_of_the_same_type(obj: Obj, field: Field) -> None:
    assert obj.source is not None
    hints = get_type_hints(obj.source)
    assert field.name in hints, f"{obj.source.__name__} has no field {field.name}"
    held, published = _plain(hints[field.name]), _declared(field.kind)
    assert _same(held, published), f"{obj.name}.{field.name}: {held} published as {published}"


def _same(held: Any, published: Any) -> bool:
    if held == published:
        return True
    if published is tuple:  # an object read by position (`Window`): any NamedTuple
        return isinstance(held, type) and issubclass(held, tuple)
    if isinstance(held, frozenset) and isinstance(published, frozenset):
        return len(held) == len(published) and all(
            any(_same(h, p) for h in held) for p in published
        )
    return False


def test_most_keys_are_the_report_fields_themselves() -> None:
    """The declaration derives what it can: a key says where it reads from only where
    the report holds it otherwise (a rename, a rendering, a count of a count)."""
    keys = [f for obj in OBJECTS.values() for f in obj.fields]
    assert len(BY_NAME) * 2 > len(keys) - sum(obj.source is None for obj in OBJECTS.values())
