"""What counts as shown, the caps, the summaries, and the asrch policy's next steps."""

from pathlib import Path

import pytest
from bench.context.answers import Location
from bench.context.diagnose import clusters, facts
from bench.context.policies import (
    AsrchPolicy,
    Attempt,
    Call,
    Step,
    _hits,
    _key,
    is_test_path,
    offers,
    positionals,
    rg_attempts,
)
from bench.context.reading import cap_chars, cap_lines, count, decode, read_answer, rg_shown
from bench.context.run import asrch_command
from bench.context.scoring import goal, p90, summarize

from asrch.engine.binary import resolve_rg

SAMPLE = """\
sample:
  query: fork
  mode: fixed
  file: "my dir/sub process.py"
  matches: 10
  clusters: 9
  page: 1/3
== "my dir/sub process.py" 78-80 (2 hits, cluster 1/9) ==
77-# wasm32-emscripten
78:_can_fork_exec = sys.platform
80:    fork()
81-
note: skipped: 3 binary files (holding a NUL byte); their matches are not counted
next: asrch sample --page 2 fork 'my dir/sub process.py'
"""

SURVEY = """\
survey:
  terms: 3
  paths: 1
  mode: fixed
overall[term,matches,files,dominant_path]:
  refold,49,6,.
  fold,>=50000,439,.
  "a,b",0,0,-
by_path[1]:
  - path: .
    terms[term,matches,files,top_file]:
      refold,49,6,test/test_email/test_generator.py
      fold,2424,439,test/datetimetester.py
note: broad search for fold: 2424 matching lines in 439 files
"""

SCOUT = """\
scout:
  query: refold
  mode: fixed
  path: email
  matches: 20
  files: 2
top_directories[path,matches]:
  .,18
  mime,2
top_files[path,matches]:
  policy.py,18
  mime/text.py,2
"""


def test_decode_d2_values() -> None:
    assert decode("plain/path.py") == "plain/path.py"
    assert decode('"a b,c.py"') == "a b,c.py"
    assert decode('"q\\"uote\\\\"') == 'q"uote\\'
    assert decode('"tab\\there\\u00e9"') == "tab\there\u00e9"
    assert decode('"\\xff"') == "\udcff"
    assert count("at least 50000") == 50000
    assert count(">=7") == 7
    assert count("12") == 12


def test_sample_shows_its_file_lines_matches_and_context_alike() -> None:
    answer = read_answer(SAMPLE, "my dir/sub process.py")
    assert answer.command == "sample"
    assert answer.fields["page"] == "1/3"
    assert answer.shown == [("my dir/sub process.py", n) for n in (77, 78, 80, 81)]
    assert answer.matched == [78, 80]
    assert answer.next_argv == ["sample", "--page", "2", "fork", "my dir/sub process.py"]


def test_survey_and_scout_rows_show_no_lines() -> None:
    survey = read_answer(SURVEY)
    assert survey.shown == []
    assert survey.tables["overall"] == [
        ["refold", "49", "6", "."],
        ["fold", ">=50000", "439", "."],
        ["a,b", "0", "0", "-"],
    ]
    assert "by_path" not in survey.tables and "terms" not in survey.tables
    assert survey.next_argv is None
    scout = read_answer(SCOUT)
    assert scout.fields["path"] == "email"
    assert scout.tables["top_files"] == [["policy.py", "18"], ["mime/text.py", "2"]]
    assert scout.shown == []


def test_rg_lines_are_path_colon_line() -> None:
    text = "email/policy.py:12:x = 1\nemail/policy.py-13-context\nbinary file matches\n"
    assert rg_shown(text) == [("email/policy.py", 12)]


def test_a_joined_path_is_the_same_file() -> None:
    location = Location("net/client.py", 4, 36)
    assert _hits(location, [("./net/client.py", 5)])
    assert _hits(location, [("net//client.py", 5)])
    assert not _hits(location, [("net/client.pyc", 5)])


def test_caps_cut_characters_and_lines() -> None:
    text = "a:1:é\n" * 5
    assert cap_chars(text, 8) == "a:1:é\na:"
    assert cap_lines(text, 2) == "a:1:é\n" * 2
    assert cap_lines(text, 100) == text


