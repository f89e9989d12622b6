"""The claim's wording, as text segments with links: what its Markdown and HTML both show, once.

`assessment.md` and `claim.html` render the same header, conformance split and sections; the
wording lives here once, as `Field`s of `Segment`s, and each renderer only decides how a segment
looks (a Markdown link, an `<a>`, inline code).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tiercheck.claim.docs import DocsCoverage, FeatureCoverage, Hit
from tiercheck.claim.model import (
    BaselineItem,
    BaselineSection,
    ClaimHeader,
    ConformanceSplit,
    RefereeChanged,
    ScenarioChange,
    Tally,
)
from tiercheck.claim.pack import Claim
from tiercheck.comparison import RefereeChange
from tiercheck.config.disputes import CONFORMANCE_REPO
from tiercheck.plaintext import one_line
from tiercheck.render.element import ISSUE_PAGES, RELEASE_PAGES, github_page
from tiercheck.render.markdown import Md, fmt, github_url, own
from tiercheck.scorecard.readings import leg_tiers_line, short_sha, signal_detail
from tiercheck.scorecard.remediation import NOT_ASSESSED, not_assessed

__all__ = [
    "STATUS_TEXT",
    "VERDICT_LABEL",
    "Block",
    "Field",
    "Segment",
    "baseline_block",
    "changes_block",
    "docs_block",
    "header_fields",
    "reproduce_parts",
    "split_notes",
    "split_table",
]

VERDICT_LABEL: dict[str, str] = {
    "pass": "PASS",
    "fail": "FAIL",
    "needs review": "NEEDS REVIEW",
    "unmeasured": "UNMEASURED",
    "inconclusive": "INCONCLUSIVE",
    "skipped": "SKIPPED",
    "n/a": "N/A",
}

STATUS_TEXT = {
    "ready": "ready to file",
    "needs review": "ready once reviewed",
    "blocked": "blocked",
}


@dataclass(frozen=True)
class Segment:
    """A piece of text, linked when `url` is set, shown as code when `code`.

    Its text is untrusted (an SDK's or the harness's words), unless it is `Md`: tiercheck's
    own wording (made with `render.markdown.own` or `fmt`), whose Markdown (a code span,
    `conformance#245`) is meant.
    """

    text: str
    url: str | None = None
    code: bool = False

    @property
    def own(self) -> bool:
        """Whether the text is tiercheck's own Markdown, to show as it is."""
        return isinstance(self.text, Md)


@dataclass(frozen=True)
class Field:
    """One labelled line of the header."""

    label: str
    segments: tuple[Segment, ...]


def _version(header: ClaimHeader) -> tuple[Segment, ...]:
    release = header.release
    parts: list[Segment] = []
    if release is None:
        parts.append(Segment("no release tag in the assessed commit's history"))
        if header.newest_stable:
            parts += [
                Segment(" (newest stable release on GitHub: "),
                Segment(header.newest_stable),
                Segment(")"),
            ]
    else:
        page = github_page(release.url, repo=header.repo, kinds=RELEASE_PAGES)
        parts.append(Segment(release.version, page.url if page else None))
        if release.registry_url and release.registry:
            parts += [Segment(" ("), Segment(release.registry, release.registry_url), Segment(")")]
        notes = []
        if not release.stable:
            notes.append("not a stable release")
        if release.published_at:
            notes.append(f"published {release.published_at[:10]}")
        if notes:
            parts.append(Segment(f" ({', '.join(notes)})"))
    parts.append(Segment(" · assessed on "))
    if header.branch:
        parts += [Segment(header.branch, github_url(header.repo, "tree", header.branch), True)]
        parts.append(Segment(" @ "))
    if header.commit:
        url = github_url(header.repo, "commit", header.commit)
        parts.append(Segment(short_sha(header.commit), url, True))
    else:
        parts.append(Segment("an unknown commit (not a git checkout)"))
    if release is not None and release.commits_after is not None:
        after = release.commits_after
        commits = f"{after} commit{'s' if after != 1 else ''}"
        lead = " (the release " if after == 0 else f" ({commits} after "
        parts += [Segment(lead), Segment(release.tag), Segment(" itself)" if after == 0 else ")")]
    return tuple(parts)


