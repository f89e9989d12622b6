"""tiercheck.sdk.ports: free ports, listening checks, `{port}` templating."""

from __future__ import annotations

import socket

from tiercheck.sdk.ports import allocate_port, is_listening, port_of_url, substitute_port


def test_allocated_port_is_free_and_bindable() -> None:
    port = allocate_port()
    assert 0 < port < 65536
    assert not is_listening("127.0.0.1", port)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", port))


def test_is_listening_sees_a_listening_socket() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert is_listening("127.0.0.1", port)
        assert is_listening("localhost", port)
    assert not is_listening("127.0.0.1", port)


def test_a_bound_but_not_listening_socket_is_not_listening() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        assert not is_listening("127.0.0.1", sock.getsockname()[1])


def test_substitute_port_replaces_only_the_placeholder() -> None:
    command = 'server --port {port} --json \'{"a": {"b": 1}}\' {port}'
    assert substitute_port(command, 4321) == 'server --port 4321 --json \'{"a": {"b": 1}}\' 4321'
    assert substitute_port("http://127.0.0.1:{port}/mcp", 80) == "http://127.0.0.1:80/mcp"
    assert substitute_port("no placeholder", 1) == "no placeholder"


def test_port_of_url() -> None:
    assert port_of_url("http://localhost:3000/mcp") == 3000
    assert port_of_url("http://localhost/mcp") == 80
    assert port_of_url("https://example.test/mcp") == 443
    assert port_of_url("/mcp") is None
    assert port_of_url("http://localhost:99999/") is None
