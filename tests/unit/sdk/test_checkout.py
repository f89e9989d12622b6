"""tiercheck.sdk.checkout against real git repositories cloned over file:// URLs."""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.gitutil import GitOrigin
from support.procutil import wait_for
from tiercheck.errors import CheckoutError
from tiercheck.sdk import checkout as checkout_module
from tiercheck.sdk.build import build
from tiercheck.sdk.checkout import (
    checkout,
    clone_url,
    describe_local,
    redact_url,
    tree_lock,
    worktree_path,
)

pytestmark = pytest.mark.usefixtures("isolated_git")

REPO = "acme/widget-sdk"


@pytest.fixture(autouse=True)
def no_retry_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """The retries still happen (their count is asserted); only the back-off between them goes."""
    monkeypatch.setattr(checkout_module, "NETWORK_WAIT_MIN_S", 0.0)


@pytest.fixture
def origin(tmp_path: Path) -> GitOrigin:
    origin = GitOrigin(tmp_path / "origin")
    origin.commit({"README.md": "v1\n", ".gitignore": ".venv/\n"}, "first")
    return origin


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_branch_checkout_clones_into_the_cache(origin: GitOrigin, cache: Path) -> None:
    head = origin.head
    result = checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    assert result.path == worktree_path(REPO, "main", cache)
    assert result.path.parent == cache / "repos" / "acme__widget-sdk.trees"
    assert result.commit_sha == head
    assert result.short_sha == head[:12]
    assert result.repo == REPO
    assert result.ref == "main"
    assert result.url == origin.url
    assert result.managed
    assert result.cleaned
    assert (result.path / "README.md").read_text() == "v1\n"


def test_two_refs_of_one_repository_get_trees_of_their_own(origin: GitOrigin, cache: Path) -> None:
    first = origin.head
    origin.tag("v1.0.0")
    second = origin.commit({"README.md": "v2\n", "new.txt": "n\n"}, "second")
    old = checkout(REPO, "v1.0.0", cache_dir=cache, git_url=origin.url)
    (old.path / "build-output").write_text("built at v1\n")
    new = checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    # one clone, two worktrees: checking out main leaves v1.0.0's tree and its files alone
    assert old.path != new.path
    assert (old.commit_sha, new.commit_sha) == (first, second)
    assert (old.path / "README.md").read_text() == "v1\n"
    assert (old.path / "build-output").read_text() == "built at v1\n"
    assert not (old.path / "new.txt").exists()
    assert (new.path / "README.md").read_text() == "v2\n"
    assert worktree_path(REPO, "v1.0.0", cache) == old.path
    assert worktree_path(REPO, "v1/0.0", cache) != worktree_path(REPO, "v1_0.0", cache)


def test_tags_branches_and_shas_resolve(origin: GitOrigin, cache: Path) -> None:
    first = origin.head
    origin.tag("v1.0.0")
    second = origin.commit({"README.md": "v2\n"}, "second")
    origin.branch("feature")
    feature = origin.commit({"feature.txt": "f\n"}, "feature work")
    origin.switch("main")

    def at(ref: str) -> str | None:
        return checkout(REPO, ref, cache_dir=cache, git_url=origin.url).commit_sha

    assert at("v1.0.0") == first
    assert (worktree_path(REPO, "v1.0.0", cache) / "README.md").read_text() == "v1\n"
    assert at("main") == second
    assert at("feature") == feature
    assert at(first) == first
    assert at(second[:9]) == second
    assert checkout(REPO, None, cache_dir=cache, git_url=origin.url).commit_sha == second


def test_unknown_ref_names_the_ref_and_the_repository(origin: GitOrigin, cache: Path) -> None:
    with pytest.raises(CheckoutError) as info:
        checkout(REPO, "no-such-branch", cache_dir=cache, git_url=origin.url)
    message = info.value.message
    assert "'no-such-branch'" in message
    assert REPO in message
    assert "\n" not in message
    assert info.value.exit_code == 1


