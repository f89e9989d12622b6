"""What one harness release can run, as read from its installed package (`referee.bundle`).

The referee runs a revision with `--requirements SET` (SET: the revision's
`harness_requirements`), so a release runs it as the referee does when its `server` and
`client` take every flag the legs pass (`changes.TIERCHECK_FLAGS`), it ships the set, and at
that set it speaks the revision's wire. An older release (0.1.x, as community CIs pin it) takes
no `--requirements`: it runs what it lists for a revision with `--spec-version REVISION`, the
way those CIs call it, which is how it is compared with the referee; a release that neither
ships the set nor lists a scenario for the revision cannot run it at all.

Decided from what the package says of itself, never from its version number. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from tiercheck.referee.bundle import BundleReading
from tiercheck.referee.changes import TIERCHECK_FLAGS
from tiercheck.revisions import harness_requirements, is_known_revision, wire_of

__all__ = ["SPEC_VERSION_FLAGS", "Fit", "Way", "fit", "refusal"]

#: How a release runs a revision: as the referee does, or filtered by `--spec-version`.
Way = Literal["requirements", "spec-version"]
#: The flags the `--spec-version` way passes to each command (a client leg runs the whole
#: list with `--suite all`: without a scenario or a suite, `client` starts interactive mode).
SPEC_VERSION_FLAGS: Final = {
    "server": ("--url", "--spec-version", "-o"),
    "client": ("--command", "--suite", "--timeout", "--spec-version", "-o"),
}


@dataclass(frozen=True)
class Fit:
    """How one release runs one revision."""

    version: str
    revision: str
    #: The way it runs it: the referee's, `--spec-version`, or None (it cannot).
    way: Way | None
    #: Why it cannot run the revision as the referee does; empty: it can.
    unlike_referee: tuple[str, ...] = ()
    #: Why it cannot run the revision the `--spec-version` way either; empty: it can (or it
    #: runs it as the referee does).
    unlike_ci: tuple[str, ...] = ()

    @property
    def as_referee(self) -> bool:
        """Whether it runs the revision as the referee does."""
        return self.way == "requirements"

    def refusal(self) -> str:
        """One line: why `--harness-version` refuses this release for this revision."""
        return (
            f"harness {self.version} cannot run {self.revision} as the referee does: "
            + "; ".join(self.unlike_referee)
        )

    def cannot(self) -> str:
        """One line: why it cannot run the revision at all."""
        return f"harness {self.version} cannot run {self.revision}: " + "; ".join(
            (*self.unlike_referee, *self.unlike_ci)
        )


def _missing_flags(reading: BundleReading, wanted: dict[str, tuple[str, ...]]) -> list[str]:
    unread = [command for command in wanted if command not in reading.flags]
    gone_of: dict[tuple[str, ...], list[str]] = {}
    for command, used in wanted.items():
        taken = reading.flags.get(command)
        gone = tuple(f for f in used if taken is not None and f not in taken)
        if gone:
            gone_of.setdefault(gone, []).append(command)
    out = [f"`{command} --help` could not be read" for command in unread]
    for gone, commands in gone_of.items():
        who = " and ".join(f"`{c}`" for c in commands)
        verb = "take" if len(commands) > 1 else "takes"
        out.append(f"{who} {verb} no {', '.join(gone)}")
    return out


def _referee_way(reading: BundleReading, revision: str) -> list[str]:
    problems = _missing_flags(reading, dict(TIERCHECK_FLAGS))
    name = harness_requirements(revision)
    if name not in reading.sets:
        shipped = ", ".join(reading.sets)
        problems.append(
            f"it ships no requirement set {name} (it ships {shipped})"
            if shipped
            else "it ships no requirement sets"
        )
        return problems
    if problems:
        return problems
    spoken = reading.wires.get(name)
    if spoken is None:
        problems.append(f"at set {name} it sent no request")
    elif is_known_revision(revision) and spoken.kind != wire_of(revision):
        problems.append(
            f"at set {name} it speaks {spoken.describe()}, {revision} is {wire_of(revision)}"
        )
    return problems


def _lists(reading: BundleReading, revision: str) -> bool:
    return any(
        revision in scenario.applies
        for leg in ("server", "client")
        for scenario in reading.scenarios.get(leg, {}).values()
    )


def _ci_way(reading: BundleReading, revision: str) -> list[str]:
    problems = _missing_flags(reading, dict(SPEC_VERSION_FLAGS))
    if not any(leg in reading.scenarios for leg in ("server", "client")):
        problems.append("its scenarios could not be listed")
    elif not _lists(reading, revision):
        problems.append(f"it lists no scenario for {revision}")
    return problems


def fit(reading: BundleReading, revision: str) -> Fit:
    """How the release `reading` reads runs `revision`: the referee's way, else the
    `--spec-version` way, else not at all (each with its reasons)."""
    unlike = tuple(_referee_way(reading, revision))
    if not unlike:
        return Fit(reading.version, revision, "requirements")
    otherwise = tuple(_ci_way(reading, revision))
    way: Way | None = None if otherwise else "spec-version"
    return Fit(reading.version, revision, way, unlike, otherwise)


def refusal(fits: Sequence[Fit]) -> str | None:
    """One line for every revision of `fits` not run as the referee does (those sharing their
    reasons said together), or None when each is."""
    unlike: dict[tuple[str, ...], list[Fit]] = {}
    for found in fits:
        if not found.as_referee:
            unlike.setdefault(found.unlike_referee, []).append(found)
    if not unlike:
        return None
    said = [
        f"{' or '.join(f.revision for f in group)} as the referee does: {'; '.join(reasons)}"
        for reasons, group in unlike.items()
    ]
    return f"harness {fits[0].version} cannot run " + "; nor ".join(said)
