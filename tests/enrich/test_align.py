"""The modern rendering aligned with its original (mini corpus, and small texts made here).

corpus-mini holds excerpts of both texts, cut by line (tests/fixtures/corpus-mini/README.md):
its rendering of 特牲馈食礼 (筮日, 筮尸) and the 四庫 text's 卷十五 cover the same stretch, so
they are aligned pair by pair; where the excerpts of 卷十四 do not meet, the aligner has little
to pair. The accuracy on the whole rendering is measured in tests/data/test_shipped_alignment.py.
"""

from __future__ import annotations

import re

import pytest
from conftest import raw

from glossary.corpus import Corpus
from glossary.enrich.align import align, alignments, paragraphs, passages
from glossary.enrich.align_views import aligned
from glossary.errors import GlossaryError
from glossary.index import CorpusIndex
from glossary.model_alignment import ALIGNMENT_THRESHOLD, Alignment, Pair, Paragraph, Passage

RENDERING = "002_a73e8d04fc3338bc.txt"
JUAN15 = "kanripo/KR1d0044/KR1d0044_015.txt"


def document(corpus: Corpus, path: str):
    return next(d for d in corpus.documents if d.path == path)


# -- what the readers keep -------------------------------------------------------------------


def test_readers_keep_each_marker_where_it_stands(corpus) -> None:
    for doc in corpus.documents:
        if not doc.text_info.section_markers:
            continue
        text = raw(doc.path)
        assert [text[offset : offset + len(marker)] for offset, marker in doc.markers] == [
            m for _, m in doc.markers
        ]
        names = [name for _, name in doc.sections]
        printed = [re.sub(r"^(右边是|右边|以上是|右，|右)\s*", "", m) for _, m in doc.markers]
        # A marker that wraps onto a second line names its section with both (卷十六's
        # 右兄弟之後生者舉觶于其長賓及次賓舉爵 / 于尸遂無算爵); the marker is its first line.
        assert len(printed) >= len(names)
        assert all(name.startswith(m) for m, name in zip(printed, names)), (printed, names)


def test_seed_reader_keeps_the_paragraphs_between_blank_lines(corpus) -> None:
    doc = document(corpus, RENDERING)
    text = raw(RENDERING)
    blocks = [block.strip() for block in re.split(r"\n[ \t\u3000]*\n", text) if block.strip()]
    assert [p for _, p in doc.paragraphs] == blocks
    assert all(text[start : start + len(p)] == p for start, p in doc.paragraphs)
    found = paragraphs(doc)
    assert [p.index for p in found] == list(range(len(blocks)))
    assert all(text.count("\n", 0, p.start) + 1 == p.line for p in found)


def test_the_original_is_cut_at_notes_and_markers(corpus) -> None:
    doc = document(corpus, JUAN15)
    found = passages(doc)
    assert [p.start for p in found] == sorted(p.start for p in found)
    classic = next(s for s in doc.streams if s.layer == "classic")
    # Nothing of the classic is lost and every note is a passage, except the sentence marks (句).
    assert "".join(p.text for p in found if p.kind == "classic") == classic.text
    notes = [s.text for s in doc.streams if s.layer == "commentary" and s.text != "句"]
    assert [p.text for p in found if p.kind == "commentary"] == notes
    assert [p.text for p in found if p.kind == "marker"] == [m for _, m in doc.markers]
    text = raw(JUAN15)
    for p in found:
        assert text.count("\n", 0, p.start) + 1 == p.line
        assert p.page_id and p.page_id.startswith("KR1d0044_WYG_015-")
        assert p.layer == ("commentary" if p.kind == "commentary" else "classic")
    # 席于門中闑西閾外 stands between two notes: a passage of its own.
    assert any(p.kind == "classic" and p.text == "席于門中闑西閾外" for p in found)


# -- the aligner on texts made here ------------------------------------------------------------


def passage(kind: str, text: str, line: int) -> Passage:
    layer = "commentary" if kind == "commentary" else "classic"
    return Passage(
        "original.txt", line, None, layer, kind, text, line * 100, line * 100 + len(text)
    )


