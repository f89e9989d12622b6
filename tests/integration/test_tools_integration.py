"""Provisioning uv (PyPI) and pnpm (npm) for real, and `tier-check setup --sdk` from a mirror.

These reach the package registries, as `tier-check setup` does; everything lands in a temporary
cache, and PATH hides the tool provisioned (`support.path.path_without`: every other tool of the
machine, git and node included, stays on it) so it cannot come from the machine.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from support.gitutil import GitOrigin
from support.path import path_without
from tiercheck import process
from tiercheck.cli.app import main
from tiercheck.sdk.tools import installed_tool, provision_tool, tool_install_dir

pytestmark = pytest.mark.usefixtures("isolated_git")


@pytest.mark.parametrize(
    ("tool", "version", "companion"), [("uv", "0.13.8", "uvx"), ("pnpm", "10.26.1", "pnpx")]
)
def test_provision_installs_runs_marks_and_reuses(
    tmp_path: Path, tool: str, version: str, companion: str
) -> None:
    if tool == "pnpm" and shutil.which("npm") is None:
        pytest.skip("npm is needed to provision pnpm")
    first = provision_tool(tmp_path, tool, version)
    assert (first.tool, first.version, first.source) == (tool, version, "provisioned")
    # Nothing but the tool (and its companion) goes on the SDK's PATH.
    assert sorted(p.name for p in first.bin_dir.iterdir()) == sorted([tool, companion])
    ran = process.capture([str(first.bin_dir / tool), "--version"], timeout_s=60)
    assert version in ran.stdout
    again = provision_tool(tmp_path, tool, version)
    assert (again.source, again.bin_dir) == ("cached", first.bin_dir)
    assert installed_tool(tmp_path, tool, version) is not None
    assert not list(tool_install_dir(tmp_path, tool, version).parent.glob("*.partial-*"))


def test_setup_sdk_provisions_the_packagemanager_pin_from_a_mirror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is needed to provision pnpm")
    origin = GitOrigin(tmp_path / "origin")
    # A pin other than tiercheck's default, so the version can only come from the checkout.
    manifest = {"name": "ts-like", "packageManager": "pnpm@10.25.0"}
    origin.commit({"package.json": json.dumps(manifest)}, "first")
    registry = tmp_path / "known_sdks.yaml"
    registry.write_text(
        "ts-like:\n  repo: o/ts-like\n  revisions: ['2025-11-25']\n  requires: [node>=18, pnpm]\n"
    )
    monkeypatch.setenv("PATH", path_without("pnpm", "pnpx", folder=tmp_path / "path"))
    cache = tmp_path / "cache"
    harness_cache = os.environ.get("TIERCHECK_CACHE")
    if harness_cache:  # reuse the session's harness rather than installing it again
        (cache / "harness").parent.mkdir(parents=True, exist_ok=True)
        (cache / "harness").symlink_to(Path(harness_cache) / "harness")
    argv = ["setup", "--sdk", "ts-like", "--registry", str(registry), "--git-url", origin.url]
    code = main([*argv, "--cache-dir", str(cache)])
    out = capsys.readouterr().out
    assert code == 0
    assert f"pnpm 10.25.0 (provisioned) at {cache / 'tools' / 'pnpm' / '10.25.0'}" in out
    assert installed_tool(cache, "pnpm", "10.25.0") is not None
