"""The advisory probes against small MCP servers of our own (tests/support/probe_server.py).

One well-behaved server passes every probe at both revisions; each misbehaving server breaks
exactly one rule, and exactly the probe aimed at it fails (or warns, for a SHOULD) while every
other probe still passes. Plus the client's bounds, the selection, and non-MCP endpoints.
"""

from __future__ import annotations

import shutil
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from support.probe_server import MISBEHAVIOURS, ProbeServer
from tiercheck.probes import PROBES, probe_names, run_probes, select
from tiercheck.probes.client import ProbeClient, check_loopback
from tiercheck.probes.protocol_violations import violations
from tiercheck.probes.request_state import tamper
from tiercheck.probes.tool_names import bad_names

R1, R2 = "2025-11-25", "2026-07-28"
SHIPPED = Path(__file__).resolve().parents[3] / "requirements"
TIMEOUT = 3.0

#: What each misbehaviour must turn its own probe into: FAIL for a broken MUST, WARN for a
#: broken SHOULD (worked out from each probe's spec sentence, not from a run).
EXPECTED = {
    "cross-origin": "fail",
    "dns-rebind": "warn",
    "content-type": "warn",
    "origin-header": "fail",
    "mcp-method-headers": "warn",
    "seterror-content": "warn",
    "tool-names": "warn",
    "list-order": "warn",
    "protocol-violations": "fail",
    "concurrent-ids": "fail",
    "tools-snapshot": "fail",
    "notification-202": "fail",
    "legacy-get-delete": "warn",
    "session-id": "warn",
    "version-mismatch": "fail",
    "base64-header": "fail",
    "unsupported-version": "fail",
    "request-state": "fail",
}
#: The 2026-07-28 wire rules exist only there; the test server breaks the SEP-2243 header
#: tolerance only on the 2025-11-25 wire (at 2026-07-28 the headers are mandatory).
ONLY = {
    name: (R2,) for name in EXPECTED if PROBES[probe_names().index(name)].wires == ("stateless",)
}
ONLY["mcp-method-headers"] = (R1,)
# At 2026-07-28 GET is 405 whatever the Origin, so an Origin check on POST alone leaves no
# stream open there: the misbehaviour bites at 2025-11-25 only.
ONLY["origin-header"] = (R1,)
CASES = [(name, rev) for name in EXPECTED for rev in ONLY.get(name, (R1, R2))]


def outcomes(url: str, revision: str) -> dict[str, str]:
    # Three rounds of concurrent-ids, not forty: these servers cross-wire every round or never
    # (the race and its bound are test_concurrent_ids.py's).
    report = run_probes(url, revision, timeout_s=TIMEOUT, race_rounds=3)
    return {r.probe: r.outcome for r in report.results}


def test_every_probe_has_a_misbehaving_server() -> None:
    assert set(EXPECTED) == set(probe_names()) == set(MISBEHAVIOURS)


@pytest.mark.parametrize("revision", [R1, R2])
def test_a_well_behaved_server_passes_every_probe_that_applies(revision: str) -> None:
    with ProbeServer(revision) as server:
        got = outcomes(server.url, revision)
    applies = [p.name for p in PROBES if p.applies_to(revision)]
    assert got == dict.fromkeys(applies, "pass")
    if revision == R1:
        assert "request-state" not in got  # the 2026-07-28 wire rules stay at 2026-07-28


@pytest.mark.parametrize(("misbehave", "revision"), CASES)
def test_exactly_the_probe_aimed_at_a_broken_rule_flags_it(misbehave: str, revision: str) -> None:
    with ProbeServer(revision, misbehave=misbehave) as server:
        got = outcomes(server.url, revision)
    expected = EXPECTED[misbehave]
    if (misbehave, revision) == ("concurrent-ids", R1):
        expected = "warn"  # the test server cross-wires duplicate ids only, in one session
    assert got.pop(misbehave) == expected
    assert got == dict.fromkeys(got, "pass"), f"{misbehave} also tripped {got}"


def test_a_failure_carries_evidence_the_spec_sentence_and_a_fix() -> None:
    with ProbeServer(R2, misbehave="cross-origin") as server:
        report = run_probes(server.url, R2, ["cross-origin"], timeout_s=TIMEOUT)
    (result,) = report.results
    assert result.outcome == "fail"
    assert result.level == "MUST"
    assert result.evidence == (
        "POST tools/list [Origin: http://evil.example] → HTTP 200 "
        + result.evidence[0].split("HTTP 200 ", 1)[1],
    )
    assert "MUST respond with HTTP 403 Forbidden" in result.spec
    assert "403" in (result.fix or "")
    assert report.failed


def test_a_pass_has_no_fix() -> None:
    with ProbeServer(R2) as server:
        (result,) = run_probes(server.url, R2, ["version-mismatch"], timeout_s=TIMEOUT).results
    assert (result.outcome, result.fix) == ("pass", None)


# -- what a probe cannot run is skip, never fail ------------------------------------------


