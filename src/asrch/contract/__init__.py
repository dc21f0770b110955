"""The machine-readable answers (D27): `--format json` and the published schemas.

Each answer's shape is declared once (`shapes.py`); `build.py` fills it from a report and
`render.py` writes it with the stdlib; `schema.py`, the only module here that imports
pydantic, derives the schemas and the check from the shapes. The text path imports none
of this package, the `--format json` path only `build` and `render`
(tests/cli/test_imports.py).
"""
