"""The shipped deck's stage-plan cards in a real Anki collection (issue 29): each asks one thing
(the front's drawing never draws the asked actor, a reverse front never shows its answer, no two
fronts ask one question with different answers), and in the new-card queue they come after the
words of their rite, with the package's preset (card by card) and with Anki's default options (day
by day: those sort a day's new cards by card type).

The shipped glossary (stages.yaml included) is built once per run (``shipped_dist``).
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from pathlib import Path

import pytest
from anki.collection import (
    CardId,
    Collection,
)
from anki_collection import installed, scheduler, type_of

from glossary.normalize import normalize
from glossary.render.anki.package import STAGE_DECK
from glossary.render.anki.stages import ASKED

pytestmark = pytest.mark.slow

STAGE = "Yili glossary stage plan"


def plain(value: str) -> str:
    value = re.sub(r"<style>.*?</style>", "", value, flags=re.S)
    value = re.sub(r"<rt>.*?</rt>", "", value, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", value))).strip()


def drawing(col: Collection, side: str) -> str:
    """The SVG a card side shows (its only image)."""
    sources = re.findall(r'<img src="([^"]+)"', side)
    assert len(sources) == 1, sources
    return (Path(col.media.dir()) / sources[0]).read_text(encoding="utf-8")


def texts(svg: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, flags=re.S)]


@pytest.fixture(scope="module")
def package(shipped_dist: Path) -> Path:
    return shipped_dist / "yili-glossary.apkg"


def test_each_stage_card_asks_one_thing(package: Path, tmp_path: Path) -> None:
    with installed(tmp_path, package, presets=False) as col:
        cids = col.find_cards(f'"note:{STAGE}"')
        assert len(cids) > 150
        fronts: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        questions: dict[tuple[str, ...], int] = defaultdict(int)
        kinds: dict[str, int] = defaultdict(int)
        for cid in cids:
            card = col.get_card(cid)
            note = card.note()
            template = str(card.template()["name"])
            kinds[template] += 1
            actor = note["Actor"]
            front, back = card.question(), card.answer()
            front_svg, back_svg = drawing(col, front), drawing(col, back)
            # The back draws the whole step, the asked actor labelled.
            assert actor in texts(back_svg), (note["Key"], template)
            assert col.decks.name(card.did).endswith(f"::{STAGE_DECK}")
            if template == "Place and facing":
                # The given actor is named in the question, never drawn on its plan.
                assert actor not in texts(front_svg), note["Key"]
                assert ASKED not in texts(front_svg)
                assert actor in plain(front)
                answer = f"{note['Place']} {note['Facing']}"
                questions[
                    (
                        template,
                        note["Rite"],
                        note["Section"],
                        note["Id"],
                        note["Place"],
                        note["Facing"],
                    )
                ] += 1
            else:
                assert template == "Who stands here", template
                # Neither the question nor its drawing names the actor it asks for.
                forms = {normalize(actor), normalize(plain(note["Ruby"]))}
                shown = normalize(plain(front))
                assert not [f for f in forms if f in shown], (note["Key"], plain(front))
                assert actor not in texts(front_svg) and texts(front_svg).count(ASKED) == 1
                answer = note["Id"]
                questions[
                    (template, note["Rite"], note["Section"], note["Place"], note["Facing"])
                ] += 1
            # One question, one answer: the same front (its text and its drawing) never asks
            # for two different answers.
            fronts[(template, plain(front), front_svg)].add(answer)
        assert kinds["Place and facing"] > 100 and kinds["Who stands here"] > 50
        clashes = {k[:2]: v for k, v in fronts.items() if len(v) > 1}
        assert not clashes, list(clashes.items())[:5]
        # A section of a rite (鄉飲酒禮 and 鄉射禮 both have a 迎賔) asks an actor at a place and
        # facing once, and who stands at one once.
        twice = [q for q, n in questions.items() if n > 1]
        assert not twice, twice[:5]


@pytest.mark.parametrize("presets", [True, False], ids=["shipped-preset", "default-options"])
def test_stage_cards_come_after_their_rites_words(
    package: Path, tmp_path: Path, presets: bool
) -> None:
    with installed(tmp_path, package, presets=presets) as col:
        seen: list[int] = []
        day_of: dict[int, int] = {}
        for day in range(2000):
            queued = scheduler(col).get_queued_cards(fetch_limit=200).cards
            today = [q.card.id for q in queued if q.queue == 0]
            if not today:
                break
            seen.extend(today)
            day_of.update((cid, day) for cid in today)
            col.sched.set_due_date(today, "365")
        assert len(seen) == len(col.find_cards("")), "every card came"
        last_word: dict[str, int] = {}
        stage: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for k, cid in enumerate(seen):
            card = col.get_card(CardId(cid))
            deck = col.decks.name(card.did).split("::")
            if len(deck) < 3 or not deck[1][:2].isdigit() or deck[1].startswith("18 "):
                continue
            if type_of(card.note())["name"] == STAGE:
                stage[deck[1]].append((k, card.ord))
            else:
                last_word[deck[1]] = k
        assert len(stage) >= 3, sorted(stage)
        for rite, cards in stage.items():
            if presets:
                assert min(k for k, _ in cards) > last_word[rite], rite
            else:
                # Anki's default sort order puts a day's cards in card-type order (a stage
                # card's first template before a word's Recall): after them by the day.
                first = day_of[seen[min(k for k, _ in cards)]]
                assert first >= day_of[seen[last_word[rite]]], rite
            if presets:
                # Every "place and facing" card of the rite, then every "who stands here".
                forward = [k for k, ord_ in cards if ord_ == 0]
                reverse = [k for k, ord_ in cards if ord_ == 1]
                assert reverse and max(forward) < min(reverse), rite


def test_every_stage_card_fits_two_phone_screens(package: Path, tmp_path: Path) -> None:
    """Each side of every stage card, its drawing shown, at 400 px: within two 400×800 screens,
    in both modes (rendered by Chromium with the cards' own style)."""
    import base64

    from anki_collection import note_type
    from playwright.sync_api import sync_playwright

    with installed(tmp_path, package, presets=False) as col:
        css = note_type(col, STAGE)["css"]
        media = Path(col.media.dir())

        def inline(side: str) -> str:
            side = re.sub(r"<style>.*?</style>", "", side, flags=re.S)
            return re.sub(
                r'src="([^"]+)"',
                lambda m: (
                    'src="data:image/svg+xml;base64,'
                    + base64.b64encode((media / m.group(1)).read_bytes()).decode()
                    + '"'
                ),
                side,
            )

        sides = []
        for cid in col.find_cards(f'"note:{STAGE}"'):
            card = col.get_card(cid)
            sides += [inline(card.question()), inline(card.answer())]
    assert sides
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 400, "height": 800})
        heights: list[int] = []
        for body in ("card card1", "card card1 nightMode night_mode"):
            for start in range(0, len(sides), 100):
                page.set_content(
                    f"<html><head><style>{css} body{{margin:0}}</style></head><body>"
                    + "".join(
                        f'<div class="sample {body}" style="width:400px">{s}</div>'
                        for s in sides[start : start + 100]
                    )
                    + "</body></html>"
                )
                page.wait_for_load_state("load")
                heights += page.evaluate(
                    "() => [...document.querySelectorAll('.sample')].map(e => e.offsetHeight)"
                )
        browser.close()
    assert min(heights) > 300  # the drawings are there
    assert max(heights) <= 1600, max(heights)