def _implied(claim: Claim) -> str:
    """Both readings' tier; no tier when the run measured nothing, but why
    (`scorecard.remediation.not_assessed`)."""
    implied = claim.scorecard.implied_tier
    unassessed = not_assessed(claim.scorecard)
    if unassessed is not None:
        return f"{NOT_ASSESSED} ({unassessed.reason})"
    return (
        f"Tier {implied.tier} (official reading), Tier {implied.sep1730.tier} (SEP-1730 as written)"
    )


def _requested(claim: Claim) -> tuple[Segment, ...]:
    header = claim.header
    parts = [Segment(f"Tier {header.requested_tier}")]
    previous = header.previous
    if previous is None:
        parts.append(Segment(" · previous assessment: none given (--previous-issue)"))
        return tuple(parts)
    parts.append(Segment(" · previous assessment "))
    if previous.url:
        number = previous.url.rstrip("/").rsplit("/", 1)[-1]
        if number.isascii() and number.isdigit():
            parts.append(Segment(fmt("#{}", int(number)), previous.url))
        else:
            parts.append(Segment(previous.url, previous.url))
    else:
        parts.append(Segment("(issue not given)"))
    details = [
        f"Tier {previous.tier}" if previous.tier else None,
        previous.version,
        previous.date,
    ]
    shown = [d for d in details if d]
    if shown:
        parts.append(Segment(f" ({', '.join(shown)})"))
    return tuple(parts)


def header_fields(claim: Claim) -> list[Field]:
    """The header's lines, in the order the filed claims give them."""
    header = claim.header
    doc = claim.scorecard
    sdk = (
        Segment(header.repo, github_url(header.repo)),
        *((Segment(" (line "), Segment(header.sdk), Segment(")")) if header.sdk else ()),
    )
    governance = doc.governance.source + (
        f" as of {doc.governance.as_of}" if doc.governance.as_of else ""
    )
    fields = [
        Field("SDK", sdk),
        Field("Version", _version(header)),
        Field("Assessed", (Segment(header.date),)),
        Field("Requested tier", _requested(claim)),
        Field(
            "Tool",
            (
                Segment(f"tiercheck {header.tiercheck_version} with "),
                Segment(f"{header.harness} {header.harness_version or '?'}", code=True),
                Segment(f" · governance: {governance}"),
            ),
        ),
        Field("Revisions scored", (Segment(", ".join(header.revisions) or "none"),)),
        Field("Implied tier", (Segment(_implied(claim)),)),
        Field(
            f"Claim for Tier {claim.target_tier}",
            (Segment(STATUS_TEXT[claim.status]),),
        ),
    ]
    # Beside the implied tier, never instead of it (modelcontextprotocol#2306, #2144).
    alone = leg_tiers_line(claim.scorecard)
    if alone and not_assessed(claim.scorecard) is None:
        fields.insert(-1, Field("Each side alone", (Segment(alone),)))
    unaddressed = claim.scorecard.checks.unaddressed_issues
    if unaddressed is not None:
        fields.insert(
            -1,
            Field(
                "Relegation: issues unaddressed for two months",
                (Segment(signal_detail("unaddressed_issues", unaddressed)),),
            ),
        )
    return fields


def _fraction(tally: Tally, with_rate: bool = False) -> str:
    if tally.state not in ("measured", "partially-measured"):
        return tally.state
    text = f"{tally.passed}/{tally.total}"
    if with_rate and tally.total:
        rate = f"{100 * tally.passed / tally.total:.1f}".rstrip("0").rstrip(".")
        text += f" ({rate}%)"
    return text