def test_an_absent_full_sha_is_unknown(origin: GitOrigin, cache: Path) -> None:
    checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    with pytest.raises(CheckoutError, match="not found"):
        checkout(REPO, "0" * 40, cache_dir=cache, git_url=origin.url)


def test_reuse_fetches_new_commits_and_tags(origin: GitOrigin, cache: Path) -> None:
    checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    newer = origin.commit({"README.md": "v2\n"}, "second")
    origin.tag("v2.0.0")
    again = checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    assert again.commit_sha == newer
    assert checkout(REPO, "v2.0.0", cache_dir=cache, git_url=origin.url).commit_sha == newer


def test_a_moved_tag_is_followed(origin: GitOrigin, cache: Path) -> None:
    origin.tag("latest")
    checkout(REPO, "latest", cache_dir=cache, git_url=origin.url)
    newer = origin.commit({"README.md": "v2\n"}, "second")
    origin.tag("latest")  # moved (force)
    assert checkout(REPO, "latest", cache_dir=cache, git_url=origin.url).commit_sha == newer


def test_files_left_by_another_commit_never_leak(origin: GitOrigin, cache: Path) -> None:
    # One ref whose commit moves: its one tree is reused and must be cleaned.
    tree = checkout(REPO, "main", cache_dir=cache, git_url=origin.url).path
    # What a build of the first commit leaves: untracked, ignored and modified tracked files.
    (tree / "build-output.txt").write_text("stale\n")
    (tree / ".venv").mkdir()
    (tree / ".venv" / "marker").write_text("stale\n")
    (tree / "README.md").write_text("edited by a build\n")
    origin.commit({"README.md": "v2\n"}, "second")
    result = checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    assert result.path == tree
    assert result.cleaned
    assert not (tree / "build-output.txt").exists()
    assert not (tree / ".venv").exists()
    assert (tree / "README.md").read_text() == "v2\n"


def test_build_outputs_survive_only_a_recorded_build_of_the_same_commit(
    origin: GitOrigin, cache: Path, tmp_path: Path
) -> None:
    first = origin.head
    second = origin.commit({"README.md": "v2\n"}, "second")
    script = "import os; os.makedirs('.venv'); open('.venv/ok', 'w')"
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}"
    log = tmp_path / "build.log"

    def build_at(sha: str) -> str:
        # One ref (a tag moved between the commits), so one tree: what the clean does shows.
        origin.tag("release", sha)
        tree = checkout(REPO, "release", cache_dir=cache, git_url=origin.url)
        outcome = build(tree.path, command, {}, log_path=log, cache_dir=cache, commit_sha=sha)
        assert outcome.ok, outcome.reason
        assert (tree.path / ".venv" / "ok").exists()
        return outcome.state

    assert build_at(first) == "built"
    assert build_at(first) == "cached"  # same commit, tree kept: the .venv is still there
    assert build_at(second) == "built"  # the clean deleted .venv, and the marker with it
    assert build_at(first) == "built"
    fresh = checkout(REPO, "release", cache_dir=cache, git_url=origin.url, fresh=True)
    assert fresh.cleaned
    assert not (fresh.path / ".venv").exists()


def test_a_build_that_edits_tracked_files_is_cleaned_next_time(
    origin: GitOrigin, cache: Path, tmp_path: Path
) -> None:
    sha = origin.head
    command = "echo changed > README.md && mkdir -p .venv"
    tree = checkout(REPO, "main", cache_dir=cache, git_url=origin.url).path
    outcome = build(tree, command, {}, log_path=tmp_path / "b.log", cache_dir=cache, commit_sha=sha)
    assert outcome.state == "built"
    again = checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    assert again.cleaned
    assert (tree / "README.md").read_text() == "v1\n"
    rebuilt = build(tree, command, {}, log_path=tmp_path / "b.log", cache_dir=cache, commit_sha=sha)
    assert rebuilt.state == "built"


