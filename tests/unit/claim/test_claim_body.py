"""One issue body: `assessment.md` stays under GitHub's 65,536 characters, the rest attached.

The proof is a scorecard of the sample SDK where every scored scenario fails, four checks each
(117 scenarios: 67 server, 50 client), with a `--previous` claim where all of them passed (so
the changes section lists 117 scenarios now failing too). Its full evidence is well over the
limit; the body must fit, keep every row, the checklist and each failing scenario's name, and
point at `assessment-full.md`, which holds every failing check.
"""

from __future__ import annotations

import json
from pathlib import Path

from support.scorecards import sample_scorecard
from tiercheck.claim.fit import BODY_LIMIT, Part, body_length, fit
from tiercheck.claim.model import ClaimDocument
from tiercheck.cli.app import main
from tiercheck.document_files import atomic_write_text
from tiercheck.model import from_json
from tiercheck.render.markdown import code
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.json_format import render_json

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "examples" / "sample-sdk"
MESSAGE = (
    "Expected a JSON-RPC result carrying the fixture's content; the server answered -32601 "
    "Method not found for the request it was sent"
)


def _run(tmp: Path, name: str, doc: Scorecard, *args: str) -> Path:
    saved = atomic_write_text(tmp / f"{name}.json", render_json(doc))
    out = tmp / "claim"
    main(["claim", "--from", str(saved), "--sdk-path", str(SAMPLE), "--out", str(out), *args])
    return out


def test_every_scenario_failing_still_fits_one_issue_body(tmp_path: Path) -> None:
    passing = _run(tmp_path, "before", sample_scorecard())
    previous = tmp_path / "previous-claim.json"
    previous.write_text((passing / "claim.json").read_text("utf-8"))
    out = _run(
        tmp_path,
        "after",
        sample_scorecard(fail_everything=MESSAGE),
        "--previous",
        str(previous),
    )
    body = (out / "assessment.md").read_text("utf-8")
    full = (out / "assessment-full.md").read_text("utf-8")
    assert body_length(full) > BODY_LIMIT  # the limit is really in play…
    assert body_length(body) <= BODY_LIMIT  # …and holds
    assert "the attached `assessment-full.md` has all of it" in body
    claim = from_json(ClaimDocument, json.loads((out / "claim.json").read_text("utf-8")))
    assert claim.changes is not None
    assert len(claim.changes.now_failing) == 117
    # Every row, the checklist and the way to reproduce stay in the body…
    for row in claim.rows:
        assert f"| {row.id} | {row.requirement} |" in body
    for heading in ("## Conformance", "## Reviewer checklist", "## Evidence", "## Reproduce"):
        assert heading in body
    # …and every failing scenario is still named there, its checks in the attached file.
    failing = [s for s in claim.scenarios if s.scored and s.state == "failed"]
    assert len(failing) == 117
    for s in failing:
        assert f"FAIL {s.scenario} [{s.revision}]" in body
        assert f"{s.scenario}-check-3: " in full
    assert "-check-3: " not in body


def test_a_passing_sdk_fits_whole_with_long_evidence_folded(tmp_path: Path) -> None:
    out = _run(tmp_path, "pass", sample_scorecard())
    body = (out / "assessment.md").read_text("utf-8")
    assert not (out / "assessment-full.md").exists()
    assert "<summary>67 scored scenarios, 0 failing (failures first)</summary>" in body
    assert "attached" not in body


def test_a_stale_full_assessment_is_removed(tmp_path: Path) -> None:
    out = _run(tmp_path, "fail", sample_scorecard(fail_everything=MESSAGE * 3))
    assert (out / "assessment-full.md").exists()
    _run(tmp_path, "pass", sample_scorecard())
    assert not (out / "assessment-full.md").exists()


def test_parts_shorten_largest_first_and_a_body_that_cannot_shrink_is_cut() -> None:
    small = Part(("small",), (("s",),))
    big = Part(("x" * 300,), (("y" * 100,), ("z",)))
    text, shortened = fit([small, big], limit=512 + 120)
    # 300 + "small" is over 120: the big part takes its first shorter form, which fits.
    assert (text, shortened) == ("small\n" + "y" * 100 + "\n", True)
    text, shortened = fit([Part(("w" * 5000,))], limit=1000)
    assert shortened
    assert body_length(text) <= 1000 - 512
    assert text.endswith("the rest is in the attached assessment-full.md.\n")


def test_a_body_is_cut_between_lines_so_no_code_span_is_left_open() -> None:
    line = code("@user " + "y" * 90)  # `@user yyy…`: 98 characters, live text if cut open
    text, shortened = fit([Part((line,) * 10)], limit=512 + 350)
    # 350 less the note (81) and its blank line leave 267: two lines of 98 and a newline each.
    note = "… cut here to fit one issue body; the rest is in the attached assessment-full.md."
    assert shortened
    assert text == f"{line}\n{line}\n\n{note}\n"


def test_the_harness_intro_is_text_in_the_page_and_code_in_the_markdown(tmp_path: Path) -> None:
    out = _run(tmp_path, "card", sample_scorecard())
    harness = "@modelcontextprotocol/conformance"
    page = (out / "claim.html").read_text("utf-8")
    assert f"With the official harness alone ({harness} " in page
    assert "`" not in page.split("With the official harness alone", 1)[1].split("</p>", 1)[0]
    body = (out / "assessment.md").read_text("utf-8")
    assert f"With the official harness alone (`{harness}` " in body
