"""Provisioned tools in the cache: the SDK's pnpm pin, reuse only of complete installs.

Installing for real (pip from PyPI, npm from the npm registry) is in the integration suite; these
tests lay out the cache by hand, as a finished or an interrupted install leaves it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tiercheck.errors import ProcessError
from tiercheck.sdk.tools import (
    installed_tool,
    package_manager_pin,
    provision_tool,
    tool_install_dir,
)


@pytest.mark.parametrize(
    ("field", "tool", "expected"),
    [
        ("pnpm@10.26.1", "pnpm", "10.26.1"),
        ("pnpm@10.26.1+sha512.abcdef0123", "pnpm", "10.26.1"),
        ("pnpm@^10", "pnpm", None),  # a range pins nothing
        ("yarn@4.1.0", "pnpm", None),
        (None, "pnpm", None),
    ],
)
def test_package_manager_pin(
    tmp_path: Path, field: str | None, tool: str, expected: str | None
) -> None:
    manifest = {"name": "sdk"} if field is None else {"name": "sdk", "packageManager": field}
    (tmp_path / "package.json").write_text(json.dumps(manifest))
    assert package_manager_pin(tmp_path, tool) == expected


def test_no_package_json_pins_nothing(tmp_path: Path) -> None:
    assert package_manager_pin(tmp_path, "pnpm") is None
    (tmp_path / "package.json").write_text("{not json")
    assert package_manager_pin(tmp_path, "pnpm") is None


def _lay_out(cache: Path, *, marker: bool) -> Path:
    install = tool_install_dir(cache, "pnpm", "10.26.1")
    bin_dir = install / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "pnpm").write_text("#!/bin/sh\necho 10.26.1\n")
    (bin_dir / "pnpm").chmod(0o755)
    if marker:
        (install / ".tiercheck-complete.json").write_text('{"version": "10.26.1"}')
    return bin_dir


def test_a_complete_install_is_reused_without_the_registry(tmp_path: Path) -> None:
    bin_dir = _lay_out(tmp_path, marker=True)
    tool = provision_tool(tmp_path, "pnpm", "10.26.1")  # would need npm and the registry
    assert (tool.tool, tool.version, tool.bin_dir, tool.source) == (
        "pnpm",
        "10.26.1",
        bin_dir,
        "cached",
    )
    assert tool.to_dict() == {"version": "10.26.1", "source": "cached", "path": str(bin_dir)}


def test_an_interrupted_install_is_not_trusted(tmp_path: Path) -> None:
    _lay_out(tmp_path, marker=False)
    assert installed_tool(tmp_path, "pnpm", "10.26.1") is None


def test_only_exact_versions_of_registry_tools_are_provisioned(tmp_path: Path) -> None:
    with pytest.raises(ProcessError, match="not a registry tool at an exact version"):
        provision_tool(tmp_path, "go", "1.25.0")
    with pytest.raises(ProcessError, match="not a registry tool at an exact version"):
        provision_tool(tmp_path, "uv", "latest; rm -rf /")
