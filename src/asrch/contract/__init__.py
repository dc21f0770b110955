"""The machine-readable answers (D27): `--format json` and the published schemas.

Each answer is declared once, on its report (`answers.py`, in the vocabulary of
`objects.py` over the types of `values.py`); `build.py` writes a report by it and
`render.py` prints it with the stdlib; `schema.py`, the only module here that imports
pydantic, derives the schemas and the check from the same declarations. The text path
imports none of this package (tests/cli/test_imports.py).
"""
