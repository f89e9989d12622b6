"""The bundle's code, read for the checks each scenario can emit: small programs written here by
hand in the shapes the minified harness uses, and what each one emits worked out by reading it."""

from __future__ import annotations

from tiercheck.referee.jsscan import scan_checks, tokenize


def _kinds(src: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(src)]


def test_templates_nest_and_their_code_is_code() -> None:
    tokens = _kinds("a=`x${b?`y`:`z${c}`}w`;")
    assert tokens == [
        ("name", "a"),
        ("punct", "="),
        ("tpl_head", "x"),
        ("name", "b"),
        ("punct", "?"),
        ("tpl", "y"),
        ("punct", ":"),
        ("tpl_head", "z"),
        ("name", "c"),
        ("tpl_tail", ""),
        ("tpl_tail", "w"),
        ("punct", ";"),
    ]


def test_a_slash_is_a_regex_or_a_division_by_what_comes_before() -> None:
    assert _kinds("x=a/b/c") == [
        ("name", "x"),
        ("punct", "="),
        ("name", "a"),
        ("punct", "/"),
        ("name", "b"),
        ("punct", "/"),
        ("name", "c"),
    ]
    # A regex holding a brace, a quote and a slash in a class does not upset what follows.
    assert _kinds("return/[/{']+/g.test(s)")[:2] == [("name", "return"), ("regex", "/[/{']+/g")]
    assert ("punct", "}") not in _kinds("f(/{/)")


def test_comments_strings_and_the_hashbang_are_skipped_or_kept_whole() -> None:
    src = "#!/usr/bin/env node\n/* { */ a='}'// }\n+\"{\""
    assert _kinds(src) == [
        ("name", "a"),
        ("punct", "="),
        ("str", "}"),
        ("punct", "+"),
        ("str", "{"),
    ]


#: Two scenarios in the shapes of the bundle: a class with a literal name and inline check
#: literals, a factory (`j`) whose id is its first parameter, a second-order factory (`P`), a
#: helper reached through a call (`Kn`), another scenario (`Other`) that must not leak in,
#: an Error class that is no scenario, and a spec reference (`{id,url}`) that is no check.
BUNDLE = """
function j(e,t,n){return{id:e,name:t,description:`d`,status:n,timestamp:0}}
function P(e,t,n){return j(e,t,n)}
function Kn(e){let t={id:`order`,name:`Order`,description:`x`};return e?{...t,
status:`WARNING`}:j(`order-untestable`,`U`,`INFO`)}
var Err=class extends Error{constructor(){super(),this.name=`JsonRpcError`}};
var qn=class{constructor(){this.name=`tools-list`,this.source={introducedIn:`2025-06-18`},
this.description=`d`}
async run(e){let t=[];t.push({id:`tools-list`,name:`ToolsList`,status:e?`SUCCESS`:`FAILURE`,
specReferences:[{id:`MCP-Tools-List`,url:`u`}]});
t.push(Kn(e));t.push(P(`tools-name-format`,`F`,e?`SUCCESS`:`WARNING`));return t}};
var Other=class{constructor(){this.name=`ping`,this.source={},this.description=`p`}
async run(){return[{id:`ping`,name:`Ping`,status:`SUCCESS`},new qn]}};
"""


def test_a_scenario_emits_its_literals_its_factory_calls_and_its_helpers_checks() -> None:
    found = scan_checks(BUNDLE, ["tools-list", "ping", "JsonRpcError", "missing"])
    assert found["tools-list"] == {
        "order": (),
        "order-untestable": ("INFO",),
        "tools-list": ("SUCCESS", "FAILURE"),
        "tools-name-format": ("SUCCESS", "WARNING"),
    }
    # `new qn` inside ping reaches another scenario: its checks stay its own.
    assert found["ping"] == {"ping": ("SUCCESS",)}
    assert found["JsonRpcError"] == {}  # a class named so, emitting nothing: asked, so given
    assert "missing" not in found


def test_a_name_written_as_a_choice_or_a_template_names_the_listed_scenarios_of_its_form() -> None:
    src = """
function mk(e){return{name:`auth/${e.name}`,source:{},description:`m`,
async run(){return[{id:`meta-${e.name}`,name:`x`,status:`FAILURE`},{id:`prm`,name:`P`,
status:`SUCCESS`}]}}}
var Tk=class{constructor(e){this.name=`auth/token-${e===`a`?`basic`:`post`}`,this.source={},
this.description=`t`}run(){return[{id:`token`,name:`T`,status:`SUCCESS`}]}};
var Dp=class{constructor(e){this.name=e?`auth/dpop-nonce`:`auth/dpop`,this.source={},
this.description=`d`}run(){return[{id:`dpop`,name:`D`,status:`FAILURE`}]}};
var Lit=class{constructor(){this.name=`auth/token-none`,this.source={},
this.description=`n`}run(){return[{id:`none`,name:`N`,status:`SUCCESS`}]}};
"""
    listed = ["auth/var1", "auth/token-basic", "auth/token-none", "auth/dpop", "auth/dpop-nonce"]
    found = scan_checks(src, listed)
    # `meta-${…}` is computed: not read; `prm` is.
    assert found["auth/var1"] == {"prm": ("SUCCESS",)}
    assert found["auth/token-basic"] == {"token": ("SUCCESS",)}
    # A literal name wins over a template of its form.
    assert found["auth/token-none"] == {"none": ("SUCCESS",)}
    assert found["auth/dpop"] == found["auth/dpop-nonce"] == {"dpop": ("FAILURE",)}


def test_a_local_name_is_not_a_call_of_the_top_level_one() -> None:
    src = """
function j(e){return{id:`from-j`,name:`J`,status:`FAILURE`}}
var S=class{constructor(){this.name=`s`,this.source={},this.description=`s`}run(j){return[j(1)]}};
var T=class{constructor(){this.name=`t`,this.source={},this.description=`t`}run(){return[j(1)]}};
"""
    found = scan_checks(src, ["s", "t"])
    assert found["s"] == {}
    assert found["t"] == {"from-j": ("FAILURE",)}
