"""The baseline section: every expected failure with its reason, and an explicit "none".

The filed claims list each expected-failures entry with why it is expected (the Go claim: "7
client-side auth scenarios … All fall in the extension category and are not scored for tier")
and say so when there is none (the Ruby claim: "The expected-failures baseline is empty"). The
outcomes come from the scorecard (the baseline as the run applied it); the reasons are the
comments the file itself gives each entry, which the official harness reads past. Pure: the
files' text arrives already read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tiercheck.claim.model import BaselineFile, BaselineItem, BaselineSection
from tiercheck.revisions import LEGS
from tiercheck.scorecard.model import BaselineEntry, Scorecard

__all__ = ["BaselineSource", "baseline_section", "entry_comments"]

_SECTION = re.compile(r"^(server|client)\s*:")
_ITEM = re.compile(r"^\s+-\s")
_COMMENT = re.compile(r"^\s*#\s?(.*)$")
_WHERE = re.compile(r"^(server|client)\[(\d+)\]$")
_AT_REVISION = re.compile(r" at \d{4}-\d{2}-\d{2}\b")


@dataclass(frozen=True)
class BaselineSource:
    """A baseline file as read from the checkout: its path in the repository and its text."""

    repo_path: str | None
    text: str | None


def _inline_comment(line: str) -> str | None:
    # `- auth/dpop  # SEP-1932` (a '#' after whitespace, outside quotes).
    quoted = False
    for i, char in enumerate(line):
        if char in "'\"":
            quoted = not quoted
        elif char == "#" and not quoted and i > 0 and line[i - 1].isspace():
            return line[i + 1 :].strip() or None
    return None


def entry_comments(text: str) -> dict[tuple[str, int], tuple[int, str | None]]:
    """(leg, index of the entry in its list) → (line number, the comment that explains it).

    An entry's reason is its own trailing comment, else the comment block that opens its
    group (the entries after a comment, up to a blank line), as the SDKs write their files.
    """
    found: dict[tuple[str, int], tuple[int, str | None]] = {}
    leg: str | None = None
    index = 0
    group: list[str] = []
    previous = "blank"
    for number, line in enumerate(text.splitlines(), start=1):
        section = _SECTION.match(line)
        comment = _COMMENT.match(line)
        if section:
            leg, index, group, previous = section.group(1), 0, [], "section"
        elif comment and leg is not None:
            if previous != "comment":
                group = []
            group.append(comment.group(1).strip())
            previous = "comment"
        elif not line.strip():
            if previous == "item":
                group = []
            previous = "blank"
        elif leg is not None and _ITEM.match(line):
            reason = _inline_comment(line) or (" ".join(g for g in group if g) or None)
            found[(leg, index)] = (number, reason)
            index += 1
            previous = "item"
        elif not line.startswith((" ", "\t")):
            leg = None  # another top-level key
    return found


def _scored(doc: Scorecard, entry: BaselineEntry) -> bool:
    revision = doc.revisions.get(entry.revision)
    if revision is None:
        return False
    leg = revision.server if entry.leg == "server" else revision.client
    return any(d.scenario == entry.scenario and d.scored for d in leg.details)


def _blob(doc: Scorecard, path: str | None, line: int | None) -> str | None:
    commit = doc.sdk.commit
    if not (path and commit and "/" in doc.repo):
        return None
    anchor = f"#L{line}" if line else ""
    return f"https://github.com/{doc.repo}/blob/{commit}/{path}{anchor}"


_Comments = Mapping[str, Mapping[tuple[str, int], tuple[int, str | None]]]


def _applied_files(
    applied: Mapping[tuple[str, str], str],
) -> dict[str, tuple[list[str], list[str]]]:
    """Each baseline file the run applied (in the order first applied) → the revisions and
    the legs it applied to, each once, in the order met."""
    files: dict[str, tuple[list[str], list[str]]] = {}
    for (revision, leg), path in applied.items():
        revisions, legs = files.setdefault(path, ([], []))
        if revision not in revisions:
            revisions.append(revision)
        if leg not in legs:
            legs.append(leg)
    return files


def _entry_comment(
    entry: BaselineEntry, path: str | None, comments: _Comments
) -> tuple[int | None, str | None]:
    """The line of `entry` in its file (`path`) and the comment that explains it, when the
    file was read and the scorecard says where in it the entry is."""
    where = _WHERE.match(entry.where or "")
    if path is None or path not in comments or not where:
        return None, None
    found = comments[path].get((where.group(1), int(where.group(2))))
    return found if found is not None else (None, None)


def _items(
    doc: Scorecard,
    entries: Sequence[BaselineEntry],
    applied: Mapping[tuple[str, str], str],
    sources: Mapping[str, BaselineSource],
    comments: _Comments,
) -> tuple[BaselineItem, ...]:
    """An item per entry the baseline judged, with its reason and its line's link; the same
    finding at another revision (its detail the same but for the revision named) merges into
    one item of both revisions."""
    merged: dict[tuple[object, ...], BaselineItem] = {}
    for entry in entries:
        file_path = applied.get((entry.revision, entry.leg))
        source = sources.get(file_path) if file_path else None
        line, reason = _entry_comment(entry, file_path, comments)
        scored = _scored(doc, entry)
        general = _AT_REVISION.sub("", entry.detail)
        key = (entry.entry, entry.leg, entry.scenario, entry.outcome, scored, file_path, general)
        known = merged.get(key)
        if known is not None:
            merged[key] = dataclasses.replace(
                known, revisions=(*known.revisions, entry.revision), detail=general
            )
            continue
        merged[key] = BaselineItem(
            entry=entry.entry,
            leg=entry.leg,
            scenario=entry.scenario,
            revisions=(entry.revision,),
            outcome=entry.outcome,
            scored=scored,
            reason=reason,
            detail=entry.detail,
            url=_blob(doc, source.repo_path if source else None, line),
        )
    return tuple(merged.values())


def _baseline_file(
    doc: Scorecard,
    path: str,
    applied: tuple[Sequence[str], Sequence[str]],
    source: BaselineSource | None,
    comments: _Comments,
) -> BaselineFile:
    """A baseline file as the claim names it: its path in the repository (else as the
    scorecard names it), the revisions and legs it `applied` to, and its number of entries."""
    revisions, legs = applied
    return BaselineFile(
        path=source.repo_path if source and source.repo_path else path,
        revisions=tuple(revisions),
        legs=tuple(leg for leg in LEGS if leg in legs),
        url=_blob(doc, source.repo_path if source else None, None),
        entries=len(comments.get(path, {})),
    )


def baseline_section(doc: Scorecard, sources: Mapping[str, BaselineSource]) -> BaselineSection:
    """Every entry the run's baseline judged, merged over the revisions with the same outcome,
    with the file's comment for it; `sources` maps each file (as the scorecard names it) to
    its text and its path in the repository."""
    block = doc.baseline
    if block is None:
        return BaselineSection(
            files=(), items=(), expected_failures=0, unexpected_failures=0, stale=0
        )
    applied = block.by_leg()
    comments = {
        path: entry_comments(source.text)
        for path, source in sources.items()
        if source.text is not None
    }
    files = tuple(
        _baseline_file(doc, path, found, sources.get(path), comments)
        for path, found in _applied_files(applied).items()
    )
    return BaselineSection(
        files=files,
        items=_items(doc, block.entries, applied, sources, comments),
        expected_failures=block.expected_failures,
        unexpected_failures=block.unexpected_failures,
        stale=block.stale,
    )
