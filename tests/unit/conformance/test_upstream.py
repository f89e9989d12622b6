"""The doctor's harness facts: the bundle's requirement sets and the npm registry, over real HTTP
from a local server of the test's own (the registry is never monkeypatched)."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tiercheck.cli import main
from tiercheck.conformance.upstream import (
    bundled_requirement_sets,
    newer_than,
    pinned_bundle,
    registry_view,
)
from tiercheck.pipeline.doctor import harness_facts

SHIPPED = Path(__file__).resolve().parents[3] / "requirements"

#: The package document as the registry served it on 2026-12-03 (trimmed): 0.2.0-alpha.12 is
#: the newest version, `latest` is 0.1.16 and there is no `alpha` tag.
TODAY = {
    "name": "@modelcontextprotocol/conformance",
    "dist-tags": {"latest": "0.1.16"},
    "versions": {v: {} for v in ("0.1.15", "0.1.16", "0.2.0-alpha.10", "0.2.0-alpha.12")},
}


class _Registry(BaseHTTPRequestHandler):
    document: object = TODAY
    status = 200
    seen: list[str] = []  # noqa: RUF012 - one server per test

    def do_GET(self) -> None:
        type(self).seen.append(self.path)
        body = json.dumps(self.document).encode() if self.status == 200 else b"nope"
        if self.path != "/@modelcontextprotocol%2Fconformance":
            self.send_response(404)
            body = b"{}"
        else:
            self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_Registry]]:
    handler = type("Handler", (_Registry,), {"seen": [], "document": TODAY, "status": 200})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    monkeypatch.setenv("TIERCHECK_NPM_REGISTRY", f"http://127.0.0.1:{server.server_port}")
    try:
        yield handler
    finally:
        server.shutdown()
        server.server_close()


def test_todays_registry_has_nothing_newer_than_the_pin(registry: type[_Registry]) -> None:
    view = registry_view(timeout_s=5)
    assert view is not None
    assert view.newest == "0.2.0-alpha.12"
    assert view.tags == {"latest": "0.1.16"}
    assert registry.seen == ["/@modelcontextprotocol%2Fconformance"]


def test_a_newer_release_is_reported(registry: type[_Registry], tmp_path: Path) -> None:
    registry.document = {**TODAY, "versions": {**TODAY["versions"], "0.2.0": {}}}  # type: ignore[dict-item]
    facts = harness_facts(tmp_path, timeout_s=5)
    assert (facts.newest, facts.newer) == ("0.2.0", True)
    assert "newest 0.2.0 (newer than 0.2.0-alpha.12)" in "\n".join(facts.lines())


@pytest.mark.parametrize("status", [500, 200])
def test_a_broken_answer_is_unknown(registry: type[_Registry], status: int) -> None:
    registry.status = status
    registry.document = ["not", "a", "package"]
    assert registry_view(timeout_s=5) is None


def test_no_answer_is_unknown_not_a_crash(tmp_path: Path) -> None:
    # The autouse fixture points at a closed port.
    facts = harness_facts(tmp_path, timeout_s=2)
    assert facts.newer is None
    assert "  npm registry: unknown (no answer)" in facts.lines()


def test_precedence_is_semantic_versioning() -> None:
    assert newer_than("0.2.0", "0.2.0-alpha.12")
    assert newer_than("0.2.0-alpha.13", "0.2.0-alpha.12")
    assert not newer_than("0.1.16", "0.2.0-alpha.12")
    assert not newer_than("0.2.0-alpha.9", "0.2.0-alpha.12")  # numeric, not text, order
    assert not newer_than("garbage", "0.2.0-alpha.12")


#: A registry file of one line that needs no tool and has a client command (so it is runnable
#: here), and the doctor asked about it alone (a registry file adds to the bundled registry,
#: whose lines need tools this machine may lack).
ONE_LINE = "only:\n  repo: o/only\n  revisions: ['2025-11-25']\n  client:\n    command: ./c\n"
ONLY = ("doctor", "--sdk", "only")


def test_the_bundle_sets_without_data_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sets = pinned_bundle(tmp_path) / "requirements"
    sets.mkdir(parents=True)
    for name in ("2025-11-25", "2026-07-28", "2026-12-15"):
        (sets / f"{name}.yaml").write_text("server: []\n")
    assert bundled_requirement_sets(pinned_bundle(tmp_path)) == (
        "2025-11-25",
        "2026-07-28",
        "2026-12-15",
    )
    facts = harness_facts(tmp_path, timeout_s=2)
    assert facts.without_data == ("2026-12-15",)
    registry = tmp_path / "known.yaml"
    registry.write_text(ONE_LINE)
    main(["doctor", "--registry", str(registry), "--sdk", "only", "--cache-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "no revision data in tiercheck for: 2026-12-15" in out
    assert "harness: @modelcontextprotocol/conformance 0.2.0-alpha.12 (the exact version" in out


def test_doctor_json_carries_the_harness_facts_beside_the_rows(
    registry: type[_Registry], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sets = pinned_bundle(tmp_path) / "requirements"
    sets.mkdir(parents=True)
    for name in ("2025-11-25", "2026-07-28", "2026-12-15"):
        (sets / f"{name}.yaml").write_text("server: []\n")
    known = tmp_path / "known.yaml"
    known.write_text(ONE_LINE)
    argv = [*ONLY, "--registry", str(known), "--cache-dir", str(tmp_path), "--output", "json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [row["sdk"] for row in doc["rows"]] == ["only"]
    assert doc["harness"] == {
        "pinned": "0.2.0-alpha.12",
        "why": (
            "the exact version runners/package-lock.json pins; a dist-tag follower gets the "
            "wrong referee"
        ),
        "bundled": ["2025-11-25", "2026-07-28", "2026-12-15"],
        "without_data": ["2026-12-15"],
        "registry": {"newest": "0.2.0-alpha.12", "newer": False, "tags": {"latest": "0.1.16"}},
        "revisions": [
            {"revision": "2025-11-25", "harness": "0.2.0-alpha.12", "relation": "pinned"},
            {"revision": "2026-07-28", "harness": "0.2.0-alpha.12", "relation": "pinned"},
        ],
        "warnings": [],
    }


def test_doctor_json_says_unknown_when_the_registry_does_not_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    known = tmp_path / "known.yaml"
    known.write_text(ONE_LINE)
    argv = [*ONLY, "--registry", str(known), "--cache-dir", str(tmp_path), "--output", "json"]
    main(argv)
    harness = json.loads(capsys.readouterr().out)["harness"]
    assert harness["registry"] is None
    assert harness["bundled"] is None  # not provisioned in this cache


THIRD = """
  - name: "2026-12-15"
    wire: stateless
    released: "2026-12-15"
    released_source: a test's own revision
    harness: "{harness}"
    harness_requirements: "2026-07-28"
