"""The steps of one assessment, each on its own: plan and the one ref decision, checkout, build,
the measurement assembled from the steps' results, and the judge."""

from __future__ import annotations

import re
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from support.gitutil import GitOrigin
from tiercheck.config.registry import load_registry
from tiercheck.config.requirements import load_requirement_set
from tiercheck.config.resolve import ConfigFlags, resolve
from tiercheck.errors import ConfigError, UsageError
from tiercheck.governance.obtain import GovernanceOptions
from tiercheck.pipeline.assess.base import AssessOptions, Origin, RunSettings, Unmeasured
from tiercheck.pipeline.assess.build import BuildResult, build_sdk
from tiercheck.pipeline.assess.checkout import CheckoutResult
from tiercheck.pipeline.assess.judge import (
    Baselines,
    Judgement,
    find_baselines,
    judge,
    load_leg_baselines,
)
from tiercheck.pipeline.assess.legs import LegsResult
from tiercheck.pipeline.assess.measure import Measurement, measure
from tiercheck.pipeline.assess.plan import RefChoice, RevisionPlan, decide_ref, plan_assessment
from tiercheck.pipeline.assess.provision import ProvisionResult
from tiercheck.pipeline.assess.silent import NullProgress
from tiercheck.scoring import skipped_leg
from tiercheck.target import Target

REPO = Path(__file__).resolve().parents[3]
SNAPSHOT = REPO / "examples" / "sample-sdk" / "governance-snapshot.json"
OLD, NEW = "2025-11-25", "2026-07-28"


