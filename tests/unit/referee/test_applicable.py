"""Which listed scenarios a revision does not apply, read from the harness's own `list`.

The listing is the one recorded from @modelcontextprotocol/conformance 0.2.0-alpha.12
(`tests/support/referee/0.2.0-alpha.12/list-server.txt`, `list-client.txt`). The expected
values were worked out by hand from its brackets, and agree with each scenario's
`this.source={introducedIn, removedIn}` in that release's `dist/index.js` (`initialize`:
introduced in 2025-06-18, removed in 2026-07-28; `auth/2025-03-26-oauth-*`: introduced in
2025-03-26, removed in 2025-06-18; `server-stateless`: introduced in 2026-07-28).
"""

from __future__ import annotations

from collections.abc import Iterable

from support.referee_releases import answers
from tiercheck.referee.applicable import Inapplicable, inapplicable, timeline
from tiercheck.referee.bundle import read_bundle

RELEASE = "0.2.0-alpha.12"


def _listed() -> dict[str, dict[str, tuple[str, ...]]]:
    reading = read_bundle(answers(RELEASE))
    return {
        leg: {name: s.applies for name, s in scenarios.items()}
        for leg, scenarios in reading.scenarios.items()
    }


def _by(found: Iterable[Inapplicable]) -> dict[tuple[str, str, str], list[str]]:
    out: dict[tuple[str, str, str], list[str]] = {}
    for item in found:
        out.setdefault((item.leg, item.why, item.version), []).append(item.scenario)
    return out


def test_the_timeline_is_every_dated_version_listed() -> None:
    assert timeline(_listed()) == ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


def test_at_2026_07_28_the_stateful_scenarios_are_removed() -> None:
    found = _by(inapplicable(_listed(), "2026-07-28", ["server", "client"]))
    assert found == {
        ("server", "removed", "2026-07-28"): [
            "server-initialize",
            "server-session-lifecycle",
            "logging-set-level",
            "ping",
            "tools-call-with-logging",
            "tools-call-sampling",
            "tools-call-elicitation",
            "elicitation-sep1034-defaults",
            "server-sse-polling",
            "elicitation-sep1330-enums",
            "resources-subscribe",
            "resources-unsubscribe",
        ],
        ("client", "removed", "2026-07-28"): [
            "initialize",
            "elicitation-sep1034-client-defaults",
            "sse-retry",
        ],
        ("client", "removed", "2025-06-18"): [
            "auth/2025-03-26-oauth-metadata-backcompat",
            "auth/2025-03-26-oauth-endpoint-fallback",
        ],
    }


def test_at_2025_11_25_the_later_scenarios_are_not_yet_introduced() -> None:
    found = _by(inapplicable(_listed(), "2025-11-25", ["server", "client"]))
    assert found[("client", "removed", "2025-06-18")] == [
        "auth/2025-03-26-oauth-metadata-backcompat",
        "auth/2025-03-26-oauth-endpoint-fallback",
    ]
    server = found[("server", "not-yet-introduced", "2026-07-28")]
    assert server[:5] == [
        "server-stateless",
        "sep-2164-resource-not-found",
        "caching",
        "http-header-validation",
        "http-custom-header-server-validation",
    ]
    assert len(server) == 5 + 14  # and the fourteen input-required-result-* scenarios
    assert found[("client", "not-yet-introduced", "2026-07-28")] == [
        "request-metadata",
        "auth/resource-mismatch",
        "auth/offline-access-scope",
        "auth/offline-access-not-supported",
        "auth/authorization-server-migration",
        "auth/iss-supported",
        "auth/iss-not-advertised",
        "auth/iss-supported-missing",
        "auth/iss-wrong-issuer",
        "auth/iss-unexpected",
        "auth/iss-normalized",
        "auth/metadata-issuer-mismatch",
        "sep-2322-client-request-state",
        "http-standard-headers",
        "http-custom-headers",
        "http-invalid-tool-headers",
        "json-schema-ref-no-deref",
    ]
    assert set(found) == {
        ("client", "removed", "2025-06-18"),
        ("server", "not-yet-introduced", "2026-07-28"),
        ("client", "not-yet-introduced", "2026-07-28"),
    }


def test_extensions_and_applicable_scenarios_are_never_listed() -> None:
    names = {i.scenario for i in inapplicable(_listed(), "2026-07-28", ["server", "client"])}
    assert not names & {"tasks-lifecycle", "auth/dpop", "tools-list", "server-stateless"}


def test_only_the_legs_asked_for_and_only_a_dated_revision() -> None:
    assert {i.leg for i in inapplicable(_listed(), "2026-07-28", ["client"])} == {"client"}
    assert inapplicable(_listed(), "draft", ["server", "client"]) == ()
    assert inapplicable({}, "2026-07-28", ["server"]) == ()


def test_a_gap_is_removed_in_the_version_after_its_last_before_the_revision() -> None:
    listed = {"server": {"x": ("2025-03-26", "2026-07-28"), "y": ("2025-06-18", "2025-11-25")}}
    (x,) = inapplicable(listed, "2025-11-25", ["server"])
    assert (x.scenario, x.why, x.version, x.applies) == (
        "x",
        "removed",
        "2025-06-18",
        ("2025-03-26", "2026-07-28"),
    )
