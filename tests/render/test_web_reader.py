"""The reader view in the real browser, on a phone: Playwright driving Debian's chromium (as
tests/render/test_web.py does). The text opens at phone width, offline; a headword opens its
entry in the glossary, and an entry's "in the text" opens the text at the passage it cites."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_print import build


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("web-reader") / "dist"
    result = build(out)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture()
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    yield page
    # Nothing but the files themselves was ever asked for.
    assert all(url.startswith("file://") for url in requests), requests
    context.close()


def in_view(page, selector: str) -> bool:
    return page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return r.bottom > 0 && r.top < innerHeight && r.width > 0; }",
    )


@pytest.mark.slow
def test_a_rite_opens_at_phone_width_without_sideways_scrolling(phone, site: Path) -> None:
    for name in ("shiyu", "xiangshe"):
        phone.goto((site / "read" / f"{name}.html").as_uri())
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, name
        assert phone.locator("main p.classic").count() > 10
        # The bar's links are tap targets of 44 px at least.
        sizes = phone.eval_on_selector_all(
            ".bar nav a", "els => els.map(e => [e.offsetWidth, e.offsetHeight])"
        )
        assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes
        # A cited place's links back to its entries are 44 px high, though small in the line.
        heights = phone.eval_on_selector_all(".cited a", "els => els.map(e => e.offsetHeight)")
        assert heights and min(heights) >= 44, min(heights)


@pytest.mark.slow
def test_a_headword_in_the_text_opens_its_entry(phone, site: Path) -> None:
    phone.goto((site / "read" / "shiyu.html").as_uri())
    link = phone.locator('main p.classic a[href="../glossary.html#e-zhu"]').first
    link.scroll_into_view_if_needed()
    link.click()
    phone.wait_for_url("**/glossary.html#e-zhu")
    assert in_view(phone, "#e-zhu")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.slow
def test_in_the_text_opens_the_text_at_the_cited_passage_and_it_links_back(
    phone, site: Path
) -> None:
    phone.goto((site / "glossary.html").as_uri() + "#e-zu-ku")
    link = phone.locator("#e-zu-ku a.in-text").first
    href = link.get_attribute("href")
    assert href and href.startswith("read/")
    anchor = href.split("#", 1)[1]
    link.scroll_into_view_if_needed()
    link.click()
    phone.wait_for_url(f"**/read/*.html#{anchor}")
    assert in_view(phone, f"#{anchor}")
    assert phone.eval_on_selector(f"#{anchor}", "e => e.matches(':target')")
    # The passage names the entry that cites it, and that link leads back to the entry.
    back = phone.locator(f'#{anchor} a[href="../glossary.html#e-zu-ku"]')
    assert back.count() == 1
    back.click()
    phone.wait_for_url("**/glossary.html#e-zu-ku")
    assert in_view(phone, "#e-zu-ku")


@pytest.mark.slow
def test_the_text_follows_the_systems_dark_mode(browser, site: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    page.goto((site / "read" / "shiyu.html").as_uri())
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    colour = page.evaluate("getComputedStyle(document.querySelector('p.classic')).color")
    context.close()
    assert background == "rgb(23, 21, 15)" and colour == "rgb(233, 228, 216)"
