"""The checks of the stage plans on the mini project: a good plan passes, each rule's fault is
said (the faults case: tests/cases/projects/stage-faults/)."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURES, MINI_CORPUS, make_project

from glossary.check import check_project
from glossary.corpus.model import Locus
from glossary.model import Place
from glossary.stages.load import load_stages
from glossary.stages.rules import choose_loci, names_of, says_facing

MINI_STAGES = FIXTURES / "stages-mini.yaml"


def staged_project(folder: Path) -> Path:
    """The mini project with the mini stage plans beside it."""
    project = make_project(folder, corpus=False)
    shutil.copyfile(MINI_STAGES, project / "stages.yaml")
    return project


def test_the_mini_stage_plans_pass_and_each_quote_gets_its_locus(tmp_path: Path, index) -> None:
    project = staged_project(tmp_path / "p")
    report = check_project(project / "terms.yaml", MINI_CORPUS, index=index)
    assert not report.failed(strict=True), "\n".join(map(str, report.problems))
    assert report.stages is not None
    quoted = [
        item
        for section in report.stages.sections
        for step in section.steps
        for item in step.items
        if item.citation is not None
    ]
    assert set(report.stage_loci) == {item.path for item in quoted}
    # The primary text's passage, in the section, though the seed page holds it too.
    for item in quoted:
        locus = report.stage_loci[item.path]
        assert (locus.work, locus.layer) == ("KR1d0044", "classic")
        assert locus.section == report.stages.sections[0 if "sections[0]" in item.path else 1].name


def test_a_quote_outside_its_section_is_a_locus_mismatch(tmp_path: Path, index) -> None:
    project = staged_project(tmp_path / "p")
    text = (project / "stages.yaml").read_text(encoding="utf-8")
    # 遂適堂前北面立于所設楅之南 stands in 取矢, not in 請射.
    text = text.replace("quote: 司射適阼階上東北面告于主人", "quote: 遂適堂前北面立于所設楅之南")
    (project / "stages.yaml").write_text(text, encoding="utf-8")
    report = check_project(project / "terms.yaml", MINI_CORPUS, index=index)
    said = [(p.path, p.code) for p in report.problems]
    assert ("rites[0].sections[0].steps[0].placements[0].section", "Y202") in said, said


def test_facing_is_a_whole_word() -> None:
    assert says_facing("賔西階上北面答拜", "北面")
    assert not says_facing("司射適阼階上東北面告于主人", "北面")
    assert says_facing("司射適阼階上東北面告于主人", "東北面")
    assert not says_facing("當楅南北面坐", "南面")
    assert says_facing("主人西南面三拜衆賔", "西南面")
    # 阼階東南面: east of the stairs (the qualifier), facing south.
    assert not says_facing("主人阼階東南面辭洗", "南面")
    assert says_facing("主人阼階東南面辭洗", "南面", ["阼階東"])


def test_a_place_is_named_by_label_alias_or_its_entrys_headwords() -> None:
    from conftest import mini_entries

    place = Place("xi-jie", "西階", "steps", 0, 0, 1, term="xi-jie", aliases=("賔階",))
    names = names_of(place, mini_entries())
    assert names[:2] == ("西階", "賔階")
    assert "西阶" in names  # the entry's simplified headword


def _locus(file: str, start: int, work: str = "KR1d0044") -> Locus:
    return Locus(
        work, "", file, 4, None, None, None, "請射", "classic", None, 1, start, start + 3, "", ""
    )


def test_a_repeated_quote_is_given_its_next_place_in_the_section(tmp_path: Path) -> None:
    path = tmp_path / "stages.yaml"
    path.write_text(
        "rites:\n- rite: 乡射礼\n  sections:\n  - section: 請射\n    steps:\n"
        "    - placements: [{actor: si-she, place: xi-jie, quote: 升自西階}]\n"
        "    - placements: [{actor: si-she, place: xi-jie, quote: 升自西階}]\n",
        encoding="utf-8",
    )
    stages, _ = load_stages(path)
    assert stages is not None
    first, second = (step.placements[0].path for step in stages.sections[0].steps)
    both = [_locus("a", 10), _locus("a", 50), _locus("seed", 5, work="seed")]
    chosen = choose_loci(stages, {first: both, second: both}, primary="KR1d0044")
    assert (chosen[first].start, chosen[second].start) == (10, 50)
    # Without another place in the section, the same passage (Y612 says so).
    chosen = choose_loci(stages, {first: both[:1], second: both[:1]}, primary="KR1d0044")
    assert chosen[first] == chosen[second]
