"""The collector against the fake GitHub, driven through real PyGithub over a real socket."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from support.fake_github import FakeGitHub
from support.governance_fixtures import (
    AS_OF,
    CAPTURED,
    REPO,
    TOKEN,
    big_dataset,
    collect_from,
    running,
)
from tiercheck.ghapi import Transport, make_retry, resolve_token
from tiercheck.governance.collector import CollectStats, collect
from tiercheck.governance.signals import compute_signals
from tiercheck.governance.snapshot import Unavailable, dump_snapshot, save_snapshot
from tiercheck.tier import LegSummary, compute_tier

MEASURED = LegSummary("measured", 1.0)


def _collect(
    fake: FakeGitHub,
    *,
    token: str | None = TOKEN,
    cache_dir: Path | None = None,
    checkout: Path | None = None,
    stats: CollectStats | None = None,
    log: list[str] | None = None,
) -> object:
    return collect_from(
        fake,
        token=token,
        cache_dir=cache_dir,
        checkout=checkout,
        stats=stats,
        log=log.append if log is not None else None,
    )


def test_one_request_per_listing_page_and_one_graphql_query() -> None:
    with running() as fake:
        stats = CollectStats()
        _collect(fake, stats=stats)
        # repo, labels, issues (1 page), GraphQL, releases, spec releases, tree.
        assert fake.requests() == 7 == stats.requests
        assert fake.requests("POST") == 1
        assert all(r.authorization for r in fake.log)


def test_second_collection_with_a_warm_cache_is_all_304s(tmp_path: Path) -> None:
    with running() as fake:
        first = _collect(fake, cache_dir=tmp_path)
        fake.reset_log()
        stats = CollectStats()
        second = _collect(fake, cache_dir=tmp_path, stats=stats)
        # Six REST requests, each answered 304; timelines unchanged → no GraphQL at all.
        assert fake.requests() == 6
        assert fake.requests(status=304) == 6
        assert fake.requests("POST") == 0
        assert stats.not_modified == 6
        assert dump_snapshot(first) == dump_snapshot(second)  # type: ignore[arg-type]


def test_a_changed_issue_refetches_only_its_page_and_its_timeline(tmp_path: Path) -> None:
    data = big_dataset(issues=300, prs=0)
    with running(data) as fake:
        _collect(fake, cache_dir=tmp_path)
        # Issue 250 is on the third page (created order = number order here? no: by date).
        changed = data.issues[0]
        data.issues[0] = type(changed)(**{**changed.__dict__, "closed_at": "2025-06-01T00:00:00Z"})
        fake.reset_log()
        stats = CollectStats()
        _collect(fake, cache_dir=tmp_path, stats=stats)
        issue_pages = [r for r in fake.log if r.path.endswith("/issues")]
        assert len(issue_pages) == 3
        assert sum(1 for r in issue_pages if r.status == 200) == 1  # only the changed page
        assert stats.graphql == 1  # one query, for the one changed issue


def test_a_thousand_issues_cost_pages_not_issues() -> None:
    with running(big_dataset(issues=1000, prs=250)) as fake:
        stats = CollectStats()
        snapshot = _collect(fake, stats=stats)
        issue_pages = sum(1 for r in fake.log if r.path.endswith("/issues"))
        assert issue_pages == 13  # 1,250 items at 100 a page
        assert fake.requests("POST") == 10  # 1,000 issues, 100 timelines a query
        assert fake.requests() == issue_pages + 10 + 5  # + repo, labels, 2×releases, tree
        issues = snapshot.issues  # type: ignore[attr-defined]
        assert len(issues.issues) == 1000
        assert all(i.timeline is not None for i in issues.issues)


def test_exhausted_rate_limit_makes_every_signal_inconclusive() -> None:
    with running() as fake:
        fake.rate_limit_everything()
        log: list[str] = []
        # The limit resets in 2100; the 1 s bound turns that into "unavailable", not a sleep.
        snapshot = _collect(fake, log=log)
        for group in ("labels", "issues", "releases", "spec_releases", "policy_files"):
            value = getattr(snapshot, group)
            assert isinstance(value, Unavailable), group
            assert value.reason.startswith("rate limited (HTTP 403)"), value.reason
        signals = compute_signals(snapshot, AS_OF)  # type: ignore[arg-type]
        statuses = {
            name: data["status"]
            for name, data in signals.to_dict().items()
            if isinstance(data, dict)
        }
        assert set(statuses.values()) == {"inconclusive"}
        tier = compute_tier(MEASURED, MEASURED, signals)
        assert tier.tier == 3
        assert any(
            str(b).startswith("triage (inconclusive: rate limited") for b in tier.tier1_blockers
        )
        assert any(
            (b.check, b.kind) == ("p0_resolution", "inconclusive") for b in tier.tier2_blockers
        )
        assert log  # one line per unavailable group


def test_server_errors_are_retried_then_recorded() -> None:
    with running() as fake:
        # One transient 502 on releases is retried away; issues keep failing.
        fake.fail(r"/releases$", 502, "Bad Gateway", times=1)
        fake.fail(r"/repos/example/sdk/issues$", 503, "Service Unavailable")
        snapshot = _collect(fake)
        assert not isinstance(snapshot.releases, Unavailable)  # type: ignore[attr-defined]
        issues = snapshot.issues  # type: ignore[attr-defined]
        assert isinstance(issues, Unavailable)
        assert "after retries" in issues.reason
        # retries=3 → 4 attempts on the failing listing.
        assert sum(1 for r in fake.log if r.path.endswith("/issues")) == 4


def test_429_with_short_retry_after_is_retried_and_long_is_not_waited() -> None:
    with running() as fake:
        fake.fail(r"/labels$", 429, "slow down", headers={"Retry-After": "0"}, times=1)
        fake.fail(r"/git/trees/", 429, "slow down", headers={"Retry-After": "3600"})
        snapshot = _collect(fake)
        assert not isinstance(snapshot.labels, Unavailable)  # type: ignore[attr-defined]
        policy = snapshot.policy_files  # type: ignore[attr-defined]
        assert isinstance(policy, Unavailable)
        assert policy.reason.startswith("rate limited")


def test_forbidden_is_recorded_with_githubs_message() -> None:
    with running() as fake:
        fake.fail(r"/releases$", 403, "Resource not accessible by integration")
        snapshot = _collect(fake)
        releases = snapshot.releases  # type: ignore[attr-defined]
        assert isinstance(releases, Unavailable)
        assert releases.reason == "forbidden (HTTP 403): Resource not accessible by integration"


def test_graphql_failure_keeps_the_rest_of_the_issues() -> None:
    with running() as fake:
        fake.fail(r"^/graphql$", 502, "Bad Gateway")
        snapshot = _collect(fake)
        issues = snapshot.issues  # type: ignore[attr-defined]
        assert not isinstance(issues, Unavailable)
        assert issues.timeline_reason.startswith("issue timelines: ")
        signals = compute_signals(snapshot, AS_OF)  # type: ignore[arg-type]
        assert signals.triage.status == "partial"  # the official reading still works
        assert signals.triage.sep1730.status == "inconclusive"


def test_anonymous_collection_skips_graphql() -> None:
    with running() as fake:
        snapshot = _collect(fake, token=None)
        assert fake.requests("POST") == 0
        assert all(r.authorization is None for r in fake.log)
        assert snapshot.authenticated is False  # type: ignore[attr-defined]
        issues = snapshot.issues  # type: ignore[attr-defined]
        assert "need a token" in issues.timeline_reason
        signals = compute_signals(snapshot, AS_OF)  # type: ignore[arg-type]
        assert signals.p0_resolution.status == "fail"
        assert signals.p0_resolution.sep1730.status == "inconclusive"


def test_checkout_replaces_the_tree_request(tmp_path: Path) -> None:
    checkout = tmp_path / "repo"
    (checkout / ".github").mkdir(parents=True)
    (checkout / "Docs").mkdir()
    (checkout / "src").mkdir()
    for path in (
        "changelog.MD",
        ".github/renovate.json5",
        "Docs/VERSIONING.adoc",
        "src/SECURITY.md",
    ):
        (checkout / path).write_text("x", encoding="utf-8")
    with running() as fake:
        snapshot = _collect(fake, checkout=checkout)
        assert not any("/git/trees/" in r.path for r in fake.log)
    policy = snapshot.policy_files  # type: ignore[attr-defined]
    assert policy.source == "checkout"
    assert policy.paths == (".github/renovate.json5", "Docs/VERSIONING.adoc", "changelog.MD")
    signals = compute_signals(snapshot, AS_OF)  # type: ignore[arg-type]
    categories = signals.policy_signals.categories
    assert categories["changelog"] == ("changelog.MD",)
    assert categories["dependency_policy"] == (".github/renovate.json5",)
    assert categories["versioning"] == ("Docs/VERSIONING.adoc",)
    assert categories["security"] == ()  # src/ is not a policy location


def test_the_token_is_never_written(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    log: list[str] = []
    with running() as fake:
        fake.fail(r"/releases$", 403, "Resource not accessible by integration")
        snapshot = _collect(fake, cache_dir=cache, log=log)
        assert all(r.authorization and TOKEN in r.authorization for r in fake.log)
    save_snapshot(snapshot, tmp_path / "snapshot.json")  # type: ignore[arg-type]
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(written) > 5
    for path in written:
        assert TOKEN not in path.read_text(encoding="utf-8"), path
    assert not any(TOKEN in line for line in log)


def _found(flag: str | None, env: dict[str, str]) -> tuple[str | None, str]:
    token = resolve_token(flag, env=env)
    return token.value, token.source


def test_resolve_token_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"GITHUB_TOKEN": "from-github-token", "GH_TOKEN": "from-gh-token"}
    assert _found("from-flag", env) == ("from-flag", "--token")
    assert _found(None, env) == ("from-github-token", "GITHUB_TOKEN")
    assert _found(None, {"GH_TOKEN": "from-gh-token"}) == ("from-gh-token", "GH_TOKEN")
    # A fake `gh` on PATH answers `gh auth token`; then none at all → anonymous.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gh = bin_dir / "gh"
    gh.write_text("#!/bin/sh\necho from-gh-cli\n", encoding="utf-8")
    gh.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert _found(None, {}) == ("from-gh-cli", "gh auth token")
    gh.unlink()
    assert _found(None, {}) == (None, "anonymous")


def test_the_token_never_shows_in_its_repr() -> None:
    token = resolve_token("ghp_secret_value", env={})
    assert "ghp_secret_value" not in repr(token)
    assert token.source in repr(token)


@contextmanager
def _refusing_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections: bound by us but not listening, so the
    kernel answers every connection with a reset and nobody else can listen there meanwhile."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])
    finally:
        sock.close()


def test_a_github_that_refuses_connections_is_given_up_on_the_first_one() -> None:
    with _refusing_port() as port:
        stats = CollectStats()
        log: list[str] = []
        # The default back-off (1 s, doubling, 3 retries), as the CLI uses it: retried per
        # group, a refused host used to cost half a minute.
        snapshot = collect(
            REPO,
            api_url=f"http://127.0.0.1:{port}",
            token=None,
            cache_dir=None,
            checkout=None,
            now=CAPTURED,
            transport=Transport(throttle=None, write_throttle=None),
            stats=stats,
            log=log.append,
        )
    reason = f"cannot connect to GitHub (127.0.0.1:{port}: connection refused)"
    for group in ("labels", "issues", "releases", "spec_releases", "policy_files"):
        value = getattr(snapshot, group)
        assert isinstance(value, Unavailable), group
        assert value.reason == reason, group
    assert stats.requests == 1  # the later groups send nothing
    assert len(log) == 5
    statuses = {
        name: data["status"]
        for name, data in compute_signals(snapshot, AS_OF).to_dict().items()
        if isinstance(data, dict)
    }
    assert set(statuses.values()) == {"inconclusive"}


def test_refused_connections_are_not_retried_but_timeouts_are() -> None:
    from urllib3.exceptions import ConnectTimeoutError, MaxRetryError, NewConnectionError

    retry = make_retry(Transport(max_wait=1.0, retries=3, backoff=0.0))
    refused = NewConnectionError(None, "Failed to establish a new connection: [Errno 111]")
    with pytest.raises(MaxRetryError):
        retry.increment(method="GET", url="/repos/o/r", error=refused)
    # A connection that timed out may be a blip: it keeps its three retries.
    timed_out = ConnectTimeoutError(None, "timed out")
    after = retry.increment(method="GET", url="/repos/o/r", error=timed_out)
    assert after.total == 2


def test_a_server_error_after_a_refusal_elsewhere_is_still_retried() -> None:
    # The refusal is remembered per collection, not per process: a later collection against a
    # GitHub that answers is unaffected, and its transient 502 is retried away as before.
    with _refusing_port() as port:
        collect(
            REPO,
            api_url=f"http://127.0.0.1:{port}",
            token=None,
            cache_dir=None,
            checkout=None,
            now=CAPTURED,
            transport=Transport(throttle=None, write_throttle=None, backoff=0),
        )
    with running() as fake:
        fake.fail(r"/releases$", 502, "Bad Gateway", times=1)
        snapshot = _collect(fake)
        assert not isinstance(snapshot.releases, Unavailable)  # type: ignore[attr-defined]
        assert sum(1 for r in fake.log if r.path == f"/repos/{REPO}/releases") == 2
