"""The primary text rite by rite (glossary.enrich.reader), on the mini corpus: reading order,
headwords (the longer winning), cited places, the received text's readings, speakers and the
modern rendering of 卷十四–十五."""

from __future__ import annotations

import pytest
from conftest import make_project

from glossary.build import gather
from glossary.check import check_project
from glossary.enrich.reader import anchor
from glossary.rite_text import Block


@pytest.fixture(scope="module")
def glossary(tmp_path_factory):
    folder = make_project(tmp_path_factory.mktemp("reader") / "project")
    report = check_project(folder / "terms.yaml", folder / "corpus")
    assert not report.failed()
    return gather(report, folder)


def blocks(glossary, kind: str | None = None) -> list[Block]:
    return [
        b for rite in glossary.reader.rites for b in rite.blocks if kind is None or b.kind == kind
    ]


def test_each_rite_of_the_primary_text_is_read_in_the_order_of_its_files(glossary, corpus) -> None:
    primary = [d for d in corpus.documents if d.text_info.primary]
    assert [r.rite for r in glossary.reader.rites] == ["xiangshe", "shiyu", "tesheng", "yousiche"]
    for doc in primary:
        classic = next(s for s in doc.streams if s.layer == "classic")
        juan = doc.juan_at(classic.offsets[0])
        shown = "".join(b.text for b in blocks(glossary, "classic") if b.juan == juan)
        # The whole classic of the 卷, in order, cut only where a note or a marker stands.
        assert shown == classic.text, juan
    notes = blocks(glossary, "commentary")
    assert notes and all(b.speakers for b in notes)


def test_a_longer_headword_wins_over_a_shorter_one_inside_it(glossary) -> None:
    pairs = [(b, start, end, ident) for b in blocks(glossary) for start, end, ident in b.links]
    assert all(b.text[s:e] for b, s, e, _ in pairs)
    zu_ku = [(b, s, e) for b, s, e, i in pairs if i == "zu-ku"]
    assert zu_ku and all(b.text[s:e] == "卒哭" for b, s, e in zu_ku)
    for b, s, e in zu_ku:
        # 哭 inside 卒哭 is no link of its own.
        assert not [x for x in b.links if x[2] == "ku" and s <= x[0] < e]
    assert any(b.text[s:e] == "哭" for b, s, e, i in pairs if i == "ku")
    for b in blocks(glossary):
        assert all(a[1] <= c[0] for a, c in zip(b.links, b.links[1:])), "links overlap"


def test_every_cited_place_of_the_primary_text_is_anchored_at_its_passage(glossary) -> None:
    marks = {name: (b, at, ids) for b in blocks(glossary) for at, name, ids in b.cited}
    checked = 0
    for entry in glossary.entries:
        for cited in glossary.cited[entry.id]:
            for locus in cited.loci[:2]:
                target = (
                    locus
                    if locus.work == "KR1d0044"
                    else glossary.excerpted.get((locus.file, locus.start))
                )
                if target is None or target.work != "KR1d0044":
                    assert glossary.reader.place(locus.file, locus.start) is None
                    continue
                rite, name = glossary.reader.place(locus.file, locus.start)
                assert name == anchor(target.juan, target.start)
                block, at, ids = marks[name]
                assert entry.id in ids
                # The anchor stands where the cited passage begins.
                assert block.text[at:].startswith(target.text[: len(block.text) - at])
                checked += 1
    assert checked >= 20


def test_the_received_texts_readings_stand_at_the_characters_they_differ_in(glossary) -> None:
    readings = [(b, r) for b in blocks(glossary, "classic") for r in b.readings]
    assert readings
    for block, reading in readings:
        assert reading.printed != reading.received
        assert block.text[reading.at : reading.at + len(reading.printed)] == reading.printed


def test_the_speakers_of_a_note_are_marked_where_their_words_begin(glossary) -> None:
    spoken = [(b.text, at, who) for b in blocks(glossary, "commentary") for at, who in b.speakers]
    assert any(who == "蔡德晉" for _, _, who in spoken)  # the author's own notes, unnamed in them
    named = [(text, at) for text, at, who in spoken if who == "敖君善"]
    assert named and all(text.startswith("敖君善", at) for text, at in named)


def test_the_modern_rendering_is_shown_whole_in_order_after_its_passages(glossary) -> None:
    (alignment,) = glossary.alignments
    shown = [m.text for b in blocks(glossary) for m in b.modern]
    assert shown == [pair.paragraph.text for pair in alignment.pairs]
    rites = {r.rite for r in glossary.reader.rites if any(b.modern for b in r.blocks)}
    assert rites <= {"shiyu", "tesheng"} and "shiyu" in rites
    certain = {m.text for b in blocks(glossary) for m in b.modern if m.certain}
    assert certain == {p.paragraph.text for p in alignment.pairs if p.certain}