ORIGINAL = [
    passage("classic", "主人洗廢爵酌酒酳尸尸拜受爵", 1),
    passage("commentary", "廢爵爵之無足者以喪去飾也", 2),
    passage("marker", "右主人酳尸", 3),
    passage("classic", "祝酌授尸尸以酢主人主人拜受爵", 4),
    passage("commentary", "尸必酢主人者禮無不答也不親酌者尸無降席之禮", 5),
    passage("classic", "筵祝南面", 6),
    passage("commentary", "敖君善曰筵祝蓋贊者也筵於北墉下尊之西也", 7),
]
MODERN = [
    "礼经本义卷十四",
    "主人清洗废爵，斟酒酳尸。尸行拜礼接受爵。",
    "【废爵，是没有足的爵，因为丧礼去掉装饰。】",
    "右，主人酳尸",
    "祝官斟酒递给尸，尸用来酬谢主人。主人拜谢接过酒爵。【尸必定要酬谢主人，是因为礼节上没有不回报的。"
    "尸不亲自斟酒，是因为尸没有走下席位的礼节。】",
    "【敖君善说：“筵祝，大概是赞者。在北墙下铺设席位，在尊的西边。”】",
]


def test_each_paragraph_gets_the_passages_it_renders() -> None:
    links, unpaired = align(MODERN, ORIGINAL)
    certain = [[j for j, c in found if c >= ALIGNMENT_THRESHOLD] for found in links]
    # A heading renders nothing; a classic sentence and its note, each in a paragraph or both in one;
    # the marker is an anchor. (筵祝南面 is not rendered: if it is linked at all, not certainly.)
    assert certain == [[], [0], [1], [2], [3, 4], [6]]
    assert unpaired[0] is not None and all(u is None for u in unpaired[1:])


def test_the_alignment_is_monotone_and_deterministic() -> None:
    first = align(MODERN, ORIGINAL)
    assert first == align(MODERN, ORIGINAL)
    order = [j for found in first[0] for j, _ in found]
    assert order == sorted(order)


def test_a_classic_passage_is_not_read_in_brackets() -> None:
    # The same words inside 【】 are a note's: the classic is not paired with them.
    links, _ = align(["【主人清洗废爵，斟酒酳尸。尸行拜礼接受爵。】"], ORIGINAL[:1])
    assert all(c < ALIGNMENT_THRESHOLD for found in links for _, c in found)


def test_a_paragraph_that_closes_a_bracket_goes_on_with_the_note() -> None:
    original = [
        passage("classic", "尸入户踊如初哭止婦人入于房", 1),
        passage(
            "commentary",
            "敖君善曰哭止将有事也祭禮婦人當在房前此在堂者以其有尸入之哭也今哭止故入於房及尸謖又復位而哭也",
            2,
        ),
    ]
    modern = [
        "尸进入户，跳跃与之前一样。哭泣停止，妇人进入房。",
        "【敖君善说：“哭止，将有事也。祭礼，妇人当在房前，此在堂者，以其有尸，入之哭也。今哭止，故入于房。及尸谡",
        "译，又回到原位哭泣】",
    ]
    links, _ = align(modern, original)
    assert [[j for j, _ in found] for found in links] == [[0], [1], [1]]


def test_nothing_to_align_with() -> None:
    assert align([], ORIGINAL) == ([], [])
    assert align(MODERN[:2], []) == ([[], []], [1.0, 1.0])


# -- the data of an alignment ----------------------------------------------------------------------


def test_a_pair_is_as_certain_as_its_weakest_link() -> None:
    paragraph = Paragraph(0, "主人清洗废爵", 0, 1)
    pair = Pair(paragraph, tuple(ORIGINAL[:2]), (0.9, 0.4))
    assert pair.confidence == 0.4 and not pair.certain
    assert Pair(paragraph, tuple(ORIGINAL[:2]), (0.9, 0.6)).certain
    alone = Pair(paragraph, (), (), 0.8)
    assert alone.confidence == 0.8 and not alone.certain
    data = pair.to_json()
    assert set(data) >= {"paragraph", "modern", "original", "confidence"}
    original = data["original"]
    assert isinstance(original, list)
    assert set(original[0]) >= {"file", "line", "page_id", "layer", "text"}


