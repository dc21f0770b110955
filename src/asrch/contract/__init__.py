"""The machine-readable answers (D27): `--format json` and the published schemas.

The only package of asrch that imports pydantic. The text path never imports it
(tests/cli/test_imports.py); `asrch.cli` reaches it only when `--format json` is given.
"""
