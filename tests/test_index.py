"""Finding passages: the issue's must-shows, across scripts, variants and placeholders (mini corpus)."""

from glossary.index import CorpusIndex
from glossary.normalize import normalize

# 鄭玄's note on 遂 in the 鄉射禮 (儀禮注): 禮經本義 paraphrases it but never quotes it.
ZHENG_NOTE = "遂，射韝也。以朱韋為之，著左臂，所以遂弦者也"


def loci(index: CorpusIndex, passage: str):
    return [index.locus(hit) for hit in index.find(normalize(passage))]


def test_simplified_quote_finds_seed_page_and_kanripo_page(index: CorpusIndex) -> None:
    found = loci(index, "楅长如笴博三寸")
    seed = [l for l in found if l.file.startswith("000_")]
    kanripo = [l for l in found if l.work == "KR1d0044"]
    assert [(l.page, l.section, l.layer, l.juan) for l in seed] == [("7", "取矢", "classic", 4)]
    assert [(l.page_id, l.section, l.layer, l.rite) for l in kanripo] == [
        ("KR1d0044_WYG_004-22a", "取矢", "classic", "鄉射禮")
    ]
    # Reports quote the corpus as printed, not the normalised key.
    assert kanripo[0].text == "楅長如笴博三寸"
    assert seed[0].text == "楅长如笴博三寸"


def test_traditional_quote_finds_simplified_seed(index: CorpusIndex) -> None:
    found = loci(index, "司射適堂西袒決遂")
    assert any(l.file.startswith("000_") and l.page == "7" and l.section == "请射" for l in found)
    assert any(l.page_id == "KR1d0044_WYG_004-12a" and l.section == "請射" for l in found)


def test_commentary_layer_and_commentator(index: CorpusIndex) -> None:
    found = loci(index, "司射掌射事者")
    # One name for one man, in either script of the text.
    assert {(l.layer, l.commentator) for l in found} == {("commentary", "郝仲輿")}


def test_zheng_note_never_quoted_is_not_found(index: CorpusIndex) -> None:
    assert loci(index, ZHENG_NOTE) == []


def test_placeholder_matches_any_one_character(index: CorpusIndex) -> None:
    found = loci(index, "主人和兄弟穿丧服")
    assert len(found) == 1
    assert found[0].text == "主人和兄弟穿〇服"
    assert found[0].placeholders == (7,)


def test_a_window_of_placeholders_only_is_no_place_of_the_key(index: CorpusIndex) -> None:
    # 〇服 reads 丧服 through the 〇; the 〇 alone is no place of 丧 (nor of any character).
    assert [hit.start for hit in index.find("丧")] == [
        hit.start for hit in index.find("丧") if index.text[hit.start] != "〇"
    ]
    placeholder = index._placeholders[0]
    assert placeholder not in {hit.start for hit in index.find("丧")}
    assert placeholder in {hit.start for hit in index.find("丧服")}


def test_quote_may_not_span_two_streams(index: CorpusIndex) -> None:
    # The end of one commentary passage and the start of the next classic run.
    assert loci(index, "此请賔射也司射降自西阶") == []


def test_placeholder_windows_agree_with_trying_every_window(index: CorpusIndex) -> None:
    # `find` tries only the offsets the character after a 〇 allows; every window through
    # every corpus placeholder, with the 〇 read as some character, must still be found there.
    text = index.text
    assert len(index._placeholders) > 0
    tried: set[int] = set()
    for placeholder in index._placeholders:
        for length in (2, 3, 5, 9):
            for start in range(placeholder - length + 1, placeholder + 1):
                window = text[start : start + length]
                if start < 0 or "\n" in window or len(window) < length:
                    continue
                key = window.replace("〇", "丧")
                assert start in {hit.start for hit in index.find(key)}, (key, start)
                tried.add(placeholder)
    assert tried == set(index._placeholders)  # every placeholder of the corpus was tried


def test_a_classic_locus_carries_the_sense_units_the_notes_cut(index: CorpusIndex) -> None:
    # 卷4: 「…乃復求矢加于楅」 then 郝仲輿's note and the section's end (右取矢), then the 記's
    # 「楅長如笴博三寸…韋當」 up to 鄭康成's note: each run between notes is one unit.
    [found] = [l for l in loci(index, "楅長如笴博三寸") if l.work == "KR1d0044"]
    assert found.units == ()  # a look-up does not find them: the build asks for them
    kanripo = index.with_units(found)
    assert kanripo.units[-1] == "楅長如笴博三寸厚寸有半龍首其中蛇交韋當"
    assert kanripo.units[-2].endswith("乃復求矢加于楅") and "郝" not in "".join(kanripo.units)
    joined = "".join(kanripo.units)
    assert joined[kanripo.units_at :].startswith(kanripo.text)
    # The commentary is not cut into units by the classic.
    assert all(index.with_units(l).units == () for l in loci(index, "司射掌射事者"))
