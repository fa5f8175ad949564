"""Corpus counts of a term (concordance) and the frequent words without an entry (coverage)."""

import re
from collections import Counter

from conftest import raw

from glossary.enrich.concordance import concordance
from glossary.enrich.coverage import coverage
from glossary.model import Entry


def entry(term: str) -> Entry:
    return Entry(
        id=term, term=term, pinyin="x", category="object", gloss="g", definition="d", line=1
    )


def mandoku_layers(path: str, char: str) -> Counter:
    """How often ``char`` stands in a mandoku file's main text and in its (…) notes, counted by hand."""
    counts: Counter = Counter()
    depth = 0
    for line in raw(path).splitlines():
        if line.startswith("#"):
            continue
        for ch in re.sub(r"<pb:[^>]*>", "", line):
            depth += (ch == "(") - (ch == ")")
            if ch == char:
                counts["commentary" if depth else "classic"] += 1
    return counts


def test_counts_by_rite_and_layer_without_excerpts(index) -> None:
    occ = concordance([entry("楅")], index)["楅"]
    places = dict(occ.by_place)
    # Only the 四庫 text is counted: the seed page, an excerpt of the same 卷, would count twice.
    expected = mandoku_layers("kanripo/KR1d0044/KR1d0044_004.txt", "楅")
    assert expected["classic"] and expected["commentary"]
    # The 儀禮音義 excerpt has 楅 in its 鄉射禮 only (楅豐 音福): its headwords are its main text.
    readings = mandoku_layers("kanripo/KR1g0003/KR1g0003_010.txt", "楅")
    expected["text"] = readings.pop("classic")
    expected["commentary"] += readings.pop("commentary", 0)
    elsewhere = {
        ("士虞礼", "kanripo/KR1d0044/KR1d0044_014.txt"),
        ("特牲馈食礼", "kanripo/KR1d0044/KR1d0044_015.txt"),
    }
    others = {
        (rite, layer): n
        for rite, path in elsewhere
        for layer, n in mandoku_layers(path, "楅").items()
    }
    assert places == {("乡射礼", layer): n for layer, n in expected.items()} | others
    assert occ.total == sum(places.values())
    assert raw("000_b6ac9449aa5994ba.txt").count(
        "楅"
    )  # the seed page has the word too: it is left out


def test_coverage_lists_frequent_words_without_entries(index) -> None:
    before = coverage([], index, ("乡射礼",), "classic", 10)
    words = [w for w, _ in before.words]
    assert len(words) == 10 and [n for _, n in before.words] == sorted(
        (n for _, n in before.words), reverse=True
    )
    covered = words[:2]
    after = coverage([entry(w) for w in covered], index, ("乡射礼",), "classic", 10)
    assert not set(covered) & {w for w, _ in after.words}
    assert [w for w, _ in after.words][:8] == words[2:]  # the rest move up, in the same order
    assert all(ch not in "之也而" for ch, _ in after.chars)


def test_coverage_leaves_out_the_book_of_readings(corpus, index) -> None:
    # The 儀禮音義's notes are readings (反切, 下同 …) and its headwords the rite's words over
    # again: coverage counts as if it were not in the corpus.
    from glossary.corpus import Corpus
    from glossary.index import CorpusIndex

    others = Corpus(
        tuple(t for t in corpus.texts if not t.readings),
        tuple(d for d in corpus.documents if not d.text_info.readings),
    )
    assert len(others.documents) < len(corpus.documents)
    for layer in ("commentary", "text"):
        with_it = coverage([], index, ("乡射礼", "士虞礼"), layer, 50)
        without = coverage([], CorpusIndex(others), ("乡射礼", "士虞礼"), layer, 50)
        assert (with_it.words, with_it.chars) == (without.words, without.chars)


def test_coverage_cuts_at_headwords_then_into_words() -> None:
    """The text is cut at the glossary's words and function characters; a word seen often beats
    the pieces it straddles (北面 坐, not 北 面坐); a doubled character is two clauses meeting."""
    import math

    from glossary.enrich.coverage import runs, segment

    assert runs("主人北面坐奠爵主人北面拜賓之尸", frozenset({"主人"})) == [
        "北面坐奠爵",
        "北面拜賓",
        "尸",
    ]
    weights = {"北面": math.log(0.1), "面坐": math.log(0.02), "北": math.log(0.05)}
    weights |= {ch: math.log(0.05) for ch in "面坐奠爵"}
    assert segment("北面坐奠爵", weights, 4) == ["北面", "坐", "奠", "爵"]
