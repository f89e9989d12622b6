"""What a probe is, what it reports, and the context it runs in.

A probe is a definition (name, the revisions it applies to, what it needs, the spec sentence it
rests on, the fix) plus a check function over a `ProbeContext`. The check returns a `Finding`;
a broken MUST is FAIL, a broken SHOULD is WARN. A probe that cannot find what it needs raises
`Skip` with the reason: skip is never fail.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tiercheck.probes.client import ProbeClient, ProbeTransportError, trim
from tiercheck.probes.wire import NotMcpError, Wire
from tiercheck.revisions import WIRES, WireKind, wire_of

__all__ = [
    "Finding",
    "Level",
    "Outcome",
    "Probe",
    "ProbeContext",
    "ProbeResult",
    "Rounds",
    "Skip",
    "broken",
    "ok",
    "request_line",
]

Outcome = Literal["pass", "warn", "fail", "skip"]
Level = Literal["MUST", "SHOULD"]


@dataclass(frozen=True)
class Rounds:
    """How a probe that observes a race repeated it: the rounds it may run (its fixed bound),
    the rounds it ran (fewer when its time bound ran out first), and in how many the race
    showed."""

    bound: int
    run: int
    observed: int

    def rate(self) -> str:
        """`3 of 40 rounds`."""
        return f"{self.observed} of {self.run} rounds"

    def to_dict(self) -> dict[str, int]:
        """The scorecard's form."""
        return {"bound": self.bound, "run": self.run, "observed": self.observed}


class Skip(Exception):  # noqa: N818 - reads as the outcome it is
    """The probe cannot run here; the message says why (and `rounds`, what a repeating probe
    ran before it gave up)."""

    def __init__(self, reason: str, *, rounds: Rounds | None = None) -> None:
        super().__init__(reason)
        self.rounds = rounds


@dataclass(frozen=True)
class Finding:
    """What a check observed: whether the rule held, in one line, and the evidence."""

    held: bool
    summary: str
    evidence: tuple[str, ...] = ()
    #: When a probe rests on a MUST in one case and a SHOULD in another, the case's own level.
    level: Level | None = None
    #: A probe that repeats a race: its rounds and in how many the race showed.
    rounds: Rounds | None = None


def ok(summary: str, *evidence: str, rounds: Rounds | None = None) -> Finding:
    """The rule held."""
    return Finding(True, summary, tuple(evidence), rounds=rounds)


def broken(
    summary: str, *evidence: str, level: Level | None = None, rounds: Rounds | None = None
) -> Finding:
    """The rule was broken (at `level` when it differs from the probe's own)."""
    return Finding(False, summary, tuple(evidence), level, rounds)


@dataclass(frozen=True)
class ProbeResult:
    """One probe's verdict against one server at one revision."""

    probe: str
    outcome: Outcome
    level: Level
    summary: str
    evidence: tuple[str, ...]
    spec: str
    fix: str | None
    duration_s: float
    rounds: Rounds | None = None

    def to_dict(self) -> dict[str, Any]:
        """The scorecard's form of the result (`rounds` only from a probe that repeats)."""
        out: dict[str, Any] = {
            "probe": self.probe,
            "outcome": self.outcome,
            "level": self.level,
            "summary": self.summary,
            "evidence": list(self.evidence),
            "spec": self.spec,
            "fix": self.fix,
            "duration_s": self.duration_s,
        }
        if self.rounds is not None:
            out["rounds"] = self.rounds.to_dict()
        return out


