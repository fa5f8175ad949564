"""``stages.json``: every step of the stage plans in the issue's shape, deterministic."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import FIXTURES, MINI_CORPUS, make_project

from glossary.build import gather
from glossary.check import check_project
from glossary.model import Glossary
from glossary.render import stages_json

STEP_KEYS = {"rite", "section", "step", "placements", "movements"}
PLACEMENT_KEYS = {"actor", "place", "facing", "quote", "locus", "qualifier", "carried"}
MOVEMENT_KEYS = {"actor", "from", "to", "quote", "locus"}


def _glossary(folder: Path, index) -> Glossary:
    project = make_project(folder, corpus=False)
    shutil.copyfile(FIXTURES / "stages-mini.yaml", project / "stages.yaml")
    report = check_project(project / "terms.yaml", MINI_CORPUS, index=index)
    assert not report.failed(), report.problems
    return gather(report, project)


def test_every_step_in_order_with_its_placements_and_movements(tmp_path: Path, index) -> None:
    glossary = _glossary(tmp_path / "p", index)
    data = json.loads(stages_json.render(glossary)["stages.json"])
    assert [(s["rite"], s["section"], s["step"]) for s in data] == [
        ("鄉射禮", "請射", 1),
        ("鄉射禮", "請射", 2),
        ("鄉射禮", "請射", 3),
        ("鄉射禮", "取矢", 1),
        ("鄉射禮", "取矢", 2),
    ]
    for step in data:
        assert STEP_KEYS <= set(step) <= STEP_KEYS | {"note", "repeat"}
        for placement in step["placements"]:
            assert set(placement) == PLACEMENT_KEYS
            # The usual locus fields of terms.json's citations.
            assert {"work", "juan", "page", "page_id", "section", "layer", "line", "text"} <= set(
                placement["locus"]
            )
        for movement in step["movements"]:
            assert set(movement) == MOVEMENT_KEYS
    first = data[0]["placements"][0]
    assert (first["actor"], first["place"], first["facing"], first["carried"]) == (
        "si-she",
        "zuo-jie",
        "東北面",
        False,
    )
    assert first["locus"]["section"] == "請射" and first["locus"]["work"] == "KR1d0044"
    assert data[1]["movements"][0] | {"locus": None} == {
        "actor": "si-she",
        "from": "zuo-jie",
        "to": "xi-jie",
        "quote": "司射降自西階",
        "locus": None,
    }
    # A carried placement shows the passage that put the actor there.
    carried, placed = data[2]["placements"][0], data[1]["placements"][0]
    assert carried["carried"] and (carried["quote"], carried["locus"]) == (
        placed["quote"],
        placed["locus"],
    )


def test_the_file_is_deterministic_and_absent_without_stage_plans(tmp_path: Path, index) -> None:
    glossary = _glossary(tmp_path / "p", index)
    assert stages_json.render(glossary) == stages_json.render(_glossary(tmp_path / "q", index))
    plain = make_project(tmp_path / "r", corpus=False)
    report = check_project(plain / "terms.yaml", MINI_CORPUS, index=index)
    assert stages_json.render(gather(report, plain)) == {}
