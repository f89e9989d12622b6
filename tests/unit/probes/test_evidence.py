"""What each probe records as evidence, passes included: the request sent and what came back,
short and bounded, against our own server (tests/support/probe_server.py) over real HTTP on
127.0.0.1. Expected lines are worked out from the server's definitions by hand."""

from __future__ import annotations

import json
import re

import pytest

from support.probe_server import ProbeServer
from tiercheck.probes import PROBES, ProbeResult, run_probes
from tiercheck.probes.client import EVIDENCE_CHARS
from tiercheck.probes.tool_names import why_bad

R1, R2 = "2025-11-25", "2026-07-28"
TIMEOUT = 3.0
#: The server's three plain tools at 2025-11-25, as tests/support/probe_server.py lists them.
SCHEMA = {"type": "object", "properties": {}}
TOOLS = [
    {"name": "alpha", "description": "Returns alpha", "inputSchema": SCHEMA},
    {"name": "beta", "description": "Returns beta", "inputSchema": SCHEMA},
    {"name": "always_error", "description": "Always fails", "inputSchema": SCHEMA},
]
#: At most this many evidence lines: evidence stays short whatever the server sends.
MOST_LINES = 8


def one(revision: str, probe: str, misbehave: str | None = None) -> ProbeResult:
    with ProbeServer(revision, misbehave) as server:
        report = run_probes(server.url, revision, [probe], timeout_s=TIMEOUT, race_rounds=2)
    (result,) = report.results
    return result


def matches(pattern: str, line: str) -> re.Match[str]:
    found = re.fullmatch(pattern, line)
    assert found, f"{line!r} does not match {pattern!r}"
    return found


@pytest.mark.parametrize("revision", [R1, R2])
@pytest.mark.parametrize("misbehave", [None, "aimed"])
def test_every_result_that_is_not_a_skip_carries_bounded_evidence(
    revision: str, misbehave: str | None
) -> None:
    """Every probe, on the sound server and on the server that breaks its own rule."""
    for probe in (p for p in PROBES if p.applies_to(revision)):
        # Each misbehaviour is named after the probe aimed at it.
        result = one(revision, probe.name, None if misbehave is None else probe.name)
        if result.outcome == "skip":
            continue
        assert result.evidence, f"{probe.name} at {revision} ({result.outcome}): no evidence"
        assert len(result.evidence) <= MOST_LINES
        assert all(0 < len(e) <= EVIDENCE_CHARS for e in result.evidence)


# -- seterror-content ---------------------------------------------------------------------


def test_seterror_content_shows_the_call_and_the_tool_result_when_it_passes() -> None:
    result = one(R2, "seterror-content")
    assert result.outcome == "pass"
    (line,) = result.evidence
    matches(
        r'POST tools/call always_error → HTTP 200 \{"jsonrpc": "2\.0", "id": \d+, "result": '
        r'\{"content": \[\{"type": "text", "text": "boom"\}\], "isError": true\}\}',
        line,
    )


def test_seterror_content_shows_the_empty_content_when_it_warns() -> None:
    result = one(R1, "seterror-content", "seterror-content")
    assert result.outcome == "warn"
    (line,) = result.evidence
    matches(
        r'POST tools/call always_error → HTTP 200 \{"jsonrpc": "2\.0", "id": \d+, "result": '
        r'\{"content": \[\], "isError": true\}\}',
        line,
    )


# -- tool-names ---------------------------------------------------------------------------


def test_tool_names_shows_the_names_listed() -> None:
    result = one(R1, "tool-names")
    assert result.outcome == "pass"
    assert result.evidence == ("POST tools/list → 3 tools: alpha, beta, always_error",)


def test_tool_names_shows_each_bad_name_and_what_it_breaks() -> None:
    result = one(R1, "tool-names", "tool-names")
    assert result.outcome == "warn"
    assert result.evidence == (
        "POST tools/list → 4 tools: alpha, beta, always_error, bad name/with space",
        "'bad name/with space': 19 characters, not allowed: ' ', '/'",
    )


def test_why_a_name_is_bad() -> None:
    assert why_bad("x" * 129) == f"{'x' * 40!r}: 129 characters (not 1-128)"
    assert why_bad("") == "'': 0 characters (not 1-128)"
    assert why_bad("a:b:c") == "'a:b:c': 5 characters, not allowed: ':'"


def test_a_long_catalogue_is_named_in_part() -> None:
    from tiercheck.probes._common import named

    names = [f"t{i}" for i in range(11)]
    assert named(names) == "11 tools: t0, t1, t2, t3, t4, t5, t6, t7, … (+3 more)"
    assert named([]) == "0 tools"


# -- list-order ---------------------------------------------------------------------------


def test_list_order_shows_both_listings_when_they_agree() -> None:
    result = one(R1, "list-order")
    assert result.outcome == "pass"
    assert result.evidence == (
        "POST tools/list (first connection) → 3 tools: alpha, beta, always_error",
        "POST tools/list (second connection) → 3 tools: alpha, beta, always_error",
    )


