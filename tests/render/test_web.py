"""glossary.html as a web page, in the real browser: Playwright driving Debian's chromium.

Playwright's own browser download is not reachable here, so the tests pass ``executable_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import mini_entries
from test_print import build


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("web") / "dist"
    result = build(out, "--sheet", "乡射礼")
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture()
def phone(browser, site: Path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto((site / "glossary.html").as_uri())
    yield page
    # Nothing but the file itself was ever asked for: no CDN, no font, no image from elsewhere.
    assert all(url.startswith("file://") for url in requests), requests
    context.close()


def visible_entries(page) -> list[str]:
    return page.eval_on_selector_all(
        "[data-entry-id]",
        "els => els.filter(e => e.offsetParent !== null).map(e => e.dataset.entryId)",
    )


@pytest.mark.slow
def test_no_sideways_scrolling_at_phone_width(phone) -> None:
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # Also in the indexes and the timeline, the widest parts of the book.
    for anchor in ("#index-pinyin", "#index-radical", "#order", "#editions"):
        phone.goto(phone.url.split("#")[0] + anchor)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, anchor


def results(page, query: str) -> list[str]:
    """The entries (and rites) the search lists for ``query``, best first."""
    page.fill('input[type="search"]', query)
    return page.eval_on_selector_all(
        "#results a.hit", "els => els.map(e => e.getAttribute('href').slice(1))"
    )


@pytest.mark.slow
@pytest.mark.parametrize("query", ["xi jie", "xī jiē", "xi1 jie1", "西阶", "西階", "XI JIE"])
def test_search_finds_the_west_stair_in_either_script_and_with_or_without_tones(
    phone, query: str
) -> None:
    assert results(phone, query)[0] == "e-xi-jie"
    # The book itself stays whole while the list is open.
    assert len(visible_entries(phone)) == len(mini_entries())


@pytest.mark.slow
def test_search_by_english_words(phone) -> None:
    # The arrow rack itself first, then the entries whose definition speaks of it.
    expected = {
        f"e-{e.id}"
        for e in mini_entries().values()
        if "arrow rack" in f"{e.gloss} {e.definition}".lower()
    }
    found = results(phone, "arrow rack")
    assert found[0] == "e-bi" and expected <= set(found)
    assert results(phone, "racks arrow")[0] == "e-bi"  # any order, any number
    assert {"e-xi-jie", "e-zuo-jie"} <= set(results(phone, "stair"))
    results(phone, "")
    assert phone.locator("#results").is_hidden()


@pytest.mark.slow
def test_contents_and_indexes_are_always_one_tap_away(phone) -> None:
    phone.mouse.wheel(0, 20000)
    bar = phone.locator("header.bar")
    assert bar.is_visible() and bar.bounding_box()["y"] <= 1
    phone.click('header.bar a[href="#index-pinyin"]')
    assert phone.evaluate("location.hash") == "#index-pinyin"


@pytest.mark.slow
def test_sheet_answers_are_hidden_until_tapped(browser, site: Path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto((site / "sheet-xiangshe.html").as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    row = page.locator("table.sheet tr[id]").first
    answer = row.locator("td.answer > span").first
    assert answer.evaluate("e => getComputedStyle(e).visibility") == "hidden"
    row.click()
    assert answer.evaluate("e => getComputedStyle(e).visibility") == "visible"
    page.close()


@pytest.mark.slow
def test_sheet_answers_are_shown_by_keyboard(browser, site: Path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto((site / "sheet-xiangshe.html").as_uri())
    page.keyboard.press("Tab")
    row = page.locator("table.sheet tr[id]").first
    assert page.evaluate("document.activeElement.id") == row.get_attribute("id")
    answer = row.locator("td.answer > span").first
    assert answer.evaluate("e => getComputedStyle(e).visibility") == "hidden"
    page.keyboard.press("Enter")
    assert answer.evaluate("e => getComputedStyle(e).visibility") == "visible"
    assert row.get_attribute("aria-expanded") == "true"
    page.keyboard.press(" ")
    assert answer.evaluate("e => getComputedStyle(e).visibility") == "hidden"
    page.close()
