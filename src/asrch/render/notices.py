"""The wording of notices (D6): each names the concrete next step, its arguments named
by reference (`asrch.domain.words`) for the surface to spell (D49)."""

from collections.abc import Sequence

from asrch.domain.boundaries import word_part
from asrch.domain.limits import (
    DEF_FILES_MAX,
    SCOPE_MAX_BYTES,
    SCOUT_LIST_BYTES,
    SCOUT_LIST_MAX,
    SCOUT_SCOPE_MAX_BYTES,
    SHOW_MAX_MATCHES,
)
from asrch.domain.modes import Mode
from asrch.domain.notices import (
    BinaryNotice,
    BroadNotice,
    CapNotice,
    DefinitionsNotice,
    DominanceNotice,
    FoldedNotice,
    GrepSyntaxNotice,
    IdleFilterNotice,
    LooseBoundaryNotice,
    NearNotice,
    NestedPathNotice,
    NoDefinitionNotice,
    NoMatchNotice,
    Notice,
    PastEndNotice,
    RefusedNotice,
    RetentionNotice,
    SamePathNotice,
    ShortTermNotice,
    SkippedNotice,
    UnlistedNotice,
    UnscopedNotice,
)
from asrch.domain.text_safety import quote
from asrch.domain.words import Spelling, arg, call, exclusions, spelled


def _for(term: str | None) -> str:
    return "" if term is None else f" for {quote(term)}"


def _files(n: int) -> str:
    return "1 file" if n == 1 else f"{n} files"


def _files_word(n: int) -> str:
    return "file" if n == 1 else "files"


def _and(values: tuple[str, ...]) -> str:
    """`a and b`, `a, b and c`: values as D2 quotes them."""
    quoted = [quote(v) for v in values]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _pairs_by_path(pairs: tuple[tuple[str, str], ...]) -> str:
    """`deep: beta, bet; wide: beta`: each path once (as given, in order), its terms."""
    terms: dict[str, list[str]] = {}
    for term, path in pairs:
        terms.setdefault(path, []).append(quote(term))
    return "; ".join(f"{quote(path)}: {', '.join(named)}" for path, named in terms.items())


def _loose_boundary(notice: LooseBoundaryNotice) -> str:
    flag = arg(notice.mode.value)
    edge = (
        "a non-word character" if notice.mode is Mode.WORD else "a character outside [A-Za-z0-9_]"
    )
    term = notice.term
    if notice.start and notice.end:
        edges, where, missed = "begins and ends", "before and after it", [f"x{term}", f"{term}x"]
    elif notice.start:
        edges, where, missed = "begins", "before it", [f"x{term}"]
    else:
        edges, where, missed = "ends", "after it", [f"{term}x"]
    part = word_part(term, notice.mode)
    bounded = f"{flag} {quote(part)}, or " if part else ""
    return (
        f"{quote(term)} {edges} with {edge}, so {flag} also demands one {where} and misses "
        f"lines like {' and '.join(quote(m) for m in missed)}; search {bounded}"
        f"{quote(term)} without {flag}"
    )


def _idle_filter(notice: IdleFilterNotice) -> str:
    """D38: what the filter did not do, and for a glob with a `/`, how it is anchored. As
    a zero answer's note (D43), at most 160 bytes: the count found under `.`, then the
    anchoring, then the names of all but the first glob are left out until it fits (a
    glob or a path too long to print whole: the option alone)."""
    values = (notice.value, *notice.also)
    under = " under any path searched" if notice.path is None else f" under {quote(notice.path)}"
    did = "matched no file" if notice.matched_none else "removed no file"
    anchored = ""
    if notice.anchored:
        anchored = "; a glob with a / is matched from the working directory, as rg matches it"
        if notice.spelling is not None:
            anchored += f"; from {quote(notice.path or '.')} write {quote(notice.spelling)}"
    tails = [anchored, ""]
    if notice.near is not None:
        near = f"; under .: {_found(notice.near)}"
        top = notice.near.top_file
        most = "" if top is None else f", most in {quote(top)}"
        tails[:0] = [anchored + near + most, anchored + near]

    def named(shown: int) -> str:
        more = len(values) - shown
        names = ", ".join(quote(v) for v in values[:shown])
        return f"{arg(notice.option)} {names}" + (f" and {more} more" if more else "")

    tried = [f"{named(len(values))} {did}{under}{tail}" for tail in tails]
    tried += [f"{named(shown)} {did}{under}" for shown in range(len(values) - 1, 0, -1)]
    tried.append(f"{arg(notice.option)} {did}")
    if not notice.zero:
        return tried[0]
    return next((said for said in tried if len(said.encode()) <= NOTE_MAX), tried[-1])


