"""Conformance "everything" server for the sample SDK, built on PyPI ``mcp`` 2.3.0.

Serves the fixtures the MCP conformance suite's server scenarios call, over
streamable HTTP at ``http://127.0.0.1:<port>/mcp``.

``--revision`` picks the fixture profile for one spec revision (see README.md):

* ``2025-11-25`` (default): the handshake-era fixtures, including the tools
  that send server-to-client requests mid-call (sampling, elicitation) and
  log notifications, plus ``logging/setLevel`` and ``resources/subscribe``.
* ``2026-07-28``: those server-to-client request tools are replaced by the
  multi-round-trip (SEP-2322 "input required") fixtures, and the stateless
  diagnostics are added.

The same ``mcp`` server answers both wires on one endpoint either way; the
profile decides which fixtures exist.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import json
import os
import signal
import struct
import sys
import warnings
import wave
from typing import Any

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    AudioContent,
    ClientCapabilities,
    Completion,
    CompletionArgument,
    CompletionContext,
    CreateMessageRequest,
    CreateMessageRequestParams,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    EmbeddedResource,
    EmptyResult,
    ImageContent,
    InputRequest,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
    PromptReference,
    ResourceTemplateReference,
    SamplingMessage,
    SetLevelRequestParams,
    SubscribeRequestParams,
    TextContent,
    TextResourceContents,
    UnsubscribeRequestParams,
)

REVISIONS = ("2025-11-25", "2026-07-28")

# The fixtures exercise logging, sampling and roots on purpose, deprecated or not.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

# A 1x1 transparent PNG.
PNG_BASE64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6"
    "kgAAAABJRU5ErkJggg=="
)

CallResult = list[TextContent] | InputRequiredResult
"""What a multi-round-trip tool returns: final content, or a request for input."""

LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


def wav_base64(samples: int = 800, rate: int = 8000) -> str:
    """Return a short silent mono 16-bit WAV file, base64-encoded."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(struct.pack(f"<{samples}h", *([0] * samples)))
    return base64.b64encode(buf.getvalue()).decode("ascii")


def text(value: str) -> TextContent:
    """Shorthand for a text content block."""
    return TextContent(type="text", text=value)


def elicit(message: str, properties: dict[str, Any], required: list[str]) -> ElicitRequest:
    """An embedded form-mode ``elicitation/create`` request."""
    schema = {"type": "object", "properties": properties, "required": required}
    return ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))


def sample(prompt: str, max_tokens: int) -> CreateMessageRequest:
    """An embedded ``sampling/createMessage`` request."""
    message = SamplingMessage(role="user", content=text(prompt))
    return CreateMessageRequest(
        params=CreateMessageRequestParams(messages=[message], max_tokens=max_tokens)
    )


def response_text(response: Any) -> str:
    """Render one input response (elicitation, sampling or roots) as short text."""
    if isinstance(response, ElicitResult):
        return f"{response.action} {json.dumps(response.content or {}, sort_keys=True)}"
    if isinstance(response, ListRootsResult):
        return ", ".join(str(root.uri) for root in response.roots) or "(no roots)"
    content = getattr(response, "content", None)
    return getattr(content, "text", None) or json.dumps(
        response.model_dump(mode="json", by_alias=True)
    )


def outcome(result: ElicitResult) -> str:
    """Render an elicitation outcome the way the conformance fixtures describe it."""
    return f"action={result.action}, content={json.dumps(result.content or {})}"


def field(response: Any, name: str) -> str:
    """One field of an accepted elicitation response; empty for anything else."""
    if not isinstance(response, ElicitResult) or response.action != "accept":
        return ""
    return str((response.content or {}).get(name, ""))


def ask(requests: dict[str, InputRequest], state: str | None = None) -> InputRequiredResult:
    """An ``InputRequiredResult`` asking ``requests``, optionally carrying ``state``."""
    return InputRequiredResult(input_requests=requests, request_state=state)


def answers(ctx: Context, *keys: str) -> dict[str, Any] | None:
    """The retry's responses for every key in ``keys``, or None unless all are present.

    Extra, unrequested keys are ignored; a missing key means "ask again".
    """
    given = ctx.input_responses or {}
    return {key: given[key] for key in keys} if all(key in given for key in keys) else None


