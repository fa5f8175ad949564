"""The order of each rite, read from the corpus' own 右… markers (mini corpus)."""

from __future__ import annotations

import re

from conftest import raw

from glossary.enrich.sequence import sequences

#: The 四庫 text's files of the mini corpus, by the id of the rite their 卷 is.
JUAN_FILES = {
    "xiangshe": "kanripo/KR1d0044/KR1d0044_004.txt",
    "shiyu": "kanripo/KR1d0044/KR1d0044_014.txt",
    "tesheng": "kanripo/KR1d0044/KR1d0044_015.txt",
}


def markers(path: str) -> list[str]:
    """Section names in the order their markers (``　　　右取矢　…``) stand in the file."""
    return re.findall(r"^\u3000{3}右([^\u3000(¶]+)", raw(path), re.MULTILINE)


def test_each_rite_follows_its_markers(corpus) -> None:
    found = sequences(corpus)
    assert set(found) == set(JUAN_FILES) | {"yousiche"}
    # 卷十六's 有司徹 (from 有司徹埽堂): its first marker wraps onto a second line.
    assert [step.name for step in found["yousiche"]] == [
        "兄弟之後生者舉觶于其長賓及次賓舉爵于尸遂無算爵",
        "尸出禮畢",
    ]
    for rite, path in JUAN_FILES.items():
        steps = found[rite]
        assert [step.name for step in steps] == markers(path), rite
        assert [step.number for step in steps] == list(range(1, len(steps) + 1))
        assert {step.rite.id for step in steps} == {rite}
        assert all(step.file == path and step.page_id.startswith("KR1d0044_WYG_") for step in steps)


def test_the_seed_texts_are_not_read_for_the_order(corpus) -> None:
    # The seed page is an excerpt of 卷四: its markers must not add steps to 乡射礼.
    assert len(sequences(corpus)["xiangshe"]) == len(markers(JUAN_FILES["xiangshe"]))


def test_keys_are_stable_and_repeats_are_counted(corpus) -> None:
    steps = sequences(corpus)["xiangshe"]
    assert len({step.key for step in steps}) == len(steps)
    assert all(
        step.key == f"乡射礼/{step.name}/1" for step in steps
    )  # no name comes twice in the excerpt


def test_a_section_name_that_comes_again_is_a_second_step() -> None:
    from glossary.corpus import Corpus
    from glossary.corpus.mandoku import read_mandoku
    from glossary.corpus.model import TextInfo

    info = TextInfo(
        id="KR1d0044",
        title="禮經本義",
        work="禮經本義",
        author="",
        edition="",
        script="",
        format="mandoku",
        files=("x",),
        section_markers=True,
        rites=((4, "鄉射禮"),),
        primary=True,
    )
    text = (
        "#+PROPERTY: JUAN 卷四\n<pb:KR1d0044_WYG_004-1a>¶\n司射命取矢¶\n　　　右取矢¶\n"
        "司射視算¶\n　　　右取矢視算¶\n司射又命取矢¶\n<pb:KR1d0044_WYG_004-1b>¶\n司射乃退¶\n　　　右取矢¶\n"
    )
    corpus = Corpus(texts=(info,), documents=(read_mandoku(info, "x", text),))
    steps = sequences(corpus)["xiangshe"]
    assert [(s.name, s.repeat, s.page_id) for s in steps] == [
        ("取矢", 1, "KR1d0044_WYG_004-1a"),
        ("取矢視算", 1, "KR1d0044_WYG_004-1a"),
        ("取矢", 2, "KR1d0044_WYG_004-1b"),
    ]
    assert steps[0].key != steps[2].key
