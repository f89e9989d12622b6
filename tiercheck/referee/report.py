"""The referee change's report as plain text: what changes, for the reviewer of the change.

Every name in it that comes from the harness bundle (scenarios, checks, flags, sets, package
names) is untrusted text, made one plain line by `tiercheck.plaintext` before it is written.
Pure: the changes in, text out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tiercheck.plaintext import one_line
from tiercheck.referee.changes import Changes, Move, RevisionChange
from tiercheck.referee.tree import PACKAGE

__all__ = ["render_report"]

_LIMIT = 200


def _t(text: object) -> str:
    return one_line(text, _LIMIT)


def _names(items: Iterable[object]) -> str:
    return ", ".join(_t(i) for i in items) or "none"


def _standing(value: str | None) -> str:
    if value is None:
        return "absent"
    return "scored" if value == "scored" else f"not scored ({value})"


def _scenarios(changes: Changes) -> list[str]:
    lines = ["scenarios (as `list` names them)"]
    legs = dict.fromkeys(s.leg for s in (*changes.added, *changes.removed))
    for leg in legs:
        added = [s for s in changes.added if s.leg == leg]
        removed = [s for s in changes.removed if s.leg == leg]
        for verb, group in (("added", added), ("removed", removed)):
            for s in group:
                applies = f" [{_names(s.applies)}]" if s.applies else ""
                lines.append(f"  {leg}: {verb} {_t(s.name)}{applies}")
    for r in changes.renamed:
        lines.append(
            f"  {r.leg}: renamed {_t(r.before)} → {_t(r.after)} "
            f"({r.shared} of {r.of} checks the same)"
        )
    if len(lines) == 1:
        lines.append("  none added, removed or renamed")
    return lines


def _checks(changes: Changes) -> list[str]:
    lines = ["checks each scenario can emit (read from the bundle's code)"]
    for c in changes.checks:
        parts = [f"+ {_t(x)}" for x in c.added] + [f"- {_t(x)}" for x in c.removed]
        lines.append(f"  {c.leg} {_t(c.scenario)}: {', '.join(parts)}")
    for s in changes.statuses:
        lines.append(
            f"  {s.leg} {_t(s.scenario)}: {_t(s.check)} statuses "
            f"{_names(s.before)} → {_names(s.after)}"
        )
    if len(lines) == 1:
        lines.append("  no check added or removed, no status changed")
    if changes.unread:
        lines.append(f"  checks not read for: {_names(changes.unread)}")
    return lines


def _flags(changes: Changes) -> list[str]:
    lines = ["flags"]
    for f in changes.flags:
        command = f"`{_t(f.command)}`" if f.command else "the program"
        if f.added:
            lines.append(f"  {command}: new {_names(f.added)}")
        if f.removed:
            lines.append(f"  {command}: gone {_names(f.removed)}")
    if len(lines) == 1:
        lines.append("  none new, none gone")
    return lines


def _revision(r: RevisionChange) -> list[str]:
    lines = [f"  {r.name}:"]
    if r.runs_after is None:
        lines.append(f"    runs {_t(r.runs_before)}: shipped no more")
        return lines
    runs = (
        f"runs {_t(r.runs_before)}"
        if r.runs_before == r.runs_after
        else f"runs {_t(r.runs_before)} → {_t(r.runs_after)}"
    )
    adopted = "its set written from the new release" if r.adopted else "its set kept"
    lines.append(f"    {runs}; {adopted}")
    if r.harness_before != r.harness_after:
        lines.append(f"    harness: {_t(r.harness_before)} → {_t(r.harness_after)}")
    spoken = r.spoken.describe() if r.spoken else "not observed"
    wire = (
        f"    wire: {r.wire_before}, and the new release speaks {_t(spoken)}"
        if r.wire_before == r.wire_after
        else f"    wire CHANGES: {r.wire_before} → {r.wire_after} (spoken: {_t(spoken)})"
    )
    lines.append(wire)
    return lines


def _moves(moves: Sequence[Move], revision: str) -> list[str]:
    return [
        f"    {m.leg} {_t(m.scenario)}: {_standing(m.before)} → {_standing(m.after)}"
        for m in moves
        if m.revision == revision
    ]


def _revisions(changes: Changes) -> list[str]:
    lines = ["revisions (requirements/)"]
    for r in changes.revisions:
        lines += _revision(r)
        moved = _moves(changes.moves, r.name)
        lines += moved or ["    no entry moves (scored, not scored, absent)"]
    for name in changes.unclaimed_sets:
        lines.append(
            f"  the new release ships the set {_t(name)}, which no revision names: not adopted "
            "(CONTRIBUTING.md, Add a spec revision)"
        )
    for name, problems in changes.set_problems.items():
        lines.append(f"  set {_t(name)} not read whole: {_names(problems)}")
    return lines


def _packages(changes: Changes) -> list[str]:
    lines = ["packages of the lock"]
    for p in changes.packages:
        before, after = p.before or "absent", p.after or "absent"
        lines.append(f"  {_t(p.package)}: {_t(before)} → {_t(after)}")
    if len(lines) == 1:
        lines.append("  no version changes")
    return lines


def render_report(changes: Changes, *, changed: Sequence[str], written: bool, dry_run: bool) -> str:
    """The report: the blockers first, then each kind of change, then the files."""
    title = f"referee: {PACKAGE} {_t(changes.before)} → {_t(changes.after)}"
    lines = [title, ""]
    if changes.blockers:
        lines.append("BLOCKED: nothing is written until these are resolved")
        lines += [f"  - {_t(b)}" for b in changes.blockers]
        lines.append("")
    for section in (_scenarios, _checks, _flags, _revisions, _packages):
        lines += [*section(changes), ""]
    if written:
        lines.append("files written, for review (git diff):")
    elif dry_run or changes.blockers:
        lines.append("files that would change (nothing written):")
    else:
        lines.append("files:")
    lines += [f"  {path}" for path in changed] or ["  none: the tree already says all of this"]
    return "\n".join(lines) + "\n"
