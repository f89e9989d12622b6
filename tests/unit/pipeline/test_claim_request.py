"""`pipeline.claim` from a typed `ClaimRequest`, no argv: the folder, the refusals, the summary.

The assessment itself is replaced by a stand-in that records the request it is handed, so these
tests say what the claim asks of it (its report folder and governance record inside the claim
folder) and when the progress display is open. Expected values are worked out by hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from support.scorecards import tier1_scorecard
from tiercheck.claim.pack import Claim
from tiercheck.config.registry import load_registry
from tiercheck.document_files import atomic_write_text
from tiercheck.errors import UsageError
from tiercheck.governance.obtain import GovernanceOptions
from tiercheck.pipeline import claim as claim_module
from tiercheck.pipeline.assess.base import ProgressSink, RunSettings
from tiercheck.pipeline.assess.request import AssessRequest, TargetRequest
from tiercheck.pipeline.claim import ClaimRequest, claim, claim_dir, issue_url, summary
from tiercheck.pipeline.run import WrittenRun
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.json_format import render_json

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample-sdk"
CLAIM_FILES = {
    "assessment.md",
    "remediation.md",
    "claim.html",
    "claim.json",
    "badge.svg",
    "badge.json",
}


class _Sink:
    def step(self, name: str, detail: str = "") -> None: ...
    def done(self, name: str, detail: str = "", *, ok: bool = True) -> None: ...
    def warn(self, text: str) -> None: ...
    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None: ...


@dataclass
class Watch:
    """What happened, in order: the progress opened and closed, the scorecard handed on."""

    events: list[str] = field(default_factory=list)
    requests: list[AssessRequest] = field(default_factory=list)

    @contextmanager
    def progress(self) -> Iterator[ProgressSink]:
        self.events.append("progress opened")
        try:
            yield _Sink()
        finally:
            self.events.append("progress closed")

    def on_scorecard(self, doc: Scorecard) -> None:
        self.events.append("scorecard shown")


def _never_opened() -> Any:
    raise AssertionError("a claim that assesses nothing opens no progress")


def _assess_request(cache: Path, *, governance: GovernanceOptions | None = None) -> AssessRequest:
    return AssessRequest(
        registry=load_registry(),
        target=TargetRequest(sdk_path=SAMPLE),
        governance=governance or GovernanceOptions(),
        settings=RunSettings(cache_dir=cache),
    )


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Watch:
    """The assessment replaced: it records its request and returns the Tier 1 scorecard."""
    seen = Watch()

    def fake_run(request: AssessRequest, progress: ProgressSink, *, warn: Any) -> WrittenRun:
        seen.events.append("assessed")
        seen.requests.append(request)
        assert request.out is not None
        return WrittenRun(tier1_scorecard(), request.out, {})

    monkeypatch.setattr(claim_module, "run", fake_run)
    return seen


def _saved(tmp_path: Path) -> Path:
    return atomic_write_text(tmp_path / "scorecard.json", render_json(tier1_scorecard()))


# --- a saved scorecard --------------------------------------------------------------------


def test_a_claim_from_a_saved_scorecard_writes_the_folder_and_opens_no_progress(
    tmp_path: Path,
) -> None:
    saved = _saved(tmp_path)
    out = tmp_path / "claim"
    request = ClaimRequest(
        registry=load_registry(),
        target=TargetRequest(sdk_path=SAMPLE),
        from_scorecard=saved,
        out=out,
    )
    shown: list[Scorecard] = []
    outcome = claim(request, progress=_never_opened, warn=print, on_scorecard=shown.append)
    # The sample has no ROADMAP.md: row 7 blocks the claim, so it exits 1.
    assert outcome.exit_code == 1
    assert outcome.claim.status == "blocked"
    assert outcome.summary.splitlines()[0].endswith(", blocked by 7)")
    assert outcome.out_dir == out
    assert {p.name for p in outcome.files} == CLAIM_FILES
    assert {p.name for p in out.iterdir()} == CLAIM_FILES
    assert json.loads((out / "claim.json").read_text("utf-8"))["scorecard"] == str(saved)
    assert shown == []  # a saved scorecard is not printed again


def test_a_claim_for_tier_3_is_always_ready(tmp_path: Path) -> None:
    request = ClaimRequest(
        registry=load_registry(),
        target=TargetRequest(sdk_path=SAMPLE),
        from_scorecard=_saved(tmp_path),
        out=tmp_path / "claim",
        tier=3,
    )
    outcome = claim(request, progress=_never_opened, warn=print)
    assert (outcome.claim.status, outcome.exit_code) == ("ready", 0)


# --- a new assessment ---------------------------------------------------------------------


def test_the_assessment_writes_inside_the_claim_folder_and_records_its_snapshot(
    tmp_path: Path, watch: Watch
) -> None:
    out = tmp_path / "claim"
    request = ClaimRequest(
        registry=load_registry(),
        target=TargetRequest(sdk_path=SAMPLE),
        assess=_assess_request(tmp_path / "cache"),
        out=out,
    )
    outcome = claim(request, progress=watch.progress, warn=print, on_scorecard=watch.on_scorecard)
    (asked,) = watch.requests
    assert asked.out == out / "scorecard"
    assert asked.governance.record == out / "scorecard" / "governance-snapshot.json"
    # The display is closed before the scorecard reaches stdout.
    assert watch.events == ["progress opened", "assessed", "progress closed", "scorecard shown"]
    data = json.loads((out / "claim.json").read_text("utf-8"))
    assert data["scorecard"] == str(out / "scorecard" / "scorecard.json")
    assert outcome.exit_code == 1


@pytest.mark.parametrize(
    "governance",
    [
        GovernanceOptions(skip=True),
        GovernanceOptions(snapshot=Path("given-snapshot.json")),
        GovernanceOptions(record=Path("elsewhere.json")),
    ],
    ids=["skip", "snapshot", "record"],
)
def test_a_governance_choice_of_the_flags_is_kept(
    tmp_path: Path, watch: Watch, governance: GovernanceOptions
) -> None:
    request = ClaimRequest(
        registry=load_registry(),
        target=TargetRequest(sdk_path=SAMPLE),
        assess=_assess_request(tmp_path / "cache", governance=governance),
        out=tmp_path / "claim",
    )
    claim(request, progress=watch.progress, warn=print)
    assert watch.requests[0].governance == governance


# --- refusals, before anything runs -------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"target": TargetRequest(sdk="go-sdk"), "from_scorecard": Path("x.json")},
            "--from reuses a finished assessment; drop --sdk/--conformance-server-url",
        ),
        ({"target": TargetRequest()}, "claim needs --sdk NAME, --sdk-path DIR or --from SCORECARD"),
        (
            {"previous_issue": "issue five"},
            "--previous-issue 'issue five': give an issue URL "
            "(https://github.com/OWNER/REPO/issues/N) or #N",
        ),
    ],
    ids=["from-and-sdk", "nothing-to-assess", "bad-previous-issue"],
)
def test_bad_requests_are_refused_before_any_assessment(
    tmp_path: Path, watch: Watch, change: dict[str, Any], message: str
) -> None:
    fields: dict[str, Any] = {
        "registry": load_registry(),
        "target": TargetRequest(sdk_path=SAMPLE),
        "assess": _assess_request(tmp_path / "cache"),
        "out": tmp_path / "claim",
        **change,
    }
    with pytest.raises(UsageError) as info:
        claim(ClaimRequest(**fields), progress=watch.progress, warn=print)
    assert info.value.message == message
    assert watch.events == []
    assert not (tmp_path / "claim").exists()


def test_docs_ref_without_a_checkout_is_refused(tmp_path: Path) -> None:
    doc = tier1_scorecard()  # its checkout path is a CI machine's, absent here
    saved = atomic_write_text(tmp_path / "scorecard.json", render_json(doc))
    request = ClaimRequest(
        registry=load_registry(),
        target=TargetRequest(),
        from_scorecard=saved,
        out=tmp_path / "claim",
        docs_ref="gh-pages",
    )
    with pytest.raises(UsageError, match=r"^--docs-ref needs the SDK's checkout"):
        claim(request, progress=_never_opened, warn=print)


# --- the parts -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "url"),
    [
        ("#12", "https://github.com/modelcontextprotocol/modelcontextprotocol/issues/12"),
        (" 007 ", "https://github.com/modelcontextprotocol/modelcontextprotocol/issues/7"),
        ("https://github.com/o/r/issues/5/", "https://github.com/o/r/issues/5"),
        ("https://github.com/o/r/pull/9", "https://github.com/o/r/pull/9"),
    ],
)
def test_previous_issue_urls(value: str, url: str) -> None:
    assert issue_url(value) == url


def test_an_issue_of_another_site_is_refused() -> None:
    with pytest.raises(UsageError):
        issue_url("https://gitlab.com/o/r/issues/5")


@pytest.mark.parametrize(
    ("target", "folder"),
    [
        (TargetRequest(sdk="modelcontextprotocol/go-sdk@v1.2"), "modelcontextprotocol__go-sdk"),
        (TargetRequest(sdk="@scope/pkg"), "@scope__pkg"),  # a leading @ is no ref
        (TargetRequest(sdk_path=SAMPLE), "sample-sdk"),
        (TargetRequest(server_url="http://127.0.0.1:9"), "sdk"),
    ],
)
def test_the_default_claim_folder(
    monkeypatch: pytest.MonkeyPatch, target: TargetRequest, folder: str
) -> None:
    monkeypatch.setattr(claim_module, "now_utc", lambda: datetime(2026, 11, 30, 7, 15, tzinfo=UTC))
    assert claim_dir(target) == Path("reports") / folder / "claim-20261130T071500Z"


def _row(row_id: str, verdict: str) -> SimpleNamespace:
    return SimpleNamespace(id=row_id, verdicts=(verdict, "n/a"))


def test_the_summary_counts_the_rows_of_the_target_tier() -> None:
    stand_in = SimpleNamespace(
        header=SimpleNamespace(title="Go SDK — Tier 1 Assessment"),
        status="blocked",
        rows=(
            _row("1a", "pass"),
            _row("1b", "fail"),
            _row("2", "needs review"),
            _row("3", "n/a"),
            _row("4", "pass"),
            _row("7", "unmeasured"),
        ),
        coverage=SimpleNamespace(
            covered=(1, 2), scored=(1, 2, 3), doc_files=("README.md",), example_files=("a", "b")
        ),
    )
    assert summary(cast("Claim", stand_in)) == (
        "Go SDK — Tier 1 Assessment: blocked (2 rows pass, 1 need review, blocked by 1b, 7)\n"
        "documentation: 2/3 features named in 1 docs and 2 example files"
    )


def test_the_summary_without_blockers_or_documentation() -> None:
    stand_in = SimpleNamespace(
        header=SimpleNamespace(title="T"), status="ready", rows=(_row("1a", "pass"),), coverage=None
    )
    assert summary(cast("Claim", stand_in)) == "T: ready (1 rows pass, 0 need review)"
