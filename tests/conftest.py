"""Settings for the whole suite."""

from hypothesis import settings

# No test here times anything (speed is measured in bench/, against rg): hypothesis'
# per-example deadline would only make examples fail when the machine is busy.
settings.register_profile("asrch", deadline=None)
settings.load_profile("asrch")
