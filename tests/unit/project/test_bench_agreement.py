"""bench/agreement.py: a leg tiercheck skips for want of a command is not run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench"


@pytest.fixture(scope="module")
def agreement() -> ModuleType:
    sys.path.insert(0, str(BENCH))  # it imports its sibling compare.py
    try:
        spec = importlib.util.spec_from_file_location("bench_agreement", BENCH / "agreement.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_agreement"] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def test_a_leg_without_a_command_is_not_run(agreement: ModuleType) -> None:
    # Agent-Hellboy/py-mcp is a server toolkit: show-config resolves client.command to None, and
    # the harness was run with `--command None` for every client scenario.
    server_only = {"server.command": "srv --port {port}", "client.command": None}
    assert agreement.unconfigured(server_only, "client") == "no client command configured"
    assert agreement.unconfigured(server_only, "server") is None
    per_scenario = {"client.command": None, "client.commands": {"auth/*": "./c"}}
    assert agreement.unconfigured(per_scenario, "client") is None
    assert agreement.unconfigured({"client.command": "./c"}, "server") == (
        "no server command configured"
    )
