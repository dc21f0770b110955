"""The prose of the two languages says the same numbers, section by section.

The examples are compared whole (`test_languages_carry_the_same_examples`); prose can
only be compared by what both languages write alike: numerals. Sections are matched by
position (the same headings, at the same levels, in the same order), and within each
section the numbers written outside code blocks must be the same multiset. So a limit
changed in one language only (`20 件` → `25 件`) fails, naming the section. Both
languages write counts as numerals, not words (`2 paths`, not `two paths`).
"""

import re
import unicodedata
from collections import Counter
from pathlib import Path

from tests.golden.examples import _fence

# 50,000 and 50000 are one number; full-width digits are folded by NFKC.
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def sections(path: Path) -> list[tuple[str, str]]:
    """(heading line, prose) per section; code blocks and comments left out."""
    found: list[tuple[str, list[str]]] = [("(before the first heading)", [])]
    in_block = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if in_block:
            in_block = line.strip() != "```"
            continue
        if _fence(line) is not None:
            in_block = True
            continue
        if line.startswith("#"):
            found.append((line, []))
        elif not line.lstrip().startswith("<!--"):
            found[-1][1].append(line)
    return [(heading, "\n".join(text)) for heading, text in found]


def numerals(text: str) -> Counter[str]:
    folded = unicodedata.normalize("NFKC", text)
    return Counter(n.replace(",", "") for n in _NUMBER.findall(folded))


def _level(heading: str) -> str:
    return heading.split(" ", 1)[0] if heading.startswith("#") else ""


def numeral_differences(japanese: Path, english: Path) -> list[str]:
    ja, en = sections(japanese), sections(english)
    levels_ja = " ".join(_level(h) for h, _ in ja[1:])
    levels_en = " ".join(_level(h) for h, _ in en[1:])
    if levels_ja != levels_en:
        return [
            f"{japanese.name} and {english.name} have different headings: "
            f"{levels_ja!r} and {levels_en!r}"
        ]
    problems = []
    for (_, text_ja), (title, text_en) in zip(ja, en, strict=True):
        a, b = numerals(text_ja), numerals(text_en)
        if a != b:
            problems.append(
                f"{english.name} section {title!r}: only in Japanese "
                f"{sorted((a - b).elements())}, only in English {sorted((b - a).elements())}"
            )
    return problems
