"""Fixtures every test module can use, and the split between the two suites.

`tests/unit/` is fast and needs no network, no Node and no harness; `tests/integration/` runs
the real pinned harness and real SDK processes, and its tests are marked `integration` here so
`pytest -m "not integration"` (or `pytest tests/unit`) leaves them out.
"""

from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from support.gitutil import isolated_git
from support.procutil import no_leftovers

__all__ = ["isolated_git", "no_leftovers"]

_INTEGRATION = Path(__file__).resolve().parent / "integration"
_PACKAGE = Path(__file__).resolve().parents[1] / "tiercheck"


#: The modules that take minutes, longest first (as measured on two cores). With `--dist
#: loadscope --no-loadscope-reorder` each module runs whole on one worker, in collection order;
#: starting the long ones first keeps one of them from being the last thing the run waits for.
_LONGEST_FIRST = tuple(
    _INTEGRATION / name
    for name in (
        "test_faults.py",
        "test_e2e.py",
        "test_claim_e2e.py",
        "test_matrix_e2e.py",
        "test_secrets.py",
        "test_governance_faults_e2e.py",
        "test_dashboard_views_browser.py",
        "test_fixed_port.py",
    )
)


#: The scratch space in memory, where the machine has one: tests write thousands of files
#: durably (each write and its folder flushed to disk), and on a disk each flush waits for the
#: device — a fifth of the unit suite's time on a virtual disk. `TIERCHECK_TEST_TMPDIR` names
#: another folder (`TIERCHECK_TEST_TMPDIR=/tmp` keeps the scratch space on disk).
_MEMORY = Path("/dev/shm")
_TMPDIR_ENV = "TIERCHECK_TEST_TMPDIR"
#: Free memory the scratch space must leave: the end-to-end modules build virtualenvs there.
_MEMORY_FREE = 4 * 1024**3


def _scratch() -> Path | None:
    chosen = os.environ.get(_TMPDIR_ENV)
    if chosen:
        return Path(chosen)
    if not _MEMORY.is_dir() or not os.access(_MEMORY, os.W_OK | os.X_OK):
        return None
    return _MEMORY if shutil.disk_usage(_MEMORY).free >= _MEMORY_FREE else None


def pytest_configure(config: pytest.Config) -> None:
    # Before anything asks for a temporary folder: pytest's basetemp (and with it xdist's
    # workers', under the controller's) and every process a test starts follow TMPDIR.
    scratch = _scratch()
    if scratch is not None and config.option.basetemp is None:
        os.environ["TMPDIR"] = str(scratch)
        tempfile.tempdir = None
    # The test processes keep the test modules as pytest rewrote them (its assertion rewriting
    # is most of collecting, in every worker of every run); the processes they start still
    # follow the environment.
    sys.dont_write_bytecode = False
    if not hasattr(config, "workerinput"):  # once, in the controller, before the workers start
        _compile_package()


def _compile_package() -> None:
    """tiercheck's modules compiled to bytecode in their `__pycache__` (git ignores it), once.

    The tests start hundreds of `tier-check` processes, and where `PYTHONDONTWRITEBYTECODE` is
    set (as in many CI images) no Python process keeps what it compiled, so each would compile
    every module it imports again: about a quarter of a subprocess-heavy module's CPU time.
    `compileall` writes the bytecode whatever that setting says, and only for modules whose
    source changed since; nothing else of the environment is touched.
    """
    compileall.compile_dir(_PACKAGE, quiet=2, workers=1)


def _rank(item: pytest.Item) -> int:
    path = Path(str(item.fspath)).resolve()
    return _LONGEST_FIRST.index(path) if path in _LONGEST_FIRST else len(_LONGEST_FIRST)


@pytest.fixture(autouse=True)
def _no_npm_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """`tier-check doctor` asks the npm registry; tests never reach it (a closed local port
    answers at once, so the doctor says "unknown"). The registry tests serve their own."""
    monkeypatch.setenv("TIERCHECK_NPM_REGISTRY", "http://127.0.0.1:9")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _INTEGRATION in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.integration)
    items.sort(key=_rank)  # stable: the order within a module is kept
