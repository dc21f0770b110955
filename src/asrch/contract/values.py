"""The JSON answer's constants, without pydantic: shared by the builders (the `--format
json` path, which must not import pydantic, D41) and the models (the schemas and the MCP
boundary). How its strings are written: domain/text_safety.py."""

from typing import Literal

from asrch.domain.notices import kinds as notice_kinds

SCHEMA_VERSION: Literal["1"] = "1"

NOTICE_KINDS: tuple[str, ...] = notice_kinds()
"""Every notice the domain can raise (`refused` and `past_end` last, as they were added)."""
