"""Near misses: the passage nearest to a quote not found, and how it differs (mini corpus)."""

from glossary.index import CorpusIndex
from glossary.normalize import normalize_with_map
from glossary.suggest import suggest


def test_one_wrong_character_is_not_found_but_suggested(index: CorpusIndex) -> None:
    quote = "楅长如竿博三寸"
    key, qmap = normalize_with_map(quote)
    assert index.find(key) == []
    suggestions = suggest(index, key, quote, qmap)
    assert suggestions and suggestions[0].locus.text in ("楅长如笴博三寸", "楅長如笴博三寸")
    assert suggestions[0].differences == ("第4字: 竿 ≠ 笴（原文）",)


def test_missing_and_extra_characters_are_described(index: CorpusIndex) -> None:
    quote = "楅长如笴博寸厚寸有半"  # 三 left out
    key, qmap = normalize_with_map(quote)
    best = suggest(index, key, quote, qmap)[0]
    assert best.differences == ("第6字前: 原文有 三",)