NOTE_MAX = 160
"""Bytes of a zero answer's note at most (D43), `note: ` aside."""


def _found(notice: NearNotice) -> str:
    """How many lines the one more search found, and in how many files."""
    at_least = "at least " if notice.capped else ""
    lines = "1 line" if notice.matches == 1 and not notice.capped else f"{notice.matches} lines"
    found = f"{at_least}{lines}"
    if notice.top_file is not None:
        found += f" in {at_least}{_files(notice.files)}"
    return found


def _near(notice: NearNotice) -> str:
    """D43: where the term is instead, and how many lines; the top file when it fits."""
    found = _found(notice)
    if notice.probe == "path":
        case = f" with {arg('ignore_case')}" if notice.folded else ""
        said = f"no matches here; under .{case}: {found}"
    elif notice.probe == "case":
        said = f"no matches in this case; with {arg('ignore_case')}: {found}"
    elif notice.mode is Mode.WORD:
        said = f"no whole-word matches; without {arg('word')} (inside longer words): {found}"
    else:
        said = (
            f"no matches as an identifier; without {arg('identifier')} (inside longer "
            f"names): {found}"
        )
    if notice.top_file is None:
        return said
    most = f", most in {quote(notice.top_file)}"
    return said + most if len((said + most).encode()) <= NOTE_MAX else said


def _no_match_under(notice: NoMatchNotice) -> str:
    """D43's zero note of a directory searched: what was not searched, and where else."""
    among = f" in the files {arg('type')} / {arg('glob')} keep" if notice.filtered else ""
    among += ", under . either" if notice.wider else ""
    # D57's case, where it fits 160 bytes: not beside the filters' or the size's words.
    folded = notice.wider and notice.folded and not notice.filtered
    folded = folded and notice.max_filesize is None
    among += f", even with {arg('ignore_case')}" if folded else ""
    skipped = (
        f"{notice.binary} binary {_files_word(notice.binary)}, and ignored, hidden "
        "and excluded ones"
        if notice.binary
        else "ignored, hidden and excluded files"
    )
    if notice.max_filesize is not None:
        size = f"{arg('max_filesize')} {quote(notice.max_filesize)}"
        skipped = f"files over {size}, {skipped}"
    return f"no matches{among}; not searched: {skipped}{exclusions()}"


def _unlisted(n: int) -> str:
    """Why a scout of 1 named file shows neither its lines nor a table (issue 40)."""
    if n > SCOUT_LIST_MAX:
        return f"not listed: {n} matching lines, more than {SCOUT_LIST_MAX}; sample clusters them"
    lines, them = ("matching line passes", "it") if n == 1 else (f"{n} lines pass", "them")
    return f"not listed: the {lines} {SCOUT_LIST_BYTES} bytes; show prints {them}"


def _folded(notice: FoldedNotice) -> str:
    """D53 in scout: where the folded lines lie, and what the tables rank by."""
    where = []
    both = notice.header and notice.tests  # each one's count, where there are 2
    if notice.header:
        where.append(f"header comments ({notice.header})" if both else "header comments")
    if notice.tests:
        where.append(f"in-file tests ({notice.tests})" if both else "in-file tests")
    folded = notice.header + notice.tests
    of = f"the {notice.matches} lines counted" if notice.capped else f"{notice.matches} lines"
    said = (
        f"{folded} of {of} lie in {' and '.join(where)}; top files and directories rank "
        f"by the other {notice.matches - folded}"
    )
    if notice.unread:
        said += f" (headers not read in {notice.unread} files with fewer lines)"
    return said


def _alternatives() -> str:
    return call("survey", term=("A", "B"))


def _grep_syntax(notice: GrepSyntaxNotice) -> str:
    """D43: grep's operators rg reads literally, and what to write instead."""
    if notice.constructs == ("|",):  # a mode without operators (issue 40)
        return f"no matches; | is a literal | in this mode, not OR: use {_alternatives()}"
    others = [c for c in notice.constructs if c != "\\|"]
    parts = []
    if others:
        plain = " ".join(c[1:] for c in others)
        parts.append(f"rg reads {' '.join(others)} literally, not as grep does: write {plain}")
    if "\\|" in notice.constructs:
        parts.append(f"\\| is a literal |, not OR: use {_alternatives()}")
    return "no matches; " + "; ".join(parts)


