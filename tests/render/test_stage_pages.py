"""The stage plans in the book, the web page and the reader view (mini project with
stages-mini.yaml): every step drawn with its note and passages, the order of the rites pointing to
them, the reader's section showing them beside its text; in real Chromium at phone width a
step-through that a keyboard drives and whose marks open their entries, offline; printed, the
book's page references to them are the pages they stand on."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES
from plan_geometry import overlapping, text_boxes
from test_print import build, destinations

from glossary.render.plan_svg import MIN_LABEL_PX

STEPS = [("請射", 3), ("取矢", 2)]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("stage-pages") / "dist"
    result = build(out, stages=True)
    assert result.exit_code == 0, result.output
    return out


def _quotes() -> set[str]:
    data = yaml.safe_load((FIXTURES / "stages-mini.yaml").read_text(encoding="utf-8"))
    return {
        item["quote"]
        for rite in data["rites"]
        for section in rite["sections"]
        for step in section["steps"]
        for item in step.get("placements", []) + step.get("movements", [])
        if "quote" in item
    }


def _svgs(html: str) -> list[str]:
    return re.findall(r'<svg xmlns="http://www.w3.org/2000/svg" class="yp ys".*?</svg>', html, re.S)


def test_the_book_prints_every_step_after_the_order_of_the_rites(site: Path) -> None:
    text = (site / "glossary.html").read_text(encoding="utf-8")
    start, order = text.index('id="stages"'), text.index('id="order"')
    assert order < start < text.index('id="rite-xiangshe"')
    page = text[start : text.index('<div class="part-entries">')]
    for n, (name, steps) in enumerate(STEPS, 1):
        section = page[page.index(f'id="st-xiangshe-{n}"') :]
        assert f'<span lang="zh-Hant">{name}</span>' in section[:600]
        for k in range(1, steps + 1):
            assert f'id="st-xiangshe-{n}-{k}"' in section
    assert page.count('<figure class="stage-step"') == sum(k for _, k in STEPS)
    # Under each plan the passages that place the actors: every quote of the file.
    shown = set(re.findall(r'<span class="quote" lang="zh-Hant">「([^<]*)」</span>', page))
    assert shown == _quotes()
    assert "(still)" in page  # the carried placement of 請射's third step
    # The order of the rites points to each section's plans, with its page.
    timeline = text[order:start]
    for n in (1, 2):
        assert re.search(
            rf'<a class="stage-plans-link" href="#st-xiangshe-{n}">plans<span class="onpage"> '
            r'p\.&#8239;<span class="pageref">\d+</span>',
            timeline,
        )
    toc = text[text.index('id="contents"') :]
    assert '<a href="#stages">Stage plans' in toc[: toc.index("</nav>")]
    # Every mark and every actor's line leads to an entry of the book.
    ids = set(re.findall(r' id="(e-[a-z0-9-]+)"', text))
    links = re.findall(r'href="#(e-[a-z0-9-]+)"', page)
    assert links and set(links) <= ids
    # The symbols are explained once, on the page, not under every plan.
    assert "stands, faces the arrow" not in page
    assert len(_svgs(page)) == sum(k for _, k in STEPS)


def test_the_books_plans_are_legible_where_they_print_and_on_a_phone(site: Path) -> None:
    text = (site / "glossary.html").read_text(encoding="utf-8")
    for svg in _svgs(text):
        ET.fromstring(svg)
        # Three to a row of the page (about 215 CSS px): labels of at least 10.5 px (8 pt).
        printed = text_boxes(svg, card_width=215)
        assert min(b.px for b in printed) >= 10.5
        assert min(b.px for b in text_boxes(svg, card_width=400)) >= MIN_LABEL_PX
        assert overlapping(printed) == []


def test_the_reader_shows_a_sections_plans_in_its_section(site: Path) -> None:
    text = (site / "read" / "xiangshe.html").read_text(encoding="utf-8")
    for n, (name, steps) in enumerate(STEPS, 1):
        heading = re.search(rf'<h2 id="(s\d+)" lang="zh-Hant">{name}</h2>', text)
        assert heading is not None, name
        after = text[heading.end() :]
        assert after.lstrip().startswith(f'<section class="stage" id="st-xiangshe-{n}"'), name
        stage = after[: after.index("</section>")]
        assert stage.count('<figure class="stage-step"') == steps
        assert '<button type="button" class="stage-next"' in stage
    # Marks lead to the entries of the web glossary; the plans are drawn for a phone, with
    # their legend, and repaint on a dark screen.
    assert 'href="../glossary.html#e-si-she"' in text
    assert "stands, faces the arrow" in text
    assert "@media screen and (prefers-color-scheme:dark){" in text
    assert "<script src" not in text and "stageShow" in text  # the script inline, no file to load
    for svg in _svgs(text):
        assert min(b.px for b in text_boxes(svg, card_width=358)) >= MIN_LABEL_PX
    # Nothing from the network.
    assert not re.search(r'(?:src|href)="(?:https?:)?//', text)
    # The web glossary links each section to its text.
    book = (site / "glossary.html").read_text(encoding="utf-8")
    assert 'href="read/xiangshe.html#st-xiangshe-1"' in book


def test_same_input_same_bytes(site: Path, tmp_path: Path) -> None:
    again = tmp_path / "dist"
    result = build(again, stages=True)
    assert result.exit_code == 0, result.output
    for name in ("glossary.html", "read/xiangshe.html"):
        assert (again / name).read_bytes() == (site / name).read_bytes(), name


def test_without_stage_plans_the_book_has_none(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    assert build(out).exit_code == 0
    text = (out / "glossary.html").read_text(encoding="utf-8")
    assert 'id="stages"' not in text and 'class="stage-plans-link"' not in text
    assert 'class="stage"' not in (out / "read" / "xiangshe.html").read_text(encoding="utf-8")


# -- in real Chromium ----------------------------------------------------------------------


@pytest.fixture()
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    yield page
    assert all(url.startswith("file://") for url in requests), requests
    context.close()


def _visible_steps(page, section: str) -> list[str]:
    return page.eval_on_selector_all(
        f"#{section} .stage-step", "els => els.filter(e => e.offsetHeight > 0).map(e => e.id)"
    )


@pytest.mark.slow
def test_a_phone_steps_through_a_section_and_a_mark_opens_its_entry(phone, site: Path) -> None:
    phone.goto((site / "read" / "xiangshe.html").as_uri() + "#st-xiangshe-1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    section = "st-xiangshe-1"
    position = phone.locator(f"#{section} .stage-pos")
    previous, following = (
        phone.locator(f"#{section} .stage-prev"),
        phone.locator(f"#{section} .stage-next"),
    )
    assert position.inner_text() == "Step 1 of 3"
    assert _visible_steps(phone, section) == [f"{section}-1"]
    assert previous.is_disabled() and following.is_enabled()
    for button in (previous, following):
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
    # The keyboard: Tab to the button, Enter and Space press it, the arrow keys step too.
    following.focus()
    phone.keyboard.press("Enter")
    assert position.inner_text() == "Step 2 of 3"
    assert _visible_steps(phone, section) == [f"{section}-2"]
    phone.keyboard.press("Space")
    assert position.inner_text() == "Step 3 of 3" and following.is_disabled()
    previous.focus()
    phone.keyboard.press("ArrowLeft")
    assert position.inner_text() == "Step 2 of 3"
    # The section's text is on the page with its plan: the passage the step quotes.
    step = phone.locator(f"#{section}-2")
    assert "司射降自西階" in step.inner_text()
    assert "司射降自西階" in phone.locator(f"#{section}").locator("xpath=..").inner_text()
    # Every label of the shown plan is at least 12 px on the phone, drawn inside its box.
    sizes = phone.eval_on_selector_all(
        f"#{section}-2 svg text",
        "els => els.map(e => e.getBoundingClientRect().height /"
        " (e.getBBox().height || 1) * parseFloat(e.getAttribute('font-size')))",
    )
    assert sizes and min(sizes) >= MIN_LABEL_PX, min(sizes)
    # A mark is a link to its entry, carrying its passage.
    mark = phone.locator(f"#{section}-2 svg a").first
    assert "司射降自西階階前西面命弟子納射器" in mark.locator("title").text_content()
    mark.locator("text").click()
    phone.wait_for_url("**/glossary.html#e-si-she")
    assert phone.evaluate("location.hash") == "#e-si-she"
    assert phone.locator("#e-si-she").is_visible()


@pytest.mark.slow
def test_the_web_glossary_steps_through_and_a_step_opens_by_its_link(phone, site: Path) -> None:
    phone.goto((site / "glossary.html").as_uri() + "#st-xiangshe-1-2")
    section = "st-xiangshe-1"
    assert phone.locator(f"#{section} .stage-pos").inner_text() == "Step 2 of 3"
    assert _visible_steps(phone, section) == [f"{section}-2"]
    phone.locator(f"#{section} .stage-next").click()
    assert _visible_steps(phone, section) == [f"{section}-3"]


@pytest.mark.slow
def test_the_plans_follow_a_dark_screen(browser, site: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    page.goto((site / "read" / "xiangshe.html").as_uri() + "#st-xiangshe-1")
    fills = page.eval_on_selector_all(
        "#st-xiangshe-1-1 svg .yp-bg-f", "els => els.map(e => getComputedStyle(e).fill)"
    )
    assert fills and all(f == "rgb(28, 28, 30)" for f in fills), fills
    context.close()


@pytest.mark.slow
def test_printed_the_references_to_the_plans_are_their_pages(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    result = build(out, "--pdf", stages=True)
    assert result.exit_code == 0, result.output
    text = (out / "glossary.html").read_text(encoding="utf-8")
    targets = destinations(out / "glossary.pdf")
    refs = re.findall(
        r'<a class="stage-plans-link" href="#([a-z0-9-]+)">plans<span class="onpage"> '
        r'p\.&#8239;<span class="pageref">(\d+)</span>',
        text,
    )
    assert len(refs) == len(STEPS)
    for anchor, page in refs:
        assert targets[anchor] == int(page), anchor
    contents = re.search(r'<a href="#stages">.*?<span class="pg">(\d+)</span>', text)
    assert contents is not None and targets["stages"] == int(contents.group(1))
