"""`glossary coverage` on the shipped corpus: a rite is found under every name it has."""

from __future__ import annotations

from glossary.enrich.coverage import coverage


def test_a_rite_the_corpus_heads_by_another_name_is_counted(shipped_index, shipped_entries) -> None:
    # 禮經本義 heads 卷八 士相見之禮; a contributor writes 士相見禮 or 士相见礼.
    found = [
        coverage(shipped_entries, shipped_index, (name,), "classic", 5)
        for name in ("士相見禮", "士相见礼", "士相見之禮")
    ]
    assert found[0].chars and found[0].words
    assert found[0].chars == found[1].chars == found[2].chars


def test_a_rite_that_opens_inside_a_juan_is_counted_from_its_heading(shipped_index) -> None:
    from glossary.normalize import normalize

    # 卷十六's classic runs on from 少牢饋食禮 into 有司徹; 卷十三's from 士喪禮 into 既夕禮.
    for before, after, heading in (
        ("少牢饋食禮", "有司徹", "有司徹埽堂"),
        ("士喪禮", "既夕禮", "既夕哭請啓期"),
    ):
        key = normalize(heading)
        opened = shipped_index.texts_of({normalize(after)}, "classic")
        assert any(text.startswith(key) for text in opened), after
        assert not any(
            key in text for text in shipped_index.texts_of({normalize(before)}, "classic")
        ), before


def test_coverage_offers_words_not_fragments(shipped_index, shipped_entries) -> None:
    """Issue 28: the words are whole (門外, 再拜稽首's pieces never), none holds a headword."""
    from glossary.normalize import normalize

    found = coverage(shipped_entries, shipped_index, (), "classic", 60)
    words = [w for w, _ in found.words]
    assert "门外" in words
    assert not {"拜稽", "人拜", "宾宾", "面坐"} & set(words)
    headwords = {normalize(e.term) for e in shipped_entries if len(e.term) >= 2}
    assert not [w for w in words if any(h in w for h in headwords)]