def _narrower(notice: BroadNotice) -> str:
    """What would narrow a broad search: never the mode already in use, never the path of
    a one-file search, never a bounded mode for a term it could not bound; -i when on."""
    fixed = notice.mode is Mode.FIXED
    where = "narrow the path" if fixed else f"narrow the path (or {arg('type')} / {arg('glob')})"
    if notice.mode is Mode.REGEX:
        what = "use a more specific pattern"
    elif fixed and notice.bounded_narrows:
        what = f"use a longer term or {arg('identifier')} / {arg('word')}"
    else:
        what = "use a longer term"
    ways = [what] if notice.one_file else [where, what]
    if notice.ignore_case:
        ways.append(f"drop {arg('ignore_case')}")
    return ", or ".join(ways)


def notice_text(notice: Notice) -> str:
    match notice:
        case RefusedNotice():
            at_least = "at least " if notice.capped else ""
            if notice.mode is Mode.REGEX:
                narrower = "a more specific pattern"
            elif notice.mode is Mode.FIXED and notice.bounded_narrows:
                narrower = f"a longer term, {arg('identifier')} or {arg('word')}"
            else:  # never the mode in use, nor one that cannot bound the term
                narrower = "a longer term"
            if notice.most != SHOW_MAX_MATCHES:  # --scope (D51)
                return (
                    f"refused: {at_least}{notice.matches} matching lines, more than the "
                    f"{notice.most} show {arg('scope')} widens; narrow the term ({narrower}), "
                    f"or show {arg('line')} N {arg('scope')} for one of them"
                )
            return (
                f"refused: {at_least}{notice.matches} matching lines, more than the "
                f"{SHOW_MAX_MATCHES} show prints; narrow the term ({narrower}), or run sample "
                f"and then show {arg('line')} N"
            )
        case PastEndNotice():
            return f"page {notice.page} is past the last page; valid pages: 1-{notice.pages}"
        case UnlistedNotice():
            return _unlisted(notice.matches)
        case FoldedNotice():
            return _folded(notice)
        case UnscopedNotice():
            kib = SCOUT_SCOPE_MAX_BYTES // 1024
            return (
                f"scope lines not read in {_files(notice.files)} over {kib} KiB (show reads them)"
            )
        case BroadNotice():
            at_least = "at least " if notice.capped else ""
            return (
                f"broad search{_for(notice.term)}: {at_least}{notice.matches} matching lines "
                f"in {at_least}{_files(notice.files)}; {_narrower(notice)}"
            )
        case CapNotice(pairs=pairs) if pairs:
            return (
                f"scan stopped at the {notice.cap}-line cap in {len(pairs)} (term, path) "
                f"pairs ({_pairs_by_path(pairs)}); their counts are lower bounds and each "
                "top_file covers only the files up to where its pair stopped, in path order; "
                "narrow the terms or the paths instead of asking for more"
            )
        case CapNotice():
            where = "" if notice.path is None else f" in {quote(notice.path)}"
            if notice.last_path is None:
                covered = "counts are lower bounds"
            else:
                ranked = "the top lists cover" if notice.path is None else "top_file covers"
                where += f" at {quote(notice.last_path)}"
                covered = (
                    f"counts are lower bounds and {ranked} only the files up to it in path order"
                )
            return (
                f"scan stopped at the {notice.cap}-line cap{_for(notice.term)}{where}; "
                f"{covered}; narrow the term or the path instead of asking for more"
            )
        case ShortTermNotice():
            return (
                f"short term {quote(notice.term)} also matches inside longer words; "
                f"try {arg('identifier')} or {arg('word')} for a bounded search"
            )
        case LooseBoundaryNotice():
            return _loose_boundary(notice)
        case SkippedNotice():
            return (
                f"skipped: {notice.files} unreadable (permission denied or I/O errors); "
                "their matches are not counted"
            )
        case BinaryNotice():
            # D34: one short line on every answer over such a tree; how to search one is
            # in --help and the spec.
            at_least = "at least " if notice.capped else ""
            return f"{at_least}{notice.files} binary {_files_word(notice.files)} skipped"
        case NoMatchNotice(directory=True):
            return _no_match_under(notice)
        case NoMatchNotice(wider=True):
            case = f" with {arg('ignore_case')}" if notice.folded else ""
            return f"no matches in the whole file, nor under .{case}; check the term and the mode"
        case NoMatchNotice():
            return "no matches in the whole file; check the term and the mode"
        case NearNotice():
            return _near(notice)
        case GrepSyntaxNotice():
            return _grep_syntax(notice)
        case DominanceNotice():
            return (
                f"{quote(notice.term)} holds {notice.percent}% of all matching lines and "
                "dominates the comparison; compare the other terms without it"
            )
        case SamePathNotice():
            times = len(notice.paths)
            if len(set(notice.paths)) == 1:
                named = f"{quote(notice.paths[0])} is given {times} times"
            else:
                named = f"{_and(notice.paths)} are the same path"
            return (
                f"{named}; overall counts each path as given, so its lines count {times} "
                "times; give it once to count each line once"
            )
        case NestedPathNotice():
            return (
                f"{quote(notice.path)} is inside {quote(notice.within)}; overall counts each "
                "path as given, so lines both find are counted for each; drop one of the two "
                "to count each line once"
            )
        case IdleFilterNotice():
            return _idle_filter(notice)
        case RetentionNotice():
            return (
                f"only the first {notice.kept} matches are clustered; narrow the term or "
                "the path to see the rest"
            )
        case NoDefinitionNotice():
            return _no_definition(notice)
        case DefinitionsNotice():
            return _definitions(notice)


