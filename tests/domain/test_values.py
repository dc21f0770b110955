import pytest

from asrch.domain.text_safety import quote


@pytest.mark.parametrize(
    ("raw", "written"),
    [
        ("src/net/a.py", "src/net/a.py"),
        ("a=b-c_d.e", "a=b-c_d.e"),
        ("", '""'),
        ("a b,c.py", '"a b,c.py"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("back\\slash", '"back\\\\slash"'),
        ("line\nbreak\ttab\rcr", '"line\\nbreak\\ttab\\rcr"'),
        ("esc\x1b", '"esc\\u001b"'),
        ("接続", '"接続"'),
        ("at least 50000", '"at least 50000"'),
        (">=50000", '">=50000"'),
        ("bad\udcffbyte", '"bad\\xffbyte"'),
    ],
)
def test_quote(raw: str, written: str) -> None:
    assert quote(raw) == written