def test_offers_follow_the_protocol() -> None:
    survey = Step(0, 0, 0, ("survey", "--term=refold", "--term=fold", "--term=a,b", "."))
    assert offers(survey, read_answer(SURVEY)) == [
        (0, 0, ("scout", "refold", ".")),  # fewest matching lines first; zero rows dropped
        (0, 1, ("scout", "fold", ".")),
    ]
    scout = Step(0, 1, 0, ("scout", "refold", "email"))
    assert offers(scout, read_answer(SCOUT)) == [
        (0, 1, ("sample", "refold", "email/policy.py")),
        (1, 1, ("sample", "refold", "email/mime/text.py")),
        (6, 1, ("scout", "refold", "email/mime")),  # `.` is the scouted path itself
    ]
    # 10 matches, 2 printed: show prints them all (at most 20).
    sample = Step(2, 0, 0, ("sample", "fork", "my dir/sub process.py"))
    assert offers(sample, read_answer(SAMPLE)) == [
        (2, 0, ("show", "fork", "my dir/sub process.py"))
    ]
    many = read_answer(SAMPLE.replace("matches: 10", "matches: 21"))
    assert offers(sample, many) == [
        (3, 0, ("sample", "--page", "2", "fork", "my dir/sub process.py"))
    ]
    last = read_answer(SAMPLE.replace("matches: 10", "matches: 21").replace("1/3", "3/3"))
    assert offers(sample, last) == []
    dash = Step(0, 0, 0, ("scout", "--", "-x", "."))
    assert offers(dash, read_answer(SCOUT))[0] == (0, 0, ("sample", "--", "-x", "policy.py"))


LISTING = """\
scout:
  query: TMPDIR
  matches: 4
  files: 3
top_directories[path,matches]:
  .,3
  test,1
top_files[path,matches]:
  tempfile.py,2
  "2024 notes.md",1
  test/test_tempfile.py,1
tempfile.py
12=def _candidate_tempdir_list():
160:    for envname in 'TMPDIR', 'TEMP', 'TMP':
170:        TMPDIR = 1
"2024 notes.md"
3:TMPDIR moved
test/test_tempfile.py
54:        for envname in 'TMPDIR', 'TEMP', 'TMP':
note: 5 binary files skipped
next: asrch show --line 160 TMPDIR tempfile.py
"""


def test_a_scout_listing_is_read_only_as_listed_lines() -> None:
    answer = read_answer(LISTING)
    assert answer.listed == [
        ("tempfile.py", 160),
        ("tempfile.py", 170),
        ("2024 notes.md", 3),
        ("test/test_tempfile.py", 54),
    ]
    assert answer.shown == []  # the plain reading: only a `file:` answer shows lines
    assert answer.tables["top_files"][1] == ["2024 notes.md", "1"]
    assert answer.next_argv == ["show", "--line", "160", "TMPDIR", "tempfile.py"]
    assert read_answer(SCOUT).listed == []


def test_sources_first_samples_test_files_last() -> None:
    scout = read_answer(
        SCOUT.replace("  policy.py,18\n", "  test/test_policy.py,18\n  policy.py,17\n")
    )
    step = Step(0, 0, 0, ("scout", "refold", "."))
    plain = [o[2][-1] for o in offers(step, scout) if o[2][0] == "sample"]
    first = [o[2][-1] for o in offers(step, scout, sources_first=True) if o[2][0] == "sample"]
    assert plain == ["test/test_policy.py", "policy.py", "mime/text.py"]
    assert first == ["policy.py", "mime/text.py", "test/test_policy.py"]
    assert is_test_path("test/test_email/x.py")
    assert is_test_path("idlelib/idle_test/test_calltip.py")
    assert is_test_path("lib2to3/tests/data/x.py")
    assert is_test_path("pkg/test_x.py")
    assert not is_test_path("unittest/loader.py")
    assert not is_test_path("doctest.py")
    assert not is_test_path("contest/x.py")
    assert is_test_path("tests/unit/unit1300.c")
    assert is_test_path("src/app.test.ts")
    assert is_test_path("spec/models/user_spec.rb")
    assert is_test_path("pkg/client_test.go")
    assert not is_test_path("lib/testing.c")


