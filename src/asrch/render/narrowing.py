"""How the JSON answer words the case setting (D27). The text header echoes none of the
settings the agent typed (D42)."""

from typing import Literal


def case_word(ignore_case: bool) -> Literal["sensitive", "insensitive"]:
    return "insensitive" if ignore_case else "sensitive"
