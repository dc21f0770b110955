"""The structural bounds of the seed, in one place."""

SCAN_CAP = 50_000
"""Matching lines one search scans before it stops and reports `at least N`."""

KEEP_CAP = 5_000
"""Matches kept (with text) for snippets; `sample` clusters only these."""

BROAD_MATCHES = 1_000
BROAD_FILES = 100
"""A search with more matching lines or files than these is called broad (D16)."""

TOP_N = 5
"""Rows in scout's `top_directories` and `top_files`."""

SHORT_TERM = 3
"""Fixed-string terms of at most this many code points get the boundary hint (D14)."""

MAX_TERMS = 12
MAX_PATHS = 8
"""survey's bounds."""

DOMINANCE_SHARE = 0.8
"""A survey term holding at least this share of all matching lines dominates (D15)."""

SURVEY_PLACES_MAX = 3
"""A survey pair with an exact count of at most this many matching lines writes each
as `FILE:LINE` in place of its top file (D56): the next call can be a window."""

SCOUT_LIST_MAX = 20
"""A scout with an exact count of at most this many matching lines lists them (D32, D44)."""

SCOUT_LIST_BYTES = 2_000
"""...when the listed text (paths, scope lines, matching lines) fits in this many bytes (D44)."""

SHOW_MAX_MATCHES = 20
SHOW_CONTEXT_DEFAULT = 2
SCOPE_UNIT_MAX = 40
"""`show --scope` (D51): a unit (a definition, a block, a statement) of up to this many
lines is printed whole; a longer one as its first line, N-SCOPE_AROUND..N+SCOPE_AROUND and
its last line."""
SCOPE_AROUND = 5
SCOPE_FOLD_MIN = 4
"""A docstring or comment block of at least this many lines is folded into one line (D51)."""
SCOPE_MAX_MATCHES = 3
"""`show QUERY FILE --scope` widens each match up to this many matching lines (D51)."""
SAMPLE_CLUSTERS_DEFAULT = 3
CLUSTER_GAP = 2
"""Matches whose line numbers differ by at most this share a cluster (D18)."""

LINE_CAP = 800
"""Bytes in any output line, marker included (D8)."""

MATCH_LEAD = 200
"""Printed bytes kept before the first match when a long line is cut around it (D8)."""

SCOPE_LINE_CAP = 120
"""Bytes in a scope line (`N=text`), marker included (D55): a header says where, in short;
one that does not show its name whole in its head starts at the name."""

SCOPE_DEPTH = 3
"""Scope lines before one match at most: the innermost definitions are kept (D31)."""

SCOPE_MAX_BYTES = 1_000_000
"""A file larger than this gets no scope lines: its parse would cost more than a read."""

SCOUT_SCOPE_MAX_BYTES = 256 * 1024
"""scout's listing reads scope lines only from files of at most this many bytes (issue 39):
tree-sitter's parse of 1 MB of C alone (0.14-0.22 s) costs more than scout's whole answer
on the same bytes as `.txt` (0.13 s). `show` and `sample`, on a file the user named,
parse up to `SCOPE_MAX_BYTES`."""

SCOPE_PARSE_WORK = 1_000
SCOPE_PARSE_WORK_PER_BYTE = 0.015
"""A parse stops once tree-sitter's progress checks (one per 100 parse operations, about
30 nodes) pass `SCOPE_PARSE_WORK + SCOPE_PARSE_WORK_PER_BYTE x the bytes read so far`, and
the file's lines get no scope: ordinary code needs under 0.01 per byte (1,095 files of git,
tokio, lnav and the stdlib), a 960 KB C initializer of 480,000 elements 0.04, and would
cost 1 s and 140 MB (issue 31); stopped, about 40 KB of it is parsed."""

SCOPE_PARSE_SECONDS = 0.25
SCOPE_LINE_SECONDS = 0.001
"""A file's parses and walks together, CPU time at most: `SCOPE_PARSE_SECONDS` (error
recovery can spend it on a few KB: 1,200 operands and one error), and
`SCOPE_LINE_SECONDS` per line asked about (the walk to a line of ordinary code takes
about 0.05 ms); past it, no scope lines for the file's lines not yet placed."""

DEF_FILES_MAX = 500
"""`--def` (D52) parses the first 500 files that matched (in path order) at most: about 3
s of CPU on the installed lib's Python (`scout --def self`, 700 files, 3.7 s); the
matching lines of the files past them are counted as not judged, and said."""

SCOPE_NODE_VISITS = 200_000
"""Nodes the walk from the top of a file to its asked lines may visit in all (each node's
verdict is kept for the file's other lines); past it, the remaining lines get none."""

FILTERS_MAX = 100
"""`--type` values and `--glob` values, each (issue 39, item 7): every file of a tree is
matched against every glob, and the command line's parser takes time quadratic in the
number of times one option is repeated (cyclopts builds the rest of the line for each)."""

GLOB_MAX = 1_000
"""Characters in one `--glob` value (issue 32, item 2): matching is linear in the glob's
length too, once per file of a tree."""

FOLD_SHARE = 0.25
"""D53 in scout: the share of matching lines in header comments and in-file tests from
which the tables rank files and directories by the other lines."""
HEADER_FILES_MAX = 2_000
"""D53 in scout: header comments are read (without a parse) in the 2,000 matching files
with the most matching lines at most (bench/scopes.py: the read costs about as much as
rg's second search of those files, a fraction of the count's walk)."""
HEADER_READ_BYTES = 65_536
"""D53 in scout: a header comment is read from a file's first 64 KB; one that runs on
past them is not known, and nothing of the file folds."""
TEST_FILES_MAX = 10
"""D53 in scout: test regions are looked for (a parse) in the 10 Python and Rust files
that are not test files with the most matching lines at most, and parsed only when
their text holds a test marker."""