class ProbeContext:
    """The server under probe at one revision, and what probes share about it.

    `tools()` lists the catalogue once per context (most probes need it); `wire()` opens a new
    connection (a new session on the stateful wire) so that probes do not share state by accident.
    """

    def __init__(
        self, client: ProbeClient, revision: str, *, race_rounds: int | None = None
    ) -> None:
        self.client = client
        self.revision = revision
        #: Rounds a probe that repeats a race runs at most; None is the probe's own bound (a
        #: smaller one keeps tests that are not about the race fast).
        self.race_rounds = race_rounds
        #: On the stateless wire (per-request `_meta`, `server/discover`, no session).
        self.modern = wire_of(revision) == "stateless"
        self._lock = threading.Lock()
        self._tools: list[dict[str, Any]] | None = None
        self._shared: Wire | None = None

    @property
    def url(self) -> str:
        """The MCP endpoint."""
        return self.client.url

    def wire(self) -> Wire:
        """A newly opened connection; Skip when the endpoint does not speak MCP."""
        wire = Wire(self.client, self.revision)
        try:
            wire.open()
        except NotMcpError as exc:
            raise Skip(str(exc)) from exc
        return wire

    def shared(self) -> Wire:
        """The connection probes that only read share."""
        with self._lock:
            if self._shared is None:
                self._shared = self.wire()
            return self._shared

    def tools(self) -> list[dict[str, Any]]:
        """The server's tools (one `tools/list`); Skip when it has none or would not list."""
        with self._lock:
            cached = self._tools
        if cached is not None:
            return cached
        result = self.shared().call("tools/list")
        tools = result.get("tools") if result else None
        if not isinstance(tools, list):
            raise Skip("tools/list did not return a list of tools")
        found = [t for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
        with self._lock:
            self._tools = found
        return found

    def plain_tools(self) -> list[dict[str, Any]]:
        """Tools that take no required arguments and whose names say nothing of side effects."""
        out = []
        for tool in self.tools():
            schema = tool.get("inputSchema") or {}
            required = schema.get("required") if isinstance(schema, dict) else None
            name = str(tool["name"]).lower()
            if required or any(w in name for w in _SIDE_EFFECTS):
                continue
            out.append(tool)
        return out

    def plain_tool_name(self) -> str:
        """The first plain tool's name; Skip when the server has none to call."""
        tools = self.plain_tools()
        if not tools:
            raise Skip("no tool that takes no arguments to call")
        return str(tools[0]["name"])


#: Tool-name fragments a probe never calls: they announce a change or a server round trip.
_SIDE_EFFECTS = (
    "trigger",
    "change",
    "delete",
    "remove",
    "write",
    "update",
    "create",
    "set",
    "elicit",
    "sampl",
    "roots",
    "input_required",
    "progress",
    "logging",
    "capability",
)


@dataclass(frozen=True)
class Probe:
    """One advisory probe's definition and its check."""

    name: str
    title: str
    level: Level
    spec: str
    fix: str
    check: Callable[[ProbeContext], Finding] = field(repr=False)
    #: The wires it runs on; a revision is chosen by its wire, never by its date.
    wires: tuple[WireKind, ...] = WIRES
    needs: tuple[str, ...] = ("http-url",)

    def applies_to(self, revision: str) -> bool:
        """Whether this probe runs at `revision` (by the revision's wire)."""
        return wire_of(revision) in self.wires

    def run(self, ctx: ProbeContext) -> ProbeResult:
        """Run the check; never raises (a probe's failure to run is a skip with the reason)."""
        began = time.monotonic()
        try:
            found = self.check(ctx)
        except Skip as exc:
            return self._result("skip", str(exc), (), began, rounds=exc.rounds)
        except ProbeTransportError as exc:
            return self._result("skip", f"the server did not answer: {exc}", (), began)
        except Exception as exc:  # noqa: BLE001 - an untrusted server must not crash the run
            return self._result("skip", f"probe error: {type(exc).__name__}: {exc}", (), began)
        if found.held:
            return self._result("pass", found.summary, found.evidence, began, rounds=found.rounds)
        level = found.level or self.level
        outcome: Outcome = "fail" if level == "MUST" else "warn"
        return self._result(
            outcome, found.summary, found.evidence, began, level, rounds=found.rounds
        )

    def _result(
        self,
        outcome: Outcome,
        summary: str,
        evidence: Sequence[str],
        began: float,
        level: Level | None = None,
        *,
        rounds: Rounds | None = None,
    ) -> ProbeResult:
        return ProbeResult(
            probe=self.name,
            outcome=outcome,
            level=level or self.level,
            summary=trim(summary, 300),
            evidence=tuple(trim(e) for e in evidence),
            spec=self.spec,
            fix=self.fix if outcome in ("warn", "fail") else None,
            duration_s=round(time.monotonic() - began, 3),
            rounds=rounds,
        )


def request_line(method: str, headers: Mapping[str, str], keys: Sequence[str]) -> str:
    """`POST tools/list [Origin: …]`: the request as evidence, with the headers that matter."""
    shown = " ".join(f"{k}: {headers[k]}" for k in keys if k in headers)
    return f"POST {method}" + (f" [{shown}]" if shown else "")
