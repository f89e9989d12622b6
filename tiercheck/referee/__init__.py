"""The referee, the pinned conformance harness, and changing it: `tier-check referee update`.

- `bundle`: one release's answers (what is read from it) and their reading: scenarios per leg
  with the checks each can emit, requirement sets, flags, the wire spoken at each set.
- `jsscan`: the checks each scenario can emit, read from the bundle's JavaScript.
- `harvest`: the answers of an installed release (its CLI, its sets, its code, its first
  request at each set), through `tiercheck.process`.
- `tree`: the tree a change is written into (runners/ and requirements/).
- `changes`: two readings and the tree compared: what the change changes, and what blocks it.
- `proposal`: the files the change writes, in the tree's own form.
- `write`: the change checked the way tiercheck reads it back, then written for review.
- `report`: the change as plain text for its reviewer.
"""