def split_table(claim: Claim) -> tuple[list[str], list[list[str]]]:
    """The conformance split as the filed claims tabulate it: a row per leg (client core and
    auth apart), a column per revision, the total, and the two tiers' verdicts."""
    split = claim.conformance
    verdicts = {row.id: row for row in claim.rows}
    header = [
        "",
        *split.revisions,
        "All",
        *(f"Tier {t}" for t in claim.tiers),
    ]
    rows = []
    for line in split.rows:
        judged = {"server": "1a", "client": "1b"}.get(line.name)
        cells = [line.name.capitalize() if line.name != "client" else "Client total"]
        cells += [_fraction(line.by_revision[r]) for r in split.revisions]
        cells.append(_fraction(line.all, with_rate=True))
        if judged is not None:
            row = verdicts[judged]
            cells += [VERDICT_LABEL[row.verdicts[i]] for i in range(2)]
        else:
            cells += ["—", "—"]
        rows.append(cells)
    return header, rows


def split_notes(claim: Claim) -> list[tuple[Segment, ...]]:
    """What the split table leaves to sentences: pairs, warnings, what was not scored."""
    split = claim.conformance
    notes: list[tuple[Segment, ...]] = [
        (
            Segment(
                own(
                    "Counts are (scenario, revision) pairs: a scenario required at both "
                    "revisions runs once per revision, at that revision's wire. Client "
                    "scenarios named `auth/…` are the auth part, the rest the core."
                )
            ),
        )
    ]
    if split.warnings:
        total = sum(w.checks for w in split.warnings)
        listed: list[Segment] = [
            Segment(
                fmt(
                    "WARNING checks: {} in scored scenarios, not counted in the pass rate (the "
                    "official rule; whether they should count is conformance#245): ",
                    total,
                )
            )
        ]
        for i, w in enumerate(split.warnings):
            listed += [
                Segment(f"{'; ' if i else ''}{w.leg} "),
                Segment(w.scenario),
                Segment(fmt(" @ {}: {}", w.revision, w.checks)),
            ]
            if w.message:
                listed += [Segment(" ("), Segment(one_line(w.message, 120)), Segment(")")]
        notes.append((*listed, Segment(".")))
    else:
        notes.append((Segment("WARNING checks: none in any scored scenario."),))
    if split.not_scored:
        parts = ", ".join(
            f"{t.leg} {t.reason}: {t.passed} pass, {t.failed} fail" for t in split.not_scored
        )
        notes.append((Segment(f"Run but not scored (informational): {parts}."),))
    if split.disputed:
        notes.append(_disputed_note(split))
    if split.flaky:
        notes.append(_flaky_note(split))
    return notes


def _flaky_note(split: ConformanceSplit) -> tuple[Segment, ...]:
    """Each flaky scenario: how it failed beside other work, and that it passed by itself."""
    listed: list[Segment] = [
        Segment(
            own(
                "Flaky: failed while other scenarios ran beside it, passed when run again by "
                "itself with nothing else running; counted as passed in the official and "
                "SEP-1730 readings, as the official tier-check runs each leg by itself: "
            )
        )
    ]
    for i, f in enumerate(split.flaky):
        listed += [
            Segment(f"{'; ' if i else ''}{f.leg} "),
            Segment(f.scenario, code=True),
            Segment(f" @ {f.revision} ("),
            Segment(one_line(f.first, 200)),
            Segment(fmt(", then passed by itself in {} s)", f"{f.duration_s:.1f}")),
        ]
    return (*listed, Segment("."))


def _dispute_issue(url: str) -> Segment:
    """A dispute's issue, `OWNER/NAME#N` linked to it when the address passes
    `render.element.github_page` (an issue or pull request of the conformance repository);
    else the URL as written, as plain code."""
    page = github_page(url, repo=CONFORMANCE_REPO, kinds=ISSUE_PAGES)
    return Segment(page.label, page.url, code=True) if page else Segment(url, code=True)


