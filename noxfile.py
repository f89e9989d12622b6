"""Developer sessions: `nox -s lint types unit integration layers` (or just `nox`).

Each session installs the project with its test extra into its own virtualenv, so a session
passes or fails on a clean machine exactly as it does in `.ci/run`.
"""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["lint", "types", "layers", "unit", "integration"]

PATHS = ("tiercheck", "tests", "bench", "examples", "noxfile.py")


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
    """The fast suite: no Node, no harness, no network."""
    _install(session)
    session.run("pytest", "tests/unit", "-n", "auto", *session.posargs)


@nox.session
def integration(session: nox.Session) -> None:
    """The real pinned harness and the real sample SDK (provisions Node 22 on first use)."""
    _install(session)
    session.run("pytest", "tests/integration", *session.posargs)
