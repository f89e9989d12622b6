"""`support.path.path_without`: the hidden tools are not found, every other tool still is.

The machine the provisioning tests broke on had pnpm in /usr/bin beside git and node: here PATH
is one folder holding a fake `pnpm` and links to git, node and every other tool, and the PATH
built without pnpm must still find each of them, as the first PATH folder holding it (a later
folder's copy stays shadowed).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from support.path import path_without


def _fake(folder: Path, name: str, body: str = "exit 0") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f"#!/bin/sh\n{body}\n", "utf-8")
    script.chmod(0o755)
    return script


def _names(path: str) -> set[str]:
    names: set[str] = set()
    for entry in path.split(os.pathsep):
        folder = Path(entry)
        if entry and folder.is_dir():
            names |= {e.name for e in folder.iterdir() if e.is_file() and os.access(e, os.X_OK)}
    return names


@pytest.fixture(scope="module")
def machine_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A PATH of one folder, as a machine's /usr/bin with pnpm installed system-wide: a fake
    pnpm (and pnpx) beside git, node and every other tool of the real PATH. Made once: the
    tests only read it."""
    system = tmp_path_factory.mktemp("machine") / "usr-bin"
    _fake(system, "pnpm", "echo 10.0.0")
    _fake(system, "pnpx")
    for tool in ("git", "node"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not on PATH")
    for name in sorted(_names(os.environ.get("PATH", "")) - {"pnpm", "pnpx"}):
        found = shutil.which(name)
        if found is not None:
            (system / name).symlink_to(found)
    return str(system)


def test_the_hidden_tools_are_found_nowhere(machine_path: str, tmp_path: Path) -> None:
    assert shutil.which("pnpm", path=machine_path) is not None
    hidden = path_without("pnpm", "pnpx", folder=tmp_path / "path", path=machine_path)
    assert shutil.which("pnpm", path=hidden) is None
    assert shutil.which("pnpx", path=hidden) is None


def test_every_other_tool_is_found_as_path_found_it(machine_path: str, tmp_path: Path) -> None:
    hidden = path_without("pnpm", "pnpx", folder=tmp_path / "path", path=machine_path)
    names = _names(machine_path) - {"pnpm", "pnpx"}
    assert {"git", "node", "sh"} <= names
    for name in sorted(names):
        before = shutil.which(name, path=machine_path)
        after = shutil.which(name, path=hidden)
        assert after is not None, name
        assert before is not None
        assert Path(after).resolve() == Path(before).resolve(), name


def test_a_later_folder_stays_shadowed(tmp_path: Path) -> None:
    first = _fake(tmp_path / "a", "tool", "echo first")
    _fake(tmp_path / "b", "tool", "echo second")
    _fake(tmp_path / "b", "pnpm")
    path = os.pathsep.join(
        [str(tmp_path / "a"), "", str(tmp_path / "missing"), str(tmp_path / "b")]
    )
    hidden = path_without("pnpm", folder=tmp_path / "path", path=path)
    assert Path(shutil.which("tool", path=hidden) or "").resolve() == first.resolve()
    assert shutil.which("pnpm", path=hidden) is None


def test_git_and_node_still_run_from_it(machine_path: str, tmp_path: Path) -> None:
    from tiercheck import process

    hidden = path_without("pnpm", "pnpx", folder=tmp_path / "path", path=machine_path)
    for tool in ("git", "node"):
        found = shutil.which(tool, path=hidden)
        assert found is not None
        ran = process.capture([found, "--version"], env={"PATH": hidden}, timeout_s=30)
        assert ran.returncode == 0, (tool, ran.stderr)