class _NotMcp(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body leave in separate writes; without TCP_NODELAY each answer waits out
    # the client's delayed ACK.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _page(self) -> None:
        body = b"<html>hello</html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = _page  # noqa: N815
    do_DELETE = _page  # noqa: N815

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._page()


@pytest.fixture
def not_mcp() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _NotMcp)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True
    )
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("revision", [R1, R2])
def test_a_web_page_that_is_not_mcp_skips_every_probe_with_the_reason(
    not_mcp: str, revision: str
) -> None:
    report = run_probes(not_mcp, revision, timeout_s=TIMEOUT)
    assert {r.outcome for r in report.results} == {"skip"}
    assert all("was not answered as MCP: HTTP 200" in r.summary for r in report.results)


def test_a_server_that_never_answers_is_skipped_within_the_timeout() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)  # accepts connections, never reads or answers
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
        report = run_probes(url, R2, ["cross-origin", "tool-names"], timeout_s=0.1)
    assert [r.outcome for r in report.results] == ["skip", "skip"]
    assert all("no answer within 0.1 s" in r.summary for r in report.results)


def test_a_probe_without_what_it_needs_is_skipped() -> None:
    # The well-behaved server's 2025-11-25 profile has no input-required tool; run the
    # request-state check there by hand (its definition keeps it to 2026-07-28).
    from tiercheck.probes.base import ProbeContext
    from tiercheck.probes.request_state import PROBE

    with ProbeServer(R1) as server, ProbeClient(server.url, timeout_s=TIMEOUT) as client:
        result = PROBE.run(ProbeContext(client, R1))
    assert result.outcome == "skip"
    assert "no input-required fixture tool" in result.summary


@pytest.mark.parametrize("probe", ["legacy-get-delete", "session-id"])
def test_the_legacy_wire_rules_bind_a_server_of_2026_07_28_alone(probe: str) -> None:
    # "A server that supports only this revision ... SHOULD respond as follows": a dual-era
    # server, serving 2025-11-25 sessions on the same endpoint, is not judged by them.
    with ProbeServer(R2, probe, also_serves=(R1,)) as server:
        (result,) = run_probes(server.url, R2, [probe], timeout_s=TIMEOUT).results
    assert result.outcome == "skip"
    assert result.summary == (
        f"the server also serves {R1} (server/discover supportedVersions); "
        "this rule binds a server that supports 2026-07-28 alone"
    )


R3 = "2026-12-15"
THIRD = f"""
  - name: "{R3}"
    wire: stateless
    released: "{R3}"
    released_source: a test's own revision
    harness: "0.2.0-alpha.12"
    harness_requirements: "{R2}"
"""


