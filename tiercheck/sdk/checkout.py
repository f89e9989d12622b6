"""Checking out an SDK at a ref, from one cached clone per repository.

The official tool keys its cache by ref, never cleans before detaching (a lockfile dirtied by one
build leaks into the next commit) and clones in full every time a ref is new. Here one clone per
repository lives under `cache_dir/repos/<owner>__<name>` and is fetched (with tags) on reuse;
each ref asked for gets a git worktree of that clone of its own
(`cache_dir/repos/<owner>__<name>.trees/<ref>`), so two lines of one repository (python-sdk and
python-sdk-v1) build and run at the same time without touching each other's files. The clone
itself (fetch, worktree bookkeeping) is changed under a lock of its own, held for seconds. A
worktree is detached at exactly the resolved commit with `reset --hard` and `clean -ffdx`. The
clean is skipped only when the tree already sits at that commit, unmodified, with a recorded
successful build: that is what lets the build cache survive between runs. Whenever the tree is
cleaned, the build markers go with the build outputs.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from tiercheck import locks
from tiercheck.errors import CheckoutError
from tiercheck.sdk.markers import clear_build_markers, has_build_marker
from tiercheck.target import STABLE_REF, latest_stable_tag, no_stable_tag

if TYPE_CHECKING:
    from git import Repo

__all__ = [
    "GIT_BASE_ENV",
    "Checkout",
    "checkout",
    "clone_path",
    "clone_url",
    "commits_between",
    "current_branch",
    "describe_local",
    "files_at",
    "head_sha",
    "redact_url",
    "resolve_ref",
    "tags_merged",
    "tree_lock",
    "worktree_path",
]

#: Environment variable holding a clone URL template such as `file:///srv/mirrors/{repo}.git`.
GIT_BASE_ENV = "TIERCHECK_GIT_BASE"
#: Attempts (and waits between them) for a clone or fetch; network blips are common in CI.
NETWORK_ATTEMPTS = 3
NETWORK_WAIT_MIN_S = 0.5
NETWORK_WAIT_MAX_S = 2.0
#: A clone or fetch that takes longer than this is killed (and retried).
NETWORK_TIMEOUT_S = 900.0

_REPO_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*$")
_FULL_SHA = re.compile(r"^[0-9a-fA-F]{40}$")
_GITHUB_REMOTE = re.compile(r"github\.com[:/]([^/]+/[^/]+?)(?:\.git)?/?$")
# Git must fail, not wait for a password nobody will type.
_GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GCM_INTERACTIVE": "never"}


@dataclass(frozen=True)
class Checkout:
    """A source tree of an SDK at a known commit.

    `managed` checkouts live in our cache and were detached at `commit_sha` by `checkout()`;
    `--sdk-path` ones (`describe_local`) are the user's and are never modified. `cleaned` says
    the tree was reset and cleaned now (so no earlier build output is left in it).
    """

    path: Path
    repo: str | None
    ref: str | None
    commit_sha: str | None
    branch: str | None = None
    url: str | None = None
    managed: bool = False
    dirty: bool = False
    cleaned: bool = False
    #: The tag `ref` resolved to when it is `stable` (the line's latest stable release).
    tag: str | None = None

    @property
    def short_sha(self) -> str | None:
        """The first 12 characters of the commit, for display."""
        return self.commit_sha[:12] if self.commit_sha else None


def clone_url(repo: str, git_url: str | None = None) -> str:
    """The URL to clone `owner/name` from: `git_url`, else `$TIERCHECK_GIT_BASE`, else GitHub."""
    if git_url:
        return git_url
    template = os.environ.get(GIT_BASE_ENV, "").strip()
    if template:
        # A template without {repo} names one base directory for every mirror.
        if "{repo}" in template:
            return template.replace("{repo}", repo)
        return f"{template.rstrip('/')}/{repo}.git"
    return f"https://github.com/{repo}.git"


def redact_url(url: str) -> str:
    """`url` without a password or token in its user part, for messages and reports."""
    parts = urlsplit(url)
    if parts.password is None and not (parts.username and parts.hostname):
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit(parts._replace(netloc=f"***@{host}"))


def _check_inputs(repo: str, ref: str | None) -> None:
    if not _REPO_NAME.match(repo) or ".." in repo:
        msg = f"repository {repo!r} is not of the form owner/name"
        raise CheckoutError(msg)
    if ref is not None and (
        not ref or ref.startswith("-") or any(c.isspace() or ord(c) < 32 for c in ref)
    ):
        msg = f"ref {ref!r} of {repo} is not a valid branch, tag or commit name"
        raise CheckoutError(msg)


def _git_reason(exc: BaseException) -> str:
    """One line from a git failure: the `fatal:` line if there is one, else the last line."""
    from git.exc import GitCommandError

    if not isinstance(exc, GitCommandError):
        return str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
    raw = exc.stderr if isinstance(exc.stderr, str) else ""
    raw = raw.strip().removeprefix("stderr: '").removesuffix("'")
    lines = [line.strip() for line in raw.splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[-1] if lines else f"git exited with status {exc.status}"


def _network(action: str, repo: str, url: str, operation: Callable[[], None]) -> None:
    """Run a clone or fetch with bounded retries; raise CheckoutError with one line if all fail."""
    from git.exc import GitCommandError

    retrying = Retrying(
        stop=stop_after_attempt(NETWORK_ATTEMPTS),
        wait=wait_exponential(multiplier=NETWORK_WAIT_MIN_S, max=NETWORK_WAIT_MAX_S),
        retry=retry_if_exception_type(GitCommandError),
        reraise=True,
    )
    try:
        for attempt in retrying:
            with attempt:
                operation()
    except GitCommandError as exc:
        shown = redact_url(url)
        msg = (
            f"cannot {action} {repo} from {shown} ({NETWORK_ATTEMPTS} attempts): {_git_reason(exc)}"
        )
        raise CheckoutError(msg) from exc


def _git(cwd: Path, *args: str, timeout_s: float | None = None) -> str:
    """Run one git command in `cwd` and return its stdout (raises GitCommandError)."""
    import git

    return git.Git(str(cwd)).execute(
        ["git", *args], kill_after_timeout=timeout_s, env=_GIT_ENV, strip_newline_in_stdout=True
    )


def _is_clone(path: Path) -> bool:
    from git.exc import GitCommandError

    if not (path / ".git").is_dir():
        return False
    try:
        return _git(path, "rev-parse", "--is-inside-work-tree") == "true"
    except GitCommandError:
        return False


def _clone(repo: str, url: str, dest: Path) -> None:
    # Clone next to the destination and rename: an interrupted clone never looks like a cache.
    partial = dest.with_name(f"{dest.name}.partial-{os.getpid()}")

    def attempt() -> None:
        shutil.rmtree(partial, ignore_errors=True)
        _git(
            dest.parent,
            "clone",
            "--no-checkout",
            "--origin",
            "origin",
            "--",
            url,
            str(partial),
            timeout_s=NETWORK_TIMEOUT_S,
        )

    try:
        _network("clone", repo, url, attempt)
        shutil.rmtree(dest, ignore_errors=True)
        partial.rename(dest)
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _fetch(repo: str, url: str, dest: Path, *refspecs: str) -> None:
    _git(dest, "remote", "set-url", "origin", url)  # the mirror setting may have changed

    def attempt() -> None:
        _git(
            dest,
            "fetch",
            "--tags",
            "--force",
            "--prune",
            "origin",
            *refspecs,
            timeout_s=NETWORK_TIMEOUT_S,
        )

    _network("fetch", repo, url, attempt)


def _resolve(dest: Path, ref: str | None) -> str | None:
    """The commit `ref` names: a remote branch first, then a tag, then anything rev-parse takes."""
    from git.exc import GitCommandError

    if ref is None:
        names = ["refs/remotes/origin/HEAD"]
    else:
        names = [f"refs/remotes/origin/{ref}", f"refs/tags/{ref}", ref]
    for name in names:
        try:
            return _git(
                dest, "rev-parse", "--verify", "--quiet", "--end-of-options", name + "^{commit}"
            )
        except GitCommandError:
            continue
    return None


def _tracked_changes(dest: Path) -> bool:
    return bool(_git(dest, "status", "--porcelain", "--untracked-files=no"))


def _detach_clean(dest: Path, sha: str) -> None:
    _git(dest, "checkout", "--force", "--detach", sha)
    _git(dest, "reset", "--hard", sha)
    # -ffdx: also ignored files (.venv, node_modules) and nested repositories left by a build.
    _git(dest, "clean", "-ffdx")
    clear_build_markers(dest)  # the outputs those markers vouched for are gone
    if (dest / ".gitmodules").is_file():
        submodules = ("submodule", "update", "--init", "--recursive", "--force")
        _git(dest, *submodules, timeout_s=NETWORK_TIMEOUT_S)


def checkout(
    repo: str,
    ref: str | None,
    *,
    cache_dir: Path,
    git_url: str | None = None,
    fresh: bool = False,
    tag_prefix: str = "",
) -> Checkout:
    """Detach the cached clone of `repo` (owner/name) at the commit `ref` names.

    `ref` may be a branch (origin's wins over a stale local one), a tag, or a full or short SHA;
    None means origin's default branch; `stable` (`target.STABLE_REF`) means the highest stable
    release tag (`target.latest_stable_tag`, tags read with `tag_prefix`), fetched afresh, and
    named in the result's `tag`. The clone is made on first use and fetched (with tags)
    on reuse, except when `ref` is a full SHA already present. The tree is reset and cleaned
    unless it already sits, unmodified, at that commit with a recorded successful build (so the
    build cache can hit); `fresh` forces the clean. Raises CheckoutError (one line) when the
    repository cannot be cloned or fetched after bounded retries, or the ref does not exist.
    """
    from git.exc import GitCommandError

    _check_inputs(repo, ref)
    url = clone_url(repo, git_url)
    dest = clone_path(repo, cache_dir)
    tree = worktree_path(repo, ref, cache_dir)
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        # Fetching and adding worktrees change the one clone every ref shares: one at a time.
        with tree_lock(dest, lock_dir=cache_dir / ".clone-locks"):
            sha, tag = _acquire(repo, ref, url, dest, tag_prefix)
            _ensure_worktree(dest, tree, sha)
        cleaned = False
        head = head_sha(tree)
        keep = not fresh and head == sha and not _tracked_changes(tree) and has_build_marker(tree)
        if not keep:
            _detach_clean(tree, sha)
            cleaned = True
    except GitCommandError as exc:
        msg = f"cannot check out {repo}@{ref or 'HEAD'}: {_git_reason(exc)}"
        raise CheckoutError(msg) from exc
    return Checkout(
        path=tree,
        repo=repo,
        ref=ref,
        commit_sha=sha,
        branch=_default_branch(dest) if ref is None else None,
        url=redact_url(url),
        managed=True,
        cleaned=cleaned,
        tag=tag,
    )


def clone_path(repo: str, cache_dir: Path) -> Path:
    """Where `checkout()` keeps the one clone of `repo` under `cache_dir`."""
    return cache_dir / "repos" / repo.replace("/", "__")


def worktree_path(repo: str, ref: str | None, cache_dir: Path) -> Path:
    """The working tree `checkout()` uses for `repo` at `ref` (None: the default branch).

    One per ref asked for, so that its build cache survives the next run of the same ref; the
    name keeps the ref readable and a short hash of it keeps two refs that read alike apart.
    """
    name = ref if ref is not None else "HEAD"
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")[:40] or "ref"
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    base = clone_path(repo, cache_dir)
    return base.with_name(f"{base.name}.trees") / f"{readable}-{digest}"


def _ensure_worktree(clone: Path, tree: Path, sha: str) -> None:
    """`tree` as a worktree of `clone`, made (detached at `sha`) when it is not one."""
    from git.exc import GitCommandError

    if (tree / ".git").is_file():
        try:
            if _git(tree, "rev-parse", "--is-inside-work-tree") == "true":
                return
        except GitCommandError:
            pass  # a worktree of a clone since re-made: make it again
    shutil.rmtree(tree, ignore_errors=True)
    tree.parent.mkdir(parents=True, exist_ok=True)
    _git(clone, "worktree", "prune")
    _git(clone, "worktree", "add", "--force", "--detach", str(tree), sha)


def tree_lock(
    tree: Path, *, lock_dir: Path, on_wait: Callable[[], None] | None = None
) -> AbstractContextManager[bool]:
    """Hold an exclusive lock on working tree `tree` while the block runs.

    Two runs that share a cache share its clones: without the lock, the second run's
    `reset --hard` and `clean -ffdx` delete the first run's build while it builds, and the
    first then measures the second's commit. Whoever comes second waits (`on_wait` is called
    once, before it does). The lock is `flock` on a file under `lock_dir` (`tiercheck.locks`),
    keyed by the tree's absolute path: the kernel releases it when its holder exits, however it
    exits, so a crashed run never leaves a stale lock.
    """
    lock_dir.mkdir(parents=True, exist_ok=True)
    slug = hashlib.sha256(str(tree.resolve()).encode()).hexdigest()[:16]
    return locks.held([lock_dir / f"{tree.name}-{slug}.lock"], poll=0.05, on_wait=on_wait)


def _default_branch(dest: Path) -> str | None:
    """The branch origin's HEAD points at (what a clone without a ref is detached at)."""
    from git.exc import GitCommandError

    try:
        name = _git(dest, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD")
    except GitCommandError:
        return None
    return name.removeprefix("origin/") or None


def _tags(dest: Path) -> list[str]:
    out = _git(dest, "for-each-ref", "--format=%(refname:lstrip=2)", "refs/tags")
    return [line for line in out.splitlines() if line]


def _acquire(
    repo: str, ref: str | None, url: str, dest: Path, tag_prefix: str = ""
) -> tuple[str, str | None]:
    """Make sure the clone exists and knows `ref`; return the commit it resolves to, and the
    tag `stable` resolved to (None for any other ref)."""
    if ref == STABLE_REF:
        if _is_clone(dest):
            _fetch(repo, url, dest)  # a new release may have been tagged since
        else:
            _clone(repo, url, dest)
        tags = _tags(dest)
        tag = latest_stable_tag(tags, tag_prefix)
        if tag is None:
            raise CheckoutError(no_stable_tag(repo, tag_prefix, len(tags)))
        sha = _resolve(dest, f"refs/tags/{tag}")
        if sha is None:  # unreachable: the tag was just listed
            raise CheckoutError(f"tag {tag!r} of {repo} names no commit")
        return sha, tag
    return _acquire_ref(repo, ref, url, dest), None


def _acquire_ref(repo: str, ref: str | None, url: str, dest: Path) -> str:
    if not _is_clone(dest):
        _clone(repo, url, dest)
    elif not (ref is not None and _FULL_SHA.match(ref) and _resolve(dest, ref)):
        # A full SHA already present cannot change: no need to reach the network for it.
        _fetch(repo, url, dest)
    sha = _resolve(dest, ref)
    if sha is None and ref is not None and _FULL_SHA.match(ref):
        # A commit on no branch or tag (a PR head) can still be fetched by its full SHA.
        try:
            _fetch(repo, url, dest, ref)
        except CheckoutError:
            sha = None
        else:
            sha = _resolve(dest, ref)
    if sha is None:
        what = "default branch" if ref is None else f"ref {ref!r}"
        msg = f"{what} not found in {repo} ({redact_url(url)}): not a branch, tag or commit"
        raise CheckoutError(msg)
    return sha


def head_sha(path: Path) -> str | None:
    """The commit HEAD points at in `path`, or None if it is not a git checkout with commits."""
    from git import Repo
    from git.exc import InvalidGitRepositoryError, NoSuchPathError

    try:
        with Repo(path) as repository:
            return repository.head.commit.hexsha
    except (InvalidGitRepositoryError, NoSuchPathError, ValueError):
        return None


def describe_local(path: Path) -> Checkout:
    """Describe an existing checkout the user points at (`--sdk-path`) without touching it.

    Reads the HEAD commit, the current branch (None when detached), whether tracked files are
    modified, and owner/name from a GitHub `origin` remote. A directory that is not a git
    repository is accepted with `commit_sha` None. Raises CheckoutError if `path` is not a
    directory.
    """
    from git import Repo
    from git.exc import InvalidGitRepositoryError, NoSuchPathError

    if not path.is_dir():
        msg = f"SDK path {path} is not a directory"
        raise CheckoutError(msg)
    try:
        repository = Repo(path, search_parent_directories=True)
    except (InvalidGitRepositoryError, NoSuchPathError):
        return Checkout(path=path, repo=None, ref=None, commit_sha=None)
    with repository:
        origin = _origin_url(repository)
        return Checkout(
            path=path,
            repo=_origin_repo(repository),
            ref=None,
            commit_sha=_head_of(repository),
            branch=_branch_of(repository),
            url=redact_url(origin) if origin else None,
            dirty=repository.is_dirty(untracked_files=False),
        )


def current_branch(path: Path) -> str | None:
    """The branch checked out at `path`: None when HEAD is detached or `path` is no git checkout.

    Reads only HEAD (no status of the tree), so it is cheap enough to call before deciding what
    an assessment of `path` is about.
    """
    from git import Repo
    from git.exc import InvalidGitRepositoryError, NoSuchPathError

    try:
        repository = Repo(path, search_parent_directories=True)
    except (InvalidGitRepositoryError, NoSuchPathError):
        return None
    with repository:
        return _branch_of(repository)


def _head_of(repository: Repo) -> str | None:
    try:
        return repository.head.commit.hexsha
    except ValueError:  # a repository without commits
        return None


def _branch_of(repository: Repo) -> str | None:
    try:
        return repository.active_branch.name
    except TypeError:  # detached HEAD
        return None


def _origin_url(repository: Repo) -> str | None:
    try:
        return repository.remotes["origin"].url
    except (IndexError, KeyError):
        return None


def _origin_repo(repository: Repo) -> str | None:
    url = _origin_url(repository)
    match = _GITHUB_REMOTE.search(url) if url else None
    return match.group(1) if match else None


# --- reading a checkout's history (for claims) ------------------------------------------------


def tags_merged(path: Path, commit: str) -> list[tuple[str, str]]:
    """(tag, ISO-8601 date) of every tag whose commit is `commit` or one of its ancestors.

    The date is the tag's own (an annotated tag's tagger date, else its commit's date). Empty
    when `path` is no git checkout or git refuses: a claim then says the version is unknown.
    """
    from git.exc import GitCommandError, InvalidGitRepositoryError, NoSuchPathError

    try:
        out = _git(
            path,
            "for-each-ref",
            "--merged",
            commit,
            "--format=%(refname:lstrip=2)%09%(creatordate:iso-strict)",
            "refs/tags",
        )
    except (GitCommandError, InvalidGitRepositoryError, NoSuchPathError, OSError):
        return []
    tags = []
    for line in out.splitlines():
        name, _, date = line.partition("\t")
        if name:
            tags.append((name, date))
    return tags


def commits_between(path: Path, ancestor: str, commit: str) -> int | None:
    """How many commits `commit` has that `ancestor` lacks (0: the same commit), or None."""
    from git.exc import GitCommandError, InvalidGitRepositoryError, NoSuchPathError

    try:
        out = _git(path, "rev-list", "--count", f"{ancestor}..{commit}")
    except (GitCommandError, InvalidGitRepositoryError, NoSuchPathError, OSError):
        return None
    return int(out) if out.strip().isdigit() else None


def resolve_ref(path: Path, ref: str) -> str | None:
    """The commit `ref` names in the checkout at `path` (origin's branch of that name first)."""
    from git.exc import InvalidGitRepositoryError, NoSuchPathError

    try:
        return _resolve(path, ref)
    except (InvalidGitRepositoryError, NoSuchPathError, OSError):
        return None


def files_at(
    path: Path, commit: str, wanted: Callable[[str], bool], max_bytes: int
) -> Iterator[tuple[str, bytes]]:
    """(path, content) of every file of `commit` whose path `wanted` accepts, read from git's
    object store (nothing is checked out). Files over `max_bytes` and symbolic links are left
    out. Raises CheckoutError when the commit cannot be read.
    """
    from git import Blob, Repo
    from git.exc import GitCommandError, InvalidGitRepositoryError, NoSuchPathError

    try:
        with Repo(path, search_parent_directories=True) as repository:
            tree = repository.commit(commit).tree
            for item in tree.traverse():
                if not isinstance(item, Blob) or not wanted(str(item.path)):
                    continue
                if item.mode == Blob.link_mode or item.size > max_bytes:  # symlink, or too large
                    continue
                data: bytes = item.data_stream.read()
                yield str(item.path), data
    except (GitCommandError, InvalidGitRepositoryError, NoSuchPathError, ValueError) as exc:
        msg = f"cannot read {commit} in {path}: {_git_reason(exc)}"
        raise CheckoutError(msg) from exc