def _disputed_note(split: ConformanceSplit) -> tuple[Segment, ...]:
    """Each scenario the disputes file names: its result, its dispute's state, reason and issue."""
    listed: list[Segment] = [
        Segment(
            own(
                "Disputed in the conformance repository (SEP-1730 leaves a test out "
                "\u201cuntil the dispute is resolved\u201d; the official reading counts it): "
            )
        )
    ]
    for i, d in enumerate(split.disputed):
        state = "open" if d.state == "open" else "resolved, counted again"
        checked = "" if d.verified else ", unverified"
        listed += [
            Segment(f"{'; ' if i else ''}{d.leg} "),
            Segment(d.scenario, code=True),
            Segment(f" @ {d.revision}: {d.result}, dispute {state}{checked} ("),
            Segment(one_line(d.reason, 200)),
            Segment(", "),
            _dispute_issue(d.issue),
            Segment(")"),
        ]
    return (*listed, Segment("."))


@dataclass(frozen=True)
class Block:
    """A section's content: paragraphs, then an optional table whose cells are segments."""

    paragraphs: tuple[tuple[Segment, ...], ...]
    header: tuple[str, ...] = ()
    rows: tuple[tuple[tuple[Segment, ...], ...], ...] = ()


def _outcome(item: BaselineItem) -> str:
    if item.outcome == "not-run":
        return item.detail  # "not scored at 2026-07-28 (extension)", "not run on the … leg"
    return {
        "expected-failure": "expected failure",
        "unexpected-failure": "UNEXPECTED failure (no entry)",
        "stale": "STALE (passes now)",
    }.get(item.outcome, item.outcome)


#: A reason is quoted up to here in the table (claim.json keeps it whole).
_REASON_LIMIT = 400


def _groups(items: Sequence[BaselineItem]) -> list[list[BaselineItem]]:
    """Consecutive entries that share a reason, a leg, revisions and an outcome: one table row,
    as the files group them under one comment."""
    groups: list[list[BaselineItem]] = []
    for item in items:
        last = groups[-1][-1] if groups else None
        same = last is not None and (
            (last.reason, last.leg, last.revisions, _outcome(last), last.scored)
            == (item.reason, item.leg, item.revisions, _outcome(item), item.scored)
        )
        if same and item.reason:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


_Cells = tuple[tuple[Segment, ...], ...]


def _baseline_files(section: BaselineSection) -> tuple[Segment, ...]:
    """The files line: each file (linked), the revisions it applied to, the leg when only one,
    and its number of entries."""
    files: list[Segment] = [Segment("Files: ")]
    for i, f in enumerate(section.files):
        if i:
            files.append(Segment("; "))
        # A file applied to one leg only says which (tower-mcp keeps one per leg).
        leg = f"{f.legs[0]} leg at " if len(f.legs) == 1 else ""
        files += [
            Segment(f.path, f.url, code=True),
            Segment(
                f" ({leg}{', '.join(f.revisions)}: {f.entries} "
                f"entr{'y' if f.entries == 1 else 'ies'})"
            ),
        ]
    return tuple(files)


def _baseline_row(group: Sequence[BaselineItem]) -> _Cells:
    """A row of the entries table: a group's entries (each linked to its line), and the leg,
    revisions, outcome, whether scored and the reason they share."""
    first = group[0]
    entries: list[Segment] = []
    for i, item in enumerate(group):
        if i:
            entries.append(Segment(", "))
        entries.append(Segment(item.entry or item.scenario, item.url, code=True))
    reason = first.reason or ("—" if first.entry else first.detail)
    return (
        tuple(entries),
        (Segment(first.leg),),
        (Segment(", ".join(first.revisions)),),
        (Segment(_outcome(first)),),
        (Segment("yes" if first.scored else "no"),),
        (Segment(one_line(reason, _REASON_LIMIT)),),
    )


def baseline_block(claim: Claim) -> Block:
    """The baseline section: the files, every entry with its reason, or an explicit none."""
    section = claim.baseline
    if not section.files:
        return Block(
            (
                (
                    Segment(
                        "None: no expected-failures file is configured for this SDK line, so "
                        "every scored failure counts as unexpected."
                    ),
                ),
            )
        )
    files = _baseline_files(section)
    if section.empty:
        return Block(
            (
                files,
                (
                    Segment(
                        "None: no entry is listed and no scored scenario failed outside the "
                        "baseline (no expected failures)."
                    ),
                ),
            )
        )
    counts = (
        Segment(
            f"Expected failures: {section.expected_failures}; unexpected failures: "
            f"{section.unexpected_failures}; stale entries: {section.stale}. A baseline never "
            "changes a score: an expected failure of a scored scenario still counts against it."
        ),
    )
    return Block(
        (files, counts),
        ("Entries", "Leg", "Revisions", "Outcome", "Scored", "Reason (the file's comment)"),
        tuple(_baseline_row(group) for group in _groups(section.items)),
    )


