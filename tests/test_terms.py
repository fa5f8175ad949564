"""The shipped glossary itself: size, coverage, citations, readings."""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter

import pytest
from conftest import ROOT, TERMS

from glossary.enrich.pinyin import RitualReadings, split_reading, valid_syllables
from glossary.load import load_yaml
from glossary.vocab import vocabulary
from glossary.validate import validate

TONED = re.compile("[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]")


@pytest.fixture(scope="module")
def entries():
    entries, problems = validate(load_yaml(TERMS), TERMS.parent)
    assert not problems
    return entries


def test_size_and_categories(entries) -> None:
    assert len(entries) >= 150
    counts = Counter(e.category for e in entries)
    assert all(counts[c] >= 25 for c in vocabulary().category_ids), counts


def test_most_entries_have_two_citations(entries) -> None:
    assert sum(len(e.citations) >= 2 for e in entries) >= 0.8 * len(entries)


def test_every_rite_of_the_seed_texts_is_covered(entries) -> None:
    rites = Counter(r.simplified for e in entries for r in e.rites)
    assert all(rites[r] >= 50 for r in ("乡射礼", "士虞礼", "特牲馈食礼")), rites


def test_every_pinyin_is_valid_syllables_with_tone_marks(entries) -> None:
    for entry in entries:
        syllables = split_reading(entry.pinyin)
        assert syllables, entry.id
        for syllable in syllables:
            assert syllable in valid_syllables(), (entry.id, syllable)
            assert TONED.search(syllable), (entry.id, syllable)
        assert len(syllables) == len(entry.term), entry.id


@pytest.mark.parametrize(
    "passage, expected",
    [
        ("設敦于階間", "shè duì yú jiē jiān"),
        ("遂命三耦拾取矢", "suì mìng sān ǒu shè qǔ shǐ"),
        ("釋弓脱決拾", "shì gōng tuō jué shè"),
        ("豆實葵菹", "dòu shí kuí zū"),
        ("兼挾乗矢", "jiān xié shèng shǐ"),
        ("尸酢主人", "shī zuò zhǔ rén"),
        ("腊用棘心匕", "xī yòng jí xīn bǐ"),
        ("大羹湆自門入", "tài gēng qì zì mén rù"),
        ("齊衰三年正服", "zī cuī sān nián zhèng fú"),
    ],
)
def test_ritual_readings_inside_passages(entries, passage: str, expected: str) -> None:
    assert RitualReadings(entries).plain(passage) == expected


def test_readme_counts_are_current() -> None:
    table = subprocess.run([sys.executable, str(ROOT / "scripts" / "stats.py")], capture_output=True,
                           text=True, check=True).stdout
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"<!-- stats -->\n{table}<!-- /stats -->" in readme
