"""`tier-check init`: what an SDK repository says about how to assess it.

The pure core reads texts (workflow files, manifests, package scripts, server sources) and tag
names, never the disk: `shell` splits a workflow's `run:` text into commands, `workflow` finds the
conformance runs and the steps that build and start the server, `wrapper` reads the repository
scripts those steps run (shell; Python in `pyscript`, JavaScript in `jsscript`, both giving the
commands of `calls`) for the commands they run in turn, `manifest` reads the name,
language and tools, `tags` the release tag prefix, and `entry` puts them together into a registry
entry with a reason for each value it could not infer; `registry_text` renders it as YAML and puts
it into a known_sdks.yaml text. `read` is the edge that reads the repository (inside it only).
"""