def test_a_revision_the_harness_runs_as_another_is_probed_at_that_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A third revision on the stateless wire, run by the harness as 2026-07-28 (its bundle has no
    # set of its own). The test server knows 2026-07-28 only and answers any other version with
    # -32022, as the sample SDK's `mcp` does: the probes speak the version the harness speaks, so
    # every probe of the wire is judged (sending 2026-12-15 would skip them all, judging nothing).
    data = tmp_path / "requirements"
    shutil.copytree(SHIPPED, data)
    (data / "revisions.yaml").write_text((data / "revisions.yaml").read_text() + THIRD)
    shutil.copy(data / f"{R2}.yaml", data / f"{R3}.yaml")
    monkeypatch.setenv("TIERCHECK_REQUIREMENTS", str(data))
    with ProbeServer(R2) as server:
        report = run_probes(server.url, R3, timeout_s=TIMEOUT, race_rounds=3)
    assert report.revision == R3
    applies = [p.name for p in PROBES if p.applies_to(R2)]
    assert {r.probe: r.outcome for r in report.results} == dict.fromkeys(applies, "pass")
    versions = next(r for r in report.results if r.probe == "version-mismatch").evidence
    assert any(f"MCP-Protocol-Version: {R2}" in line for line in versions), versions


def test_a_tampered_state_refused_with_any_json_rpc_error_passes() -> None:
    # The spec asks that the state be rejected and names no code: a refusal with another code
    # and message is a refusal (the harness's own scenario accepts "-32602 or similar").
    with ProbeServer(R2, state_refusal=(-32001, "state check failed")) as server:
        (result,) = run_probes(server.url, R2, ["request-state"], timeout_s=TIMEOUT).results
    assert result.outcome == "pass"
    assert result.summary == "refused with -32001 'state check failed'"


def test_a_state_tool_that_promises_no_protection_is_not_judged() -> None:
    # Integrity is a MUST only where the state can matter, and MAY be omitted where tampering
    # does nothing worse than fail the request. An elicitation fixture that accepts a changed
    # state breaks nothing a probe can see: skip, not fail.
    tool = "test_input_required_result_elicitation"
    with ProbeServer(R2, "request-state", state_tool=tool) as server:
        (result,) = run_probes(server.url, R2, ["request-state"], timeout_s=TIMEOUT).results
    assert result.outcome == "skip"
    assert "no input-required tool promises an integrity-protected requestState" in result.summary
    assert tool in result.summary


# -- bounds and pure parts ----------------------------------------------------------------


def test_only_loopback_http_urls_are_probed() -> None:
    assert check_loopback("http://127.0.0.1:8080/mcp") is None
    assert check_loopback("http://localhost/mcp") is None
    assert "not 'example.com'" in (check_loopback("http://example.com/mcp") or "")
    assert "not an http(s) URL" in (check_loopback("file:///etc/passwd") or "")
    with pytest.raises(ValueError, match=r"10\.0\.0\.1"):
        run_probes("http://10.0.0.1/mcp", R2)


def test_a_body_past_the_cap_is_cut_and_marked(not_mcp: str) -> None:
    with ProbeClient(not_mcp, max_bytes=5) as client:
        reply = client.send("GET")
    assert (reply.text, reply.truncated) == ("<html", True)


def test_selection() -> None:
    assert select("all") == probe_names()
    assert select("none") == ()
    assert select("tool-names,cross-origin") == ("cross-origin", "tool-names")
    with pytest.raises(ValueError, match="unknown probe"):
        select("cross-origin,nope")


def test_tool_names_by_sep_986() -> None:
    names = ["ok", "a.b-c_D9", "x" * 128, "x" * 129, "", "has space", "slash/y"]
    assert bad_names(names) == ["x" * 129, "", "has space", "slash/y"]


def test_tamper_changes_exactly_one_character() -> None:
    for state in ("abcdef", "AAAA", "v1.xyz"):
        changed = tamper(state)
        assert len(changed) == len(state)
        assert sum(a != b for a, b in zip(state, changed, strict=True)) == 1


def test_violations_of_a_reply() -> None:
    from tiercheck.probes.client import Reply

    good = Reply(200, {}, "", messages=({"jsonrpc": "2.0", "id": 1, "result": {}},))
    assert violations(good, 1, modern=True) == []
    two = Reply(
        200,
        {},
        "",
        messages=(
            {"jsonrpc": "2.0", "id": 1, "result": {}},
            {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {}},
            {"jsonrpc": "1.0", "id": 1},
            {"jsonrpc": "2.0", "id": 9, "method": "sampling/createMessage"},
        ),
        garbage=("hello",),
    )
    assert violations(two, 1, modern=True) == [
        "not JSON-RPC: hello",
        "a response with both or neither of result and error",
        "not a JSON-RPC 2.0 object: {'jsonrpc': '1.0', 'id': 1}",
        "a server-to-client request on 2026-07-28: sampling/createMessage",
        "2 responses to the request, not one",
    ]
    assert "a server-to-client request" not in " ".join(violations(two, 1, modern=False))


# -- dns-rebind says what differs from the harness's dns-rebinding-protection ----------------


@pytest.mark.parametrize("revision", [R1, R2])
def test_dns_rebind_beside_an_origin_check_says_what_the_harness_sends_instead(
    revision: str,
) -> None:
    """A server that validates Origin and not Host: the harness's scenario (a foreign Host and
    a foreign Origin in one request, its dns-rebinding.ts) gets a 4xx and passes, while the
    probe's foreign Host with no Origin is served. The probe says exactly that, with both
    exchanges as evidence."""
    with ProbeServer(revision, misbehave="dns-rebind") as server:
        (result,) = run_probes(server.url, revision, ["dns-rebind"], timeout_s=TIMEOUT).results
    assert (result.outcome, result.level) == ("warn", "SHOULD")
    assert result.summary == (
        "Host evil.example with no Origin was served (Host is not validated); with Origin "
        "http://evil.example too it got 403 (Origin is). The harness's "
        "dns-rebinding-protection sends both headers and passes on that 403; this probe sends "
        "the Host alone"
    )
    alone, paired = result.evidence
    assert alone.startswith("POST tools/list [Host: evil.example] → HTTP 200")
    assert paired.startswith(
        "POST tools/list [Host: evil.example Origin: http://evil.example] → HTTP 403"
    )
    assert "is not this check" in result.spec
    assert "it is the protection" not in result.spec


def test_dns_rebind_when_neither_header_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    with ProbeServer(R2, misbehave="dns-rebind") as server:
        # This server forgets the Origin check on POST as well (two misbehaviours at once).
        monkeypatch.setattr(
            server.state, "bad", lambda name: name in {"dns-rebind", "cross-origin"}
        )
        (result,) = run_probes(server.url, R2, ["dns-rebind"], timeout_s=TIMEOUT).results
    assert result.outcome == "warn"
    assert result.summary == (
        "Host evil.example with no Origin was served, and with Origin http://evil.example too "
        "it got 200: neither header is validated (the harness's dns-rebinding-protection sends "
        "both and wants a 4xx)"
    )
    assert len(result.evidence) == 2


def test_dns_rebind_passes_on_one_request_when_host_is_checked() -> None:
    with ProbeServer(R1) as server:
        (result,) = run_probes(server.url, R1, ["dns-rebind"], timeout_s=TIMEOUT).results
    assert result.outcome == "pass"
    assert result.summary == "a foreign Host (no Origin) was refused with 421"
    (only,) = result.evidence
    assert only.startswith("POST tools/list [Host: evil.example] → HTTP 421")
