"""asrch: a narrowing search command line for coding agents."""

__version__ = "0.1.0"
