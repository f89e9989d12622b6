"""conformance.results: walking a leg's output directory and reading checks.json."""

from __future__ import annotations

from pathlib import Path

from support.checks_builder import check, passing, write_scenario
from tiercheck.conformance.results import Check, collapse_checks, parse_results, scenario_name


def test_scenario_name_strips_timestamp_and_server_prefix_on_the_server_leg_only() -> None:
    assert scenario_name("server-tools-list-2026-11-30T06-36-55-444Z", "server") == "tools-list"
    assert scenario_name("server-initialize-2026-11-30T06-36-55-444Z", "server") == "initialize"
    # a client scenario may itself start with "server-"
    assert scenario_name("server-x-2026-11-30T06-36-55-444Z", "client") == "server-x"
    assert scenario_name("auth/dpop-2026-11-30T06-39-20-590Z", "client") == "auth/dpop"
    assert scenario_name("tools_call-2026-11-30T06-39-20-590Z", "client") == "tools_call"


def test_walks_server_client_and_nested_auth_layouts(tmp_path: Path) -> None:
    server = tmp_path / "server"
    write_scenario(server, "tools-list", passing())
    write_scenario(server, "server-initialize", passing())
    assert sorted(r.name for r in parse_results(server, "server")) == [
        "server-initialize",
        "tools-list",
    ]
    client = tmp_path / "client"
    write_scenario(client, "tools_call", passing(), leg="client")
    write_scenario(client, "auth/basic-cimd", passing(), leg="client")
    (client / "harness.log").write_text("not a scenario")
    results = {r.name: r for r in parse_results(client, "client")}
    assert sorted(results) == ["auth/basic-cimd", "tools_call"]
    assert results["auth/basic-cimd"].path.parent.name == "auth"


def test_reads_status_message_and_spec_references(tmp_path: Path) -> None:
    write_scenario(
        tmp_path,
        "tools-call-image",
        [
            check("img", "FAILURE", message="no image content", url="https://spec/img"),
            check("wire-schema-valid", "WARNING", description="schema drift", url=None),
            check("note", "INFO"),
            check("later", "SKIPPED"),
        ],
    )
    (result,) = parse_results(tmp_path, "server")
    img, wire, note, later = result.raw_checks
    assert (img.id, img.status, img.message, img.spec_url) == (
        "img",
        "FAILURE",
        "no image content",
        "https://spec/img",
    )
    assert img.spec_references[0].to_dict() == {"id": "MCP-X", "url": "https://spec/img"}
    assert (wire.status, wire.message, wire.spec_url) == ("WARNING", "schema drift", None)
    assert note.status == "INFO"
    assert later.status == "SKIPPED"
    assert result.parse_error is None


def test_repeated_ids_collapse_most_severe_wins_info_kept() -> None:
    raw = [
        Check("a", "SUCCESS", "1"),
        Check("i", "INFO", "first note"),
        Check("a", "FAILURE", "2"),
        Check("a", "SUCCESS", "3"),
        Check("b", "SKIPPED", "4"),
        Check("b", "WARNING", "5"),
        Check("c", "SUCCESS", "6"),
        Check("c", "SUCCESS", "7"),
        Check("i", "INFO", "second note"),
        Check("d", "SKIPPED", "8"),
        Check("d", "SUCCESS", "9"),
    ]
    collapsed = collapse_checks(raw)
    assert [(c.id, c.status, c.message) for c in collapsed] == [
        ("a", "FAILURE", "2"),  # FAILURE beats a later SUCCESS, keeps first position
        ("i", "INFO", "first note"),
        ("b", "WARNING", "5"),
        ("c", "SUCCESS", "7"),  # ties go to the later one
        ("i", "INFO", "second note"),
        ("d", "SUCCESS", "9"),  # SUCCESS beats SKIPPED
    ]


def test_bad_json_is_a_parse_error_not_an_exception(tmp_path: Path) -> None:
    write_scenario(tmp_path, "broken", "[{not json")
    write_scenario(tmp_path, "object", '{"status": "SUCCESS"}')
    write_scenario(tmp_path, "no-status", '[{"id": "x"}]')
    results = {r.name: r for r in parse_results(tmp_path, "server")}
    assert all(r.parse_error for r in results.values())
    assert all(r.raw_checks == () for r in results.values())
    assert "array" in (results["object"].parse_error or "")


def test_empty_scenario_dir_is_zero_checks(tmp_path: Path) -> None:
    write_scenario(tmp_path, "tasks-capability-negotiation", None)
    write_scenario(tmp_path, "empty-list", [])
    results = {r.name: r for r in parse_results(tmp_path, "server")}
    assert results["tasks-capability-negotiation"].raw_checks == ()
    assert not results["tasks-capability-negotiation"].has_checks_file
    assert results["tasks-capability-negotiation"].parse_error is None
    assert results["empty-list"].raw_checks == ()
    assert results["empty-list"].has_checks_file


def test_missing_dir_is_no_results(tmp_path: Path) -> None:
    assert parse_results(tmp_path / "nope", "client") == ()


def test_a_scenario_run_twice_keeps_the_later_run(tmp_path: Path) -> None:
    write_scenario(tmp_path, "ping", [check("ping", "FAILURE")], ts="2026-11-30T06-36-55-475Z")
    write_scenario(tmp_path, "ping", passing(), ts="2026-11-30T06-40-00-000Z")
    (result,) = parse_results(tmp_path, "server")
    assert {c.status for c in result.raw_checks} == {"SUCCESS"}