def reproduce_parts(
    claim: Claim,
) -> tuple[list[tuple[tuple[Segment, ...], list[str]]], list[str]]:
    """(intro, shell lines) per code block, then the notes: tiercheck's command, then the
    official harness's, each command under a `#` comment saying what it does (the intro naming
    the harness holds its name and version as untrusted segments)."""
    rep = claim.reproduce
    blocks: list[tuple[tuple[Segment, ...], list[str]]] = []
    lines: list[str] = []
    for step in rep.tiercheck:
        lines += [f"# {step.what}", step.command]
    blocks.append(((Segment(own("With tiercheck:")),), lines))
    if rep.harness:
        lines = []
        for step in rep.harness:
            prefix = f"{step.revision}: " if step.revision else ""
            lines += [f"# {prefix}{step.what}", step.command]
        intro = (
            Segment(own("With the official harness alone (")),
            Segment(claim.header.harness),
            Segment(own(" ")),
            Segment(claim.header.harness_version or "?"),
            Segment(own("), for the same conformance figures:")),
        )
        blocks.append((intro, lines))
    return blocks, list(rep.notes)


def _verdict_line(verdicts: Mapping[str, str]) -> str:
    return ", ".join(
        f"Tier {k.removeprefix('tier')} {VERDICT_LABEL.get(v, v)}" for k, v in verdicts.items()
    )


def _scenario_list(items: Sequence[ScenarioChange]) -> list[Segment]:
    parts: list[Segment] = []
    for i, c in enumerate(items):
        if i:
            parts.append(Segment(", "))
        parts += [Segment(c.scenario), Segment(fmt(" ({} @ {})", c.leg, c.revision))]
    return parts


def _referee(change: RefereeChanged) -> tuple[Segment, ...]:
    """ "The referee changed on DATE (harness A → B): N scenarios added, M changed", said
    instead of any regression (the versions as the harness gave them, in code)."""
    counts = RefereeChange(
        change.harness_before, change.harness_after, change.added, change.changed, change.unknown
    ).counts
    return (
        Segment(f"The referee changed on {change.date} (harness "),
        Segment(change.harness_before, code=True),
        Segment(" → "),
        Segment(change.harness_after, code=True),
        Segment(
            f"): {counts}; no scenario is compared with the previous assessment, so nothing "
            "it changed is called a regression."
        ),
    )


def changes_block(claim: Claim) -> Block | None:
    """What changed since `--previous`: the rows that moved, then the scenarios."""
    changes = claim.changes
    if changes is None:
        return None
    what = "claim.json" if changes.kind == "claim" else "scorecard.json (measured rows only)"
    intro: tuple[Segment, ...] = (
        Segment(f"Compared with the previous assessment's {what}, "),
        Segment(changes.source, code=True),
        Segment(f" ({changes.date or 'undated'}, commit {short_sha(changes.commit)})."),
    )
    paragraphs: list[tuple[Segment, ...]] = [intro]
    if changes.referee is not None:
        paragraphs.append(_referee(changes.referee))
    elif changes.incomparable:
        paragraphs.append(
            (Segment("It ran another harness version: no scenario is compared with it."),)
        )
    lists = (
        ("Now passing", changes.now_passing),
        ("Now failing", changes.now_failing),
        ("Added to the scored scenarios", changes.added),
        ("No longer scored", changes.removed),
        ("To or from unmeasured", changes.other),
    )
    moved = [(title, items) for title, items in lists if items]
    if not changes.rows and not moved:
        paragraphs.append((Segment("No row and no scored scenario changed."),))
        return Block(tuple(paragraphs))
    if not changes.rows:
        paragraphs.append((Segment("No row changed."),))
    for title, items in moved:
        paragraphs.append(
            (Segment(f"{title} ({len(items)}): "), *_scenario_list(items), Segment("."))
        )
    if not moved:
        paragraphs.append((Segment("No scored scenario changed."),))
    rows = tuple(
        (
            (Segment(c.id),),
            (Segment(c.requirement),),
            (Segment(c.before if c.before is not None else "—"),),
            (Segment(c.after),),
            (Segment(f"{_verdict_line(c.verdicts_before)} → {_verdict_line(c.verdicts_after)}"),),
        )
        for c in changes.rows
    )
    header = (own("#"), "Requirement", "Before", "Now", "Verdicts") if rows else ()
    return Block(tuple(paragraphs), header, rows)


