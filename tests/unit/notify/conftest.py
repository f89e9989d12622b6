"""The notify tests' fixtures: the fake GitHub (its token is `LOGIN`'s account), a history
database, and no politeness pauses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.fake_github import Dataset, FakeGitHub, FakeIssue
from support.notify_nights import LOGIN, PR, REPO, TOKEN
from tiercheck.ghapi import transport
from tiercheck.history.store import HistoryStore


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """No politeness pauses, no back-off, a 1 s rate-limit bound; the token from the
    environment, as in the workflow."""
    fast = transport.Transport(throttle=None, write_throttle=None, backoff=0.0, max_wait=1.0)
    monkeypatch.setattr(transport, "DEFAULT", fast)
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    for name in ("GH_TOKEN", "GITHUB_API_URL", "GITHUB_RUN_ID"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    """A repository holding a human's issue (#1) and a pull request (#PR); `TOKEN` is
    `LOGIN`'s."""
    dataset = Dataset(
        repo=REPO,
        issues=[
            FakeIssue(1, "A human's issue", "2025-12-01T00:00:00Z", body="sample-sdk is slow"),
            FakeIssue(PR, "Bump the harness", "2025-12-02T00:00:00Z", pull_request=True),
        ],
        accounts={TOKEN: LOGIN},
    )
    fake = FakeGitHub(dataset).start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
def store(tmp_path: Path) -> HistoryStore:
    return HistoryStore(tmp_path / "history.sqlite")
