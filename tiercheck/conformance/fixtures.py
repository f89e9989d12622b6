"""The fixtures the harness's server scenarios call, and where the harness says how to add them.

A server scenario does not test whatever the server happens to offer: it calls a fixture by
name (`tools-call-simple-text` calls the tool `test_simple_text`, `resources-read-text` reads
`test://static-text`, `prompts-get-simple` gets the prompt `test_simple_prompt`), which an SDK's
conformance server implements to the scenario's description. A server without them (an SDK's
demo server) fails every such scenario, whatever its MCP is worth.

`FIXTURES` is read from the pinned bundle (0.2.0-alpha.12, `dist/index.js`): for each server
scenario of its requirement sets, the tool names it passes to `tools/call`, the prompt names to
`prompts/get` and the `test://` URIs to `resources/*` (a test against the installed bundle keeps
it true). The scenarios that list what the server offers record it in their checks' `details`
(`LISTINGS`), which is how a leg's own results say which fixtures the server has.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "FIXTURES",
    "GUIDE_URL",
    "LISTINGS",
    "Fixture",
    "FixtureKind",
    "wanted",
]

#: The harness's SDK integration guide (its README's "For SDK maintainers" link): how an SDK
#: adds a conformance server and client. The repository has no tag for the 0.2.0 pre-releases,
#: so the guide on its default branch.
GUIDE_URL: Final = (
    "https://github.com/modelcontextprotocol/conformance/blob/main/SDK_INTEGRATION.md"
)

FixtureKind = Literal["tool", "resource", "prompt"]


@dataclass(frozen=True, order=True)
class Fixture:
    """One thing a scenario calls by name: a tool, a resource URI or a prompt."""

    kind: FixtureKind
    name: str
    #: Whether the server's listing of its kind names it: a URI read through a resource
    #: template (`test://template/{id}/data`) is listed by resources/templates/list, never by
    #: resources/list, so no listing the harness records says whether the server has it.
    listed: bool = True


#: The scenario that lists each kind, and the key of its check's `details` holding the names
#: (URIs for resources) the server listed.
LISTINGS: Final[Mapping[FixtureKind, tuple[str, str]]] = {
    "tool": ("tools-list", "tools"),
    "resource": ("resources-list", "resources"),
    "prompt": ("prompts-list", "prompts"),
}


def _tools(*names: str) -> tuple[Fixture, ...]:
    return tuple(Fixture("tool", n) for n in names)


_ELICIT = "test_input_required_result_elicitation"

#: Scenario → the fixtures it calls (server scenarios of the pinned harness's requirement sets;
#: a scenario that calls none is absent).
FIXTURES: Final[Mapping[str, tuple[Fixture, ...]]] = {
    "server-stateless": _tools(
        "test_logging_tool",
        "test_missing_capability",
        "test_streaming_elicitation",
        "test_trigger_prompt_change",
        "test_trigger_tool_change",
    ),
    "completion-complete": (Fixture("prompt", "test_prompt_with_arguments"),),
    "tools-call-simple-text": _tools("test_simple_text"),
    "tools-call-image": _tools("test_image_content"),
    "tools-call-mixed-content": _tools("test_multiple_content_types"),
    "tools-call-with-logging": _tools("test_tool_with_logging"),
    "tools-call-error": _tools("test_error_handling"),
    "tools-call-with-progress": _tools("test_tool_with_progress"),
    "tools-call-sampling": _tools("test_sampling"),
    "tools-call-elicitation": _tools("test_elicitation"),
    "tools-call-audio": _tools("test_audio_content"),
    "tools-call-embedded-resource": _tools("test_embedded_resource"),
    "elicitation-sep1034-defaults": _tools("test_elicitation_sep1034_defaults"),
    "elicitation-sep1330-enums": _tools("test_elicitation_sep1330_enums"),
    "resources-read-text": (Fixture("resource", "test://static-text"),),
    "resources-read-binary": (Fixture("resource", "test://static-binary"),),
    "resources-templates-read": (Fixture("resource", "test://template/123/data", listed=False),),
    "resources-subscribe": (Fixture("resource", "test://watched-resource"),),
    "resources-unsubscribe": (Fixture("resource", "test://watched-resource"),),
    "prompts-get-simple": (Fixture("prompt", "test_simple_prompt"),),
    "prompts-get-with-args": (Fixture("prompt", "test_prompt_with_arguments"),),
    "prompts-get-embedded-resource": (Fixture("prompt", "test_prompt_with_embedded_resource"),),
    "prompts-get-with-image": (Fixture("prompt", "test_prompt_with_image"),),
    "input-required-result-basic-elicitation": _tools(_ELICIT),
    "input-required-result-basic-sampling": _tools("test_input_required_result_sampling"),
    "input-required-result-basic-list-roots": _tools("test_input_required_result_list_roots"),
    "input-required-result-request-state": _tools("test_input_required_result_request_state"),
    "input-required-result-multiple-input-requests": _tools(
        "test_input_required_result_multiple_inputs"
    ),
    "input-required-result-multi-round": _tools("test_input_required_result_multi_round"),
    "input-required-result-missing-input-response": _tools(_ELICIT),
    "input-required-result-non-tool-request": (
        Fixture("prompt", "test_input_required_result_prompt"),
    ),
    "input-required-result-result-type": _tools(_ELICIT),
    "input-required-result-tampered-state": _tools("test_input_required_result_tampered_state"),
    "input-required-result-capability-check": _tools("test_input_required_result_capabilities"),
    "input-required-result-ignore-extra-params": _tools(_ELICIT),
    "input-required-result-validate-input": _tools(_ELICIT),
}


def wanted(scenarios: Iterable[str]) -> dict[Fixture, tuple[str, ...]]:
    """Each fixture `scenarios` call → the scenarios that call it, in the order given."""
    out: dict[Fixture, list[str]] = {}
    for scenario in scenarios:
        for fixture in FIXTURES.get(scenario, ()):
            callers = out.setdefault(fixture, [])
            if scenario not in callers:
                callers.append(scenario)
    return {fixture: tuple(callers) for fixture, callers in out.items()}