def test_list_order_shows_both_listings_and_where_they_part() -> None:
    # The server reverses every second listing.
    result = one(R1, "list-order", "list-order")
    assert result.outcome == "warn"
    assert result.evidence == (
        "POST tools/list (first connection) → 3 tools: alpha, beta, always_error",
        "POST tools/list (second connection) → 3 tools: always_error, beta, alpha",
        "first difference at position 1: alpha, then always_error",
    )


# -- protocol-violations ------------------------------------------------------------------


def test_protocol_violations_shows_each_listing_message_by_message() -> None:
    # The server advertises tools and prompts: both are listed, each answered by one message
    # carrying the request's own id.
    result = one(R1, "protocol-violations")
    assert result.outcome == "pass"
    tools, prompts = result.evidence
    found = matches(
        r"POST tools/list \(id (\d+)\) → HTTP 200 application/json: 1 message\(s\), ids \1", tools
    )
    assert int(found.group(1)) > 0
    matches(
        r"POST prompts/list \(id (\d+)\) → HTTP 200 application/json: 1 message\(s\), ids \1",
        prompts,
    )


def test_protocol_violations_shows_the_stray_response_and_the_rule_it_breaks() -> None:
    result = one(R2, "protocol-violations", "protocol-violations")
    assert result.outcome == "fail"
    tools, prompts, problem = result.evidence
    matches(
        r"POST tools/list \(id (\d+)\) → HTTP 200 text/event-stream: 2 message\(s\), "
        r"ids 'not-asked', \1",
        tools,
    )
    matches(r"POST prompts/list \(id (\d+)\) → HTTP 200 application/json: .*, ids \1", prompts)
    assert problem == "tools/list: a response to id 'not-asked', which was not asked"


# -- tools-snapshot -----------------------------------------------------------------------


def test_tools_snapshot_shows_both_listings_and_the_calls_between() -> None:
    size = sum(len(json.dumps(t, sort_keys=True).encode()) for t in TOOLS)
    result = one(R1, "tools-snapshot")
    assert result.outcome == "pass"
    assert result.evidence == (
        f"POST tools/list (snapshot) → 3 tools, {size} bytes",
        "then POST tools/call alpha, beta, always_error (5 calls) and 2 more POST tools/list",
        f"POST tools/list (re-check) → 3 tools, {size} bytes",
    )


def test_tools_snapshot_shows_where_a_tool_changed() -> None:
    # The server's alpha says "(generation N)", N = calls // 3: 0 at the snapshot, 1 after 5.
    result = one(R1, "tools-snapshot", "tools-snapshot")
    assert result.outcome == "fail"
    *listed, changed = result.evidence
    assert len(listed) == 3
    before, after = changed.split(" became ")
    assert before.startswith("alpha: …")
    assert "Returns alpha (generation 0)" in before
    assert "Returns alpha (generation 1)" in after


# -- concurrent-ids -----------------------------------------------------------------------


def test_concurrent_ids_shows_what_it_sent_a_sample_answer_and_the_counts() -> None:
    result = one(R1, "concurrent-ids")
    assert result.outcome == "pass"
    sent, sample, unique, duplicate = result.evidence
    matches(
        r"8 concurrent POST tools/call over alpha, beta, always_error with unique ids, then 8 "
        r"sharing one id, in 2 of 2 rounds; a call waited at most \d+\.\d\d s",
        sent,
    )
    # The first call of the first round: alpha, under the first id of the rounds.
    matches(
        r'POST tools/call alpha \(id 7000000\) → HTTP 200 \{"jsonrpc": "2\.0", "id": 7000000, '
        r'"result": \{"content": \[\{"type": "text", "text": "alpha"\}\], "isError": false\}\}',
        sample,
    )
    # 2 rounds × 8 calls of each kind, every one answered with its own tool's result.
    counts = "16 answered with their own result, 0 cross-wired, 0 refused, 0 unanswered"
    assert (unique, duplicate) == (f"unique ids: {counts}", f"duplicate ids: {counts}")


def test_concurrent_ids_shows_the_cross_wired_calls() -> None:
    # The server answers a repeated id with the first answer it gave that id: in each round's
    # shared-id batch, every call but those to the first-answered tool gets another's result.
    result = one(R2, "concurrent-ids", "concurrent-ids")
    assert result.outcome == "fail"
    assert result.rounds is not None
    assert (result.rounds.bound, result.rounds.run, result.rounds.observed) == (2, 2, 2)
    examples = [e for e in result.evidence if e.startswith("round ")]
    assert len(examples) == 2  # at most two per kind of batch
    for line in examples:
        found = matches(
            r"round ([12]), duplicate ids: tools/call (\w+) \(id (\d+)\) got (\w+)'s result", line
        )
        round_no, own, rid, other = found.groups()
        assert own != other
        assert int(rid) == 7_000_000 + 1000 * (int(round_no) - 1) + 500
