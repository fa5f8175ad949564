"""Glyph entities (&KR1152;) shown as the character they stand for, framed, on cards and in the book."""

from __future__ import annotations

import re

from glossary.render import glyphs
from glossary.render.anki.notes import template_env, text
from glossary.render.markup import mark_cjk
from glossary.render.printed import _env


def test_a_listed_entity_shows_its_character_framed_with_its_evidence() -> None:
    html = str(glyphs.mark("君象&KR1152;所饌"))
    assert re.fullmatch(r'君象<span class="glyph" lang="zh" title="[^"<>]*">觚</span>所饌', html)
    assert "KR1152" in html and "KR1d0044_005.txt:104" in html and "&KR1152;" not in html


def test_an_unlisted_entity_is_the_missing_glyph_mark() -> None:
    html = str(glyphs.mark("a&KR0238;b"))
    assert ">〓</span>" in html and "no witness" in html


def test_the_text_around_is_escaped_and_marking_twice_changes_nothing() -> None:
    html = str(glyphs.mark("<b>&KR1951;</b>"))
    assert html.startswith("&lt;b&gt;<span") and html.endswith("</span>&lt;/b&gt;")
    # The tooltip names the entity without & and ;, so a second pass finds nothing to mark.
    assert glyphs.mark_escaped(html) == html


def test_a_card_field_and_a_card_template_show_the_character() -> None:
    assert ">觚</span>" in text("取&KR1152;洗")
    rendered = template_env().from_string("<p>{{ q }}</p>").render(q="取&KR1152;洗")
    assert ">觚</span>" in rendered and "&amp;KR" not in rendered


def test_the_book_shows_the_character_in_plain_text_and_in_marked_chinese() -> None:
    rendered = _env().from_string("<p>{{ q }}</p>").render(q="菹&KR1951;也 <i>")
    assert ">刌</span>" in rendered and "&lt;i&gt;" in rendered
    marked = str(mark_cjk("離肺&KR1951;肺"))
    # The Chinese around is marked as Chinese; the frame's tooltip is not wrapped again.
    assert marked.count('<span lang="zh">') == 2 and ">刌</span>" in marked
    tooltip = re.search(r'title="([^"]*)"', marked)
    assert tooltip and "<" not in tooltip.group(1)


def test_the_reader_view_shows_the_character() -> None:
    from glossary.render.reader import plain_html

    assert ">刌</span>" in str(plain_html("菹&KR1951;也"))
