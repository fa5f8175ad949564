"""The stage-plan notes (glossary/render/anki/stages.py) on the mini fixture (stages-mini.yaml,
plan-mini.yaml): one note per placement the text states, no question asked twice, the asked
actor's mark left off the front, the reverse card only where one actor stands at the place,
GUIDs from (rite, section, step, actor), the rite's deck, after the rite's words."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import shutil
import sqlite3
import tempfile
import zipfile
from pathlib import Path

import genanki
import pytest
from conftest import FIXTURES, MINI_CORPUS, make_project

from glossary.build import gather
from glossary.check import check_project
from glossary.model import Glossary, Placement, Stages
from glossary.render.anki.ids import NAMESPACE
from glossary.render.anki.models import SPECS, STAGE_MODEL_ID
from glossary.render.anki.package import ROOT_DECK, STAGE_DECK, home_deck
from glossary.render.anki.render import note_specs, positions, render, stage_ords
from glossary.render.anki.stages import ASKED, stage_cards

NAMES = [name for name, _ in SPECS["stage"][0]]


@pytest.fixture(scope="module")
def glossary(tmp_path_factory: pytest.TempPathFactory, index) -> Glossary:
    project = make_project(tmp_path_factory.mktemp("anki-stages") / "p", corpus=False)
    shutil.copyfile(FIXTURES / "stages-mini.yaml", project / "stages.yaml")
    report = check_project(project / "terms.yaml", MINI_CORPUS, index=index)
    assert not report.failed(), report.problems
    return gather(report, project)


def crowded(glossary: Glossary) -> Glossary:
    """The fixture with the director of archery still standing in 取矢's first step, at the place
    and facing of the master of the horse (as a step of a real rite may have two actors there)."""
    assert glossary.stages is not None
    sections = list(glossary.stages.sections)
    section = sections[1]
    step = section.steps[0]
    extra = Placement(
        "si-she", "bi", "extra", 0, qualifier="南", facing="北面", carried=True, citation=None
    )
    step = dataclasses.replace(step, placements=(*step.placements, extra))
    sections[1] = dataclasses.replace(section, steps=(step, *section.steps[1:]))
    return dataclasses.replace(glossary, stages=Stages(tuple(sections)))


def fields(spec) -> dict[str, str]:
    return dict(zip(NAMES, spec.fields))


def svg_of(cards, field: str) -> str:
    match = re.fullmatch(r'<img src="([^"]+)">', field)
    assert match is not None, field
    return cards.media[match.group(1)].decode("utf-8")


def labels(svg: str) -> set[str]:
    return {t for t in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, flags=re.S)}


def test_one_note_per_stated_placement_and_no_question_twice(glossary: Glossary) -> None:
    cards = stage_cards(glossary)
    # 請射: steps 1 and 2 (step 3 is carried); 取矢: step 1 (step 2 asks step 1's question again).
    assert [s.key for s in cards.specs] == [
        "stage:乡射礼/請射/1/1/si-she",
        "stage:乡射礼/請射/1/2/si-she",
        "stage:乡射礼/取矢/1/1/si-ma",
    ]
    first = fields(cards.specs[0])
    assert (first["Actor"], first["Place"], first["Facing"], first["Id"]) == (
        "司射",
        "阼階 上",
        "東北面",
        "si-she",
    )
    assert "司射適阼階上東北面告于主人" in first["Citation"] and "〈請射〉" in first["Citation"]
    assert first["Section"] == "請射" and first["Step"] == "1" and first["Steps"] == "3"
    assert first["Key"].startswith("04 乡射礼 ")
    assert cards.specs[0].tags == (
        "yili::category::stage",
        "yili::layer::classic",
        "yili::rite::乡射礼",
    )
    assert all(s.kind == "stage" and s.category == "stage" for s in cards.specs)


def test_guids_hang_on_rite_section_step_and_actor_only(glossary: Glossary) -> None:
    specs = stage_cards(glossary).specs
    assert specs[0].guid == genanki.guid_for(NAMESPACE, "stage", "乡射礼/請射/1/1/si-she")
    assert len({s.guid for s in specs}) == len(specs)
    # Another wording of the step changes the note, not its GUID.
    assert glossary.stages is not None
    section = glossary.stages.sections[0]
    step = dataclasses.replace(section.steps[0], note="said otherwise")
    edited = dataclasses.replace(
        glossary,
        stages=Stages(
            (
                dataclasses.replace(section, steps=(step, *section.steps[1:])),
                *glossary.stages.sections[1:],
            )
        ),
    )
    again = stage_cards(edited).specs
    assert [s.guid for s in again] == [s.guid for s in specs]
    assert again[0].content() != specs[0].content() and again[1:] == specs[1:]


def test_the_front_leaves_the_asked_actor_off_and_the_back_draws_him(glossary: Glossary) -> None:
    g = crowded(glossary)
    cards = stage_cards(g)
    note = fields(next(s for s in cards.specs if s.key.endswith("取矢/1/1/si-ma")))
    front, back = svg_of(cards, note["Plan"]), svg_of(cards, note["PlanAnswer"])
    assert "司馬" not in labels(front) and "司射" in labels(front)  # the other actor is there
    assert {"司馬", "司射"} <= labels(back)
    # The front's drawing carries no passage (a mark's title would otherwise hold its quote).
    assert "司馬襲" not in front and "遂適堂前" not in front and "遂適堂前" in back
    # The places the section names are labelled alike on both sides.
    assert "楅" in labels(front) and "楅" in labels(back)


def test_the_reverse_is_made_only_where_one_actor_stands_there(glossary: Glossary) -> None:
    cards = stage_cards(glossary)
    assert [len(stage_ords(s)) for s in cards.specs] == [2, 2, 2]
    note = fields(cards.specs[0])
    reverse = svg_of(cards, note["PlanReverse"])
    assert ASKED in labels(reverse) and "司射" not in labels(reverse)
    assert note["CueSection"] == "請射"
    # In 取矢 the director of archery shares the master of the horse's place and facing: the
    # reverse would have two answers, so his note makes only its first card.
    busy = stage_cards(crowded(glossary))
    si_ma = next(s for s in busy.specs if s.key.endswith("取矢/1/1/si-ma"))
    assert fields(si_ma)["PlanReverse"] == "" and stage_ords(si_ma) == [0]


def test_the_reverse_front_masks_the_actor_in_the_section_name(glossary: Glossary) -> None:
    assert glossary.stages is not None
    section = dataclasses.replace(glossary.stages.sections[0], name="司射請射")
    renamed = dataclasses.replace(glossary, stages=Stages((section, *glossary.stages.sections[1:])))
    note = fields(stage_cards(renamed).specs[0])
    assert note["Section"] == "司射請射" and note["CueSection"] == "～請射"


def test_the_rites_deck_after_its_words(glossary: Glossary) -> None:
    specs = note_specs(glossary)
    stage = [s for s in specs if s.kind == "stage"]
    assert stage and {home_deck(s) for s in stage} == {f"{ROOT_DECK}::04 乡射礼::{STAGE_DECK}"}
    due = positions(specs)
    rite = stage[0].rites[0]
    words = [
        d
        for s in specs
        if s.kind in ("term", "cloze", "sequence") and rite in s.rites
        for d in due[s.key].values()
    ]
    forward = [due[s.key][0] for s in stage]
    reverse = [due[s.key][1] for s in stage if 1 in due[s.key]]
    assert min(forward) > max(words)
    assert forward == sorted(forward) and max(forward) < min(reverse)  # book order, then reverses
    # Every card has a place of its own among the new cards.
    every = [d for cards in due.values() for d in cards.values()]
    assert len(every) == len(set(every))


def _collection(apkg: bytes) -> tuple[sqlite3.Connection, set[str]]:
    archive = zipfile.ZipFile(io.BytesIO(apkg))
    folder = Path(tempfile.mkdtemp())
    (folder / "c.anki2").write_bytes(archive.read("collection.anki2"))
    media = set(json.loads(archive.read("media")).values())
    return sqlite3.connect(folder / "c.anki2"), media


def test_the_packages_hold_the_stage_notes_and_are_deterministic(glossary: Glossary) -> None:
    first, _ = render(glossary)
    second, _ = render(glossary)
    assert first == second
    for package in ("yili-glossary.apkg", "yili-xiangshe.apkg"):
        db, media = _collection(first[package])
        models = db.execute("select models from col").fetchone()[0]
        assert str(STAGE_MODEL_ID) in models and "Yili glossary stage plan" in models
        rows = db.execute(
            "select n.flds from notes n where n.mid = ?", (STAGE_MODEL_ID,)
        ).fetchall()
        assert len(rows) == 3
        cards = db.execute(
            "select count() from cards c join notes n on c.nid = n.id where n.mid = ?",
            (STAGE_MODEL_ID,),
        ).fetchone()[0]
        assert cards == 6
        named = {m for (flds,) in rows for m in re.findall(r'src="([^"]+)"', flds)}
        assert named and named <= media
        db.close()
