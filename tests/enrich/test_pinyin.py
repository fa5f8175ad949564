from glossary.enrich.pinyin import annotated, reading_problems, split_reading
from glossary.model import Entry


def entry(term: str, pinyin: str, traditional: str | None = None) -> Entry:
    return Entry(
        id="x",
        term=term,
        pinyin=pinyin,
        category="object",
        gloss="g",
        definition="d",
        line=3,
        traditional=traditional,
    )


def test_split_reading() -> None:
    assert split_reading(" shèng  shǐ ") == ["shèng", "shǐ"]
    assert split_reading("shèng-shǐ") == ["shèng", "shǐ"]


def test_invalid_syllables_are_errors() -> None:
    [(severity, code, _, index)] = reading_problems(entry("楅", "bi1"))
    assert (severity, code, index) == ("error", "Y401", None)


def test_syllable_count_must_match() -> None:
    [(severity, code, _, index)] = reading_problems(entry("乘矢", "shèng"))
    assert (severity, code, index) == ("error", "Y402", None)


def test_reading_outside_pypinyin_candidates_is_a_warning() -> None:
    [(severity, code, _, index)] = reading_problems(entry("楅", "fú"))
    assert (severity, code, index) == ("warning", "Y403", 0)


def test_traditional_form_candidates_count() -> None:
    # pypinyin knows zī only for 齊, not for 齐.
    assert reading_problems(entry("齐衰", "zī cuī", "齊衰")) == []
    assert reading_problems(entry("齐衰", "zī cuī"))[0][0] == "warning"


def test_annotated_keeps_punctuation_and_placeholder() -> None:
    assert annotated("穿〇服。") == "穿(chuān)〇服(fú)。"
