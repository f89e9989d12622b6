"""A leg run against no conformance server or client: one diagnosis, not N failures.

Each test writes a results folder shaped as the harness writes it: the listing scenarios'
checks carry what the server listed under `details` (`tools-list` → `details.tools`, as the
pinned bundle writes it and as recorded from a real run against a demo server), a failed fixture
call is a FAILURE of the harness's own wording, a client scenario has `stderr.txt` beside its
`checks.json`. The leg is scored by the real scorer and then diagnosed; every expected value is
worked out by hand from what the test wrote and the fixture table of the harness.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from support.checks_builder import check, requirement_set, write_scenario
from tiercheck.conformance.fixtures import FIXTURES, GUIDE_URL, Fixture, wanted
from tiercheck.conformance.results import parse_results
from tiercheck.pipeline.assess.diagnosis import diagnose, missing_note, server_listings
from tiercheck.scoring import LegVerdict, score_leg, unmeasured_leg

REQUIREMENTS = Path(__file__).resolve().parents[3] / "requirements"
REV = "2025-11-25"
SERVER = [
    "server-initialize",
    "ping",
    "logging-set-level",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "resources-list",
    "resources-read-text",
    "prompts-list",
    "prompts-get-simple",
]
UNKNOWN_TOOL = "Failed: MCP error -32602: Unknown tool"
NO_METHOD = "Failed: MCP error -32601: Method not found"


def listing(scenario: str, key: str, names: list[object]) -> list[dict[str, object]]:
    """The checks of a listing scenario that got `names` back (the bundle's `details`)."""
    ok = check(scenario)
    ok["details"] = {f"{key[:-1]}Count": len(names), key: names}
    return [ok, check("wire-schema-valid")]


def failed(scenario: str, message: str) -> list[dict[str, object]]:
    return [check(scenario, "FAILURE", message=message)]


def server_leg(tmp_path: Path, results: dict[str, list[dict[str, object]]]) -> LegVerdict:
    """The server leg scored from `results` (scenario → checks), every other scenario passing."""
    for name in SERVER:
        write_scenario(tmp_path, name, results.get(name, [check(name)]))
    rset = requirement_set(server=SERVER, revision=REV)
    return score_leg("server", REV, parse_results(tmp_path, "server"), rset, results_dir=tmp_path)


def demo_results(tools: list[object]) -> dict[str, list[dict[str, object]]]:
    """A demo server's answers: it lists `tools`, has no resources or prompts, and every fixture
    call and logging/setLevel fail."""
    return {
        "tools-list": listing("tools-list", "tools", tools),
        "logging-set-level": failed("logging-set-level", NO_METHOD),
        "tools-call-simple-text": failed("tools-call-simple-text", UNKNOWN_TOOL),
        "tools-call-image": failed("tools-call-image", UNKNOWN_TOOL),
        "resources-list": failed("resources-list", NO_METHOD),
        "resources-read-text": failed("resources-read-text", NO_METHOD),
        "prompts-list": failed("prompts-list", NO_METHOD),
        "prompts-get-simple": failed("prompts-get-simple", NO_METHOD),
    }


# --- the server rule --------------------------------------------------------------------------


def test_a_server_listing_none_of_the_fixtures_is_not_a_conformance_server(tmp_path: Path) -> None:
    scored = server_leg(tmp_path, demo_results(["echo"]))
    assert scored.state == "measured"
    assert scored.failed == 7  # what the leg read as before: 7 of 10 failing
    verdict = diagnose(scored)
    assert verdict.state == "unmeasured"
    assert verdict.diagnosis == "not-a-conformance-server"
    reason = verdict.reason or ""
    assert reason.startswith("not a conformance server: it lists none of the harness's fixtures")
    # The four scenarios that call a fixture, and the fixtures by kind in the order they run.
    assert (
        "(4 scenarios call tools test_simple_text, test_image_content; resources "
        "test://static-text; prompts test_simple_prompt; it lists tools echo)"
    ) in reason
    assert reason.endswith(f"see the harness's SDK integration guide: {GUIDE_URL}")
    assert "\n" not in reason
    # Not 7 failures: every failed scenario is unmeasured, saying why; the passes stand.
    assert verdict.failing == ()
    by_name = {d.scenario: d for d in verdict.details}
    assert by_name["tools-call-simple-text"].unmeasured == (
        "calls the fixture tool test_simple_text, which the server does not list"
    )
    assert by_name["resources-read-text"].unmeasured == (
        "calls the fixture resource test://static-text, which the server does not list"
    )
    assert by_name["logging-set-level"].unmeasured == (
        "run against no conformance server (it lists none of the harness's fixtures)"
    )
    assert [d.scenario for d in verdict.details if d.passed] == [
        "server-initialize",
        "ping",
        "tools-list",
    ]
    assert missing_note(verdict) is None  # unmeasured: the diagnosis says it all


def test_a_server_with_some_fixtures_is_scored_and_told_what_it_lacks(tmp_path: Path) -> None:
    results = demo_results(["test_simple_text", "echo"])
    results["tools-call-simple-text"] = [check("tools-call-simple-text")]
    results["prompts-list"] = listing("prompts-list", "prompts", ["test_simple_prompt"])
    results["prompts-get-simple"] = [check("prompts-get-simple")]
    scored = server_leg(tmp_path, results)
    assert diagnose(scored) is scored
    assert [d.scenario for d in scored.failing] == [
        "logging-set-level",
        "tools-call-image",
        "resources-list",
        "resources-read-text",
    ]
    # resources-list recorded nothing, so resources are not judged: only the tool is missing.
    assert missing_note(scored) == (
        "the server lacks fixtures the harness's scenarios call: tools test_image_content "
        f"(called by tools-call-image); see {GUIDE_URL}"
    )


def test_a_server_whose_tools_were_not_recorded_is_scored_as_it_is(tmp_path: Path) -> None:
    results = demo_results([])
    results["tools-list"] = failed("tools-list", "Failed: MCP error -32603: Internal error")
    scored = server_leg(tmp_path, results)
    assert "tool" not in server_listings(scored.details)
    assert diagnose(scored) is scored
    assert missing_note(scored) is None


def test_one_fixture_prompt_listed_keeps_the_server_a_conformance_server(tmp_path: Path) -> None:
    results = demo_results(["echo"])
    results["prompts-list"] = listing("prompts-list", "prompts", ["test_simple_prompt"])
    scored = server_leg(tmp_path, results)
    assert diagnose(scored) is scored


def test_a_passing_fixture_scenario_keeps_the_leg_scored(tmp_path: Path) -> None:
    # Its tools/list hides the fixture, but the harness's call of it passed: a conformance server.
    results = demo_results(["echo"])
    results["tools-call-simple-text"] = [check("tools-call-simple-text")]
    scored = server_leg(tmp_path, results)
    assert diagnose(scored) is scored


def test_the_servers_names_are_bounded_one_line_and_counted(tmp_path: Path) -> None:
    hostile = "evil\n\x1b[31mred\x1b[0m" + "x" * 500
    tools: list[object] = [hostile, "b", 7, "c", "d"]
    verdict = diagnose(server_leg(tmp_path, demo_results(tools)))
    reason = verdict.reason or ""
    assert "\n" not in reason
    assert "\x1b" not in reason
    assert "x" * 40 not in reason
    # The four string names counted (the number is not a name), three of them quoted.
    assert "it lists tools evil" in reason
    assert ", b, c, … (4 in all))" in reason


def test_a_leg_already_unmeasured_keeps_its_reason() -> None:
    leg = unmeasured_leg("server", REV, "the harness was killed by SIGKILL")
    assert diagnose(leg) is leg


# --- the client rule --------------------------------------------------------------------------


def client_leg(tmp_path: Path, results: dict[str, list[dict[str, object]]]) -> LegVerdict:
    for name, checks in results.items():
        directory = write_scenario(tmp_path, name, checks, leg="client")
        (directory / "stdout.txt").write_text("")
        (directory / "stderr.txt").write_text("")
    rset = requirement_set(client=list(results), revision=REV)
    return score_leg("client", REV, parse_results(tmp_path, "client"), rset, results_dir=tmp_path)


NO_CLIENT: dict[str, list[dict[str, object]]] = {
    # What a command that exits at once left, as recorded: initialize wrote no check at all.
    "initialize": [],
    "tools_call": failed("tool-add-numbers", "Tool was not called by client"),
    "sse-retry": failed("client-sse-graceful-reconnect", "Client did not attempt GET"),
}


def test_a_client_that_never_did_anything_checked_is_not_a_conformance_client(
    tmp_path: Path,
) -> None:
    scored = client_leg(tmp_path, NO_CLIENT)
    stderr = next(tmp_path.glob("tools_call-*")) / "stderr.txt"
    stderr.write_text("Traceback …\nModuleNotFoundError: No module named 'conformance'\n\n")
    verdict = diagnose(scored)
    assert verdict.state == "unmeasured"
    assert verdict.diagnosis == "not-a-conformance-client"
    assert verdict.reason == (
        "not a conformance client: no check succeeded in any of its 3 scenarios (it never "
        "connected, or did nothing a scenario asks); its stderr in tools_call: "
        "ModuleNotFoundError: No module named 'conformance'; see the harness's SDK integration "
        f"guide: {GUIDE_URL}"
    )
    assert verdict.failing == ()
    assert {d.unmeasured for d in verdict.details} == {
        "run by no conformance client (no check of any scenario succeeded)"
    }


def test_clients_stopped_at_the_timeout_are_scored_not_called_no_conformance_client(
    tmp_path: Path,
) -> None:
    # A slow machine: the harness stopped the client of each scenario at its timeout and said
    # so in its log, as 0.2.0-alpha.12's client runner does.
    scored = client_leg(tmp_path, NO_CLIENT)
    (tmp_path / "harness.log").write_text(
        "Running client scenario: tools_call\n\nClient timed out after 30000ms\n"
    )
    assert diagnose(scored) is scored
    assert [d.scenario for d in scored.failing] == ["initialize", "tools_call", "sse-retry"]


def test_one_successful_check_keeps_the_client_leg_scored(tmp_path: Path) -> None:
    results = dict(NO_CLIENT)
    results["initialize"] = [check("mcp-client-initialization")]
    scored = client_leg(tmp_path, results)
    assert diagnose(scored) is scored
    assert [d.scenario for d in scored.failing] == ["tools_call", "sse-retry"]


# --- the fixture table ------------------------------------------------------------------------


def test_every_scenario_of_the_table_is_a_server_scenario_of_a_shipped_set() -> None:
    listed: set[str] = set()
    for path in REQUIREMENTS.glob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        if isinstance(data, dict) and "server" in data:
            listed |= set(data["server"])
            not_scored = data.get("not_scored") or {}
            if isinstance(not_scored, dict):
                listed |= {e["scenario"] for e in not_scored.get("server") or []}
    assert set(FIXTURES) <= listed


def test_wanted_names_each_fixture_once_with_its_callers_in_order() -> None:
    calls = wanted(["resources-subscribe", "tools-list", "resources-unsubscribe"])
    assert calls == {
        Fixture("resource", "test://watched-resource"): (
            "resources-subscribe",
            "resources-unsubscribe",
        )
    }
