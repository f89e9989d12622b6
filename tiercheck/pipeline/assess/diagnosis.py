"""Whether a leg ran against a conformance server or client at all, read from its own results.

The harness's server scenarios call fixtures by name (`conformance.fixtures`): a server that has
none of them (an SDK's demo server) fails each of those scenarios, and its score would read as
dozens of failures of the SDK's MCP. Likewise a client command that is no conformance client
(it exits at once, or never connects) fails every client scenario without having been asked
anything it understood. Neither is a measure of the SDK: the leg is unmeasured, with one
diagnosis naming what is missing and the harness's SDK integration guide.

The rules, each on a measured leg only (a leg already unmeasured keeps its reason):

* **not a conformance server**: the harness's `tools-list` scenario recorded the names of the
  server's tools, none of them is a fixture tool a scenario of the leg calls, no fixture
  resource or prompt appears in a `resources-list` or `prompts-list` listing that was
  recorded, and no scenario that calls a fixture passed. A server that lists at least one
  fixture is a conformance server with fixtures missing: it is scored as usual, and
  `missing_fixtures` names what it lacks (the run's log says it). A server whose tools were
  not recorded (its `tools/list` failed) is scored as usual too: that failure is its own.
* **not a conformance client**: the leg wrote results for at least one scored scenario and not
  one check of any scenario succeeded: the client never did the first thing any scenario
  checks for (connect, initialize, call). One success anywhere and the leg is scored; so is
  a leg whose harness log says it stopped a client at the scenario's timeout (a conformance
  client on a slow machine fails as it is, it is not called no client).

A diagnosed leg keeps its scenarios: those that passed stay passed, each that failed becomes
unmeasured with why (the fixture it calls), so no report lists them as the SDK's failures.
Everything the SDK wrote (tool names, URIs, a client's stderr) is untrusted text: only a few
names are quoted, each cut short on one line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from tiercheck.config.safeload import load_json
from tiercheck.conformance.fixtures import (
    FIXTURES,
    GUIDE_URL,
    LISTINGS,
    Fixture,
    FixtureKind,
    wanted,
)
from tiercheck.conformance.legs import LOG_NAME
from tiercheck.errors import ConfigError
from tiercheck.plaintext import one_line
from tiercheck.scoring import Diagnosis, LegVerdict, ScenarioVerdict, with_unmeasured

__all__ = ["diagnose", "fixtures_text", "missing_fixtures", "missing_note", "server_listings"]

#: Names of one kind quoted in a reason; the rest are counted.
SHOWN = 3
#: Characters of one quoted name (tool names and URIs are the SDK's).
NAME_CHARS = 40
#: Bytes read from the end of a client's stderr for the line quoted.
STDERR_TAIL_BYTES = 4096
#: What the harness writes to its log when it stops a client at the scenario's timeout
#: (0.2.0-alpha.12's `client` runner), and how much of that log is read for it.
TIMED_OUT = b"Client timed out after "
LOG_READ_BYTES = 4 * 1024 * 1024

_NOUN: Mapping[FixtureKind, str] = {"tool": "tools", "resource": "resources", "prompt": "prompts"}


def _listed(detail: ScenarioVerdict, key: str) -> tuple[str, ...] | None:
    """The names the listing scenario `detail` recorded under `details[key]`, or None when it
    recorded none (it failed, or its checks.json cannot be read)."""
    if detail.results_path is None:
        return None
    try:
        checks = load_json(detail.results_path / "checks.json")
    except (ConfigError, OSError):
        return None
    if not isinstance(checks, list):
        return None
    for check in checks:
        if not isinstance(check, dict) or check.get("id") != detail.scenario:
            continue
        details = check.get("details")
        names = details.get(key) if isinstance(details, dict) else None
        if isinstance(names, list):
            return tuple(n for n in names if isinstance(n, str))
    return None


def server_listings(details: Iterable[ScenarioVerdict]) -> dict[FixtureKind, tuple[str, ...]]:
    """What the server listed to the harness's listing scenarios, per kind (a kind whose
    listing was not recorded is absent)."""
    by_name = {d.scenario: d for d in details}
    found: dict[FixtureKind, tuple[str, ...]] = {}
    for kind, (scenario, key) in LISTINGS.items():
        detail = by_name.get(scenario)
        names = None if detail is None else _listed(detail, key)
        if names is not None:
            found[kind] = names
    return found


def missing_fixtures(
    details: Sequence[ScenarioVerdict], listings: Mapping[FixtureKind, tuple[str, ...]]
) -> dict[Fixture, tuple[str, ...]]:
    """The fixtures the scenarios of `details` call that a recorded listing of their kind does
    not name → the scenarios that call them. Not judged: a kind without a recorded listing, a
    fixture no listing names (`Fixture.listed`), and a fixture every caller of which passed."""
    calls = wanted(d.scenario for d in details)
    passed = {d.scenario for d in details if d.passed}
    return {
        fixture: callers
        for fixture, callers in calls.items()
        if fixture.listed
        and fixture.kind in listings
        and fixture.name not in listings[fixture.kind]
        and not passed.issuperset(callers)
    }


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(one_line(n, NAME_CHARS) or "''" for n in names[:SHOWN])
    return f"{shown}, … ({len(names)} in all)" if len(names) > SHOWN else shown


def fixtures_text(fixtures: Iterable[Fixture]) -> str:
    """`tools a, b, c, … (17 in all); prompts d`: fixtures grouped by kind, a few of each, in
    the order given (the order their scenarios run in)."""
    ordered = list(dict.fromkeys(fixtures))
    parts = []
    for kind, noun in _NOUN.items():
        names = [f.name for f in ordered if f.kind == kind]
        if names:
            parts.append(f"{noun} {_names(names)}")
    return "; ".join(parts)


def _offered(listings: Mapping[FixtureKind, tuple[str, ...]]) -> str:
    parts = [f"{_NOUN[kind]} {_names(names)}" for kind, names in listings.items() if names]
    return "; ".join(parts) if parts else "nothing"


def _not_a_server(verdict: LegVerdict) -> str | None:
    listings = server_listings(verdict.details)
    if "tool" not in listings:
        return None
    calls = wanted(d.scenario for d in verdict.details)
    if not calls:
        return None
    if any(f.name in listings.get(f.kind, ()) for f in calls):
        return None
    callers = {s for scenarios in calls.values() for s in scenarios}
    if any(d.passed for d in verdict.details if d.scenario in callers):
        return None
    return (
        "not a conformance server: it lists none of the harness's fixtures "
        f"({len(callers)} scenarios call {fixtures_text(calls)}; it lists "
        f"{_offered(listings)}); see the harness's SDK integration guide: {GUIDE_URL}"
    )


def _stderr_line(details: Iterable[ScenarioVerdict]) -> str | None:
    """`in SCENARIO: LINE`, the last line a client wrote to stderr in the first scenario where
    it wrote one."""
    for detail in details:
        if detail.results_path is None:
            continue
        path = detail.results_path / "stderr.txt"
        try:
            with path.open("rb") as stream:
                size = stream.seek(0, 2)
                stream.seek(max(0, size - STDERR_TAIL_BYTES))
                tail = stream.read().decode("utf-8", errors="replace")
        except OSError:
            continue
        lines = [line for line in tail.splitlines() if line.strip()]
        if lines:
            return f"in {one_line(detail.scenario, 60)}: {one_line(lines[-1], 160)}"
    return None


def _clients_timed_out(verdict: LegVerdict) -> bool:
    """Whether the harness's log of the leg says it stopped a client at the timeout: a client
    that ran out of time may be a conformance client on a slow machine, so its leg is scored
    (each scenario a failure the harness recorded), never called no conformance client."""
    if verdict.results_dir is None:
        return False
    try:
        with (verdict.results_dir / LOG_NAME).open("rb") as log:
            return TIMED_OUT in log.read(LOG_READ_BYTES)
    except OSError:
        return False


def _not_a_client(verdict: LegVerdict) -> str | None:
    ran = [d for d in verdict.details if d.measured and d.results_path is not None]
    if not any(d.scored for d in ran) or any(d.checks_passed for d in ran):
        return None
    if _clients_timed_out(verdict):
        return None
    said = _stderr_line(ran)
    heard = f"; its stderr {said}" if said else ""
    return (
        f"not a conformance client: no check succeeded in any of its {len(ran)} scenarios (it "
        f"never connected, or did nothing a scenario asks){heard}; see the harness's SDK "
        f"integration guide: {GUIDE_URL}"
    )


def _scenario_reason(detail: ScenarioVerdict, kind: Diagnosis) -> str:
    """Why one failed scenario of a diagnosed leg is not measured."""
    if kind == "not-a-conformance-client":
        return "run by no conformance client (no check of any scenario succeeded)"
    calls = [f"{f.kind} {one_line(f.name, NAME_CHARS)}" for f in FIXTURES.get(detail.scenario, ())]
    if calls:
        return f"calls the fixture {', '.join(calls)}, which the server does not list"
    return "run against no conformance server (it lists none of the harness's fixtures)"


def diagnose(verdict: LegVerdict) -> LegVerdict:
    """`verdict` unmeasured with its diagnosis when its server or client is no conformance
    server or client (the module's rules); else `verdict` as it is.

    The scenarios that passed stay passed; each that failed becomes unmeasured with why (the
    fixture it calls), so the leg reads as one diagnosis, not as that many failures.
    """
    if verdict.state != "measured":
        return verdict
    kind: Diagnosis
    if verdict.leg == "server":
        reason, kind = _not_a_server(verdict), "not-a-conformance-server"
    else:
        reason, kind = _not_a_client(verdict), "not-a-conformance-client"
    if reason is None:
        return verdict
    details = [
        d if d.passed or not d.measured else replace(d, unmeasured=_scenario_reason(d, kind))
        for d in verdict.details
    ]
    judged = with_unmeasured(
        verdict.leg,
        verdict.revision,
        details,
        results_dir=verdict.results_dir,
        reason=reason,
        name_each=False,
    )
    return replace(judged, state="unmeasured", status="fail", reason=reason, diagnosis=kind)


def missing_note(verdict: LegVerdict) -> str | None:
    """For a measured server leg whose server has some fixtures but not all: one line naming
    the ones it lacks and the scenarios that call them; None otherwise."""
    if verdict.leg != "server" or verdict.state != "measured":
        return None
    missing = missing_fixtures(verdict.details, server_listings(verdict.details))
    if not missing:
        return None
    callers = sorted({s for scenarios in missing.values() for s in scenarios})
    return (
        f"the server lacks fixtures the harness's scenarios call: {fixtures_text(missing)} "
        f"(called by {_names(callers)}); see {GUIDE_URL}"
    )
