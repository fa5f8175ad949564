"""`glossary coverage` on the shipped corpus: a rite is found under every name it has."""
from __future__ import annotations

from glossary.enrich.coverage import coverage


def test_a_rite_the_corpus_heads_by_another_name_is_counted(shipped_index, shipped_entries) -> None:
    # 禮經本義 heads 卷八 士相見之禮; a contributor writes 士相見禮 or 士相见礼.
    found = [coverage(shipped_entries, shipped_index, (name,), "classic", 5)
             for name in ("士相見禮", "士相见礼", "士相見之禮")]
    assert found[0].chars and found[0].words
    assert found[0].chars == found[1].chars == found[2].chars
