"""Row 5 as the filed claims give it: per feature, the best documentation and example hit.

Hand-worked: the ranking on a small tree written here; the sample SDK's non-blocking features
(the eleven rows conformance#441 lists as deprecated or removed by 2026-07-28, less the five
the sample's README names: resources/subscribe on line 48, resources/unsubscribe on 49,
sampling/createMessage on 45, logging/setLevel on 48, and "server-sse-polling" on 91 for the
legacy SSE server), and `--docs-ref` on a git checkout whose `docs` branch adds a page.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from support.e2e import copy_sample, git
from support.scorecards import sample_scorecard
from tiercheck.claim.docs import docs_coverage, structure
from tiercheck.claim.pack import build_claim
from tiercheck.claim.policies import POLICY_PATHS
from tiercheck.claim.sources import read_tree
from tiercheck.claim.tree import SourceTree
from tiercheck.document_files import atomic_write_text
from tiercheck.scorecard.render.json_format import render_json

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "examples" / "sample-sdk"

README = """\
# my-sdk

Call `list_tools()` to see what a server offers.

### list_tools
"""
GUIDE = """\
# Guide

A passing list_tools mention.

```python
# list tools
tools = await session.list_tools()
```
"""
TOOLS = """\
Tools
=====

Listing
-------

Use `session.list_tools()` to list the server's tools.
"""


def _tree(docs: dict[str, str], examples: dict[str, str]) -> SourceTree:
    kinds = {**dict.fromkeys(docs, "docs"), **dict.fromkeys(examples, "example")}
    return SourceTree(None, kinds, {**docs, **examples})


def test_headings_and_sections_are_read_outside_code_blocks() -> None:
    lines = GUIDE.splitlines()
    shape = structure("docs/guide.md", lines)
    assert shape[0] == (True, ("Guide",))
    assert shape[5] == (False, ("Guide",))  # "# list tools" in a fence is code, not a heading
    rst = structure("docs/server/tools.rst", TOOLS.splitlines())
    assert rst[6] == (False, ("Tools", "Listing"))


def test_the_best_hit_is_where_the_feature_is_documented() -> None:
    tree = _tree(
        {"README.md": README, "docs/guide.md": GUIDE, "docs/server/tools.rst": TOOLS},
        {
            "examples/prompts/main.py": "tools = await session.list_tools()\n",
            "examples/simple-tool/server.py": "# ...\nresult = await session.list_tools()\n",
        },
    )
    listing = next(f for f in docs_coverage(tree).features if f.feature.number == 1)
    got = [(h.path, h.line, h.kind, h.section) for h in listing.doc_hits]
    assert got == [
        # A line in a section about tools, in the documentation folder…
        ("docs/server/tools.rst", 7, "section", "Tools"),
        # …then a heading that names it, in the README…
        ("README.md", 5, "heading", "list_tools"),
        # …and only then passing mentions, the documentation folder's first (code included);
        # five are kept, so README.md:3 is counted but not listed.
        ("docs/guide.md", 3, "mention", "Guide"),
        ("docs/guide.md", 6, "mention", "Guide"),
        ("docs/guide.md", 7, "mention", "Guide"),
    ]
    assert listing.doc_count == 6
    # The example whose path names the topic (simple-tool) before the first in path order.
    assert listing.best_example is not None
    assert (listing.best_example.path, listing.best_example.line) == (
        "examples/simple-tool/server.py",
        2,
    )


def test_asides_rank_last_and_the_page_named_after_the_topic_first() -> None:
    tree = _tree(
        {
            "docs/migration.md": "# Migration\n\n## `list_tools()` now returns a page\n",
            "docs/advanced/low-level.md": "# Tools by hand\n\nCall list_tools yourself.\n",
            "docs/servers/tools.md": "# Tools\n\nThe client calls list_tools.\n",
        },
        {},
    )
    listing = next(f for f in docs_coverage(tree).features if f.feature.number == 1)
    # Both documentation pages have a section about tools: tools.md is named after the topic.
    # The migration guide's heading names the feature, but a migration note is an aside.
    assert [(h.path, h.kind) for h in listing.doc_hits] == [
        ("docs/servers/tools.md", "section"),
        ("docs/advanced/low-level.md", "section"),
        ("docs/migration.md", "heading"),
    ]


def test_a_heading_that_leads_with_the_feature_beats_one_that_mentions_it() -> None:
    # python-sdk's own shape: the client page has "## Calling a tool"; an advanced page has
    # "### Intercepting `tools/call`" (a heading naming the method, about something else);
    # the server page on tools says "call" in passing under "# Tools".
    tree = _tree(
        {
            "docs/advanced/extensions.md": "# Extensions\n\n### Intercepting `tools/call`\n",
            "docs/client/index.md": (
                "# The Client\n\n## Listing tools\n\n`list_tools()` returns them.\n\n"
                "## Calling a tool\n\n`call_tool(name, arguments)` runs the tool.\n"
            ),
            "docs/servers/tools.md": "# Tools\n\nThe model can call tools; list_tools finds.\n",
        },
        {},
    )
    features = {f.feature.number: f for f in docs_coverage(tree).features}
    best = {n: (h.path, h.line) for n in (1, 2) if (h := features[n].best_doc) is not None}
    assert best == {1: ("docs/client/index.md", 5), 2: ("docs/client/index.md", 9)}
    calling = [(h.path, h.line) for h in features[2].doc_hits]
    assert calling == [
        ("docs/client/index.md", 9),  # under "Calling a tool": leads with the feature
        ("docs/advanced/extensions.md", 3),  # names tools/call, but is about intercepting
        ("docs/servers/tools.md", 3),  # "# Tools": the topic only
    ]


def test_features_the_spec_retired_do_not_block() -> None:
    coverage = docs_coverage(read_tree(SAMPLE, POLICY_PATHS), "2026-07-28")
    assert [f.feature.number for f in coverage.non_blocking] == [29, 30, 31, 32, 36, 39]
    assert 36 not in [f.feature.number for f in coverage.missing]
    # At 2025-11-25 only the legacy SSE rows are deprecated: ping's gap blocks again.
    older = docs_coverage(read_tree(SAMPLE, POLICY_PATHS), "2025-11-25")
    assert [f.feature.number for f in older.non_blocking] == [39]
    assert 36 in [f.feature.number for f in older.missing]


def test_the_claim_gives_best_hits_and_the_non_blocking_features() -> None:
    claim = build_claim(
        sample_scorecard(), target_tier=1, snapshot=None, tree=read_tree(SAMPLE, POLICY_PATHS)
    )
    row = next(r for r in claim.rows if r.id == "5")
    assert row.current == (
        "16/48 features named in docs or examples; 6 more deprecated or removed by 2026-07-28 "
        "(not blocking)"
    )
    assert "29 Elicitation: completion notification (removed)" in row.evidence[-1].text
    from tiercheck.claim.pack import claim_to_dict

    data = claim_to_dict(claim)["documentation"]
    assert data["non_blocking"] == [29, 30, 31, 32, 36, 39]
    sampling = next(f for f in data["features"] if f["number"] == 23)
    assert sampling["best_doc"]["path"] == "README.md"
    assert sampling["best_doc"]["line"] == 45
    assert sampling["lifecycle"] == "deprecated since 2026-07-28 (SEP-2577 deprecates sampling)"
    assert sampling["blocking"] is False


@pytest.fixture
def docs_branch(tmp_path: Path) -> tuple[Path, str, str]:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": str(tmp_path / "gc"), "GIT_CONFIG_NOSYSTEM": "1"}
    path = copy_sample(tmp_path / "sdk")
    git(path, "init", "-q", "-b", "main", env=env)
    git(path, "add", ".", env=env)
    git(path, "commit", "-q", "-m", "sdk", env=env)
    head = git(path, "rev-parse", "HEAD", env=env)
    git(path, "checkout", "-q", "-b", "docs", env=env)
    (path / "docs").mkdir()
    (path / "docs" / "tools.md").write_text("# Tools\n\nCall `list_tools()` to list them.\n")
    git(path, "add", ".", env=env)
    git(path, "commit", "-q", "-m", "docs", env=env)
    docs = git(path, "rev-parse", "HEAD", env=env)
    git(path, "checkout", "-q", "main", env=env)
    return path, head, docs


def test_docs_ref_reads_the_documentation_at_another_ref(
    docs_branch: tuple[Path, str, str], tmp_path: Path
) -> None:
    from tiercheck.cli.app import main

    path, head, docs = docs_branch
    doc = sample_scorecard()
    saved = atomic_write_text(tmp_path / "s.json", render_json(doc))
    out = tmp_path / "claim"
    main(
        [
            "claim",
            "--from",
            str(saved),
            "--sdk-path",
            str(path),
            "--docs-ref",
            "docs",
            "--out",
            str(out),
        ]
    )
    data = json.loads((out / "claim.json").read_text("utf-8"))["documentation"]
    assert (data["docs_ref"], data["docs_commit"]) == ("docs", docs)
    listing = next(f for f in data["features"] if f["number"] == 1)
    assert listing["best_doc"]["path"] == "docs/tools.md"
    assert listing["best_doc"]["kind"] == "section"
    assert listing["best_doc"]["url"] == (
        f"https://github.com/tiercheck/sample-sdk/blob/{docs}/docs/tools.md#L3"
    )
    text = (out / "assessment.md").read_text("utf-8")
    assert f"read at docs (`{docs[:12]}`, --docs-ref)" in text
    # Without it, the assessed commit has no such page.
    out2 = tmp_path / "claim2"
    main(["claim", "--from", str(saved), "--sdk-path", str(path), "--out", str(out2)])
    data2 = json.loads((out2 / "claim.json").read_text("utf-8"))["documentation"]
    assert next(f for f in data2["features"] if f["number"] == 1)["best_doc"] is None
    assert head != docs


def test_a_docs_ref_that_names_nothing_is_one_line(
    docs_branch: tuple[Path, str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tiercheck.cli.app import main

    path, _, _ = docs_branch
    saved = atomic_write_text(tmp_path / "s.json", render_json(sample_scorecard()))
    code = main(
        [
            "claim",
            "--from",
            str(saved),
            "--sdk-path",
            str(path),
            "--docs-ref",
            "nope",
            "--out",
            str(tmp_path / "o"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "--docs-ref 'nope': not a branch, tag or commit" in err
