"""The tools some tests need beside Python (Chromium, actionlint): skip without one, or fail.

A test that needs a missing tool skips, saying what to install: a developer's machine may lack
it. Where the tools are meant to be there (`.ci/run` and nox's test sessions install them and
set `TIERCHECK_REQUIRE_TOOLS=1`), the same test fails instead, so a check that never ran is not
taken for one that passed.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

__all__ = ["REQUIRE_TOOLS", "missing", "require", "tools_required"]

#: Set to `1`, a missing tool fails the tests that need it instead of skipping them.
REQUIRE_TOOLS = "TIERCHECK_REQUIRE_TOOLS"


def tools_required() -> bool:
    """Whether a missing tool is a failure here (`TIERCHECK_REQUIRE_TOOLS=1`)."""
    return os.environ.get(REQUIRE_TOOLS) == "1"


def missing(tool: str, install: str) -> NoReturn:
    """End the running test for want of `tool`: skipped, or failed under the variable."""
    if tools_required():
        pytest.fail(f"{tool} is not installed and {REQUIRE_TOOLS}=1 requires it ({install})")
    pytest.skip(f"{tool} is not installed ({install})")


def require(tool: str, path: str | None, install: str) -> str:
    """`path`, the tool found; without one, `missing(tool, install)`."""
    if path is None:
        missing(tool, install)
    return path
