"""Conformance client for the sample SDK, built on PyPI ``mcp`` 2.3.0.

The conformance harness runs ``client.py <server-url>`` once per client scenario,
naming the scenario in ``MCP_CONFORMANCE_SCENARIO`` and the spec revision in
``MCP_CONFORMANCE_PROTOCOL_VERSION``. Every scenario gets the same honest
behaviour: connect, list what the server offers, and call each tool with
arguments derived from its input schema. A few scenarios get a specific
argument set. Sampling, elicitation and roots requests are answered by
deterministic callbacks. When the server answers 401, mcp's OAuth client runs the
authorization-code flow (PKCE, dynamic or pre-registered or URL-based client ID);
the "browser" step is a plain GET of the authorization URL whose redirect carries
the code, which is what the conformance suite's mock authorization server expects.

Exit status: 0 when the scenario ran to the end, 1 on any error.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.session import ClientRequestContext
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from mcp_types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestParams,
    ElicitResult,
    ListRootsResult,
    LoggingMessageNotificationParams,
    Root,
    TextContent,
    Tool,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

log = logging.getLogger("sample-sdk-client")

REDIRECT_URI = "http://127.0.0.1:3030/callback"
"""Never listened on: the authorization redirect is read from the Location header."""

CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
"""This client's URL-based client ID (SEP-991), used when the server supports it."""

# Argument sets for scenarios whose checks look at specific values.
SCENARIO_ARGUMENTS: dict[str, dict[str, dict[str, Any]]] = {
    "tools_call": {"add_numbers": {"a": 5, "b": 3}},
    # Values that need every header encoding rule: plain, numeric, boolean, empty,
    # non-ASCII, surrounding or control whitespace (the last ones must be Base64-encoded).
    "http-custom-headers": {
        "test_custom_headers": {
            "region": "us-west1",
            "priority": 5,
            "verbose": False,
            "debug": True,
            "empty_val": "",
            "method_val": "GET",
            "float_val": 3.14,
            "non_ascii_val": "caf\u00e9 \u65e5\u672c",
            "whitespace_val": "  padded  ",
            "leading_space_val": " leading",
            "trailing_space_val": "trailing ",
            "internal_space_val": "hello world",
            "control_char_val": "bell\u0007",
            "crlf_val": "line1\r\nline2",
            "tab_val": "a\tb",
            "query": "weather",
        },
        "test_custom_headers_null": {"region": "us-east1", "priority": 1, "query": "nulls"},
    },
}


async def on_sampling(
    context: ClientRequestContext, params: CreateMessageRequestParams
) -> CreateMessageResult:
    """Answer ``sampling/createMessage`` with a fixed reply (there is no LLM here)."""
    return CreateMessageResult(
        role="assistant",
        content=TextContent(type="text", text="This is a sampled reply from the sample client."),
        model="sample-sdk-model",
        stop_reason="endTurn",
    )


async def on_elicitation(
    context: ClientRequestContext, params: ElicitRequestParams
) -> ElicitResult:
    """Accept a form elicitation, filling each field from its default or a placeholder.

    Applying the schema's defaults to omitted fields is what SEP-1034 asks of a client.
    """
    schema = getattr(params, "requested_schema", None) or {}
    content: dict[str, Any] = {}
    for name, prop in (schema.get("properties") or {}).items():
        content[name] = prop["default"] if "default" in prop else placeholder(prop)
    return ElicitResult(action="accept", content=content)


async def on_list_roots(context: ClientRequestContext) -> ListRootsResult:
    """Report one workspace root."""
    return ListRootsResult(roots=[Root(uri="file:///tmp/sample-sdk-workspace", name="workspace")])


async def on_log(params: LoggingMessageNotificationParams) -> None:
    """Print server log notifications to stderr."""
    log.info("server log [%s]: %s", params.level, params.data)


class MemoryTokenStorage:
    """Tokens and client registration for one process.

    Pre-seeded with the client registration when the harness supplies credentials.
    """

    def __init__(self, client_info: OAuthClientInformationFull | None = None) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info = client_info

    async def get_tokens(self) -> OAuthToken | None:
        """Return the stored tokens."""
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        """Store new tokens."""
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        """Return the stored client registration."""
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        """Store a client registration."""
        self.client_info = client_info


