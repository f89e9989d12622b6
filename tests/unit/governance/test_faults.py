"""Issue 12, items 17–18: a GitHub that answers in the wrong shape, or never, against real PyGithub.

The fake GitHub serves its dataset on a real socket; here it is told to reshape one answer (a list
where an object belongs, nulls in required fields, issues without `node_id`, GraphQL without
data) or to accept connections and never answer. Each time the affected fact group must be
unavailable with a reason, the signals that need it inconclusive, the others untouched, and the
command's output still produced. Unit tests use a deadline of one second; the default is minutes.
The hang that must first let some answers through waits out a longer deadline, so it is an
integration test (tests/integration/test_governance_hang.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from support.governance_fixtures import AS_OF, REPO, TOKEN, collect_from, running
from support.procutil import own_listening_ports
from tiercheck.cli import main
from tiercheck.ghapi import Transport, transport
from tiercheck.governance.signals import compute_signals
from tiercheck.governance.snapshot import Snapshot, Unavailable

#: Which signals read which fact group (the signal module's own dependency, restated by hand).
NEEDS = {
    "labels": {"labels"},
    "issues": {"triage", "p0_resolution"},
    "releases": {"stable_release"},
    "spec_releases": {"spec_tracking"},
    "policy_files": {"policy_signals"},
}


def _statuses(snapshot: Snapshot) -> dict[str, str]:
    signals = compute_signals(snapshot, AS_OF).to_dict()
    return {name: data["status"] for name, data in signals.items() if isinstance(data, dict)}


def _sep_triage(snapshot: Snapshot) -> str:
    """The SEP-1730 reading of triage, the one that needs issue timelines (the official
    reading counts labels only, so it stays measurable without them)."""
    status: str = compute_signals(snapshot, AS_OF).to_dict()["triage"]["sep1730"]["status"]
    return status


def _drop(key: str) -> Callable[[Any], Any]:
    return lambda items: [{k: v for k, v in item.items() if k != key} for item in items]


def _null(key: str) -> Callable[[Any], Any]:
    return lambda items: [{**item, key: None} for item in items]


# (name, path pattern, change, the group it breaks)
WRONG_SHAPES: list[tuple[str, str, Callable[[Any], Any], str]] = [
    ("repository is a list", rf"^/repos/{REPO}$", lambda _: [1, 2], "labels"),
    ("labels are an object", r"/labels$", lambda _: {"name": "bug"}, "labels"),
    ("label names are null", r"/labels$", _null("name"), "labels"),
    ("labels are nulls", r"/labels$", lambda items: [None for _ in items], "labels"),
    ("issue numbers are null", rf"/repos/{REPO}/issues$", _null("number"), "issues"),
    ("issue dates are null", rf"/repos/{REPO}/issues$", _null("created_at"), "issues"),
    ("issue dates are not dates", rf"/repos/{REPO}/issues$",
     lambda items: [{**i, "created_at": "yesterday"} for i in items], "issues"),
    ("issue labels are a string", rf"/repos/{REPO}/issues$",
     lambda items: [{**i, "labels": "bug"} for i in items], "issues"),
    ("release tags missing", rf"/repos/{REPO}/releases$", _drop("tag_name"), "releases"),
    ("spec releases are a string", r"/modelcontextprotocol/releases$", lambda _: "x",
     "spec_releases"),
    ("tree is a list", r"/git/trees/", lambda _: [], "policy_files"),
    ("tree entries are null", r"/git/trees/", lambda body: {**body, "tree": [None]},
     "policy_files"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("pattern", "change", "group"),
    [pytest.param(p, c, g, id=name) for name, p, c, g in WRONG_SHAPES],
)
def test_17_an_answer_of_the_wrong_shape_is_unavailable_with_the_reason(
    pattern: str, change: Callable[[Any], Any], group: str
) -> None:
    with running() as fake:
        fake.reshape(pattern, change)
        snapshot = collect_from(fake)
    broken = getattr(snapshot, group)
    assert isinstance(broken, Unavailable), group
    assert "GitHub answered" in broken.reason, broken.reason
    statuses = _statuses(snapshot)
    for signal in NEEDS[group]:
        assert statuses[signal] == "inconclusive", (signal, statuses)
    # The other groups were collected (policy files follow the repository's default branch,
    # so a broken repository answer takes them too: the tree of "HEAD" is not found).
    for other in set(NEEDS) - {group, "policy_files"}:
        assert not isinstance(getattr(snapshot, other), Unavailable), other


def test_17_issues_without_node_id_keep_the_listing_and_lose_only_their_timelines() -> None:
    with running() as fake:
        fake.reshape(rf"/repos/{REPO}/issues$", _drop("node_id"))
        snapshot = collect_from(fake)
        graphql = fake.requests("POST")
    issues = snapshot.issues
    assert not isinstance(issues, Unavailable)
    assert issues.issues  # every issue is still listed
    assert all(issue.timeline is None for issue in issues.issues)
    assert graphql == 0  # nothing to ask GraphQL about
    assert _sep_triage(snapshot) == "inconclusive"
    assert _statuses(snapshot)["labels"] != "inconclusive"


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda _: {"data": None}, id="data null"),
        pytest.param(lambda _: [], id="a list"),
        pytest.param(lambda _: {"data": {"nodes": {"a": 1}}}, id="nodes an object"),
        pytest.param(lambda _: {"data": {"nodes": [{"number": None}]}}, id="number null"),
        pytest.param(
            lambda _: {"data": {"nodes": [{"number": 1, "timelineItems": {"nodes": [
                {"__typename": "LabeledEvent", "createdAt": None}]}}]}},
            id="event time null",
        ),
    ],
)  # fmt: skip
def test_17_graphql_of_the_wrong_shape_makes_timelines_unavailable(
    change: Callable[[Any], Any],
) -> None:
    with running() as fake:
        fake.reshape(r"^/graphql$", change)
        snapshot = collect_from(fake)
    issues = snapshot.issues
    assert not isinstance(issues, Unavailable)
    assert issues.timeline_reason is not None
    assert issues.timeline_reason.startswith("issue timelines: ")
    assert _sep_triage(snapshot) == "inconclusive"


def test_17_the_governance_command_still_answers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # No politeness delay to our fake.
    monkeypatch.setattr(transport, "DEFAULT", Transport(throttle=None))
    with running() as fake:
        fake.reshape(rf"/repos/{REPO}/issues$", lambda _: {"message": "not a list"})
        fake.reshape(r"/labels$", _null("name"))
        code = main(
            ["governance", "--repo", REPO, "--github-api-url", fake.url, "--token", TOKEN,
             "--as-of", "2025-06-16T12:00:00Z", "--output", "json"]
        )  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    checks = json.loads(captured.out)["checks"]
    assert checks["labels"]["status"] == "inconclusive"
    assert checks["triage"]["status"] == "inconclusive"
    assert "Traceback" not in captured.err


# --- 18. a GitHub that never answers ---------------------------------------------------------


def test_18_a_hang_ends_at_the_deadline_with_every_group_unavailable() -> None:
    with running() as fake:
        fake.hang()
        snapshot = collect_from(fake, deadline=1.0)
        hung = fake.requests()
    for group in NEEDS:
        value = getattr(snapshot, group)
        assert isinstance(value, Unavailable), group
        assert "governance deadline (1s)" in value.reason, value.reason
    assert set(_statuses(snapshot).values()) == {"inconclusive"}
    # Once the deadline passed no further request was sent: one hung request, not 4 × 5.
    assert hung == 1


def test_18_the_deadline_flag_reaches_the_collection(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with running() as fake:
        fake.hang()
        code = main(
            ["labels", "--repo", REPO, "--github-api-url", fake.url, "--token", TOKEN,
             "--governance-deadline", "1"]
        )  # fmt: skip
        port = int(fake.url.rsplit(":", 1)[1])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    labels = json.loads(captured.out)
    assert labels["status"] == "inconclusive"
    assert "governance deadline" in captured.err
    assert port not in own_listening_ports()


def test_18_the_deadline_from_the_environment_and_its_validation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIERCHECK_GOVERNANCE_DEADLINE", "nan")
    code = main(["labels", "--repo", REPO, "--github-api-url", "http://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("tier-check: error: TIERCHECK_GOVERNANCE_DEADLINE: expected a finite")
    with pytest.raises(SystemExit) as exit_info:
        main(["labels", "--repo", REPO, "--governance-deadline", "0"])
    assert exit_info.value.code == 2