def test_a_broken_cache_directory_is_recloned(origin: GitOrigin, cache: Path) -> None:
    broken = cache / "repos" / "acme__widget-sdk"
    broken.mkdir(parents=True)
    (broken / "junk").write_text("half a clone\n")
    result = checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    assert result.commit_sha == origin.head
    assert not (broken / "junk").exists()


def test_clone_failure_is_retried_then_reported_on_one_line(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts: list[float] = []
    real_git = checkout_module._git

    def counting_git(cwd: Path, *args: str, timeout_s: float | None = None) -> str:
        if args[0] == "clone":
            attempts.append(time.monotonic())
        return real_git(cwd, *args, timeout_s=timeout_s)

    monkeypatch.setattr(checkout_module, "_git", counting_git)
    missing = (tmp_path / "nowhere.git").as_uri()
    with pytest.raises(CheckoutError, match="cannot clone acme/widget-sdk") as info:
        checkout(REPO, "main", cache_dir=cache, git_url=missing)
    assert len(attempts) == checkout_module.NETWORK_ATTEMPTS
    assert "\n" not in info.value.message
    assert "does not exist" in info.value.message or "fatal" in info.value.message
    assert not any(p.name.startswith("acme__widget-sdk") for p in (cache / "repos").iterdir())


def test_fetch_failure_on_reuse_is_reported(origin: GitOrigin, cache: Path, tmp_path: Path) -> None:
    checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    gone = tmp_path / "moved-away"
    origin.path.rename(gone)
    with pytest.raises(CheckoutError, match="cannot fetch acme/widget-sdk"):
        checkout(REPO, "main", cache_dir=cache, git_url=origin.url)
    # A full SHA already in the cache needs no network at all.
    sha = GitOrigin(gone).head
    assert checkout(REPO, sha, cache_dir=cache, git_url=origin.url).commit_sha == sha


def test_git_base_template_from_the_environment(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mirror = GitOrigin(tmp_path / "mirrors" / "acme" / "widget-sdk.git")
    sha = mirror.commit({"README.md": "mirrored\n"}, "first")
    template = (tmp_path / "mirrors").resolve().as_uri() + "/{repo}.git"
    monkeypatch.setenv("TIERCHECK_GIT_BASE", template)
    result = checkout(REPO, "main", cache_dir=cache, git_url=None)
    assert result.commit_sha == sha
    assert result.url == mirror.url


def test_clone_url_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    assert clone_url(REPO) == "https://github.com/acme/widget-sdk.git"
    monkeypatch.setenv("TIERCHECK_GIT_BASE", "file:///srv/mirrors/{repo}.git")
    assert clone_url(REPO) == "file:///srv/mirrors/acme/widget-sdk.git"
    monkeypatch.setenv("TIERCHECK_GIT_BASE", "file:///srv/mirrors/")
    assert clone_url(REPO) == "file:///srv/mirrors/acme/widget-sdk.git"
    assert clone_url(REPO, "file:///elsewhere.git") == "file:///elsewhere.git"


@pytest.mark.parametrize(
    ("repo", "ref"),
    [
        ("widget", "main"),
        ("acme/widget/extra", "main"),
        ("../x", "main"),
        (REPO, "--upload-pack=x"),
    ],
)
def test_bad_names_are_refused_before_git_runs(cache: Path, repo: str, ref: str) -> None:
    with pytest.raises(CheckoutError):
        checkout(repo, ref, cache_dir=cache, git_url="file:///nowhere")
    assert not (cache / "repos").exists() or not any((cache / "repos").iterdir())


def test_describe_local_reads_branch_sha_and_github_origin(tmp_path: Path) -> None:
    local = GitOrigin(tmp_path / "python-sdk")
    sha = local.commit({"README.md": "x\n"}, "first")
    local.git("remote", "add", "origin", "git@github.com:modelcontextprotocol/python-sdk.git")
    described = describe_local(local.path)
    assert described.commit_sha == sha
    assert described.branch == "main"
    assert described.repo == "modelcontextprotocol/python-sdk"
    assert not described.managed
    assert not described.dirty
    (local.path / "README.md").write_text("edited\n")
    local.git("checkout", "--detach")
    described = describe_local(local.path)
    assert described.branch is None
    assert described.dirty


def test_describe_local_tolerates_a_plain_directory(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    described = describe_local(plain)
    assert described.commit_sha is None
    assert described.repo is None
    assert described.path == plain
    with pytest.raises(CheckoutError, match="not a directory"):
        describe_local(tmp_path / "missing")


def test_credentials_in_urls_never_reach_messages() -> None:
    assert redact_url("https://x-access-token:ghp_abc@github.com/a/b.git") == (
        "https://***@github.com/a/b.git"
    )
    assert (
        redact_url("https://ghp_abc@github.com:8443/a/b.git")
        == "https://***@github.com:8443/a/b.git"
    )
    assert redact_url("https://github.com/a/b.git") == "https://github.com/a/b.git"
    assert redact_url("file:///srv/mirrors/a/b.git") == "file:///srv/mirrors/a/b.git"


# --- one run at a time per working tree (issue 12, item 3) -----------------------------------

HOLDER = """
import sys, time
from pathlib import Path
from tiercheck.sdk.checkout import tree_lock
tree, locks, held, release = (Path(a) for a in sys.argv[1:5])
with tree_lock(tree, lock_dir=locks):
    held.write_text("held")
    while not release.exists():
        time.sleep(0.02)
"""


def test_a_second_run_waits_for_the_tree_until_the_first_lets_go(tmp_path: Path) -> None:
    tree, locks = tmp_path / "repos" / "owner__name", tmp_path / "locks"
    tree.mkdir(parents=True)
    held, release = tmp_path / "held", tmp_path / "release"
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    holder = subprocess.Popen(
        [sys.executable, str(script), str(tree), str(locks), str(held), str(release)]
    )
    try:
        assert wait_for(held.exists, timeout_s=30)
        waited: list[bool] = []

        def on_wait() -> None:
            waited.append(True)
            release.touch()  # the first run finishes while the second waits

        with tree_lock(tree, lock_dir=locks, on_wait=on_wait):
            assert waited == [True]
            assert holder.wait(timeout=30) == 0  # it let go before we got the tree
    finally:
        release.touch()
        holder.wait(timeout=30)
    # Free again: taken at once, without waiting.
    with tree_lock(tree, lock_dir=locks, on_wait=lambda: pytest.fail("waited for nobody")):
        pass


def test_a_lock_held_by_a_killed_run_is_released_by_the_kernel(tmp_path: Path) -> None:
    tree, locks = tmp_path / "tree", tmp_path / "locks"
    tree.mkdir()
    held, never = tmp_path / "held", tmp_path / "never"
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    holder = subprocess.Popen(
        [sys.executable, str(script), str(tree), str(locks), str(held), str(never)]
    )
    assert wait_for(held.exists, timeout_s=30)
    holder.kill()
    holder.wait(timeout=30)
    with tree_lock(tree, lock_dir=locks, on_wait=lambda: pytest.fail("a stale lock")):
        pass


def test_no_ref_checks_out_and_names_origins_default_branch(tmp_path: Path, cache: Path) -> None:
    # A default branch that is not main: nothing may assume the name.
    origin = GitOrigin(tmp_path / "trunk-origin")
    origin.commit({"README.md": "v1\n"}, "first")
    origin.git("branch", "-m", "main", "trunk")
    result = checkout(REPO, None, cache_dir=cache, git_url=origin.url)
    assert (result.branch, result.commit_sha) == ("trunk", origin.head)
    named = checkout(REPO, "trunk", cache_dir=cache, git_url=origin.url)
    assert named.branch is None  # a named ref is reported as named, by the plan
