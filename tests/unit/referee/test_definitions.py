"""What a run records of its harness: each scenario's definition digest, read in the bundle
(`referee.definitions`, `pipeline.assess.facts.harness_definitions`)."""

from __future__ import annotations

from pathlib import Path

from tiercheck.conformance.harness import Harness
from tiercheck.pipeline.assess.facts import harness_definitions
from tiercheck.referee.definitions import DIGEST_CHARS, definition_digest, definitions

from .test_jsscan import BUNDLE


def test_a_digest_is_of_the_check_ids_alone() -> None:
    one = definition_digest(["tools-list", "order", "tools-list"])
    assert one == definition_digest(["order", "tools-list"])
    assert len(one) == DIGEST_CHARS
    assert one != definition_digest(["order", "tools-list", "tools-name-format"])


def test_each_scenario_read_in_the_bundle_has_its_digest() -> None:
    found = definitions(BUNDLE, ["tools-list", "ping", "JsonRpcError", "missing"])
    assert found == {
        "ping": definition_digest(["ping"]),
        "tools-list": definition_digest(
            ["order", "order-untestable", "tools-list", "tools-name-format"]
        ),
    }  # JsonRpcError emits nothing and `missing` is not there: neither has a digest


def test_a_run_reads_the_installed_bundle_and_never_fails_on_it(tmp_path: Path) -> None:
    bundle = tmp_path / "dist" / "index.js"
    bundle.parent.mkdir()
    bundle.write_text(BUNDLE, encoding="utf-8")
    harness = Harness(node=tmp_path / "node", cli_js=bundle, version="0.2.0-x", node_version="22")
    assert harness_definitions(harness, ["ping"]) == {"ping": definition_digest(["ping"])}
    assert harness_definitions(harness, ["missing"]) is None
    assert harness_definitions(harness, []) is None
    gone = Harness(node=tmp_path / "node", cli_js=tmp_path / "no.js", version="x", node_version="")
    assert harness_definitions(gone, ["ping"]) is None