def test_renderings_of_a_span_by_layer() -> None:
    pairs = (
        Pair(Paragraph(0, "主人清洗废爵", 0, 1), (ORIGINAL[0],), (0.9,)),
        Pair(Paragraph(1, "【废爵，是没有足的爵】", 10, 3), (ORIGINAL[1],), (0.3,)),
    )
    alignment = Alignment(
        "modern", "modern.txt", "original", "modern rendering (modern, by someone)", pairs
    )
    first, second = ORIGINAL[0], ORIGINAL[1]
    found = alignment.renderings("original.txt", first.start + 2, first.start + 4)
    assert [(r.paragraph, r.certain, r.text) for r in found] == [(0, True, "主人清洗废爵")]
    assert (
        alignment.renderings("original.txt", first.start, second.end, "commentary")[0].paragraph
        == 1
    )
    assert not alignment.renderings("original.txt", second.start, second.end)[0].certain
    assert alignment.renderings("other.txt", first.start, first.end) == ()
    assert alignment.pair_at(12) is pairs[1] and alignment.pair_at(8) is None


def test_a_long_rendering_is_cut_to_the_sentences_of_its_passage() -> None:
    sentences = [
        "主人清洗废爵。",
        "尸行拜礼接受爵。" * 10,
        "祝官斟酒递给尸，尸用来酬谢主人。",
        "宾客出来。" * 20,
    ]
    pair = Pair(Paragraph(0, "".join(sentences), 0, 1), (ORIGINAL[3],), (0.9,))
    alignment = Alignment("modern", "modern.txt", "original", "label", (pair,))
    rendering = alignment.renderings("original.txt", ORIGINAL[3].start, ORIGINAL[3].end)[0]
    excerpt = rendering.excerpt(60)
    assert "祝官斟酒递给尸" in excerpt and excerpt.startswith("…") and excerpt.endswith("…")
    assert len(excerpt) <= 62
    assert rendering.excerpt(1000) == rendering.text


# -- the mini corpus -------------------------------------------------------------------------------


def test_the_mini_rendering_of_特牲馈食礼_pairs_with_卷十五(corpus) -> None:
    (alignment,) = alignments(corpus)
    assert (alignment.text_id, alignment.file, alignment.original_id) == (
        "seed-shiyu",
        RENDERING,
        "KR1d0044",
    )
    assert (
        alignment.label.startswith("modern rendering (seed-shiyu, ")
        and "translator not named" in alignment.label
    )
    by_start = {pair.paragraph.text[:8]: pair for pair in alignment.pairs}
    expected = {  # read side by side in the fixture's two files
        "不选择吉日": [("classic", "不諏日")],
        "【郑康成说：这是": [("commentary", "鄭康成曰為筮人設之也")],
        "筮人从西塾取出蓍": [
            ("classic", "筮人取筮于西塾"),
            ("commentary", "當作右"),
            ("classic", "贊命命曰孝孫"),
        ],
        "右筮日": [("marker", "右筮日")],
        "【某之某，字称尸": [("commentary", "某之某字尸父而名尸")],
        "礼经本义卷十五": [],
    }
    for start, wanted in expected.items():
        pair = by_start[start]
        if not wanted:
            # A heading renders nothing: it may be given a passage no paragraph claims, never certainly.
            assert not pair.certain, start
            continue
        got = [(p.kind, p.text) for p in pair.original]
        assert len(got) == len(wanted) and all(
            k == kind and t.startswith(w) for (k, t), (kind, w) in zip(got, wanted)
        ), start
        assert pair.certain, start
        assert all(p.file == JUAN15 for p in pair.original)


def test_a_corpus_without_a_rendering_has_no_alignment(corpus) -> None:
    info = next(t for t in corpus.texts if t.rendering_of)
    others = Corpus(corpus.texts, tuple(d for d in corpus.documents if d.text_info is not info))
    assert alignments(others) == ()
    with pytest.raises(GlossaryError, match="rendering_of"):
        aligned(CorpusIndex(others))
