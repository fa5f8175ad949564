"""The shipped glossary.html as a reader's tool, in real Chromium (Debian's, through Playwright):
the search finds, in its first three results, the right entry for each kind of query issue 26
names; links work while a search is open; headings, landmarks, keyboard, permalinks, dark mode,
tap targets and print. (Speed is measured in benchmarks/web.py, never asserted here.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from glossary.normalize import fold_char

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def terms() -> dict[str, dict]:
    data = yaml.safe_load((ROOT / "terms.yaml").read_text(encoding="utf-8"))
    return {t["id"]: t for t in data}


@pytest.fixture(scope="module")
def page_url(shipped_dist: Path) -> str:
    return (shipped_dist / "glossary.html").as_uri()


@pytest.fixture(scope="module")
def phone(browser, page_url: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_url)
    yield page
    assert not errors
    context.close()


def results(page, query: str) -> list[str]:
    """The targets the search lists for ``query``, best first (``e-ID`` or ``rite-SLUG``)."""
    page.fill("#search", query)
    return page.eval_on_selector_all(
        "#results a.hit", "els => els.map(e => e.getAttribute('href').slice(1))"
    )


def folded(text: str) -> str:
    return "".join(fold_char(c) or c for c in text)


def number_of(page, entry_id: str) -> str:
    return page.text_content(f"#e-{entry_id} .num").strip()


@pytest.mark.parametrize(
    ("kind", "query", "expected"),
    [
        ("headword, simplified", "阼阶", "e-zuo-jie"),
        ("headword, traditional", "阼階", "e-zuo-jie"),
        ("one character", "尸", "e-shi"),
        ("pinyin with tone marks", "zuò jiē", "e-zuo-jie"),
        ("pinyin with tone numbers", "zuo4 jie1", "e-zuo-jie"),
        ("pinyin without tones", "zuo jie", "e-zuo-jie"),
        ("pinyin joined", "zuojie", "e-zuo-jie"),
        ("English words in any order, stemmed", "steps eastern", "e-zuo-jie"),
        ("English words", "arrow rack", "e-bi"),
        ("rite, simplified", "乡射礼", "rite-xiangshe"),
        ("rite, traditional", "鄉射禮", "rite-xiangshe"),
        ("rite, pinyin", "xiang she", "rite-xiangshe"),
        ("rite, English", "District Archery", "rite-xiangshe"),
        ("Chinese definition", "东阶", "e-zuo-jie"),
    ],
)
def test_the_right_entry_is_in_the_first_three(phone, kind: str, query: str, expected: str) -> None:
    assert expected in results(phone, query)[:3], kind


def test_a_section_number_finds_its_entry(phone) -> None:
    number = number_of(phone, "xi-jie")  # "§48"
    assert re.fullmatch(r"§\d+", number)
    assert results(phone, number)[0] == "e-xi-jie"
    assert results(phone, number[1:])[0] == "e-xi-jie"


def test_a_quotation_finds_the_entries_that_cite_it(phone, terms) -> None:
    quote = terms["bi"]["citations"][0]["quote"]
    found = results(phone, quote[:6])
    assert "e-bi" in found[:3]
    # Every entry listed cites the passage.
    for target in found:
        cited = "".join(folded(c["quote"]) for c in terms[target[2:]]["citations"])
        assert folded(quote[:6]) in cited or folded(quote[:6]) in folded(str(terms[target[2:]]))


def test_a_simplified_name_finds_what_the_traditional_finds(phone, terms) -> None:
    simplified, traditional = results(phone, "郑玄"), results(phone, "鄭玄")
    assert simplified == traditional and simplified
    # The first three name him in what they say (gloss, definitions) or quote.
    for target in simplified[:3]:
        assert "郑玄" in folded(str(terms[target[2:]]))


def test_no_results_says_so_and_suggests(phone) -> None:
    assert results(phone, "qqzzxx") == []
    assert "No entry matches" in phone.text_content("#results .no-results")
    assert phone.text_content("#search-count") == "No results"
    # A misspelling: nothing has every word, but the nearest entry is offered.
    assert "e-bi" in results(phone, "arow rack")
    assert "Did you mean" in phone.text_content("#results .suggest")


def test_a_result_opens_its_entry_by_keyboard(phone) -> None:
    results(phone, "xi jie")
    phone.focus("#search")
    phone.keyboard.press("ArrowDown")
    assert phone.evaluate("document.activeElement.getAttribute('href')") == "#e-xi-jie"
    phone.keyboard.press("Enter")
    assert phone.evaluate("location.hash") == "#e-xi-jie"
    assert phone.locator("#results").is_hidden()
    assert phone.locator("#e-xi-jie").is_visible()
    assert phone.input_value("#search") == "xi jie"  # the query stays in the box
    # Enter in the box opens the first result, Escape closes the list.
    phone.fill("#search", "zuo jie")
    phone.press("#search", "Enter")
    assert phone.evaluate("location.hash") == "#e-zuo-jie"
    phone.fill("#search", "zuo jie")
    phone.press("#search", "Escape")
    assert phone.locator("#results").is_hidden()


def test_the_query_is_in_the_address_and_restored_from_it(browser, page_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(page_url)
    page.fill("#search", "西阶")
    page.wait_for_function("new URL(location.href).searchParams.get('q') === '西阶'")
    page.goto(page_url + "?q=" + "arrow%20rack")
    assert page.input_value("#search") == "arrow rack"
    page.wait_for_selector("#results a.hit")
    assert page.get_attribute("#results a.hit", "href") == "#e-bi"
    page.fill("#search", "")
    page.wait_for_function("!new URL(location.href).searchParams.has('q')")
    context.close()


def test_links_work_while_a_search_is_open(phone, terms) -> None:
    source = next(t["id"] for t in terms.values() if t.get("related"))
    target = terms[source]["related"][0]
    results(phone, "尸")
    assert phone.locator("#results").is_visible()
    # The contents bar.
    phone.click('header.bar a[href="#contents"]')
    assert phone.evaluate("location.hash") == "#contents"
    assert phone.locator("#contents").is_visible()
    # A See also link, and the hall-plan link, of an entry, with the query still in the box.
    results(phone, "尸")
    link = phone.locator(f'#e-{source} .related a[href="#e-{target}"]')
    # Below the list (at most 60% of the screen), the book's links take a tap.
    link.evaluate("e => e.scrollIntoView({block: 'end'})")
    assert phone.locator("#results").is_visible()
    link.click()
    assert phone.evaluate("location.hash") == f"#e-{target}"
    assert phone.locator(f"#e-{target}").is_visible()
    plan = phone.locator('.entry .plan-ref a[href="#plan"]').first
    results(phone, "尸")
    plan.evaluate("e => e.scrollIntoView({block: 'end'})")
    plan.click()
    assert phone.evaluate("location.hash") == "#plan"
    assert phone.locator("#plan").is_visible()


def test_every_entry_has_a_heading_and_a_visible_permalink(phone, terms) -> None:
    articles = phone.locator("article.entry")
    assert articles.count() == len(terms)
    assert phone.locator("article.entry h3").count() == len(terms)
    # The other headings of that level are the stage plans' sections (in their own part).
    staged = phone.locator("#stages h3").count()
    assert phone.get_by_role("heading", level=3).count() == len(terms) + staged
    links = phone.eval_on_selector_all(
        "article.entry",
        "els => els.map(e => [e.id, e.querySelector('a.permalink')?.getAttribute('href')])",
    )
    assert all(href == f"#{anchor}" for anchor, href in links)
    first = phone.locator("article.entry a.permalink").first
    first.scroll_into_view_if_needed()
    assert first.is_visible()


def test_landmarks(phone) -> None:
    for role in ("banner", "main", "search"):
        assert phone.get_by_role(role).count() == 1, role
    assert phone.get_by_role("navigation", name="Book").count() == 1
    assert phone.get_by_role("navigation").count() >= 2  # the bar and the contents
    assert phone.get_by_role("region", name="Search results", include_hidden=True).count() == 1


def test_tap_targets_are_at_least_44_px(phone, terms) -> None:
    source = next(t["id"] for t in terms.values() if t.get("related"))
    phone.evaluate(f"document.getElementById('e-{source}').scrollIntoView()")
    selectors = [f"#e-{source} a.permalink", f"#e-{source} .related a"]
    selectors += ["header.bar nav a", "#search", "#results a.hit"]
    results(phone, "尸")
    for selector in selectors:
        boxes = phone.eval_on_selector_all(
            selector,
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })",
        )
        assert boxes, selector
        assert all(w >= 44 and h >= 44 for w, h in boxes), (selector, boxes)
    phone.fill("#search", "")


def test_quotations_are_at_least_the_size_of_their_loci(phone) -> None:
    sizes = phone.eval_on_selector_all(
        "article.entry .citations li",
        """els => els.slice(0, 200).map(li => {
             const size = s => parseFloat(getComputedStyle(li.querySelector(s)).fontSize);
             return [size('.quote'), size('.locus')];
           })""",
    )
    assert sizes and all(quote >= locus for quote, locus in sizes)


def luminance(colour: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", colour)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dark_mode_follows_the_system_and_text_stays_readable(
    browser, page_url: str, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    page.goto(page_url + "#e-xi-jie")
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert (luminance(background) < 0.05) == (scheme == "dark")
    for selector in (".gloss", ".definition", ".quote", ".locus", ".num", ".permalink"):
        colour = page.eval_on_selector(f"#e-xi-jie {selector}", "e => getComputedStyle(e).color")
        assert contrast(colour, background) >= 4.5, (scheme, selector, colour)
    context.close()


def test_print_gets_every_entry_and_no_search(browser, page_url: str, terms) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(page_url + "?q=尸")
    page.emulate_media(media="print")
    skipped = page.eval_on_selector_all(
        "article.entry, section.rite, .index",
        "els => els.filter(e => getComputedStyle(e).contentVisibility !== 'visible').length",
    )
    assert skipped == 0
    heights = page.eval_on_selector_all("article.entry", "els => els.map(e => e.offsetHeight)")
    assert len(heights) == len(terms) and all(h > 0 for h in heights)
    assert page.locator("header.bar").is_hidden() and page.locator("#results").is_hidden()
    assert page.locator("article.entry a.permalink").first.is_hidden()
    context.close()
