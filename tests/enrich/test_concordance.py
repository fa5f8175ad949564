from glossary.enrich.concordance import concordance
from glossary.enrich.coverage import coverage
from glossary.model import Entry
from glossary.vocab import vocabulary


def entry(term: str) -> Entry:
    return Entry(id=term, term=term, pinyin="x", category="object", gloss="g", definition="d", line=1)


def test_counts_by_rite_and_layer_without_excerpts(index) -> None:
    occ = concordance([entry("楅")], index)["楅"]
    places = dict(occ.by_place)
    assert places[("乡射礼", "classic")] > 10
    assert places[("乡射礼", "commentary")] > 10
    assert ("三礼图集注", "text") in places
    assert occ.total == sum(places.values())
    # The seed page is an excerpt of KR1d0044 卷四: counting it too would double the 乡射礼 numbers.
    assert occ.for_rite(vocabulary().rite("鄉射禮")) == places[("乡射礼", "classic")] + places[("乡射礼", "commentary")] + \
        places.get(("乡射礼", "text"), 0)


def test_coverage_lists_frequent_words_without_entries(index) -> None:
    before = coverage([], index, ("乡射礼",), "classic", 10)
    words = [w for w, _ in before.words]
    assert "主人" in words and "司射" in words
    after = coverage([entry("主人"), entry("司射")], index, ("乡射礼",), "classic", 10)
    assert "主人" not in [w for w, _ in after.words] and "司射" not in [w for w, _ in after.words]
    assert all(ch not in "之也而" for ch, _ in after.chars)
