from asrch.render.lines import cap_line, visible_text


def test_short_line_unchanged() -> None:
    assert cap_line("abc") == "abc"


def test_exactly_800_bytes_unchanged() -> None:
    line = "a" * 800
    assert cap_line(line) == line


def test_cut_on_character_boundary_with_marker() -> None:
    line = "幅" * 400  # 1200 bytes
    capped = cap_line(line)
    data = capped.encode("utf-8")
    assert len(data) <= 800
    assert capped.endswith(" bytes]")
    kept = capped[: capped.index("…[")]
    assert set(kept) == {"幅"}
    cut = int(capped[capped.index("[+") + 2 : capped.index(" bytes]")])
    assert len(kept.encode()) + cut == 1200


def test_visible_text() -> None:
    assert visible_text(b"a\tb\r\n") == "a\tb"
    assert visible_text(b"\x1b[31mred\n") == "\u241b[31mred"
    assert visible_text(b"caf\xe9\n") == "caf\\xe9"
    assert visible_text(b"bell\x07") == "bell\u2407"
