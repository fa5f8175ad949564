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


def with_tts(term: str, pinyin: str, tts: str | None) -> Entry:
    from dataclasses import replace

    return replace(entry(term, pinyin), tts=tts)


def test_speech_is_the_headword_where_a_voice_reads_it_right() -> None:
    from glossary.enrich.pinyin import tts_text

    assert tts_text(entry("西阶", "xī jiē")) == "西阶"


def test_speech_replaces_what_a_voice_would_misread_by_common_homophones() -> None:
    """Issue 25: 98 words had no speech because their everyday reading is not the ritual one."""
    from glossary.enrich.pinyin import everyday_reading, sole_readers, tts_text

    for term, pinyin in (("楅", "fú"), ("稽颡", "qǐ sǎng"), ("拾取矢", "jiè qǔ shǐ"), ("菹", "zū")):
        spoken = tts_text(entry(term, pinyin))
        assert spoken and spoken != term, term
        assert everyday_reading(spoken) == pinyin.split(), (term, spoken)
        # each replaced character is a common one (GB 2312 level 1) first read so
        for ch, own, syllable in zip(spoken, term, pinyin.split()):
            assert ch == own or ch in sole_readers(syllable), (term, ch)
    assert tts_text(entry("稽颡", "qǐ sǎng")).endswith("颡")  # what reads right is kept


def test_speech_avoids_characters_beyond_gbk() -> None:
    """𤣥 (Extension B, the print's 玄) is a character a voice may not know, whatever pypinyin
    says of it: a common homophone is spoken instead."""
    from glossary.enrich.pinyin import tts_text

    spoken = tts_text(entry("𤣥端", "xuán duān"))
    assert spoken.endswith("端") and spoken[0] != "𤣥"
    spoken[0].encode("gb2312")


def test_no_speech_where_no_common_character_reads_so() -> None:
    from glossary.enrich.pinyin import tts_text

    assert tts_text(entry("瑱", "tiàn")) == ""


def test_the_entry_s_own_homophones_come_first() -> None:
    from glossary.enrich.pinyin import tts_text

    assert tts_text(with_tts("齐衰", "zī cuī", "资崔")) == "资崔"
    # homophones that do not read so are not spoken (the check reports them, Y404)
    assert tts_text(with_tts("楅", "fú", "逼")) != "逼"
