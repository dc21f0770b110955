"""The search options every command shares (D30): terms made queries, filters resolved,
a named file checked against the filters."""

from asrch.domain.alternatives import pipe_refusal
from asrch.domain.errors import InputError
from asrch.domain.filters import Filters, make_filters
from asrch.domain.ports import Searcher
from asrch.domain.query import Query, SearchOptions, UnescapedPipeError, make_query
from asrch.domain.text_safety import quote


def filters_of(searcher: Searcher, options: SearchOptions) -> Filters:
    """The `--type`s (looked up in rg's list only when some are given) and `--glob`s,
    rooted where rg runs (an absolute path is matched from there, as rg does)."""
    known = searcher.file_types() if options.type else {}
    cwd = searcher.resolve(".") if options.type or options.glob else ""
    return make_filters(options.type, options.glob, known, cwd=cwd)


def query_of(term: str, options: SearchOptions, filters: Filters, *, what: str = "query") -> Query:
    return make_query(term, options, what=what, filters=filters)


def single_query(searcher: Searcher, term: str, options: SearchOptions, path: str) -> Query:
    """The query of a command that takes one term under `path`, its filters resolved
    (`query.filters`); an unescaped `|` under `--regex` refused with the survey call that
    answers it, where its regex is a plain alternation (`asrch.domain.alternatives`)."""
    try:
        return query_of(term, options, filters_of(searcher, options))
    except UnescapedPipeError as exc:
        raise pipe_refusal(Query(term, options), path) or exc from None


def require_kept(filters: Filters, path: str) -> None:
    """A file named as the path must be one the filters keep: they only narrow what is
    searched, so a file they drop would be searched for nothing."""
    reason = filters.excluding(path)
    if reason is not None:
        raise InputError(
            f"{quote(path)} is excluded by {reason}; "
            "name a file the filters keep, or drop the filter"
        )
