"""Help texts, written by hand so they are plain, stable and carry examples."""

APP_HELP = """\
usage: asrch COMMAND [ARGS]

Narrowing search for coding agents, on ripgrep. Every answer is small by
construction; counts are matching lines.

commands:
  survey   compare up to 12 terms across up to 8 paths (no match bodies)
  scout    one term: matching lines, files, top 5 directories, top 5 files
  sample   one term in one file: clusters of nearby matches, paged
  show     one term in one file: up to 20 matches with context, or --line N

protocol: survey -> scout -> sample -> show --line

options:
  -h, --help   show this help (or `asrch COMMAND --help`)
  --version    print the version

exit status: 0 results (zero matches too), 2 input error,
  3 show refused a broad search, 4 ripgrep failed, 70 internal error,
  130 interrupted
"""

MODES = """\
modes (mutually exclusive; default: fixed-string substring, case-sensitive):
  --word        fixed string with word boundaries
  --identifier  fixed string not touching [A-Za-z0-9_] on either side
  --regex       ripgrep regex; an unescaped | is refused (use survey)"""

SCOUT_HELP = f"""\
usage: asrch scout [MODE] QUERY [PATH]

Count the lines matching QUERY under PATH (default .) and show where they are:
the top 5 directories and top 5 files, paths relative to PATH. The scan stops
at 50000 matching lines and says `at least`.

{MODES}

examples:
  asrch scout connect src
  asrch scout --identifier id .
  asrch scout -- --files      (a term that starts with -)
"""

COMMAND_HELP = {"scout": SCOUT_HELP}
