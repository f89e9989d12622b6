"""Developer sessions: `nox` runs what `.ci/run` runs (lint, types, layers, unit, integration,
slow, package); `nox -s NAME` runs one.

Each session installs the project with its test extra into its own virtualenv, so a session
passes or fails on a clean machine exactly as it does in `.ci/run`. The test sessions set
`TIERCHECK_REQUIRE_TOOLS=1`, as `.ci/run` does: a test that needs Chromium or actionlint fails
when the tool is missing instead of skipping. Chromium is the machine's (`apt-get install
chromium`); the unit session installs actionlint into its virtualenv with `go install`, the
version `.ci/run` pins.
"""

from __future__ import annotations

import os

import nox

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["lint", "types", "layers", "unit", "integration", "slow", "package"]

PATHS = ("tiercheck", "tests", "bench", "examples", "noxfile.py")
ACTIONLINT = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"
#: The pages' validators (tests/support/page_checks.py): the Nu HTML Checker from Maven Central
#: (the artifacts tests/support/vnu/pom.xml names, run with the machine's Java) and axe-core
#: from the npm registry.
VNU_POM = "tests/support/vnu/pom.xml"
WEBCHECK = ("axe-core@4.14.1",)
#: A missing Chromium or actionlint fails the tests that need it (tests/support/tools.py).
REQUIRE_TOOLS = {"TIERCHECK_REQUIRE_TOOLS": "1"}


def _install(session: nox.Session) -> None:
    session.install("-e", ".[test]")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    _install(session)
    session.run("ruff", "check", *PATHS)
    session.run("ruff", "format", "--check", *PATHS)


@nox.session
def types(session: nox.Session) -> None:
    """Strict mypy over the package."""
    _install(session)
    session.run("mypy")


@nox.session
def layers(session: nox.Session) -> None:
    """The dependency direction of the design card, as import-linter contracts."""
    _install(session)
    session.run("lint-imports")


@nox.session
def unit(session: nox.Session) -> None:
    """The fast suite: no Node, no harness, no network (actionlint and Chromium required)."""
    _install(session)
    session.run("go", "install", ACTIONLINT, env={"GOBIN": session.bin}, external=True)
    session.run("pytest", "tests/unit", "-n", "auto", *session.posargs, env=REQUIRE_TOOLS)


@nox.session
def integration(session: nox.Session) -> None:
    """The real pinned harness and the real sample SDK (provisions Node 22 on first use)."""
    _install(session)
    webcheck = f"{session.virtualenv.location}/webcheck"
    session.run(
        "mvn",
        "-q",
        "-B",
        "-f",
        VNU_POM,
        "dependency:copy-dependencies",
        f"-DoutputDirectory={webcheck}/vnu",
        external=True,
    )
    session.run(
        "npm",
        "install",
        "--prefix",
        webcheck,
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        *WEBCHECK,
        external=True,
    )
    env = {**REQUIRE_TOOLS, "TIERCHECK_WEBCHECK": webcheck}
    session.run("pytest", "tests/integration", *session.posargs, env=env)


@nox.session
def slow(session: nox.Session) -> None:
    """The tests marked `slow`: stress (`STRESS_RUNS`, 20 unless set, as in `.ci/run`), fuzz,
    the equivalence re-runs and the third revision."""
    _install(session)
    env = {**REQUIRE_TOOLS, "STRESS_RUNS": os.environ.get("STRESS_RUNS", "20")}
    session.run("pytest", "-m", "slow", *session.posargs, env=env)


@nox.session(venv_backend="none")
def package(session: nox.Session) -> None:
    """The release workflow's build-and-check, publishing nothing (.ci/package-check: the sdist
    and wheel, `twine check`, the wheel installed in a fresh virtualenv)."""
    session.run(".ci/package-check", f"{session.create_tmp()}/dist", external=True)
