"""The published dashboard (pure): the documents of its versioned API, built from the run
history (`build`, `model`), and its pages rendered from them over the render kit (`html`);
`tiercheck.publish` writes both, the documents under `api/v1/`."""
