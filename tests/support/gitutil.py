"""Test helpers: small real git repositories to clone from over file:// URLs."""

from __future__ import annotations

from pathlib import Path

import pytest
from git import Actor, Repo

__all__ = ["GitOrigin", "isolated_git"]

_WHO = Actor("Tier Check", "tiercheck@example.invalid")


class GitOrigin:
    """A non-bare repository acting as `origin`, with helpers to commit, branch and tag.

    Every helper closes the Repo afterwards: gitpython keeps `git cat-file` helpers running
    otherwise, and the leftover-process check would rightly flag them.
    """

    def __init__(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.repo = Repo.init(path, initial_branch="main")

    @property
    def url(self) -> str:
        """The file:// URL to clone from."""
        return self.path.resolve().as_uri()

    def commit(self, files: dict[str, str], message: str = "change") -> str:
        """Write `files` (path → text), commit them on the current branch, return the SHA."""
        for name, text in files.items():
            target = self.path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        self.repo.index.add(list(files))
        sha = self.repo.index.commit(message, author=_WHO, committer=_WHO).hexsha
        self.repo.close()
        return sha

    @property
    def head(self) -> str:
        """The SHA the current branch points at."""
        sha = self.repo.head.commit.hexsha
        self.repo.close()
        return sha

    def git(self, *args: str) -> str:
        """Run a git command in the origin."""
        out = self.repo.git.execute(["git", *args])
        self.repo.close()
        return str(out)

    def branch(self, name: str, start: str | None = None) -> None:
        """Create branch `name` (at `start`, default HEAD) and switch to it."""
        head = self.repo.create_head(name, start or "HEAD")
        head.checkout()
        self.repo.close()

    def switch(self, name: str) -> None:
        """Switch the origin's working tree to an existing branch."""
        self.repo.heads[name].checkout()
        self.repo.close()

    def tag(self, name: str, ref: str = "HEAD") -> None:
        """Create a lightweight tag."""
        self.repo.create_tag(name, ref=ref, force=True)
        self.repo.close()


@pytest.fixture
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Keep the user's and the system's git configuration out of the tests."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("TIERCHECK_GIT_BASE", raising=False)
