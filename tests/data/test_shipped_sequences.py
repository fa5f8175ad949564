"""The order of the rites in the shipped 禮經本義 (corpus/kanripo/KR1d0044)."""

from __future__ import annotations

import re

import pytest
from conftest import SHIPPED_CORPUS

from glossary.enrich.sequence import sequences
from glossary.vocab import vocabulary

pytestmark = pytest.mark.slow  # reads the whole shipped corpus


def markers(path: str) -> list[tuple[int, str]]:
    """(offset, section name) of every ``右…`` marker of a file, read independently of the reader."""
    text = (SHIPPED_CORPUS / path).read_text(encoding="utf-8")
    # A marker too long for its line runs on to the next, indented as it is (卷16: 右兄弟之後生者
    # 舉觶于其長賓及次賓舉爵¶ / 于尸遂無算爵¶), across a page break too: the name is all its lines.
    return [
        (
            m.start(),
            m.group(1) + "".join(re.findall(r"^\u3000{3}([^\u3000(¶]+)", m.group(2) or "", re.M)),
        )
        for m in re.finditer(
            r"^\u3000{3}右([^\u3000(¶]+)(?:¶\n((?:(?:<pb:[^>\n]*>¶?\n)?\u3000{3}(?!右)[^\u3000(¶]+¶\n)*))?",
            text,
            re.MULTILINE,
        )
    ]


def test_every_juan_follows_its_markers(shipped_corpus) -> None:
    found = sequences(shipped_corpus)
    documents = [d for d in shipped_corpus.documents if d.text_info.id == "KR1d0044"]
    assert documents
    vocab = vocabulary()
    unresolved = set()
    for doc in documents:
        expected = []
        for offset, name in markers(doc.path):
            rite = doc.rite_at(offset)
            if vocab.rite(rite or "") is None:
                # Not one of the seventeen rites: the 提要, 蔡德晉's reconstructed 饗禮, 軍禮 and the
                # 逸禮 of 卷十七.
                unresolved.add(rite)
                continue
            expected.append(name)
        steps = [step for steps in found.values() for step in steps if step.file == doc.path]
        assert [step.name for step in steps] == expected, doc.path
        assert all(step.rite.id in found for step in steps)
    assert not unresolved & {r for rite in vocab.rites for r in rite.names}
    assert "士喪禮下" not in unresolved


def test_two_rites_in_one_juan(shipped_corpus) -> None:
    """卷十三 closes 士喪禮 and opens 既夕禮; 卷十六 holds 少牢饋食禮, then 有司徹 (issue 18)."""
    found = sequences(shipped_corpus)
    assert all(found.get(rite.id) for rite in vocabulary().rites), sorted(found)
    shisang = [s for s in found["shisang"] if s.file.endswith("_013.txt")]
    assert [s.name for s in shisang][-3:] == ["筮宅", "哭椁哭器", "卜𦵏日"]
    jixi = found["jixi"]
    assert all(s.file.endswith("_013.txt") for s in jixi) and len(jixi) > 5
    yousiche = found["yousiche"]
    assert yousiche and all(s.file.endswith("_016.txt") for s in yousiche)
    assert found["shaolao"][-1].name == "餕"


def test_the_archery_rite_in_the_order_the_readme_gives(shipped_corpus) -> None:
    order = [step.name for step in sequences(shipped_corpus)["xiangshe"]]
    expected = ["請射", "誘射", "初射", "取矢", "再請射", "再射釋獲", "取矢視算"]
    start = order.index("請射")
    assert order[start : start + len(expected)] == expected
    repeated = [s for s in sequences(shipped_corpus)["xiangshe"] if s.name == "取矢視算"]
    assert [s.repeat for s in repeated] == [1, 2] and repeated[0].key != repeated[1].key


def test_the_seed_page_gives_the_same_order(shipped_doc) -> None:
    seed = shipped_doc("000_b6ac9449aa5994ba.txt")
    names = [name for _, name in seed.sections]
    text = (SHIPPED_CORPUS / seed.path).read_text(encoding="utf-8")
    assert names == re.findall(r"^右([^\s【]+)", text, re.MULTILINE)
    assert names[1:] == ["请射", "诱射", "初射", "取矢", "再请射", "再射释获", "取矢视算"]


def test_the_repose_sacrifice_in_order(shipped_corpus) -> None:
    shiyu = [step.name for step in sequences(shipped_corpus)["shiyu"]]
    assert (
        shiyu.index("尸入")
        < shiyu.index("尸食")
        < shiyu.index("主人酳尸")
        < shiyu.index("尸酢主人")
    )