_NOT_PARSED = {
    "no_grammar": "no grammar",
    "too_large": f"over {SCOPE_MAX_BYTES // 1_000_000} MB",
    "failed": "over the parse's bounds",
    "unreadable": "unreadable or changed",
    "uncertain": "parse errors",
    "file_limit": f"past the first {DEF_FILES_MAX} files",
}
"""D52: why matching lines were not judged, in a few words each (`NotParsed`)."""


def _lines(n: int) -> str:
    return "1 matching line" if n == 1 else f"{n} matching lines"


def _definitions(notice: DefinitionsNotice) -> str:
    """D52: what `--def` could not judge, and, when nothing was kept, that the matching
    lines name no definition; at most 160 bytes (the zero answer's one note, D43)."""
    said = []
    judged = notice.matches - sum(u.lines for u in notice.unjudged)
    if not notice.kept and judged:
        said.append(f"{_lines(judged)}, none where a definition's name stands")
    if notice.unjudged:
        lines = sum(u.lines for u in notice.unjudged)
        files = sum(u.files for u in notice.unjudged)
        why = ", ".join(f"{_NOT_PARSED[u.reason]} {u.files}" for u in notice.unjudged)
        said.append(f"{_lines(lines)} in {_files(files)} not counted: not parsed ({why})")
    return "; ".join(said)


def _no_definition(notice: NoDefinitionNotice) -> str:
    """Why `show --scope` printed the `--context` window (D46)."""
    if notice.why == "none":
        return f"no statement, block or definition holds line {notice.line}"
    if notice.why == "binary":
        return f"no definition known: {quote(notice.file)} holds a NUL byte (binary), not parsed"
    if notice.why == "no_grammar":
        name = notice.file.rsplit("/", 1)[-1]
        extension = name[name.rfind(".") :] if name.rfind(".") > 0 else ""
        which = f"{quote(extension)} files" if extension else "files without an extension"
        return f"no definition known: {which} are not parsed"
    if notice.why == "too_large":
        megabytes = SCOPE_MAX_BYTES // 1_000_000
        return f"no definition known: {quote(notice.file)} is over {megabytes} MB, not parsed"
    if notice.why == "unreadable":
        return f"no definition known: {quote(notice.file)} could not be read to parse it"
    return f"no definition known: the parse cannot place line {notice.line}"


def notes(notices: Sequence[Notice], spelling: Spelling) -> list[tuple[str, str]]:
    """Each notice's kind and words, as the surface spells them: the JSON answer's
    notices, in the text's order."""
    return [(n.kind, spelled(notice_text(n), spelling)) for n in notices]


def notice_lines(notices: Sequence[Notice], spelling: Spelling) -> list[str]:
    return [f"note: {message}" for _, message in notes(notices, spelling)]


def in_text(notices: Sequence[Notice]) -> list[Notice]:
    """The notices a text answer prints: the binary count only inside the zero note
    (D45); JSON carries every notice."""
    return [n for n in notices if not isinstance(n, BinaryNotice)]


def text_notice_lines(notices: Sequence[Notice], spelling: Spelling) -> list[str]:
    return notice_lines(in_text(notices), spelling)