def test_positionals() -> None:
    assert positionals(["sample", "--page", "2", "--clusters", "5", "t", "f"]) == [
        "sample",
        "t",
        "f",
    ]
    assert positionals(["scout", "--identifier", "--", "-x", "."]) == ["scout", "-x", "."]
    assert positionals(["survey", "--term=a", "--term", "b", "src"]) == ["survey", "src"]


def _attempt(found: bool, *sizes: int) -> Attempt:
    attempt = Attempt("p", found)
    attempt.calls = [Call(("x",), 0, n, False) for n in sizes]
    return attempt


def test_summaries_over_all_tasks_misses_included() -> None:
    attempts = [_attempt(True, 100), _attempt(False, 50, 50, 50), _attempt(True, 10, 20)]
    summary = summarize("p", attempts)
    assert (summary.tasks, summary.found, summary.calls) == (3, 2, 6)
    assert summary.median_bytes == 100
    assert summary.p90_bytes == 150
    assert summary.median_calls == 2
    assert summary.rate == pytest.approx(2 / 3)


def test_p90_is_nearest_rank() -> None:
    assert p90([]) == 0
    assert p90([5]) == 5
    assert p90(list(range(1, 11))) == 9
    assert p90(list(range(1, 12))) == 10
    assert p90([3, 1, 2]) == 3


def test_goal() -> None:
    table = {
        "a": summarize("a", [_attempt(True, 10, 10, 10), _attempt(True, 50)]),
        "rg": summarize("rg", [_attempt(True, 30), _attempt(True, 100)]),
    }
    met = goal(table, "a")
    assert met.met and met.policy == "a"
    table["a"] = summarize("a", [_attempt(True, 9, 9, 9, 9), _attempt(False, 9, 9, 9, 9)])
    met = goal(table, "a")
    assert not met.finds_as_many and not met.calls_at_most_3 and met.median_at_most_rg
    table["a"] = summarize("a", [_attempt(True, 80), _attempt(True, 70)])
    met = goal(table, "a")
    assert not met.median_at_most_rg and not met.p90_far_below and not met.met


# --- both policies, real processes, a tree where the outcome is known -----------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    (root / "net").mkdir(parents=True)
    (root / "tests").mkdir()
    body = ["import os", "", "", "def open_socket(host):", '    """Connect."""']
    body += [f"    step_{i} = connect(host)" for i in range(30)]
    body += ["    return step_29", ""]
    (root / "net" / "client.py").write_text("\n".join(body) + "\n")
    noise = "".join(f"connect({i})\n" for i in range(200))
    (root / "tests" / "test_client.py").write_text(noise)
    return root


def test_rg_policy_reads_each_output_whole_or_capped(tree: Path) -> None:
    location = Location("net/client.py", 4, 36)
    attempts = rg_attempts(resolve_rg(), ["nothing here", "connect"], location, tree)
    uncapped = attempts["rg"]
    assert uncapped.found
    assert [c.argv[-1] for c in uncapped.calls] == ["nothing here", "connect"]
    assert uncapped.calls[0].bytes_read == 0
    # 30 lines of net/client.py then 200 of tests/ (sorted by path), every byte read.
    lines = [f"net/client.py:{6 + i}:    step_{i} = connect(host)\n" for i in range(30)]
    lines += [f"tests/test_client.py:{i + 1}:connect({i})\n" for i in range(200)]
    assert uncapped.calls[1].bytes_read == len("".join(lines).encode())
    assert attempts["rg 100 matches"].calls[1].bytes_read == len("".join(lines[:100]).encode())
    assert attempts["rg 30k chars"].found
    # An answer only past the first 100 matches is not seen under that cap.
    late = Location("tests/test_client.py", 150, 150)
    capped = rg_attempts(resolve_rg(), ["connect"], late, tree)
    assert capped["rg"].found
    assert not capped["rg 100 matches"].found