NAME_QUESTION = elicit("What is your name?", {"name": {"type": "string"}}, ["name"])


class LogLevel:
    """The minimum level set by ``logging/setLevel`` (one setting for the whole process)."""

    threshold = "debug"

    @classmethod
    def allows(cls, level: str) -> bool:
        """True when a message at ``level`` passes the current threshold."""
        return LOG_LEVELS.index(level) >= LOG_LEVELS.index(cls.threshold)


async def send_log(ctx: Context, level: str, message: str) -> None:
    """Send a ``notifications/message`` unless the client filtered that level out."""
    if LogLevel.allows(level):
        await ctx.session.send_log_message(
            level=level, data=message, related_request_id=ctx.request_id
        )


def build_server(revision: str) -> MCPServer:
    """Create the server with the fixture profile for ``revision``."""
    mcp = MCPServer("sample-sdk-everything-server", version="0.1.0")
    add_common_fixtures(mcp)
    if revision == "2026-07-28":
        add_input_required_fixtures(mcp)
        add_stateful_input_required_fixtures(mcp)
        add_stateless_diagnostics(mcp)
    else:
        add_handshake_fixtures(mcp)
    return mcp


def add_common_fixtures(mcp: MCPServer) -> None:
    """Tools, resources, prompts and completion shared by every revision."""

    @mcp.tool(description="Returns a simple text result")
    def test_simple_text() -> list[TextContent]:
        return [text("This is a simple text response for testing.")]

    @mcp.tool(description="Returns an image")
    def test_image_content() -> list[ImageContent]:
        return [ImageContent(type="image", data=PNG_BASE64, mime_type="image/png")]

    @mcp.tool(description="Returns an audio clip")
    def test_audio_content() -> list[AudioContent]:
        return [AudioContent(type="audio", data=wav_base64(), mime_type="audio/wav")]

    @mcp.tool(description="Returns an embedded resource")
    def test_embedded_resource() -> list[EmbeddedResource]:
        resource = TextResourceContents(
            uri="test://embedded-resource",
            mime_type="text/plain",
            text="This is an embedded resource content.",
        )
        return [EmbeddedResource(type="resource", resource=resource)]

    @mcp.tool(description="Returns text, an image and an embedded resource")
    def test_multiple_content_types() -> list[TextContent | ImageContent | EmbeddedResource]:
        resource = TextResourceContents(
            uri="test://mixed-content-resource",
            mime_type="application/json",
            text='{"test": "data", "value": 123}',
        )
        return [
            text("Multiple content types test:"),
            ImageContent(type="image", data=PNG_BASE64, mime_type="image/png"),
            EmbeddedResource(type="resource", resource=resource),
        ]

    @mcp.tool(description="Always fails with a tool error")
    def test_error_handling() -> str:
        raise ToolError("This tool intentionally returns an error for testing")

    @mcp.tool(description="Reports progress 0, 50 and 100 of 100")
    async def test_tool_with_progress(ctx: Context) -> str:
        for step, progress in enumerate((0, 50, 100)):
            if step:
                await asyncio.sleep(0.05)
            await ctx.report_progress(progress, 100, f"step {step + 1} of 3")
        return "Progress reporting completed"

    @mcp.resource("test://static-text", name="static-text", mime_type="text/plain")
    def static_text() -> str:
        return "This is the content of the static text resource."

    @mcp.resource("test://static-binary", name="static-binary", mime_type="image/png")
    def static_binary() -> bytes:
        return base64.b64decode(PNG_BASE64)

    @mcp.resource("test://template/{id}/data", name="template-data", mime_type="application/json")
    def template_data(id: str) -> str:
        return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})

    @mcp.resource("test://watched-resource", name="watched-resource", mime_type="text/plain")
    def watched_resource() -> str:
        return "Watched resource content"

    @mcp.prompt(description="A prompt without arguments")
    def test_simple_prompt() -> list[dict[str, Any]]:
        return [{"role": "user", "content": text("This is a simple prompt for testing.")}]

    @mcp.prompt(description="A prompt with two required arguments")
    def test_prompt_with_arguments(arg1: str, arg2: str) -> list[dict[str, Any]]:
        return [
            {
                "role": "user",
                "content": text(f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"),
            }
        ]

    @mcp.prompt(description="A prompt that embeds a resource")
    def test_prompt_with_embedded_resource(resourceUri: str) -> list[dict[str, Any]]:
        resource = TextResourceContents(
            uri=resourceUri, mime_type="text/plain", text="Embedded resource content for testing."
        )
        return [
            {"role": "user", "content": EmbeddedResource(type="resource", resource=resource)},
            {"role": "user", "content": text("Please process the embedded resource above.")},
        ]

    @mcp.prompt(description="A prompt that carries an image")
    def test_prompt_with_image() -> list[dict[str, Any]]:
        return [
            {
                "role": "user",
                "content": ImageContent(type="image", data=PNG_BASE64, mime_type="image/png"),
            },
            {"role": "user", "content": text("Please analyze the image above.")},
        ]

    @mcp.completion()
    async def complete(
        ref: PromptReference | ResourceTemplateReference,
        argument: CompletionArgument,
        context: CompletionContext | None,
    ) -> Completion:
        candidates = {"arg1": ["paris", "park", "party"], "id": ["1", "2", "3"]}.get(
            argument.name, []
        )
        values = [value for value in candidates if value.startswith(argument.value)]
        return Completion(values=values, total=len(values), has_more=False)


def add_handshake_fixtures(mcp: MCPServer) -> None:
    """2025-11-25 fixtures: mid-call server-to-client requests, logging, subscriptions."""
    lowlevel = mcp._lowlevel_server  # MCPServer has no public hook for these two legacy methods.
    subscribed: set[str] = set()

    async def set_level(ctx: Any, params: SetLevelRequestParams) -> EmptyResult:
        LogLevel.threshold = params.level
        return EmptyResult()

    async def subscribe(ctx: Any, params: SubscribeRequestParams) -> EmptyResult:
        subscribed.add(str(params.uri))
        return EmptyResult()

    async def unsubscribe(ctx: Any, params: UnsubscribeRequestParams) -> EmptyResult:
        subscribed.discard(str(params.uri))
        return EmptyResult()

    lowlevel.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
    lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribe)
    lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, unsubscribe)

    @mcp.tool(description="Sends three info log notifications while it runs")
    async def test_tool_with_logging(ctx: Context) -> str:
        await send_log(ctx, "info", "Tool execution started")
        await asyncio.sleep(0.05)
        await send_log(ctx, "info", "Tool processing data")
        await asyncio.sleep(0.05)
        await send_log(ctx, "info", "Tool execution completed")
        return "Logging test completed"

    @mcp.tool(description="Asks the client's LLM to answer a prompt")
    async def test_sampling(prompt: str, ctx: Context) -> str:
        message = SamplingMessage(role="user", content=text(prompt))
        result = await ctx.session.create_message(
            [message], max_tokens=100, related_request_id=ctx.request_id
        )
        return f"LLM response: {response_text(result)}"

    @mcp.tool(description="Asks the user for a username and an email address")
    async def test_elicitation(message: str, ctx: Context) -> str:
        schema = {
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            },
            "required": ["username", "email"],
        }
        result = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
        return f"User response: {outcome(result)}"

    @mcp.tool(description="Elicits a form whose fields all have defaults (SEP-1034)")
    async def test_elicitation_sep1034_defaults(ctx: Context) -> str:
        schema = {
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "status": {
                    "type": "string",
                    "enum": ["active", "inactive", "pending"],
                    "default": "active",
                },
                "verified": {"type": "boolean", "default": True},
            },
        }
        result = await ctx.session.elicit_form(
            "Please review your details", schema, related_request_id=ctx.request_id
        )
        return f"Elicitation completed: {outcome(result)}"

    @mcp.tool(description="Elicits a form with every enum variant (SEP-1330)")
    async def test_elicitation_sep1330_enums(ctx: Context) -> str:
        titled = [
            {"const": f"value{i}", "title": title}
            for i, title in enumerate(("First", "Second", "Third"), 1)
        ]
        schema = {
            "type": "object",
            "properties": {
                "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                "titledSingle": {
                    "type": "string",
                    "oneOf": [{**t, "title": f"{t['title']} Option"} for t in titled],
                },
                "legacyEnum": {
                    "type": "string",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"],
                },
                "untitledMulti": {
                    "type": "array",
                    "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
                },
                "titledMulti": {
                    "type": "array",
                    "items": {"anyOf": [{**t, "title": f"{t['title']} Choice"} for t in titled]},
                },
            },
        }
        result = await ctx.session.elicit_form(
            "Pick some options", schema, related_request_id=ctx.request_id
        )
        return f"Elicitation completed: {outcome(result)}"