"""


@pytest.mark.parametrize(
    ("harness", "relation"),
    [
        ("0.2.0-alpha.13", "newer"),
        ("0.2.0", "newer"),  # a release sorts after its pre-releases
        ("0.2.0-alpha.12", "pinned"),
        ("0.2.0-alpha.9", "older"),  # numeric, not text, order
    ],
)
def test_a_revision_defined_by_a_newer_harness_is_a_warning(
    harness: str,
    relation: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    warned = relation == "newer"
    data = tmp_path / "requirements"
    shutil.copytree(SHIPPED, data)
    text = (data / "revisions.yaml").read_text() + THIRD.format(harness=harness)
    (data / "revisions.yaml").write_text(text)
    shutil.copy(data / "2026-07-28.yaml", data / "2026-12-15.yaml")
    monkeypatch.setenv("TIERCHECK_REQUIREMENTS", str(data))
    known = tmp_path / "known.yaml"
    known.write_text(ONE_LINE)
    base = [*ONLY, "--registry", str(known), "--cache-dir", str(tmp_path)]
    assert main(base) == 0  # a warning changes no exit code
    text_out = capsys.readouterr().out
    main([*base, "--output", "json"])
    harness_doc = json.loads(capsys.readouterr().out)["harness"]
    third = harness_doc["revisions"][-1]
    assert third == {"revision": "2026-12-15", "harness": harness, "relation": relation}
    warning = (
        f"revision 2026-12-15 is defined by harness {harness}, newer than the pinned "
        "0.2.0-alpha.12: the pinned harness may lack its scenarios and checks (bump "
        "runners/package.json and its lock; see CONTRIBUTING.md, Add a spec revision)"
    )
    assert harness_doc["warnings"] == ([warning] if warned else [])
    assert (f"  warning: {warning}" in text_out.splitlines()) is warned
    older = f"revision 2026-12-15 is defined by harness {harness}, older than the pinned"
    assert (older in text_out) is (relation == "older")
