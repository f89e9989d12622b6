"""The pin is data: the version tiercheck runs is the one runners/package.json names, its lock
agrees, and the referee's own name for the package is the harness's."""

from __future__ import annotations

import json
from pathlib import Path

from tiercheck.conformance import harness
from tiercheck.paths import data_path
from tiercheck.referee import tree
from tiercheck.referee.tree import Pin, read_tree

REPO = Path(__file__).resolve().parents[3]


def test_the_pinned_version_is_the_manifests_and_the_locks() -> None:
    manifest = json.loads((REPO / "runners/package.json").read_text())
    lock = json.loads((REPO / "runners/package-lock.json").read_text())
    named = manifest["dependencies"]["@modelcontextprotocol/conformance"]
    assert named == harness.PINNED_VERSION
    assert harness.pinned_version(data_path("runners")) == named
    assert lock["packages"]["node_modules/@modelcontextprotocol/conformance"]["version"] == named
    assert lock["packages"][""]["dependencies"]["@modelcontextprotocol/conformance"] == named


def test_the_referee_names_the_package_as_the_harness_does() -> None:
    assert tree.PACKAGE == harness.PACKAGE


def test_this_repository_is_a_tree_and_its_pin_reads_back() -> None:
    found = read_tree(REPO)
    assert found.pin.version == harness.PINNED_VERSION
    assert [r.name for r in found.revisions] == list(found.sets)
    locked = Pin(found.pin.manifest, found.pin.lock).locked()
    assert locked["@modelcontextprotocol/conformance"] == harness.PINNED_VERSION
    assert locked["node"] == json.loads(found.pin.manifest)["dependencies"]["node"]
