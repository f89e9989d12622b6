"""One harness release as tiercheck reads it: its answers, and what they say.

`Answers` is what is read from an installed release, as it was read (`referee.harvest` reads
them; a recorded release is the same answers kept as files, `Answers.files` and
`Answers.from_files`): the package's version, the requirement sets it ships
(`requirements/<set>.yaml`, as text), what its own CLI lists (`list --server`, `--client`,
`--authorization`) and the flags its `--help` shows, the first request it sends at each set it
ships (which fixes the wire), and the checks each scenario can emit (`referee.jsscan`).

`read_bundle` turns them into a `BundleReading`. Everything in the answers is the bundle's text,
untrusted: names are kept only when they have the form of a name, and the reading says what it
could not read instead of failing. Pure: no files, no processes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from tiercheck.config.yamlio import loads_yaml
from tiercheck.errors import ConfigError

__all__ = [
    "COMMANDS",
    "LISTED_LEGS",
    "Answers",
    "BundleReading",
    "FirstRequest",
    "ListedLeg",
    "NotScoredEntry",
    "Scenario",
    "SetReading",
    "Wire",
    "read_bundle",
    "read_set",
]

#: The legs the harness lists scenarios for (`list --server`, …), in that order.
ListedLeg = Literal["server", "client", "authorization"]
LISTED_LEGS: Final[tuple[ListedLeg, ...]] = ("server", "client", "authorization")
#: The commands whose `--help` is read for their flags ("" is the program's own).
COMMANDS: Final = ("", "server", "client", "list")

#: A scenario's name as the harness spells it (and a requirement set may hold).
_NAME = re.compile(r"[a-z0-9][a-z0-9_./-]*")
#: A requirement set's name: a date.
_SET = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_LISTED = re.compile(r"^\s+-\s+(\S+)(?:\s+\[([^\]]*)\])?\s*$")
_FLAG = re.compile(r"^\s{1,4}(?:(-[A-Za-z]),\s+)?(--[A-Za-z][\w-]*)")
_REASONS: Final = ("extension", "added-after-release", "pending")


@dataclass(frozen=True)
class FirstRequest:
    """The first request the harness sent to a recorder at one requirement set."""

    #: The JSON-RPC method (`initialize`, `server/discover`, …); None: nothing came.
    method: str | None
    #: The protocol version it named: `params.protocolVersion`, else the
    #: `MCP-Protocol-Version` header.
    protocol_version: str | None = None

    def to_json(self) -> dict[str, str | None]:
        """As recorded (`wire.json`)."""
        return {"method": self.method, "protocol_version": self.protocol_version}


@dataclass(frozen=True)
class Answers:
    """What was read from one installed release, as it was read."""

    version: str
    #: Set name → the set's YAML text, as the bundle ships it.
    sets: Mapping[str, str] = field(default_factory=dict)
    #: Leg → what `list --LEG` printed (absent: the command failed).
    listings: Mapping[str, str] = field(default_factory=dict)
    #: Command ("" for the program) → what `COMMAND --help` printed.
    helps: Mapping[str, str] = field(default_factory=dict)
    #: Set name → the first request the harness sent at that set.
    first_requests: Mapping[str, FirstRequest] = field(default_factory=dict)
    #: Scenario → check → the statuses read beside it (`jsscan.scan_checks`).
    checks: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    def files(self) -> dict[str, str]:
        """The answers as files (relative path → text), the recorded form."""
        out = {"version.txt": self.version + "\n"}
        out.update({f"requirements/{name}.yaml": text for name, text in self.sets.items()})
        out.update({f"list-{leg}.txt": text for leg, text in self.listings.items()})
        out.update({f"help-{cmd or 'conformance'}.txt": text for cmd, text in self.helps.items()})
        wire = {name: seen.to_json() for name, seen in sorted(self.first_requests.items())}
        out["first-requests.json"] = json.dumps(wire, indent=2) + "\n"
        # One scenario a line: a recorded release's diff reads scenario by scenario.
        lines = [
            f"  {json.dumps(name)}: {json.dumps({c: list(v) for c, v in sorted(checks.items())})}"
            for name, checks in sorted(self.checks.items())
        ]
        out["checks.json"] = "{\n" + ",\n".join(lines) + "\n}\n"
        return out

    @classmethod
    def from_files(cls, files: Mapping[str, str]) -> Answers:
        """The answers recorded by `files`."""
        sets = {
            path.removeprefix("requirements/").removesuffix(".yaml"): text
            for path, text in files.items()
            if path.startswith("requirements/") and path.endswith(".yaml")
        }
        listings: dict[str, str] = {
            leg: files[f"list-{leg}.txt"] for leg in LISTED_LEGS if f"list-{leg}.txt" in files
        }
        helps = {
            cmd: files[f"help-{cmd or 'conformance'}.txt"]
            for cmd in COMMANDS
            if f"help-{cmd or 'conformance'}.txt" in files
        }
        wire = json.loads(files.get("first-requests.json", "{}"))
        checks = json.loads(files.get("checks.json", "{}"))
        return cls(
            version=files["version.txt"].strip(),
            sets=sets,
            listings=listings,
            helps=helps,
            first_requests={
                name: FirstRequest(seen.get("method"), seen.get("protocol_version"))
                for name, seen in wire.items()
            },
            checks={s: {c: tuple(v) for c, v in cs.items()} for s, cs in checks.items()},
        )


@dataclass(frozen=True)
class Scenario:
    """One scenario the harness lists."""

    name: str
    leg: ListedLeg
    #: What `list` shows in brackets: the spec versions it applies to, or `extension`.
    applies: tuple[str, ...]
    #: Check id → the statuses read beside it; None: its checks could not be read.
    checks: Mapping[str, tuple[str, ...]] | None


@dataclass(frozen=True)
class NotScoredEntry:
    """A `not_scored` entry of a requirement set."""

    scenario: str
    leg: str
    reason: str
    note: str | None = None


@dataclass(frozen=True)
class SetReading:
    """A requirement set the bundle ships, as far as tiercheck reads one."""

    name: str
    server: tuple[str, ...] = ()
    client: tuple[str, ...] = ()
    not_scored: tuple[NotScoredEntry, ...] = ()
    #: What could not be read in it (unknown keys, a bad name or reason); empty: all of it.
    problems: tuple[str, ...] = ()

    def scored(self, leg: str) -> tuple[str, ...]:
        """The scored scenarios of a leg."""
        return self.server if leg == "server" else self.client if leg == "client" else ()

    def standing(self) -> dict[tuple[str, str], str]:
        """(scenario, leg) → "scored" or the not-scored reason, for every entry of the set."""
        out = {(s, "server"): "scored" for s in self.server}
        out.update({(s, "client"): "scored" for s in self.client})
        out.update({(e.scenario, e.leg): e.reason for e in self.not_scored})
        return out


@dataclass(frozen=True)
class Wire:
    """The wire the harness speaks at a set: `stateful` (an `initialize` handshake first) or
    `stateless` (anything else first, e.g. `server/discover`), and the version it names."""

    kind: Literal["stateful", "stateless"]
    protocol_version: str | None

    def describe(self) -> str:
        """`stateless (2026-07-28)`."""
        return f"{self.kind} ({self.protocol_version or 'no version named'})"


@dataclass(frozen=True)
class BundleReading:
    """A release as read: its scenarios, sets, flags and wires."""

    version: str
    #: Leg → scenario name → the scenario, in the order the harness lists them.
    scenarios: Mapping[str, Mapping[str, Scenario]]
    sets: Mapping[str, SetReading]
    #: Command ("" for the program) → its flags (`--url`, `-o`, …); absent: not read.
    flags: Mapping[str, tuple[str, ...]]
    #: Set → the wire spoken there; absent: nothing came (see `Answers.first_requests`).
    wires: Mapping[str, Wire]

    def scenario(self, leg: str, name: str) -> Scenario | None:
        """The scenario called `name` on `leg`, or None."""
        return self.scenarios.get(leg, {}).get(name)


def _listing(
    leg: ListedLeg, text: str, checks: Mapping[str, Mapping[str, tuple[str, ...]]]
) -> dict[str, Scenario]:
    found: dict[str, Scenario] = {}
    for line in text.splitlines():
        match = _LISTED.match(line)
        if match is None or not _NAME.fullmatch(match.group(1)):
            continue
        name = match.group(1)
        applies = tuple(p.strip() for p in (match.group(2) or "").split(",") if p.strip())
        read = checks.get(name)
        found[name] = Scenario(name, leg, applies, dict(read) if read is not None else None)
    return found


def _flags(text: str) -> tuple[str, ...]:
    flags: list[str] = []
    in_options = False
    for line in text.splitlines():
        if line.strip().lower().startswith("options:"):
            in_options = True
            continue
        if in_options and line.strip().lower().endswith(":") and not line.startswith(" "):
            in_options = False  # "Commands:", or another section
        if not in_options:
            continue
        match = _FLAG.match(line)
        if match is not None:
            flags.extend(f for f in match.groups() if f)
    return tuple(dict.fromkeys(flags))


def _names(value: object, where: str, problems: list[str]) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.append(f"{where}: not a list")
        return ()
    kept = []
    for item in value:
        if isinstance(item, str) and _NAME.fullmatch(item):
            kept.append(item)
        else:
            problems.append(f"{where}: {str(item)[:60]!r} is not a scenario name")
    return tuple(dict.fromkeys(kept))


def _entry(item: object, index: int, problems: list[str]) -> NotScoredEntry | None:
    where = f"not_scored[{index}]"
    if not isinstance(item, dict):
        problems.append(f"{where}: not a mapping")
        return None
    scenario, leg, reason, note = (item.get(k) for k in ("scenario", "leg", "reason", "note"))
    extra = sorted(str(k) for k in item if k not in ("scenario", "leg", "reason", "note"))
    if extra:
        problems.append(f"{where}: keys tiercheck does not read: {', '.join(extra)}")
    if not (isinstance(scenario, str) and _NAME.fullmatch(scenario)):
        problems.append(f"{where}: no scenario name")
        return None
    if leg not in ("server", "client"):
        problems.append(f"{where}: leg {str(leg)[:30]!r} is neither server nor client")
        return None
    if reason not in _REASONS:
        problems.append(f"{where}: reason {str(reason)[:30]!r} is not one tiercheck knows")
        return None
    text = " ".join(note.split()) if isinstance(note, str) and note.strip() else None
    return NotScoredEntry(scenario, str(leg), str(reason), text)


def read_set(name: str, text: str) -> SetReading:
    """A requirement set's text as tiercheck reads one (what it cannot read is in `problems`)."""
    problems: list[str] = []
    try:
        raw = loads_yaml(text, f"requirements/{name}.yaml")
    except ConfigError as exc:
        return SetReading(name, problems=(exc.message,))
    if not isinstance(raw, dict):
        return SetReading(name, problems=("not a mapping",))
    extra = sorted(str(k) for k in raw if k not in ("server", "client", "not_scored"))
    if extra:
        problems.append(f"keys tiercheck does not read: {', '.join(extra)}")
    server = _names(raw.get("server"), "server", problems)
    client = _names(raw.get("client"), "client", problems)
    entries = raw.get("not_scored") or []
    if not isinstance(entries, list):
        problems.append("not_scored: not a list")
        entries = []
    not_scored = tuple(
        e for i, item in enumerate(entries) if (e := _entry(item, i, problems)) is not None
    )
    return SetReading(name, server, client, not_scored, tuple(problems))


def _wire(seen: FirstRequest) -> Wire | None:
    if seen.method is None:
        return None
    kind: Literal["stateful", "stateless"] = (
        "stateful" if seen.method == "initialize" else "stateless"
    )
    return Wire(kind, seen.protocol_version)


def read_bundle(answers: Answers) -> BundleReading:
    """What `answers` say: scenarios per leg (with their checks), sets, flags, wires."""
    scenarios: dict[str, dict[str, Scenario]] = {
        leg: _listing(leg, answers.listings[leg], answers.checks)
        for leg in LISTED_LEGS
        if leg in answers.listings
    }
    sets = {
        name: read_set(name, text)
        for name, text in sorted(answers.sets.items())
        if _SET.fullmatch(name)
    }
    flags = {cmd: _flags(text) for cmd, text in answers.helps.items()}
    wires = {
        name: wire
        for name, seen in answers.first_requests.items()
        if (wire := _wire(seen)) is not None
    }
    return BundleReading(answers.version, scenarios, sets, flags, wires)