def test_asrch_policy_narrows_to_the_answer(tree: Path) -> None:
    location = Location("net/client.py", 4, 36)
    attempt = AsrchPolicy(asrch_command()).attempt(["open_socket", "connect"], location, tree)
    # 1 matching line: the scout lists it (D32), with no next step (D44): the listing is
    # the answer.
    assert attempt.found and [c.argv[0] for c in attempt.calls] == ["survey", "scout"]
    assert attempt.calls[1].argv == ("scout", "open_socket", ".")
    assert attempt.calls[-1].shows_answer
    assert not any(c.shows_answer for c in attempt.calls[:-1])


def test_asrch_policy_stops_at_its_budget(tree: Path) -> None:
    nowhere = Location("net/absent.py", 1, 1)
    attempt = AsrchPolicy(asrch_command(), budget=4).attempt(["connect"], nowhere, tree)
    assert not attempt.found
    assert len(attempt.calls) == 4
    assert attempt.bytes_read == sum(c.bytes_read for c in attempt.calls) > 0


def test_clusters_follow_d18() -> None:
    assert clusters([10, 12, 14, 17, 30]) == [(10, 14), (17, 17), (30, 30)]
    assert clusters([]) == []


def test_facts_place_the_answer_as_scout_and_sample_would(tree: Path) -> None:
    rg = resolve_rg()
    location = Location("net/client.py", 4, 36)
    f = facts(rg, "connect", location, tree)
    assert (f.matches, f.files, f.rank) == (230, 2, 2)  # the test file has more lines
    assert (f.file_matches, f.in_range, f.page, f.pages) == (30, 30, 1, 1)
    assert not f.by_show  # 30 matches: show refuses past 20
    rare = facts(rg, "open_socket", location, tree)
    assert (rare.rank, rare.file_matches, rare.page, rare.by_show) == (1, 1, 1, True)
    absent = facts(rg, "step_", Location("tests/test_client.py", 1, 5), tree)
    assert absent.rank is None
    assert absent.page is None


def test_one_search_however_its_path_is_spelled() -> None:
    assert _key(("sample", "t", "./a/b.py")) == _key(("sample", "t", "a//b.py"))
    assert _key(("sample", "t", "a/b.py")) != _key(("sample", "u", "a/b.py"))


def test_a_next_line_is_the_next_call() -> None:
    """Once answers carry D28 `next:` lines, the policy takes them before its own
    choice: here survey's next: names the less selective term, and sample's names a
    `show --line` that the rows alone would not suggest. The answers are written out
    (main's asrch prints no `next:` yet); every other test runs the real command."""
    survey = SURVEY + "next: asrch scout fold .\n"
    scout = SCOUT.replace("path: email", "path: .").replace("query: refold", "query: fold")
    sample = SAMPLE.replace("my dir/sub process.py", "policy.py").replace(
        "next: asrch sample --page 2 fork 'policy.py'", "next: asrch show --line 79 fold policy.py"
    )
    shown = "show:\n  query: fold\n  file: policy.py\n  line: 79\n79-x\n"
    answers = {"survey": survey, "scout": scout, "sample": sample, "show": shown}
    calls: list[tuple[str, ...]] = []

    def run(argv: tuple[str, ...]) -> tuple[int, bytes]:
        calls.append(argv)
        return 0, answers[argv[0]].encode()

    policy = AsrchPolicy(["asrch"])
    attempt = policy.attempt(["refold", "fold"], Location("policy.py", 79, 79), Path(), run)
    assert calls == [
        ("survey", "--term=refold", "--term=fold", "."),
        ("scout", "fold", "."),
        ("sample", "fold", "policy.py"),
        ("show", "--line", "79", "fold", "policy.py"),
    ]
    assert attempt.found
    assert attempt.bytes_read == sum(len(answers[c[0]].encode()) for c in calls)