class Recorder(NullProgress):
    """Progress that keeps every event, for asserting what a step told the person watching."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def step(self, name: str, detail: str = "") -> None:
        self.events.append(("step", f"{name}: {detail}"))

    def done(self, name: str, detail: str = "", *, ok: bool = True) -> None:
        self.events.append(("done" if ok else "done-not-ok", f"{name}: {detail}"))

    def warn(self, text: str) -> None:
        self.events.append(("warn", text))


def _revision(revision: str, **flags: str) -> RevisionPlan:
    config = resolve(None, revision, environ={}, flags=ConfigFlags(flags))
    return RevisionPlan(revision, config, load_requirement_set(revision))


def _target(
    *, ref: str | None = None, entry: str | None = None, path: Path | None = None
) -> Target:
    found = load_registry().get(entry) if entry else None
    return Target(name="sdk", repo="acme/sdk", ref=ref, entry=found, path=path)


# --- plan: the one ref decision ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "named", "entry", "tree", "expected"),
    [
        # A clone checks out the named ref, else the registry's default, else origin's HEAD,
        # and reports that one name as both ref and branch.
        ("clone", "v2.0.0", "python-sdk-v1", None, ("v2.0.0", "v2.0.0", "v2.0.0")),
        ("clone", None, "python-sdk-v1", None, ("v1.x", "v1.x", "v1.x")),
        ("clone", None, None, None, (None, None, None)),
        # The user's checkout is never checked out; the named ref wins as `ref`, the tree's
        # own branch as `branch`, and the registry's default is not theirs to claim.
        ("path", "v2.0.0", "python-sdk-v1", "feature", (None, "v2.0.0", "feature")),
        ("path", None, "python-sdk-v1", "feature", (None, "feature", "feature")),
        ("path", "v2.0.0", None, None, (None, "v2.0.0", "v2.0.0")),
        ("path", None, "python-sdk-v1", None, (None, None, None)),
        # A running server or results from elsewhere: only what was named.
        ("url", None, "python-sdk-v1", None, (None, None, None)),
        ("url", "v2.0.0", None, None, (None, "v2.0.0", "v2.0.0")),
        ("results", None, None, None, (None, None, None)),
    ],
)
def test_decide_ref(
    origin: Origin,
    named: str | None,
    entry: str | None,
    tree: str | None,
    expected: tuple[str | None, str | None, str | None],
) -> None:
    choice = decide_ref(_target(ref=named, entry=entry), origin, tree)
    assert (choice.checkout, choice.ref, choice.branch) == expected


def test_plan_of_a_checkout_reads_its_branch_and_resolves_each_revision(
    tmp_path: Path, isolated_git: None
) -> None:
    tree = GitOrigin(tmp_path / "sdk")
    tree.commit({"README.md": "x\n"}, "first")
    tree.branch("feature")
    settings = RunSettings(
        cache_dir=tmp_path / "cache",
        flags=ConfigFlags({"--build-cmd": "make"}),
        revisions=(NEW, OLD),
    )
    options = AssessOptions(
        target=_target(path=tree.path), settings=settings, out_dir=tmp_path / "out"
    )
    plan = plan_assessment(options)
    assert plan.origin == "path"
    assert plan.ref == RefChoice(checkout=None, ref="feature", branch="feature")
    assert [p.revision for p in plan.revisions] == [NEW, OLD]
    assert [p.config.build for p in plan.revisions] == ["make", "make"]
    assert [len(p.requirements.expected("server")) for p in plan.revisions] == [50, 33]

    tree.git("checkout", "--detach", "HEAD")
    assert plan_assessment(options).ref == RefChoice(checkout=None, ref=None, branch=None)


def test_plan_of_a_url_and_of_a_clone(tmp_path: Path) -> None:
    base = {"settings": RunSettings(cache_dir=tmp_path / "cache"), "out_dir": tmp_path / "out"}
    url = AssessOptions(
        target=_target(entry="python-sdk-v1"), server_url="http://127.0.0.1:9/mcp", **base
    )
    assert plan_assessment(url).origin == "url"
    assert plan_assessment(url).ref == RefChoice(None, None, None)
    clone = AssessOptions(target=_target(entry="python-sdk-v1"), **base)
    assert plan_assessment(clone).origin == "clone"
    assert plan_assessment(clone).ref == RefChoice("v1.x", "v1.x", "v1.x")
    assert [p.revision for p in plan_assessment(clone).revisions] == [OLD]


def test_plan_refuses_a_revision_the_sdk_does_not_claim(tmp_path: Path) -> None:
    options = AssessOptions(
        target=_target(entry="python-sdk-v1"),
        settings=RunSettings(cache_dir=tmp_path / "cache", revisions=(NEW,)),
        out_dir=tmp_path / "out",
    )
    with pytest.raises(UsageError, match="claims only 2025-11-25"):
        plan_assessment(options)


def test_plan_refuses_a_baseline_spec_for_a_revision_the_sdk_does_not_claim(
    tmp_path: Path,
) -> None:
    flags = ConfigFlags({"--expected-failures": ("server=s.yml", f"client@{NEW}=c.yml")})
    options = AssessOptions(
        target=_target(entry="python-sdk-v1"),
        settings=RunSettings(cache_dir=tmp_path / "cache", flags=flags),
        out_dir=tmp_path / "out",
    )
    message = (
        f"--expected-failures client@{NEW}=c.yml: sdk claims only {OLD}; "
        f"it is not assessed at {NEW}"
    )
    with pytest.raises(UsageError, match=f"^{re.escape(message)}$"):
        plan_assessment(options)


# --- checkout → legs: what a halted step leaves ------------------------------------------------


def test_a_failed_checkout_halts_every_leg_with_its_reason(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    options = AssessOptions(
        target=_target(path=gone),
        settings=RunSettings(cache_dir=tmp_path / "cache", revisions=(OLD, NEW)),
        out_dir=tmp_path / "out",
    )
    measured = measure(options, plan_assessment(options), Recorder())
    reason = f"checkout failed: SDK path {gone} is not a directory"
    assert measured.unmeasured == (Unmeasured("checkout", reason),)
    assert list(measured.verdicts) == [
        (OLD, "server"),
        (OLD, "client"),
        (NEW, "server"),
        (NEW, "client"),
    ]
    assert {(v.state, v.reason) for v in measured.verdicts.values()} == {("unmeasured", reason)}
    assert list(measured.timings) == ["conformance"]
    assert (measured.checkout_path, measured.harness, measured.build) == (None, None, None)
    assert not measured.interrupted
    assert not (tmp_path / "cache" / "harness").exists()  # nothing after the checkout ran


def _sh(text: str, code: int) -> str:
    """A shell command that writes `text` to stderr and exits with `code`."""
    script = f"import sys; sys.stderr.write({text!r} + '\\n'); sys.exit({code})"
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}"


def test_build_runs_once_per_distinct_command_and_names_each_failure(tmp_path: Path) -> None:
    sdk = tmp_path / "sdk"
    sdk.mkdir()
    first, second = _sh("first broke", 3), _sh("second broke", 4)
    revisions = [
        _revision(OLD, **{"--build-cmd": first}),
        _revision(NEW, **{"--build-cmd": second}),
    ]
    options = AssessOptions(
        target=_target(path=sdk),
        settings=RunSettings(cache_dir=tmp_path / "cache"),
        out_dir=tmp_path / "out",
    )
    progress = Recorder()
    result = build_sdk(options, revisions, sdk, None, progress)
    assert [u.what for u in result.unmeasured] == ["build", "build"]
    assert result.unmeasured[0].reason.startswith("the build failed: ")
    assert "first broke" in result.unmeasured[0].reason
    assert "second broke" in result.unmeasured[1].reason
    assert result.halt == result.unmeasured[0].reason
    assert result.build is not None
    assert result.build.state == "failed"
    assert "second broke" in result.build.reason  # the block is the last build's
    assert result.logs == {"build": str(tmp_path / "out" / "logs" / f"build-{NEW}.log")}
    assert list(result.timings) == ["build"]
    assert not result.interrupted
    assert [kind for kind, _ in progress.events] == ["step", "warn", "step", "warn"]

    same = [_revision(OLD, **{"--build-cmd": "true"}), _revision(NEW, **{"--build-cmd": "true"})]
    once = build_sdk(options, same, sdk, None, Recorder())
    assert (once.halt, once.unmeasured) == (None, ())
    assert once.build is not None
    assert once.build.state == "built"
    assert once.logs == {"build": str(tmp_path / "out" / "logs" / "build.log")}


def test_the_measurement_concatenates_the_steps_in_order() -> None:
    revisions = (_revision(OLD), _revision(NEW))
    checkout = CheckoutResult(Path("/sdk"), "abc", timings={"checkout": 1.0})
    provisioned = ProvisionResult(None, timings={"harness": 2.0})
    built = BuildResult(
        {"state": "failed"},
        {"build": "/out/logs/build.log"},
        (
            Unmeasured("build", "the build failed: one"),
            Unmeasured("build", "the build failed: two"),
        ),
        halt="the build failed: one",
        interrupted=True,
    )
    stopped = Unmeasured("assessment", "interrupted before it ran")
    measured = Measurement.from_steps(revisions, [checkout, provisioned, built], stopped, 9.0)
    assert [u.reason for u in measured.unmeasured] == [
        "the build failed: one",
        "the build failed: two",
        "interrupted before it ran",
    ]
    # The first step that halted names the reason of every leg that never ran.
    assert {v.reason for v in measured.verdicts.values()} == {"the build failed: one"}
    assert measured.timings == {"checkout": 1.0, "harness": 2.0, "conformance": 9.0}
    assert list(measured.timings) == ["checkout", "harness", "conformance"]
    assert (measured.checkout_path, measured.commit) == (Path("/sdk"), "abc")
    assert measured.logs == {"build": "/out/logs/build.log"}
    assert measured.interrupted

    legs = LegsResult(
        verdicts={
            (p.revision, leg): skipped_leg(leg, p.revision, "none")
            for p in revisions
            for leg in ("server", "client")
        },
        server_urls={OLD: "http://127.0.0.1:1/mcp"},
        logs={f"server-{OLD}": "/out/logs/server.log"},
        unmeasured=(Unmeasured(f"server leg {NEW}", "the server did not become ready"),),
        timings={f"server {OLD}": 3.0, "legs": 4.0},
    )
    ran = Measurement.from_steps(revisions, [checkout, legs], None, 5.0)
    assert {v.state for v in ran.verdicts.values()} == {"skipped"}
    assert ran.unmeasured == legs.unmeasured
    assert list(ran.timings) == ["checkout", f"server {OLD}", "legs", "conformance"]
    assert ran.server_urls == {OLD: "http://127.0.0.1:1/mcp"}
    assert not ran.interrupted


# --- judge --------------------------------------------------------------------------------------


def _entry_revisions(tmp_path: Path, body: str, **flags: object) -> list[RevisionPlan]:
    """Both revisions of an entry whose extra known_sdks.yaml lines are `body`."""
    registry = tmp_path / "known_sdks.yaml"
    registry.write_text(
        f"sdk:\n  repo: acme/sdk\n  revisions: ['{OLD}', '{NEW}']\n{body}", encoding="utf-8"
    )
    entry = load_registry(registry).get("sdk")
    return [
        RevisionPlan(
            rev,
            resolve(entry, rev, environ={}, flags=ConfigFlags(flags)),
            load_requirement_set(rev),
        )
        for rev in (OLD, NEW)
    ]


def test_find_baselines_notes_a_missing_configured_file_and_refuses_a_missing_named_one(
    tmp_path: Path,
) -> None:
    (tmp_path / "old.yml").write_text("server: []\n")
    body = f"  expected_failures: old.yml\n  spec_overrides:\n    '{NEW}':\n"
    body += "      expected_failures: new.yml\n"
    revisions = _entry_revisions(tmp_path, body)
    found = find_baselines(revisions, tmp_path)
    old = tmp_path / "old.yml"
    assert found.files == {(OLD, "server"): old, (OLD, "client"): old}
    assert found.unmeasured == (Unmeasured(f"baseline {NEW}", "new.yml not found in the checkout"),)
    with pytest.raises(ConfigError, match=r"new\.yml: expected-failures file not found"):
        find_baselines(revisions, tmp_path, explicit=True)
    # Named on the command line, it must exist.
    named = [_revision(OLD, **{"--expected-failures": ("client=gone.yml",)})]
    with pytest.raises(ConfigError, match=r"gone\.yml: expected-failures file not found"):
        find_baselines(named, tmp_path)


def test_find_baselines_gives_each_leg_its_file_per_revision(tmp_path: Path) -> None:
    # tower-mcp's four files, one per leg and per revision.
    names = ("s.yml", "c.yml", "s-draft.yml", "c-draft.yml")
    for name in names:
        (tmp_path / name).write_text("server: []\n" if name[0] == "s" else "client: []\n")
    body = (
        "  expected_failures: {server: s.yml, client: c.yml}\n"
        f"  spec_overrides:\n    '{NEW}':\n"
        "      expected_failures: {server: s-draft.yml, client: c-draft.yml}\n"
    )
    found = find_baselines(_entry_revisions(tmp_path, body), tmp_path)
    assert {key: path.name for key, path in found.files.items()} == {
        (OLD, "server"): "s.yml",
        (OLD, "client"): "c.yml",
        (NEW, "server"): "s-draft.yml",
        (NEW, "client"): "c-draft.yml",
    }
    # An override naming one leg keeps the other leg's file from the entry.
    body = "  expected_failures: {server: s.yml, client: c.yml}\n  spec_overrides:\n"
    body += f"    '{NEW}':\n      expected_failures: {{client: c-draft.yml}}\n"
    found = find_baselines(_entry_revisions(tmp_path, body), tmp_path)
    assert {key: path.name for key, path in found.files.items()} == {
        (OLD, "server"): "s.yml",
        (OLD, "client"): "c.yml",
        (NEW, "server"): "s.yml",
        (NEW, "client"): "c-draft.yml",
    }


def test_a_baseline_given_to_the_leg_it_was_not_written_for_is_refused(tmp_path: Path) -> None:
    (tmp_path / "client-only.yml").write_text("client:\n  - auth/dpop\n")
    (tmp_path / "empty-server.yml").write_text("server: []\n")
    wrong = _entry_revisions(tmp_path, "  expected_failures: {server: client-only.yml}\n")
    with pytest.raises(ConfigError) as info:
        load_leg_baselines(find_baselines(wrong, tmp_path).files)
    assert str(info.value) == (
        f"{tmp_path / 'client-only.yml'}: given to the server leg, but it has no 'server:' list "
        "and its 'client:' list has 1 entry; give it to the client leg (client=FILE, or "
        f"`client: FILE` under expected_failures in known_sdks.yaml) or to both (at {OLD})"
    )
    # The same file for both legs, or a file with nothing for the other leg, is fine.
    for body in (
        "  expected_failures: client-only.yml\n",
        "  expected_failures: {client: empty-server.yml}\n",
    ):
        fine = _entry_revisions(tmp_path, body)
        assert load_leg_baselines(find_baselines(fine, tmp_path).files)


def test_each_leg_is_judged_by_its_own_file_at_its_own_revision(tmp_path: Path) -> None:
    from support.scorecards import measured_leg, scenario
    from tiercheck.pipeline.assess.judge import apply_baselines

    (tmp_path / "s.yml").write_text("server:\n  - tools-call\n")
    (tmp_path / "c.yml").write_text("client:\n  - initialize\n")
    body = f"  expected_failures: {{server: s.yml}}\n  spec_overrides:\n    '{NEW}':\n"
    body += "      expected_failures: {client: c.yml}\n"
    revisions = _entry_revisions(tmp_path, body)
    verdicts = {
        (rev, leg): measured_leg(rev, leg, [scenario(name, passed=False)])
        for rev in (OLD, NEW)
        for leg, name in (("server", "tools-call"), ("client", "initialize"))
    }
    files = find_baselines(revisions, tmp_path).files
    verdict, applied = apply_baselines(revisions, verdicts, files)
    assert applied == {
        (OLD, "server"): str(tmp_path / "s.yml"),
        (NEW, "server"): str(tmp_path / "s.yml"),
        (NEW, "client"): str(tmp_path / "c.yml"),
    }
    assert verdict is not None
    found = {(o.revision, o.leg, o.scenario, o.outcome) for o in verdict.outcomes}
    # The client leg at OLD has no baseline: its failure is not judged by the server's file.
    assert found == {
        (OLD, "server", "tools-call", "expected-failure"),
        (NEW, "server", "tools-call", "expected-failure"),
        (NEW, "client", "initialize", "expected-failure"),
    }


def test_judge_after_an_interrupt_skips_governance_and_exits_130() -> None:
    revisions = [_revision(OLD)]
    verdicts = {(OLD, leg): skipped_leg(leg, OLD, "none") for leg in ("server", "client")}
    missing = (Unmeasured(f"baseline {OLD}", "x.yml not found in the checkout"),)

    def judged(baselines: Baselines, *, interrupted: bool) -> Judgement:
        return judge(
            revisions,
            verdicts,
            baselines,
            repo="tiercheck/sample-sdk",
            governance=GovernanceOptions(snapshot=SNAPSHOT),
            entry=None,
            checkout=None,
            now=datetime(2026, 11, 30, tzinfo=UTC),
            progress=NullProgress(),
            interrupted=interrupted,
        )

    ran = judged(Baselines({}, missing), interrupted=False)
    assert ran.governance.source == "snapshot"
    assert ran.exit_code == 3  # every leg skipped: nothing was measured
    assert ran.unmeasured == missing
    assert (ran.baseline, ran.baseline_files) == (None, {})

    stopped = judged(Baselines(), interrupted=True)
    assert stopped.governance.source == "skipped"
    assert stopped.exit_code == 130


def test_legs_get_the_provisioned_tools_first_on_path_and_the_scorecard_keeps_the_config() -> None:
    from tiercheck.pipeline.assess.provision import with_tool_path

    plans = (_revision(OLD), _revision(NEW))
    prefixed = with_tool_path(plans, [Path("/cache/tools/pnpm/10.26.1/node_modules/.bin")])
    for original, plan in zip(plans, prefixed, strict=True):
        path = plan.config.env["PATH"]
        assert path.startswith("/cache/tools/pnpm/10.26.1/node_modules/.bin:")
        assert "PATH" not in original.config.env  # the plan the scorecard records is unchanged
    assert with_tool_path(plans, []) == plans
