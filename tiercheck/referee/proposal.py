"""The files a referee change writes, as text: composed from the tree and the new release.

- `runners/package.json` and `runners/package-lock.json`: as npm wrote them for the new pin,
  starting from the tree's lock (`conformance.harness.provision` with the tree's runners).
- `requirements/revisions.yaml`: the tree's text, edited in place: each revision whose own set
  the new release ships gets `harness:` the new version and loses `harness_requirements:`; a
  wire the new release speaks differently is rewritten. Comments and quoting are kept.
- `requirements/<revision>.yaml`, for those revisions: in the tree's form. The header comment is
  the tree's, the pinned version it names replaced; the lists are the release's, in its order;
  a not-scored entry the tree has with the same reason keeps the tree's note and style (flow
  `{scenario: …}` or block), a new one takes the release's note (block when it has one).

Pure: text in, text out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import yaml

from tiercheck.plaintext import one_line
from tiercheck.referee.bundle import NotScoredEntry, SetReading
from tiercheck.referee.changes import RevisionChange
from tiercheck.referee.tree import LOCK, MANIFEST, PACKAGE, REVISIONS, Pin, Tree, set_path

__all__ = ["Proposal", "propose", "render_set"]


@dataclass(frozen=True)
class Proposal:
    """Each file the change writes (path in the tree → its new text)."""

    files: Mapping[str, str]

    def changed(self, tree: Tree) -> tuple[str, ...]:
        """The files whose text differs from the tree's."""
        return tuple(path for path, text in self.files.items() if text != _current(tree, path))


def _current(tree: Tree, path: str) -> str | None:
    if path == MANIFEST:
        return tree.pin.manifest
    if path == LOCK:
        return tree.pin.lock
    if path == REVISIONS:
        return tree.revisions_text
    for name, text in tree.sets.items():
        if set_path(name) == path:
            return text
    return None


def _scalar(text: str) -> str:
    """`text` as a YAML scalar: plain when it reads back as itself, else double-quoted."""
    try:
        plain = yaml.safe_load(f"k: {text}") == {"k": text} and "\n" not in text
    except yaml.YAMLError:
        plain = False
    return text if plain and text == text.strip() else json.dumps(text, ensure_ascii=False)


@dataclass(frozen=True)
class _Kept:
    """A not-scored entry as the tree writes it."""

    reason: str
    note: str | None
    flow: bool


def _kept_entries(text: str) -> dict[tuple[str, str], _Kept]:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    if not isinstance(root, yaml.MappingNode):
        return {}
    kept: dict[tuple[str, str], _Kept] = {}
    for key, value in root.value:
        if key.value != "not_scored" or not isinstance(value, yaml.SequenceNode):
            continue
        for item in value.value:
            if not isinstance(item, yaml.MappingNode):
                continue
            fields = {k.value: v.value for k, v in item.value if isinstance(v, yaml.ScalarNode)}
            scenario, leg = fields.get("scenario"), fields.get("leg")
            if isinstance(scenario, str) and isinstance(leg, str):
                note = fields.get("note")
                kept[(scenario, leg)] = _Kept(
                    str(fields.get("reason")),
                    " ".join(str(note).split()) if note else None,
                    bool(item.flow_style),
                )
    return kept


def _header(text: str, before: str, after: str) -> list[str]:
    lines: list[str] = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            break
        lines.append(line.replace(f"{PACKAGE} {before}", f"{PACKAGE} {after}"))
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _entry(entry: NotScoredEntry, kept: _Kept | None) -> list[str]:
    if kept is not None and kept.reason == entry.reason:
        note, flow = kept.note, kept.flow
    else:
        note = one_line(entry.note) if entry.note else None
        flow = note is None
    pairs = [("scenario", entry.scenario), ("leg", entry.leg), ("reason", entry.reason)]
    if note:
        pairs.append(("note", note))
    if flow:
        return ["  - {" + ", ".join(f"{k}: {_scalar(v)}" for k, v in pairs) + "}"]
    first, *rest = pairs
    return [f"  - {first[0]}: {_scalar(first[1])}"] + [f"    {k}: {_scalar(v)}" for k, v in rest]


def _section(name: str, items: Sequence[str]) -> list[str]:
    if not items:
        return [f"{name}: []"]
    return [f"{name}:", *items]


def render_set(current: str, reading: SetReading, before: str, after: str) -> str:
    """The set `reading` (the new release's) in the form of the tree's `current` text."""
    kept = _kept_entries(current)
    lines = _header(current, before, after)
    if lines:
        lines.append("")
    lines += _section("server", [f"  - {_scalar(s)}" for s in reading.server])
    lines.append("")
    lines += _section("client", [f"  - {_scalar(s)}" for s in reading.client])
    if reading.not_scored:
        lines.append("")
        entries = [
            line for e in reading.not_scored for line in _entry(e, kept.get((e.scenario, e.leg)))
        ]
        lines += _section("not_scored", entries)
    return "\n".join(lines) + "\n"


def _edited_revisions(text: str, changes: Sequence[RevisionChange]) -> str:
    """revisions.yaml with each revision's `harness`, `harness_requirements` and `wire` as
    `changes` say, edited where they are written (everything else as it was)."""
    by_name = {c.name: c for c in changes}
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    assert isinstance(root, yaml.MappingNode)  # read_revisions validated it
    edits: list[tuple[int, int, str]] = []
    for key, value in root.value:
        if key.value != "revisions" or not isinstance(value, yaml.SequenceNode):
            continue
        for item in value.value:
            fields = {k.value: (k, v) for k, v in item.value}
            change = by_name.get(str(fields["name"][1].value))
            if change is None:
                continue
            edits += _revision_edits(text, fields, change)
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _quoted_like(node: yaml.ScalarNode, value: str) -> str:
    if node.style == '"':
        return json.dumps(value)
    if node.style == "'":
        return "'" + value.replace("'", "''") + "'"
    return value


def _revision_edits(
    text: str, fields: Mapping[str, tuple[yaml.Node, yaml.Node]], change: RevisionChange
) -> list[tuple[int, int, str]]:
    edits: list[tuple[int, int, str]] = []
    for name, new in (("harness", change.harness_after), ("wire", change.wire_after)):
        node = fields[name][1]
        assert isinstance(node, yaml.ScalarNode)
        if node.value != new:
            edits.append((node.start_mark.index, node.end_mark.index, _quoted_like(node, new)))
    if change.adopted and "harness_requirements" in fields:
        key, value = fields["harness_requirements"]
        start = text.rfind("\n", 0, key.start_mark.index) + 1
        end = text.find("\n", value.end_mark.index)
        edits.append((start, len(text) if end < 0 else end + 1, ""))
    return edits


def propose(
    tree: Tree,
    pin: Pin,
    sets: Mapping[str, SetReading],
    changes: Sequence[RevisionChange],
) -> Proposal:
    """The files of the change: the new `pin`, revisions.yaml, and the set of each revision
    adopted from the new release (`sets`, its sets by name)."""
    files = {MANIFEST: pin.manifest, LOCK: pin.lock}
    files[REVISIONS] = _edited_revisions(tree.revisions_text, changes)
    before = tree.pin.version
    for change in changes:
        if change.adopted:
            files[set_path(change.name)] = render_set(
                tree.sets[change.name], sets[change.name], before, pin.version
            )
    return Proposal(files)
