"""Telling people about the nightly: one tracking issue per SDK line, or one sticky comment on a
pull request. `plan` decides the calls (pure); `texts` writes the issue and comment bodies over
the render kit (pure); `github` makes the calls through one `tiercheck.ghapi` session."""
