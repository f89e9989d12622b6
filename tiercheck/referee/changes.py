"""What a referee change changes: two readings of the harness, and the tree they pin.

`compare` sets the reading of today's pin beside the reading of the new release and the tree
(its revisions and their sets) and says, for review:

- scenarios added and removed per leg, and renamed (a scenario gone and one new on the same
  leg whose read checks are mostly the same: at least half of the two together);
- per scenario kept (or renamed), checks added and removed, and the statuses read beside a
  check that changed (both sides read); the scenarios whose checks could not be read;
- per command, flags added and gone (a flag tiercheck passes gone blocks the change);
- per revision, the set the harness runs for it before and after, the harness release its set
  mirrors, its wire as revisions.yaml says and as the new release speaks it, and its entries
  whose standing (scored, a not-scored reason, absent) moves from the tree's set to the new one;
- the sets the new release ships that no revision names (not adopted: a revision is data with a
  cited release date, see CONTRIBUTING.md);
- the packages of the lock whose version changes.

What stops the change (`blockers`): a flag tiercheck passes that is gone, a set a revision runs
that the new release ships no more, a set to adopt that cannot be read whole. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from tiercheck.referee.bundle import BundleReading, Scenario, SetReading, Wire
from tiercheck.referee.tree import Pin
from tiercheck.revisions import Revision

__all__ = [
    "TIERCHECK_FLAGS",
    "Changes",
    "CheckChange",
    "FlagChange",
    "Move",
    "PackageChange",
    "Renamed",
    "RevisionChange",
    "StatusChange",
    "compare",
]

#: The flags tiercheck passes to each harness command (`conformance.legs`), a leg's run and a
#: failure's run by itself (`--scenario`, `--spec-version`, `--force`) alike: one gone blocks.
TIERCHECK_FLAGS: Final[Mapping[str, tuple[str, ...]]] = {
    "server": ("--url", "--requirements", "-o", "--scenario", "--spec-version", "--force"),
    "client": (
        "--command",
        "--timeout",
        "--requirements",
        "-o",
        "--scenario",
        "--spec-version",
        "--force",
    ),
}
#: How much of two scenarios' checks must be shared to call one the other renamed.
_RENAMED_AT: Final = 0.5


@dataclass(frozen=True)
class Renamed:
    """A scenario gone and a new one on its leg, with mostly the same checks."""

    leg: str
    before: str
    after: str
    shared: int
    of: int


@dataclass(frozen=True)
class CheckChange:
    """Checks a scenario can emit that are new, or gone."""

    leg: str
    scenario: str
    added: tuple[str, ...]
    removed: tuple[str, ...]


@dataclass(frozen=True)
class StatusChange:
    """The statuses read beside a check, before and after."""

    leg: str
    scenario: str
    check: str
    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True)
class FlagChange:
    """A command's flags that are new, or gone."""

    command: str
    added: tuple[str, ...]
    removed: tuple[str, ...]


@dataclass(frozen=True)
class Move:
    """An entry of a revision's set whose standing changes: "scored", a not-scored reason, or
    None (not in the set)."""

    revision: str
    scenario: str
    leg: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class RevisionChange:
    """One revision of the tree: what the harness runs for it and what revisions.yaml says."""

    name: str
    #: The set the harness is given (`harness_requirements`), before and after; None after:
    #: the new release ships it no more.
    runs_before: str
    runs_after: str | None
    harness_before: str
    harness_after: str
    wire_before: str
    wire_after: str
    #: The wire the new release speaks at the set it runs (None: not observed).
    spoken: Wire | None
    #: Whether its set is written from the new release (it ships the revision's own set).
    adopted: bool


