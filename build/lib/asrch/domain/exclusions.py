"""The seed's default exclusions; there is deliberately no option to lift them."""

EXCLUDED_DIRS = (
    ".git",
    "target",
    "node_modules",
    "vendor",
    "dist",
    "build",
    "coverage",
    "generated",
    "scratch",
    "tmp",
)
EXCLUDED_FILES = ("*.log", "*.jsonl", "*.xml", "*.min.js", "*.map")
