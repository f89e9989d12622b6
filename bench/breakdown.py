"""Where a run's wall went: CPU and wall per process kind, per leg and per phase, and the
waiting (cores left idle by the run).

Fed by compare.py's tree sampler: at every tick (every 100 ms) each process below the
benchmark with its kind (attribution.py), its ancestry's command lines, its own CPU so far and
whether it was runnable (state R) at that instant. From consecutive ticks:

- an interval's CPU is the sum of every process's CPU growth (a new process counts from zero);
  what a process used after its last tick is not seen (the run's exact total is compare.py's);
- **idle core-seconds**: `cores × interval − the run's CPU in it`, the capacity the run left
  unused (others may have used it: compare.py's `foreign_cpu_s`); `wall − CPU ÷ cores` of the
  whole run is their sum ÷ cores;
- **short of cores**: the wall of the intervals where fewer than `cores` of the run's processes
  were runnable at the tick (a process's state is its main thread's);
- a process's **leg** ("REV/server", "REV/client"): the harness's own from its `-o` folder (its
  last two parts), a process below a harness that harness's leg, the warm start's zygote (and
  its forks) the leg of the harness whose launcher names the zygote's socket, an SDK server the
  leg of the harness whose `--url` names a port in the server's command line; otherwise the
  step's leg (the official side runs one leg per step) or none (tiercheck itself);
- a **phase** is the set of legs whose harness was alive at the tick (`no harness`: tiercheck's
  start-up, server start, probes before a harness starts, scoring), `+ probes` while tiercheck
  probed a server (spans the boot snippet records).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from attribution import is_harness, is_warm_zygote

__all__ = ["Row", "Timeline", "harness_leg"]

NO_HARNESS = "no harness"
_URL_PORT = re.compile(r"://[^/:\s]+:(\d+)")


def harness_leg(cmdline: Sequence[str]) -> str | None:
    """ "REV/LEG" of a harness process from its `-o` folder (`…/REV/server|client`)."""
    if not is_harness(cmdline):
        return None
    for flag, value in itertools.pairwise(cmdline):
        if flag in {"-o", "--output-dir"}:
            parts = value.rstrip("/").split("/")
            if len(parts) >= 2 and parts[-1] in {"server", "client"}:
                return f"{parts[-2]}/{parts[-1]}"
    return None


@dataclass(frozen=True)
class Row:
    """One process at one tick."""

    key: tuple[int, float]
    kind: str
    #: Command lines of its ancestry below the benchmark, the process itself last.
    chain: tuple[tuple[str, ...], ...]
    cpu_s: float
    runnable: bool
    #: The step's leg ("REV/LEG") when the step runs one leg (the official side).
    step: str | None = None


@dataclass
class _Span:
    wall_s: float = 0.0
    cpu_s: float = 0.0
    idle_core_s: float = 0.0
    short_s: float = 0.0
    kinds: dict[str, float] = field(default_factory=dict)


@dataclass
class Timeline:
    """Ticks of one run, broken down once the run is over (legs are known only then: a server
    and a zygote start before the harness that names them)."""

    cores: int
    _ticks: list[tuple[float, float, list[Row]]] = field(default_factory=list)
    _prev_t: float | None = None
    #: Spans (monotonic start, end) while tiercheck probed a server.
    probes: list[tuple[float, float]] = field(default_factory=list)

    def begin(self, t: float) -> None:
        """A step starts at `t`: the next tick's interval starts here (not at the last tick of
        the step before: the pause between steps is not the run's)."""
        self._prev_t = t

    def observe(self, t: float, rows: Sequence[Row]) -> None:
        """A tick at monotonic time `t`."""
        if self._prev_t is None:
            self._prev_t = t
        self._ticks.append((self._prev_t, t, list(rows)))
        self._prev_t = t

    def _legs(self) -> dict[tuple[int, float], str]:
        rows = {row.key: row for _, _, tick in self._ticks for row in tick}
        harness: dict[tuple[str, ...], str] = {}
        ports: dict[str, str] = {}
        for row in rows.values():
            leg = harness_leg(row.chain[-1])
            if leg is not None:
                harness[row.chain[-1]] = leg
                for arg in row.chain[-1]:
                    for port in _URL_PORT.findall(arg):
                        ports[port] = leg
        below: dict[tuple[int, float], str] = {}
        named: list[tuple[str, str]] = []  # (a command line below a harness, its leg)
        for key, row in rows.items():
            for cmd in row.chain:
                if cmd in harness:
                    below[key] = harness[cmd]
                    named.append((" ".join(row.chain[-1]), harness[cmd]))
                    break

        def socket_leg(socket: str) -> str | None:
            return next((leg for text, leg in named if socket in text), None)

        legs: dict[tuple[int, float], str] = {}
        for key, row in rows.items():
            leg = below.get(key)
            if leg is None:
                for cmd in row.chain:
                    if is_warm_zygote(cmd) and len(cmd) > 2:
                        leg = socket_leg(cmd[2])
                        break
            if leg is None and row.kind == "sdk-server":
                text = " ".join(" ".join(cmd) for cmd in row.chain)
                for port, owner in ports.items():
                    if re.search(rf"(?<!\d){port}(?!\d)", text):
                        leg = owner
                        break
            if leg is None:
                leg = row.step
            if leg is not None:
                legs[key] = leg
        return legs

    def _probing(self, began: float, ended: float) -> bool:
        return any(start < ended and began < end for start, end in self.probes)

    def report(self) -> dict[str, Any]:
        """The breakdown (seconds; see the module's docstring)."""
        legs = self._legs()
        last: dict[tuple[int, float], float] = {}
        whole = _Span()
        phases: dict[str, _Span] = {}
        kinds: dict[str, dict[str, float]] = {}
        per_leg: dict[str, dict[str, Any]] = {}
        for began, ended, rows in self._ticks:
            dt = max(0.0, ended - began)
            live = {leg for row in rows if (leg := harness_leg(row.chain[-1])) is not None}
            phase = " + ".join(sorted(live)) if live else NO_HARNESS
            if self._probing(began, ended):
                phase += " + probes"
            span = phases.setdefault(phase, _Span())
            runnable = sum(1 for row in rows if row.runnable)
            cpu = 0.0
            seen_kinds: dict[str, tuple[bool, float]] = {}
            seen_legs: dict[str, tuple[bool, float, dict[str, float]]] = {}
            for row in rows:
                grown = max(0.0, row.cpu_s - last.get(row.key, 0.0))
                last[row.key] = row.cpu_s
                cpu += grown
                for target in (span, whole):
                    target.kinds[row.kind] = target.kinds.get(row.kind, 0.0) + grown
                was = seen_kinds.get(row.kind, (False, 0.0))
                seen_kinds[row.kind] = (was[0] or row.runnable, was[1] + grown)
                leg = legs.get(row.key)
                if leg is not None:
                    run, used, by_kind = seen_legs.get(leg, (False, 0.0, {}))
                    by_kind[row.kind] = by_kind.get(row.kind, 0.0) + grown
                    seen_legs[leg] = (run or row.runnable, used + grown, by_kind)
            idle = max(0.0, self.cores * dt - cpu)
            short = dt if runnable < self.cores else 0.0
            for target in (span, whole):
                target.wall_s += dt
                target.cpu_s += cpu
                target.idle_core_s += idle
                target.short_s += short
            for kind, (run, used) in seen_kinds.items():
                entry = kinds.setdefault(kind, {"cpu_s": 0.0, "alive_s": 0.0, "runnable_s": 0.0})
                entry["cpu_s"] += used
                entry["alive_s"] += dt
                entry["runnable_s"] += dt if run else 0.0
            for leg, (run, used, by_kind) in seen_legs.items():
                entry = per_leg.setdefault(
                    leg,
                    {"first": began, "last": ended, "cpu_s": 0.0, "runnable_s": 0.0, "kinds": {}},
                )
                entry["last"] = ended
                entry["cpu_s"] += used
                entry["runnable_s"] += dt if run else 0.0
                for kind, value in by_kind.items():
                    entry["kinds"][kind] = entry["kinds"].get(kind, 0.0) + value
        return {
            "cores": self.cores,
            **_span_dict(whole),
            "floor_s": round(whole.cpu_s / self.cores, 2) if self.cores else None,
            "kinds": {k: _rounded(v) for k, v in sorted(kinds.items())},
            "legs": {
                leg: {
                    "span_s": round(entry["last"] - entry["first"], 2),
                    "cpu_s": round(entry["cpu_s"], 2),
                    "runnable_s": round(entry["runnable_s"], 2),
                    "kinds": _rounded(entry["kinds"]),
                }
                for leg, entry in sorted(per_leg.items())
            },
            "phases": {k: _span_dict(v) for k, v in sorted(phases.items())},
        }


def _rounded(values: Mapping[str, float]) -> dict[str, float]:
    return {k: round(v, 2) for k, v in sorted(values.items())}


def _span_dict(span: _Span) -> dict[str, Any]:
    return {
        "wall_s": round(span.wall_s, 2),
        "cpu_s": round(span.cpu_s, 2),
        "idle_core_s": round(span.idle_core_s, 2),
        "short_of_cores_s": round(span.short_s, 2),
        "kinds": _rounded(span.kinds),
    }
