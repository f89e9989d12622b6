"""The SDK under test: checkout at a ref, cached build, and its managed conformance server.

- `tiercheck.sdk.checkout`: one cached clone per repository, detached and cleaned at a commit;
  `describe_local` for a checkout the user points at.
- `tiercheck.sdk.build`: the SDK's build command, skipped when a marker proves it already ran.
- `tiercheck.sdk.markers`: where those markers live; checkout clears them when it cleans a tree.
- `tiercheck.sdk.server`: `managed_server`, the only owner of the server process.
- `tiercheck.sdk.ports`: free ports, listening checks and `{port}` templating.

Nothing is re-exported here so that importing the package stays cheap (httpx, psutil and
gitpython load only when the module that needs them is used).
"""