def add_input_required_fixtures(mcp: MCPServer) -> None:
    """2026-07-28 multi-round-trip fixtures (SEP-2322).

    Each fixture asks with an ``InputRequiredResult`` and finishes once the retry
    carries every answer it asked for; a retry that lacks one is asked again.
    ``requestState`` is sealed and verified by mcp's ``RequestStateBoundary``, so a
    tampered state never reaches these handlers.
    """

    @mcp.tool(description="Asks for the user's name through an input-required result")
    def test_input_required_result_elicitation(ctx: Context) -> CallResult:
        got = answers(ctx, "user_name")
        if got is None:
            return ask({"user_name": NAME_QUESTION})
        reply = got["user_name"]
        if not isinstance(reply, ElicitResult):
            return ask({"user_name": NAME_QUESTION})  # not an answer to this question
        name = field(reply, "name")
        if reply.action != "accept" or not name:
            return [text(f"No name given ({reply.action}).")]
        return [text(f"Hello, {name}!")]

    @mcp.tool(description="Asks the client's LLM a question through an input-required result")
    def test_input_required_result_sampling(ctx: Context) -> CallResult:
        got = answers(ctx, "capital_question")
        if got is None:
            return ask({"capital_question": sample("What is the capital of France?", 100)})
        return [text(f"LLM said: {response_text(got['capital_question'])}")]

    @mcp.tool(description="Asks for the client's roots through an input-required result")
    def test_input_required_result_list_roots(ctx: Context) -> CallResult:
        got = answers(ctx, "client_roots")
        if got is None:
            return ask({"client_roots": ListRootsRequest()})
        return [text(f"Client roots: {response_text(got['client_roots'])}")]