def test_the_agent_takes_a_listing_as_an_answer() -> None:
    """Every policy stops at the scout whose listing holds the line (D44: a listing is
    the answer, and has no next step)."""
    survey = "survey:\noverall[term,matches,files,dominant_path]:\n  TMPDIR,4,3,.\n"
    answers = {"survey": survey, "scout": LISTING, "show": "show:\n  file: tempfile.py\n160:x\n"}

    def run(argv: tuple[str, ...]) -> tuple[int, bytes]:
        return 0, answers[argv[0]].encode()

    location = Location("tempfile.py", 150, 165)
    agent = AsrchPolicy(["asrch"], sources_first=True)
    plain = AsrchPolicy(["asrch"])
    found = agent.attempt(["TMPDIR"], location, Path("."), run)
    assert found.found and [c.argv[0] for c in found.calls] == ["survey", "scout"]
    same = plain.attempt(["TMPDIR"], location, Path("."), run)
    assert same.found and [c.argv[0] for c in same.calls] == ["survey", "scout"]


def test_the_agent_reads_no_line_twice() -> None:
    """A listing that missed: its next: (`show --line` at a listed line) and the samples
    and shows of the files listed whole would print those lines again, so the agent
    skips them and scouts the next term; without the rule it spends them."""
    survey = (
        "survey:\noverall[term,matches,files,dominant_path]:\n  TMPDIR,4,3,.\n  gettempdir,9,1,.\n"
    )
    listing = LISTING.replace("note: 5", "next: asrch show --line 160 TMPDIR tempfile.py\nnote: 5")
    answers = {
        "survey": survey,
        "scout": listing,
        "show": "show:\n  file: tempfile.py\n160:x\n",
        "sample": "sample:\n  file: tempfile.py\n  page: 1/1\n160:x\n",
    }
    calls: list[tuple[str, ...]] = []

    def run(argv: tuple[str, ...]) -> tuple[int, bytes]:
        calls.append(argv)
        return 0, answers[argv[0]].encode()

    elsewhere = Location("shutil.py", 1, 5)
    agent = AsrchPolicy(["asrch"], sources_first=True, skips_rereading=True)
    agent.attempt(["TMPDIR", "gettempdir"], elsewhere, Path("."), run)
    assert [c[:2] for c in calls[:3]] == [
        ("survey", "--term=TMPDIR"),
        ("scout", "TMPDIR"),
        ("scout", "gettempdir"),
    ]
    calls.clear()
    rereading = AsrchPolicy(["asrch"], sources_first=True)
    rereading.attempt(["TMPDIR", "gettempdir"], elsewhere, Path("."), run)
    assert calls[2] == ("show", "--line", "160", "TMPDIR", "tempfile.py")


def test_overhead_is_what_is_no_file_line() -> None:
    """Issue 30: an answer's bytes less its file lines (without their marks)."""
    from bench.context.reading import code_bytes, is_zero

    asrch_text = "show:\n  matches: 1\n4=class A:\n5:    x = 1\nnext: asrch sample x a.py\n"
    assert code_bytes(asrch_text) == len("class A:\n") + len("    x = 1\n")
    rg_text = "a.py:5:    x = 1\nb.py:7:y\n"
    assert code_bytes(rg_text, rg=True) == len("    x = 1\n") + len("y\n")
    assert is_zero("scout:\n  matches: 0\n  files: 0\nnote: no matches\n")
    assert not is_zero(asrch_text) and is_zero("", rg=True) and not is_zero(rg_text, rg=True)


def test_a_zero_note_points_to_a_file_and_its_options() -> None:
    from bench.context.reading import zero_pointer

    said = "note: no matches in this case; with -i: 2 lines in 1 file, most in src/log.h\n"
    assert zero_pointer("scout:\n  matches: 0\n" + said) == ("src/log.h", ("-i",))
    wider = 'note: no matches here; under .: 3 lines in 2 files, most in "a b/c.py"\n'
    assert zero_pointer(wider) == ("a b/c.py", ())
    inside = (
        "note: no matches as an identifier; without --identifier (inside longer names): "
        "2 lines in 1 file, most in x.py\n"
    )
    assert zero_pointer(inside) == ("x.py", ())
    assert (
        zero_pointer("note: no matches; not searched: ignored files (see asrch --help)\n") is None
    )


