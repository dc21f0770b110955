"""D26: rows are relative to the target however it is spelled.

rg prints a walked entry as the target exactly as given, then `/` unless the target
ends in one, then the entry's components (tests/engine/test_walk_truth.py holds real
rg to that); `relative_to` must undo it for every spelling.
"""

from hypothesis import given
from hypothesis import strategies as st

from asrch.domain.counting import relative_to

_COMPONENT = st.text(
    st.characters(exclude_characters="/\0", exclude_categories=["Cs"]), min_size=1, max_size=8
)


@st.composite
def _spelling(draw: st.DrawFn) -> str:
    """One directory, spelled with `./` in front, doubled `/`, `/.` or `/` at the end."""
    parts = draw(st.lists(_COMPONENT.filter(lambda c: c not in (".", "..")), max_size=3))
    lead = draw(st.sampled_from(["", "./", ".//", "/", "//", "././"]))
    seps = [draw(st.sampled_from(["/", "//", "/./"])) for _ in parts[1:]]
    body = parts[0] if parts else "."
    for sep, part in zip(seps, parts[1:], strict=True):
        body += sep + part
    tail = draw(st.sampled_from(["", "/", "//", "/.", "/./"]))
    return lead + body + tail


def _printed(target: str, components: list[str]) -> str:
    return target + ("" if target.endswith("/") else "/") + "/".join(components)


@given(_spelling(), st.lists(_COMPONENT, min_size=1, max_size=4))
def test_a_walked_entry_is_its_components_for_any_spelling(
    target: str, components: list[str]
) -> None:
    assert relative_to(_printed(target, components), target) == "/".join(components)


@given(_spelling())
def test_the_target_itself_keeps_its_spelling(target: str) -> None:
    assert relative_to(target, target) == target


def test_a_sibling_sharing_a_prefix_is_not_made_relative() -> None:
    assert relative_to("src2/a.py", "src") == "src2/a.py"
    assert relative_to("srca.py", "src") == "srca.py"