def add_stateful_input_required_fixtures(mcp: MCPServer) -> None:
    """2026-07-28 fixtures that carry ``requestState`` between rounds, or ask selectively."""

    @mcp.tool(description="Round-trips requestState alongside one question")
    def test_input_required_result_request_state(ctx: Context) -> CallResult:
        got = answers(ctx, "confirm")
        if got is None or ctx.request_state != "confirm-pending":
            confirm = elicit("Please confirm", {"ok": {"type": "boolean"}}, ["ok"])
            return ask({"confirm": confirm}, "confirm-pending")
        return [text(f"state-ok: confirmation {response_text(got['confirm'])}")]

    @mcp.tool(description="Asks three questions at once")
    def test_input_required_result_multiple_inputs(ctx: Context) -> CallResult:
        keys = ("user_name", "greeting", "client_roots")
        got = answers(ctx, *keys)
        if got is None:
            requests: dict[str, InputRequest] = {
                "user_name": NAME_QUESTION,
                "greeting": sample("Generate a greeting", 50),
                "client_roots": ListRootsRequest(),
            }
            return ask(requests, "three-questions")
        return [text("; ".join(f"{key}: {response_text(got[key])}" for key in keys))]

    @mcp.tool(description="Asks two questions in two rounds, carrying state between them")
    def test_input_required_result_multi_round(ctx: Context) -> CallResult:
        state = json.loads(ctx.request_state) if ctx.request_state else {}
        if "name" not in state:
            got = answers(ctx, "step1")
            if got is None:
                step1 = elicit("Step 1: What is your name?", {"name": {"type": "string"}}, ["name"])
                return ask({"step1": step1}, json.dumps({"round": 1}))
            state = {"round": 2, "name": field(got["step1"], "name")}
        got = answers(ctx, "step2")
        if got is None:
            step2 = elicit(
                "Step 2: What is your favorite color?", {"color": {"type": "string"}}, ["color"]
            )
            return ask({"step2": step2}, json.dumps(state))
        color = field(got["step2"], "color")
        return [text(f"{state['name']} likes {color}.")]

    @mcp.tool(description="Asks one question with integrity-protected requestState")
    def test_input_required_result_tampered_state(ctx: Context) -> CallResult:
        got = answers(ctx, "confirm")
        if got is None or ctx.request_state != "integrity-protected":
            confirm = elicit("Please confirm", {"ok": {"type": "boolean"}}, ["ok"])
            return ask({"confirm": confirm}, "integrity-protected")
        return [text("State verified.")]

    @mcp.tool(description="Asks only for what the client declared it can answer")
    def test_input_required_result_capabilities(ctx: Context) -> CallResult:
        caps = ctx.client_capabilities or ClientCapabilities()
        wanted: dict[str, InputRequest] = {}
        if caps.elicitation is not None:
            wanted["user_name"] = NAME_QUESTION
        if caps.sampling is not None:
            wanted["greeting"] = sample("Generate a greeting", 50)
        if caps.roots is not None:
            wanted["client_roots"] = ListRootsRequest()
        if not wanted:
            return [text("The client declared no input capabilities; nothing to ask.")]
        got = answers(ctx, *wanted)
        if got is None:
            return ask(wanted)
        return [text("; ".join(f"{key}: {response_text(value)}" for key, value in got.items()))]

    @mcp.prompt(description="A prompt that asks the user for context first")
    def test_input_required_result_prompt(
        ctx: Context,
    ) -> list[dict[str, Any]] | InputRequiredResult:
        got = answers(ctx, "user_context")
        if got is None:
            question = elicit(
                "What context should the prompt use?", {"context": {"type": "string"}}, ["context"]
            )
            return ask({"user_context": question})
        context = field(got["user_context"], "context")
        return [{"role": "user", "content": text(f"Use this context: {context}")}]