@dataclass(frozen=True)
class PackageChange:
    """A package of the lock whose version changes (None: absent on that side)."""

    package: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class Changes:
    """Everything the change does, for review."""

    before: str
    after: str
    added: tuple[Scenario, ...] = ()
    removed: tuple[Scenario, ...] = ()
    renamed: tuple[Renamed, ...] = ()
    checks: tuple[CheckChange, ...] = ()
    statuses: tuple[StatusChange, ...] = ()
    #: Scenarios of the new release whose checks were not read (on either side).
    unread: tuple[str, ...] = ()
    flags: tuple[FlagChange, ...] = ()
    revisions: tuple[RevisionChange, ...] = ()
    moves: tuple[Move, ...] = ()
    #: Sets the new release ships that no revision names.
    unclaimed_sets: tuple[str, ...] = ()
    packages: tuple[PackageChange, ...] = ()
    #: What the reading of a set could not read (set → problems), adopted or not.
    set_problems: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    blockers: tuple[str, ...] = ()


def _renames(
    leg: str, gone: Sequence[Scenario], new: Sequence[Scenario]
) -> list[tuple[Renamed, Scenario, Scenario]]:
    candidates = []
    for old in gone:
        for fresh in new:
            if not old.checks or not fresh.checks:
                continue
            a, b = set(old.checks), set(fresh.checks)
            score = len(a & b) / len(a | b)
            if score >= _RENAMED_AT:
                candidates.append((score, old, fresh, len(a & b), len(a | b)))
    taken_old: set[str] = set()
    taken_new: set[str] = set()
    found = []
    for _, old, fresh, shared, of in sorted(candidates, key=lambda c: (-c[0], c[1].name)):
        if old.name in taken_old or fresh.name in taken_new:
            continue
        taken_old.add(old.name)
        taken_new.add(fresh.name)
        found.append((Renamed(leg, old.name, fresh.name, shared, of), old, fresh))
    return found


def _check_changes(old: Scenario, new: Scenario) -> tuple[CheckChange | None, list[StatusChange]]:
    assert old.checks is not None
    assert new.checks is not None
    added = tuple(sorted(set(new.checks) - set(old.checks)))
    removed = tuple(sorted(set(old.checks) - set(new.checks)))
    change = CheckChange(new.leg, new.name, added, removed) if added or removed else None
    statuses = [
        StatusChange(new.leg, new.name, check, old.checks[check], new.checks[check])
        for check in sorted(set(old.checks) & set(new.checks))
        if old.checks[check] and new.checks[check] and old.checks[check] != new.checks[check]
    ]
    return change, statuses


@dataclass
class _Scenarios:
    added: list[Scenario] = field(default_factory=list)
    removed: list[Scenario] = field(default_factory=list)
    renamed: list[Renamed] = field(default_factory=list)
    checks: list[CheckChange] = field(default_factory=list)
    statuses: list[StatusChange] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)


def _scenarios(old: BundleReading, new: BundleReading) -> _Scenarios:
    out = _Scenarios()
    for leg in dict.fromkeys([*old.scenarios, *new.scenarios]):
        before = old.scenarios.get(leg, {})
        after = new.scenarios.get(leg, {})
        gone = [s for name, s in before.items() if name not in after]
        fresh = [s for name, s in after.items() if name not in before]
        pairs = [(before[n], after[n]) for n in after if n in before]
        for renamed, was, now in _renames(leg, gone, fresh):
            out.renamed.append(renamed)
            gone.remove(was)
            fresh.remove(now)
            pairs.append((was, now))
        out.added += fresh
        out.removed += gone
        for was, now in pairs:
            if was.checks is None or now.checks is None:
                out.unread.append(now.name)
                continue
            change, statuses = _check_changes(was, now)
            if change is not None:
                out.checks.append(change)
            out.statuses += statuses
        out.unread += [s.name for s in fresh if s.checks is None]
    return out


def _flags(old: BundleReading, new: BundleReading) -> tuple[list[FlagChange], list[str]]:
    changes = []
    blockers = []
    for command in dict.fromkeys([*old.flags, *new.flags]):
        before = old.flags.get(command, ())
        after = new.flags.get(command)
        if after is None:
            after = ()
        added = tuple(f for f in after if f not in before)
        removed = tuple(f for f in before if f not in after)
        if added or removed:
            changes.append(FlagChange(command, added, removed))
    for command, used in TIERCHECK_FLAGS.items():
        after = new.flags.get(command)
        if after is None:
            blockers.append(f"`{command} --help` could not be read: its flags are unknown")
            continue
        gone = [f for f in used if f not in after]
        if gone:
            blockers.append(f"`{command}` takes no {', '.join(gone)} (tiercheck passes it)")
    return changes, blockers