def test_the_zero_note_agent_follows_the_note() -> None:
    """D43: no candidate matched as typed; the agent scouts the first, reads where its
    note points, and samples the term there with the note's options."""
    survey = "terms[term,matches,files,top_file]:\n  tmpdir,0,0,-\n"
    scout = (
        "scout:\n  matches: 0\n  files: 0\n"
        "note: no matches in this case; with -i: 4 lines in 3 files, most in tempfile.py\n"
    )
    sample = "sample:\n  matches: 4\n== 160-160 (1 hit, cluster 1/1) ==\n160:x\n"
    answers = {"survey": survey, "scout": scout, "sample": sample}

    def run(argv: tuple[str, ...]) -> tuple[int, bytes]:
        return 0, answers[argv[0]].encode()

    location = Location("tempfile.py", 150, 165)
    agent = AsrchPolicy(["asrch"], sources_first=True, follows_zero_notes=True)
    found = agent.attempt(["tmpdir"], location, Path("."), run)
    assert found.found, found
    assert [c.argv for c in found.calls] == [
        ("survey", "--term=tmpdir", "."),
        ("scout", "tmpdir", "."),
        ("sample", "-i", "tmpdir", "tempfile.py"),
    ]
    assert found.calls[1].zero and not found.calls[2].zero
    plain = AsrchPolicy(["asrch"], sources_first=True).attempt(["tmpdir"], location, Path("."), run)
    assert not plain.found and len(plain.calls) == 1


def test_the_round5_agent_shows_a_placed_line_and_scouts_definitions() -> None:
    """Issue 40: a survey's `path:LINE` (D56) is shown with its unit (D51) before any
    scout; a definition question scouts `--def` first (D52)."""
    survey = (
        "terms[term,matches,files,top_file]:\n"
        "  refold,2,1,email/_parser.py:2840 email/_parser.py:2901\n"
        "  fold,300,40,email/_header.py\n"
    )
    show = (
        "show:\n  window: 2840-2870\n  unit: definition\n  last_line: 3000\n2840-def _refold():\n"
    )
    scout = "scout:\n  matches: 1\n  files: 1\nemail/_parser.py\n2840:def _refold():\n"
    answers = {"survey": survey, "show": show, "scout": scout}

    def run(argv: tuple[str, ...]) -> tuple[int, bytes]:
        return 0, answers[argv[0]].encode()

    location = Location("email/_parser.py", 2840, 2900)
    agent = AsrchPolicy(["asrch"], sources_first=True, follows_zero_notes=True, round5=True)
    found = agent.attempt(["refold", "fold"], location, Path("."), run, kind="call")
    assert found.found
    assert [c.argv for c in found.calls] == [
        ("survey", "--term=refold", "--term=fold", "."),
        ("show", "--line", "2840", "--scope", "email/_parser.py"),
    ]
    survey_only = "terms[term,matches,files,top_file]:\n  refold,9,2,email/_parser.py\n"
    answers["survey"] = survey_only
    found = agent.attempt(["refold"], location, Path("."), run, kind="definition")
    assert [c.argv for c in found.calls] == [
        ("survey", "--term=refold", "."),
        ("scout", "--def", "refold", "."),
    ]
    assert found.found
    plain = AsrchPolicy(["asrch"], sources_first=True, follows_zero_notes=True)
    assert plain.attempt(["refold"], location, Path("."), run, kind="definition").calls[1].argv == (
        "scout",
        "refold",
        ".",
    )


def test_the_round5_agent_asks_def_only_of_a_term_that_can_be_a_name() -> None:
    survey = "terms[term,matches,files,top_file]:\n  long word,9,2,textwrap.py\n"

    def run(argv: tuple[str, ...]) -> tuple[int, bytes]:
        return 0, (survey if argv[0] == "survey" else "scout:\n  matches: 0\n").encode()

    agent = AsrchPolicy(["asrch"], round5=True)
    calls = agent.attempt(["long word"], Location("a.py", 1, 2), Path("."), run, kind="definition")
    assert [c.argv[:2] for c in calls.calls[:2]] == [
        ("survey", "--term=long word"),
        ("scout", "long word"),
    ]