def add_stateless_diagnostics(mcp: MCPServer) -> None:
    """Diagnostic tools the 2026-07-28 ``server-stateless`` scenario probes."""

    @mcp.tool(description="Needs the client's sampling capability")
    def test_missing_capability(ctx: Context) -> CallResult:
        caps = ctx.client_capabilities or ClientCapabilities()
        if caps.sampling is None:
            raise MCPError(
                code=MISSING_REQUIRED_CLIENT_CAPABILITY,
                message="This tool needs the sampling capability",
                data={"requiredCapabilities": {"sampling": {}}},
            )
        got = answers(ctx, "greeting")
        if got is None:
            return ask({"greeting": sample("Say hello", 20)})
        return [text(f"Sampled: {response_text(got['greeting'])}")]

    @mcp.tool(description="Asks for confirmation; on this wire that is an input-required result")
    def test_streaming_elicitation(ctx: Context) -> CallResult:
        got = answers(ctx, "confirm")
        if got is None:
            confirm = elicit("Continue?", {"ok": {"type": "boolean"}}, ["ok"])
            return ask({"confirm": confirm})
        return [text(f"Confirmation: {response_text(got['confirm'])}")]

    @mcp.tool(description="Sends log notifications when the request opted in")
    async def test_logging_tool(ctx: Context) -> str:
        for level in ("debug", "info", "warning"):
            await ctx.session.send_log_message(level=level, data=f"{level} message")
        return "Logged"

    @mcp.tool(description="Publishes a tools list-changed event")
    async def test_trigger_tool_change(ctx: Context) -> str:
        await ctx.notify_tools_changed()
        return "Tools list change published"

    @mcp.tool(description="Publishes a prompts list-changed event")
    async def test_trigger_prompt_change(ctx: Context) -> str:
        await ctx.notify_prompts_changed()
        return "Prompts list change published"


def main() -> None:
    """Parse arguments and serve until SIGTERM or SIGINT (uvicorn handles both)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    parser.add_argument("--revision", choices=REVISIONS, default=REVISIONS[0])
    args = parser.parse_args()
    app = build_server(args.revision).streamable_http_app(
        streamable_http_path="/mcp", host="127.0.0.1"
    )
    # Open SSE streams would otherwise hold a graceful shutdown open indefinitely.
    config = uvicorn.Config(
        app, host="127.0.0.1", port=args.port, log_level="warning", timeout_graceful_shutdown=2
    )
    # uvicorn shuts down gracefully on SIGTERM, then re-raises the signal with the handler
    # that was installed before it started: make that one a normal exit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