def _hit(claim: Claim, hit: Hit | None) -> tuple[Segment, ...]:
    if hit is None:
        return (Segment("—"),)
    parts = [Segment(f"{hit.path}:{hit.line}", claim.docs_url(hit.path, hit.line))]
    if hit.kind == "heading":
        parts.append(Segment(" (heading)"))
    elif hit.kind == "section" and hit.section:
        parts += [Segment(" (§ "), Segment(one_line(hit.section, 60)), Segment(")")]
    return tuple(parts)


def _docs_intro(claim: Claim, coverage: DocsCoverage) -> tuple[Segment, ...]:
    """How many features the files name, how many files were read and where (the assessed
    commit, or the `--docs-ref`), and what a best hit is."""
    where: tuple[Segment, ...] = (Segment("the assessed commit"),)
    if claim.docs_ref:
        where = (
            Segment(claim.docs_ref),
            Segment(" ("),
            Segment(short_sha(claim.docs_commit), code=True),
            Segment(", --docs-ref)"),
        )
    return (
        Segment(
            f"{len(coverage.covered)}/{len(coverage.scored)} features are named in the "
            f"documentation or examples ({len(coverage.doc_files)} documentation files, "
            f"{len(coverage.example_files)} example files, read at "
        ),
        *where,
        Segment(
            "). The best documentation hit is a heading naming the feature, or a line in a "
            "section about it, in the documentation folder before the README before other "
            "pages; only then a passing mention. The reviewer confirms each one documents the "
            "feature."
        ),
    )


def _feature_row(claim: Claim, f: FeatureCoverage) -> _Cells:
    """A feature's row: what was found (and, for one the spec deprecated or removed, that it
    does not block), its best hits and its number of hits."""
    found = f.finding
    if f.lifecycle is not None:
        found += f" ({f.lifecycle.state} since {f.lifecycle.since}: not blocking)"
    return (
        (Segment(str(f.feature.number) if f.feature.number is not None else "—"),),
        (Segment(f.feature.name),),
        (Segment(f.feature.group),),
        (Segment(found),),
        _hit(claim, f.best_doc),
        _hit(claim, f.best_example),
        (Segment(f"{f.doc_count} / {f.example_count}"),),
    )


def docs_block(claim: Claim) -> Block:
    """Row 5's table: per feature, the best documentation hit and the best example hit."""
    coverage = claim.coverage
    if coverage is None:
        return Block(((Segment("Not read: the assessed checkout was not available."),),))
    paragraphs = [_docs_intro(claim, coverage)]
    if coverage.revision:
        paragraphs.append(
            (
                Segment(
                    fmt(
                        "Judged against {}, the newest revision scored: a feature the spec "
                        "deprecated or removed by then is listed, but its gap does not block "
                        "(conformance#441).",
                        coverage.revision,
                    )
                ),
            )
        )
    if coverage.missing:
        paragraphs.append(
            (
                Segment(
                    "No hit: "
                    + ", ".join(f"{f.feature.number} {f.feature.name}" for f in coverage.missing)
                    + "."
                ),
            )
        )
    return Block(
        tuple(paragraphs),
        (own("#"), "Feature", "Group", "Found", "Best documentation", "Best example", "Hits"),
        tuple(_feature_row(claim, f) for f in coverage.features),
    )
