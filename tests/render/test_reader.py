"""The reader view (read/<rite>.html) as files: one page a rite, links both ways that resolve,
everything escaped, and no link inside a link."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_print import build

from glossary.corpus.model import Reading
from glossary.render.reader import text_html
from glossary.rite_text import Block, Modern

IDS = re.compile(r'\bid="([^"]+)"')


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("reader") / "dist"
    result = build(out)
    assert result.exit_code == 0, result.output
    return out


def pages(site: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((site / "read").glob("*.html"))}


def test_one_page_a_rite_and_a_contents_page_linking_each(site: Path) -> None:
    found = pages(site)
    assert set(found) == {
        "index.html",
        "xiangshe.html",
        "shiyu.html",
        "tesheng.html",
        "yousiche.html",
    }
    hrefs = re.findall(r'href="([a-z]+\.html)"', found["index.html"])
    assert sorted(hrefs) == sorted(set(found) - {"index.html"})
    # Offline: nothing from elsewhere, no script.
    for name, html in found.items():
        assert "http://" not in html.replace("http://www.w3.org", "") and "<script" not in html, (
            name
        )


def test_the_glossarys_bar_opens_the_text(site: Path) -> None:
    assert '<a href="read/index.html">The text</a>' in (site / "glossary.html").read_text("utf-8")


def test_every_headword_link_of_the_text_opens_an_entry_of_the_glossary(site: Path) -> None:
    entries = set(IDS.findall((site / "glossary.html").read_text(encoding="utf-8")))
    linked = set()
    for name, html in pages(site).items():
        for target in re.findall(r'href="\.\./glossary\.html#([^"]+)"', html):
            assert target in entries, (name, target)
            linked.add(target)
    assert {"e-zu-ku", "e-ku", "e-shi", "e-tang"} <= linked


def test_every_in_the_text_link_of_the_glossary_lands_on_its_cited_place(site: Path) -> None:
    glossary = (site / "glossary.html").read_text(encoding="utf-8")
    links = re.findall(r'class="in-text screen-only" href="read/([a-z]+\.html)#([^"]+)"', glossary)
    assert len(links) >= 20
    found = pages(site)
    for page, anchor in links:
        html = found[page]
        assert f'class="cited" id="{anchor}"' in html, (page, anchor)
    # And back: each cited place links to the entries citing it.
    back = re.findall(
        r'class="cited" id="[^"]+"><span class="visually-hidden">cited by </span><a href="\.\./glossary\.html#e-([^"]+)"',
        "".join(found.values()),
    )
    assert back


def test_the_received_readings_the_speakers_and_the_modern_rendering_are_shown(site: Path) -> None:
    shiyu = pages(site)["shiyu.html"]
    assert '<span class="var">' in shiyu and 'class="rcv"' in shiyu
    assert '<span class="who" lang="zh-Hant">蔡德晉</span>' in shiyu
    assert '<aside class="modern' in shiyu
    assert '<aside class="modern' not in pages(site)["xiangshe.html"]  # 卷四 has no rendering
    # A heading per section, landmarks.
    assert "<main" in shiyu and "<nav" in shiyu and re.search(r'<h2 id="s\d+"', shiyu)


class Nesting(HTMLParser):
    """Fails on a link inside a link."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.nested = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "a":
            self.nested += self.depth > 0
            self.depth += 1

    def handle_endtag(self, tag) -> None:
        if tag == "a":
            self.depth -= 1


def test_no_link_stands_inside_another(site: Path) -> None:
    for name, html in pages(site).items():
        parser = Nesting()
        parser.feed(html)
        assert parser.nested == 0 and parser.depth == 0, name


def test_text_is_escaped_and_marks_never_split_a_link() -> None:
    block = Block(
        "commentary",
        "<b>尸&祝</b>",
        14,
        "1a",
        pages=((4, "1b"),),
        links=((3, 5, "x&y"),),
        cited=((0, 'c14-"1', ("x&y",)),),
        readings=(Reading(4, "&", "<i>"),),
        speakers=((0, "A<B"),),
        modern=(Modern("<m>", True),),
    )
    html = str(text_html(block, {}, {"x&y": 3}))
    assert "<b>" not in html and "<i>" not in html and "A<B" not in html
    assert "&lt;b&gt;" in html and "&lt;i&gt;" in html and "A&lt;B" in html
    assert 'href="../glossary.html#e-x&amp;y"' in html and 'id="c14-&quot;1"' in html
    # The page mark inside the headword closes the link and opens it again after itself.
    assert html.count('<a href="../glossary.html#e-x&amp;y">') == 2
    parser = Nesting()
    parser.feed(html)
    assert parser.nested == 0 and parser.depth == 0


def test_a_character_no_font_draws_is_shown_by_its_code_point() -> None:
    html = str(text_html(Block("classic", "食\U000270ca", 15, None), {}, {}, {"\U000270ca"}))
    assert "\U000270ca" not in html and "U+270CA" in html
