"""Whether the server was answering while its leg ran, and what that means for the verdicts.

Only a server process that exits used to make its leg unmeasured. But the process we start can
outlive the server (a `sh -c` or `npm run` wrapper whose child crashed, a supervisor, a
container shim), and a deadlocked server is alive too: every later scenario then fails, and the
failures were blamed on the SDK. So while a server leg runs, each scenario that fails is
followed by the readiness request that proved the server ready at start (`ManagedServer.
answers`), and the leg ends with one more. A failed scenario after which the server did not
answer is unmeasured, with that evidence; if the server answers again later (a deadlock that
cleared, a supervisor that restarted it), the scenarios that ran while it was down are named.

`LivenessWatch` does the watching (a thread reading the leg's results folder as the harness
writes it); `judge_liveness` is the pure part that rewrites the leg's verdict.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType

from tiercheck.config.safeload import load_json
from tiercheck.conformance.results import parse_checks, scenario_name
from tiercheck.errors import ConfigError
from tiercheck.revisions import Leg
from tiercheck.scoring import LegVerdict, passes, with_unmeasured

__all__ = ["Answer", "Liveness", "LivenessWatch", "judge_liveness"]

#: How often the results folder is read for newly finished scenarios (short: a probe long after
#: a failure could meet a server restarted since).
POLL_S = 0.05


@dataclass(frozen=True)
class Answer:
    """One liveness probe: the failed scenarios it followed, and what the server did."""

    after: tuple[str, ...]  # scenarios whose failure prompted it; () for the end of the leg
    ok: bool
    detail: str  # what was sent and the answer, error or timeout


@dataclass(frozen=True)
class Liveness:
    """Every probe of one server leg, in the order they were made."""

    answers: tuple[Answer, ...] = ()

    @property
    def end(self) -> Answer | None:
        """The probe made once the leg was over."""
        last = self.answers[-1] if self.answers else None
        return last if last is not None and not last.after else None


@dataclass
class LivenessWatch:
    """Probe the server after each scenario that fails, and once at the end of the leg.

    Use as a context manager around the harness run; `liveness` holds the probes after exit.
    Scenario results are read as the harness writes them (one `checks.json` per finished
    scenario); a result that cannot be read yet is read again at the next poll.
    """

    results_dir: Path
    leg: Leg
    probe: Callable[[], tuple[bool, str]]
    liveness: Liveness = field(default_factory=Liveness)
    _seen: set[Path] = field(default_factory=set)
    _answers: list[Answer] = field(default_factory=list)
    _finished: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> LivenessWatch:
        self._thread = threading.Thread(target=self._watch, name="liveness", daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._finished.set()
        if self._thread is not None:
            self._thread.join()
        if kind is None:
            self._poll()  # scenarios finished since the last poll
            ok, detail = self.probe()
            self._answers.append(Answer((), ok, detail))
        self.liveness = Liveness(tuple(self._answers))

    def _watch(self) -> None:
        while not self._finished.wait(POLL_S):
            self._poll()

    def _poll(self) -> None:
        failed = self._newly_failed()
        if failed:
            ok, detail = self.probe()
            self._answers.append(Answer(tuple(failed), ok, detail))

    def _newly_failed(self) -> list[str]:
        if not self.results_dir.is_dir():
            return []
        # The harness names each folder after the scenario's start time: sorted, they are in
        # the order the scenarios ran.
        found = sorted(self.results_dir.rglob("checks.json"), key=lambda p: p.parent.name[-24:])
        failed: list[str] = []
        for path in found:
            if path in self._seen:
                continue
            try:
                checks = parse_checks(load_json(path))
            except (ConfigError, ValueError):
                continue  # half written: read again at the next poll (or unreadable for good)
            self._seen.add(path)
            if not passes(checks):
                relative = path.parent.relative_to(self.results_dir).as_posix()
                failed.append(scenario_name(relative, self.leg))
        return failed


def judge_liveness(verdict: LegVerdict, liveness: Liveness) -> LegVerdict:
    """`verdict` with every failed scenario the server did not answer after made unmeasured.

    A failed scenario whose probe got no answer ran while the server was down: not the SDK's
    answer. The leg becomes unmeasured with a reason that says what was sent and what came back,
    and, if a later probe was answered, that the server answered again and which scenarios ran
    while it was down. A leg that was not measured, or whose server always answered, is
    returned as it is.
    """
    if verdict.state != "measured":
        return verdict
    down: dict[str, str] = {}
    for answer in liveness.answers:
        if not answer.ok:
            for name in answer.after:
                down[name] = f"the server did not answer after it failed: {answer.detail}"
    if not down:
        return verdict
    details = [
        replace(d, unmeasured=down[d.scenario]) if d.scenario in down and not d.passed else d
        for d in verdict.details
    ]
    return with_unmeasured(
        verdict.leg,
        verdict.revision,
        details,
        results_dir=verdict.results_dir,
        reason=_reason(liveness, list(down)),
        name_each=False,
    )


def _reason(liveness: Liveness, down: Sequence[str]) -> str:
    answers = liveness.answers
    first = next(i for i, a in enumerate(answers) if not a.ok)
    head = f"the server stopped answering MCP after {answers[first].after[0]} failed"
    head += f" ({answers[first].detail})"
    if any(a.ok for a in answers[first + 1 :]):
        head += "; it answered again later (restarted, or a deadlock that cleared)"
    return f"{head}; scenarios run while it was down: {', '.join(down)}"
