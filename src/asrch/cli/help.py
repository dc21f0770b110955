"""Help texts, written by hand so they are plain, stable and carry examples."""

APP_HELP = """\
usage: asrch COMMAND [ARGS]

Narrowing search for coding agents, on ripgrep. Every answer is small by
construction; counts are matching lines.

commands:
  survey   compare up to 12 terms across up to 8 paths (no match bodies)
  scout    one term: matching lines, files, top 5 directories, top 5 files
           (and the lines themselves when there are at most 10)
  sample   one term in one file: clusters of nearby matches, paged
  show     one term in one file: up to 20 matches with context, or --line N
  mcp      serve the four commands as MCP tools over stdio (the mcp extra)

protocol: survey -> scout -> sample -> show --line; an answer with a next
  step ends with `next: asrch ...`, a command to paste as it is
output: text; `asrch COMMAND --format json ...` prints one JSON object instead
binary files (a NUL byte) are skipped in a directory; name one as the path
  to search it

options:
  -h, --help   show this help (or `asrch COMMAND --help`)
  --version    print the version
  --type-list  the names --type takes, each with its globs

exit status: 0 results (zero matches too), 2 input error,
  3 show refused a broad search, 4 ripgrep failed, 70 internal error,
  74 output error, 130 interrupted
"""

FORMAT = "  --format F    text (default) or json: one JSON object, the same numbers"

NARROWING = """\
narrowing (they only narrow: no filter brings back an excluded, ignored or
hidden file):
  -i, --ignore-case  letters match in either case, in any mode
  --type NAME   only files of rg's type NAME (asrch --type-list); repeatable
  --glob GLOB   only files matching GLOB, none matching !GLOB; repeatable;
                with a /, GLOB matches the path as typed from here (src/**);
                without, a name at any depth (*.py)"""

MODES = """\
modes (mutually exclusive; default: fixed-string substring, case-sensitive):
  --word        fixed string with word boundaries
  --identifier  fixed string not touching [A-Za-z0-9_] on either side
  --regex       ripgrep regex; an unescaped | is refused (use survey)"""

SCOUT_HELP = f"""\
usage: asrch scout [MODE] [NARROWING] QUERY [PATH]

Count the lines matching QUERY under PATH (default .) and show where they are:
the top 5 directories and top 5 files, paths relative to PATH. The scan stops
at 50000 matching lines and says `at least`.

options:
{FORMAT}

{NARROWING}

{MODES}

examples:
  asrch scout connect src
  asrch scout --identifier id .
  asrch scout -- --files      (a term that starts with -)
  asrch scout -i rollover src
  asrch scout --type c autocrlf .
  asrch scout --glob '!t/**' autocrlf .
"""

SAMPLE_HELP = f"""\
usage: asrch sample [MODE] [NARROWING] QUERY FILE [--clusters N] [--page N]

Group the lines of FILE (one regular file) that match QUERY into clusters:
matches at most 2 lines apart share one. Each cluster prints its range, its
hit count, and its first and last match with one line before and after.
Clusters are paged in file order; only the first 5000 matches are clustered.

options:
  --clusters N  clusters per page, 1-5 (default 3)
  --page N      page to print, 1 or more (default 1); past the end: empty page
{FORMAT}

{NARROWING}

{MODES}

examples:
  asrch sample connect src/net/client.py
  asrch sample --identifier retry src/util/retry.py --page 2
  asrch sample hit samples/clusters.txt --clusters 5
  asrch sample -i retry src/util/retry.py
  asrch sample --type py connect src/net/client.py
  asrch sample --glob '*.py' connect src/net/client.py
"""

SHOW_HELP = f"""\
usage: asrch show [MODE] [NARROWING] QUERY FILE [--line N] [--context N]

Print the lines of FILE (one regular file) that match QUERY, with context.
More than 20 matching lines: no snippet, a note to narrow, exit status 3.
With --line N: only the lines around N (matches marked `:`), never refused.

options:
  --line N      the window around line N, 1 to the file's last line
  --context N   lines before and after, 0-5 (default 2)
{FORMAT}

{NARROWING}

{MODES}

examples:
  asrch show connect src/net/client.py
  asrch show --word retry src/util/retry.py --context 0
  asrch show hit samples/clusters.txt --line 16 --context 3
  asrch show -i RETRY src/util/retry.py
  asrch show --type py connect src/net/pool.py
  asrch show --glob '!tests/**' connect src/net/pool.py
"""

SURVEY_HELP = f"""\
usage: asrch survey [--word | --identifier] [NARROWING] --term T [--term T ...] [PATH ...]

Compare up to 12 terms across up to 8 paths (default .): per term the matching
lines, files and the dominant path; per path the terms that matched there, with
the file holding most of them. No match bodies. Every term x path pair is its own
search, stopped at 50000 matching lines (`>=N`). A path given twice counts twice.

options:
{FORMAT}

{NARROWING}
  (survey applies them to every term x path pair)

modes (mutually exclusive; default: fixed-string substring, case-sensitive):
  --word        fixed string with word boundaries
  --identifier  fixed string not touching [A-Za-z0-9_] on either side
  (no --regex: compare alternatives as separate terms)

examples:
  asrch survey --term connect --term retry src docs
  asrch survey --identifier --term id --term idx src
  asrch survey --term=-e .      (a term that starts with -)
  asrch survey -i --term rollover --term should_rollover .
  asrch survey --type c --term autocrlf --term safecrlf .
  asrch survey --glob '!t/**' --term autocrlf --term safecrlf .
"""

MCP_HELP = """\
usage: asrch mcp [--root DIR ...]

Serve survey, scout, sample and show as MCP tools over stdio, for coding agents
(Claude Code, Codex, Cursor, VS Code). Each tool answers with the text these
commands print and the --format json object. Only paths inside the roots are
searched; relative paths start at the first root. Needs the mcp extra
(pipx install '.[mcp]' in a clone). Ends when the client closes stdin, or on
SIGTERM.

options:
  --root DIR    a directory the tools may search (repeatable; default: .)

examples:
  asrch mcp
  claude mcp add asrch -- asrch mcp
  asrch mcp --root ~/src/project --root ~/src/library
"""

COMMAND_HELP = {
    "survey": SURVEY_HELP,
    "scout": SCOUT_HELP,
    "sample": SAMPLE_HELP,
    "show": SHOW_HELP,
    "mcp": MCP_HELP,
}