def _moves(revision: str, before: SetReading, after: SetReading) -> list[Move]:
    was = before.standing()
    now = after.standing()
    keys = list(dict.fromkeys([*now, *was]))
    return [
        Move(revision, scenario, leg, was.get((scenario, leg)), now.get((scenario, leg)))
        for scenario, leg in keys
        if was.get((scenario, leg)) != now.get((scenario, leg))
    ]


def _revision(
    revision: Revision, tree_set: SetReading, old: BundleReading, new: BundleReading
) -> tuple[RevisionChange, list[Move], list[str]]:
    runs = revision.harness_requirements
    if revision.name in new.sets:
        after: str | None = revision.name
    elif runs in new.sets:
        after = runs
    else:
        after = None
    adopted = after == revision.name
    spoken = new.wires.get(after) if after else None
    change = RevisionChange(
        name=revision.name,
        runs_before=runs,
        runs_after=after,
        harness_before=revision.harness,
        harness_after=new.version if adopted else revision.harness,
        wire_before=revision.wire,
        wire_after=spoken.kind if spoken else revision.wire,
        spoken=spoken,
        adopted=adopted,
    )
    if after is None:
        blocker = (
            f"{revision.name}: the harness runs it as the set {runs}, which {new.version} "
            f"ships no more (it ships {', '.join(new.sets) or 'no set'})"
        )
        return change, [], [blocker]
    blockers = []
    if adopted and new.sets[after].problems:
        blockers.append(
            f"{revision.name}: the set {new.version} ships cannot be read whole: "
            + "; ".join(new.sets[after].problems)
        )
    if adopted:
        moves = _moves(revision.name, tree_set, new.sets[after])
    elif after in old.sets:
        moves = _moves(revision.name, old.sets[after], new.sets[after])
    else:
        moves = []
    return change, moves, blockers


def _packages(before: Pin, after: Pin) -> list[PackageChange]:
    was, now = before.locked(), after.locked()
    return [
        PackageChange(name, was.get(name), now.get(name))
        for name in sorted(set(was) | set(now))
        if was.get(name) != now.get(name)
    ]


def compare(
    old: BundleReading,
    new: BundleReading,
    revisions: Sequence[Revision],
    tree_sets: Mapping[str, SetReading],
    pins: tuple[Pin, Pin],
) -> Changes:
    """What moving from `old` (today's pin, `pins[0]`) to `new` (`pins[1]`) changes, for the
    tree's `revisions` and their sets as the tree has them (`tree_sets`, by revision)."""
    scenarios = _scenarios(old, new)
    flags, blockers = _flags(old, new)
    changes: list[RevisionChange] = []
    moves: list[Move] = []
    for revision in revisions:
        change, moved, blocked = _revision(revision, tree_sets[revision.name], old, new)
        changes.append(change)
        moves += moved
        blockers += blocked
    named = {r.name for r in revisions} | {r.harness_requirements for r in revisions}
    return Changes(
        before=old.version,
        after=new.version,
        added=tuple(scenarios.added),
        removed=tuple(scenarios.removed),
        renamed=tuple(scenarios.renamed),
        checks=tuple(scenarios.checks),
        statuses=tuple(scenarios.statuses),
        unread=tuple(dict.fromkeys(scenarios.unread)),
        flags=tuple(flags),
        revisions=tuple(changes),
        moves=tuple(moves),
        unclaimed_sets=tuple(s for s in new.sets if s not in named),
        packages=tuple(_packages(*pins)),
        set_problems={name: s.problems for name, s in new.sets.items() if s.problems},
        blockers=tuple(blockers),
    )