class HeadlessBrowser:
    """Plays the user agent: fetches the authorization URL and keeps the code from its redirect."""

    def __init__(self) -> None:
        self.result: AuthorizationCodeResult | None = None

    async def redirect(self, authorization_url: str) -> None:
        """Visit the authorization endpoint without following its redirect."""
        async with httpx2.AsyncClient(follow_redirects=False, timeout=10) as http:
            response = await http.get(authorization_url)
        location = response.headers.get("location")
        if not location:
            raise RuntimeError(
                f"authorization endpoint answered {response.status_code} without a redirect"
            )
        query = {key: values[0] for key, values in parse_qs(urlsplit(location).query).items()}
        if "code" not in query:
            raise RuntimeError(f"authorization failed: {query.get('error', 'no code in redirect')}")
        self.result = AuthorizationCodeResult(
            code=query["code"], state=query.get("state"), iss=query.get("iss")
        )

    async def callback(self) -> AuthorizationCodeResult:
        """Hand the captured authorization code to the OAuth flow."""
        if self.result is None:
            raise RuntimeError("no authorization response captured")
        return self.result


def oauth_provider(url: str, context: dict[str, Any]) -> OAuthClientProvider:
    """An OAuth client for ``url``; ``context`` may carry pre-registered credentials."""
    client_info = None
    if "client_id" in context:
        client_info = OAuthClientInformationFull(
            client_id=context["client_id"],
            client_secret=context.get("client_secret"),
            redirect_uris=[REDIRECT_URI],
            token_endpoint_auth_method="client_secret_basic"
            if context.get("client_secret")
            else "none",
        )
    browser = HeadlessBrowser()
    metadata = OAuthClientMetadata(
        client_name="sample-sdk conformance client",
        redirect_uris=[REDIRECT_URI],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )
    return OAuthClientProvider(
        server_url=url,
        client_metadata=metadata,
        storage=MemoryTokenStorage(client_info),
        redirect_handler=browser.redirect,
        callback_handler=browser.callback,
        client_metadata_url=CLIENT_METADATA_URL,
    )


def placeholder(schema: dict[str, Any]) -> Any:
    """A plausible value for a JSON Schema property (used to build tool arguments)."""
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("oneOf", "anyOf"):
        if schema.get(key):
            return placeholder(schema[key][0])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    values: dict[str, Any] = {
        "integer": 1,
        "number": 1.5,
        "boolean": True,
        "array": [],
        "object": {},
        "null": None,
    }
    return values.get(str(kind), "sample")


def arguments_for(scenario: str, tool: Tool) -> dict[str, Any]:
    """Arguments for one call: the scenario's fixed set, else the schema's required fields."""
    fixed = SCENARIO_ARGUMENTS.get(scenario, {}).get(tool.name)
    if fixed is not None:
        return fixed
    schema = tool.input_schema or {}
    properties = schema.get("properties") or {}
    return {name: placeholder(properties.get(name) or {}) for name in schema.get("required") or []}


async def run(url: str, scenario: str, protocol_version: str, context: dict[str, Any]) -> None:
    """Run one conformance scenario against the mock server at ``url``."""
    mode = "auto" if protocol_version in MODERN_PROTOCOL_VERSIONS else "legacy"
    http = httpx2.AsyncClient(
        auth=oauth_provider(url, context), timeout=httpx2.Timeout(30, read=300)
    )
    async with (
        http,
        Client(
            streamable_http_client(url, http_client=http),
            mode=mode,
            read_timeout_seconds=20,
            sampling_callback=on_sampling,
            elicitation_callback=on_elicitation,
            list_roots_callback=on_list_roots,
            logging_callback=on_log,
        ) as client,
    ):
        log.info("connected: protocol %s, server %s", client.protocol_version, client.server_info)
        tools = (await client.list_tools()).tools
        if scenario == "json-schema-2020-12-preservation":
            # Echo the focal tool's input schema back exactly as this client parsed it.
            focal = next(tool for tool in tools if tool.name == "json_schema_2020_12_tool")
            await client.call_tool("json_schema_echo", {"schema": focal.input_schema})
            return
        for tool in tools:
            args = arguments_for(scenario, tool)
            result = await client.call_tool(tool.name, args)
            log.info("called %s(%s): isError=%s", tool.name, args, result.is_error)


def main() -> int:
    """Entry point: ``client.py <server-url>``; returns the exit status."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
    if len(sys.argv) < 2:
        print("usage: client.py <server-url>", file=sys.stderr)
        return 2
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    protocol_version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    try:
        asyncio.run(run(sys.argv[-1], scenario, protocol_version, context))
    except Exception:
        log.exception("scenario %r failed", scenario)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
