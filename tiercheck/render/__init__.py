"""The render kit: the one place markup is built; every document renders over it.

HTML pages (the scorecard, claim, matrix and dashboard pages) are composed of `Html` values
(`html`), the badge (`badge`) and the trend charts (`trend`) of `Svg` values (`svg`); both are
markupsafe `Markup`, so a plain `str` that meets markup — joined, added, formatted or given to
an element — is escaped, and forgetting to escape cannot happen. Markdown is made of `Md`
values (`markdown`), which neutralise plain text the same way, and the JUnit files' text is
cleaned for XML by `xml`. Elements, attributes and links are built in
one place (`element`): no event handler, no script, and a link only to one of our own URLs.
`tests/unit/project/test_markup_in_kit.py` reads the rest of the package for markup built
outside the kit.

Why markupsafe and not Jinja2 templates with autoescape: the pages are mostly loops over typed
documents with branches per verdict, which stay plain typed Python here (mypy checks every field
a page reads) instead of moving into a template language mypy cannot see; autoescape covers only
what passes through `{{ }}`, while `Markup` carries its safety through every helper, join and
concatenation; and markupsafe (Jinja2's own escaping) is one small dependency instead of two,
with no template loading at run time.
"""
