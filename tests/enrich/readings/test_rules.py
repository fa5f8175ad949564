"""The checks of an entry's readings on the mini corpus: Y412, a note of the 儀禮音義 in the
entry's rites that no ``yinyi`` carries; Y408, a named note whose exception is the entry's phrase."""

from test_lookup import entry

from glossary.enrich.readings.lookup import Yinyi, entry_readings
from glossary.enrich.readings.rules import missing_problems, yinyi_problems


def missing(term: str, rites: list[str], corpus, index, **fields) -> list[str]:
    yinyi = Yinyi.of(corpus)
    e = entry(term, rites, **fields)
    return [
        f"{p.code} {p.path} {p.message}"
        for p in missing_problems("t.yaml", e, yinyi, entry_readings(e, yinyi, index))
    ]


def test_a_note_in_a_longer_headword_is_asked_for(corpus, index) -> None:
    [message] = missing("搢扑", ["乡射礼"], corpus, index, pinyin="jìn pū")
    assert message.startswith("Y412 x.yinyi 搢 has no 經典釋文 reading")
    # The 音義's headword, its note, its rite and locus, and the fix.
    assert (
        "搢三 (音進又音箭劉又祖雞反插也後同) in 鄉射禮 [kanripo/KR1g0003/KR1g0003_010.txt:"
        in message
    )
    assert "add yinyi: [搢三, null]" in message


def test_the_fix_names_the_notes_already_found(corpus, index) -> None:
    # 堂深's 深 is read by the note on the whole word (士冠禮 …後放此); its 堂 by none.
    assert missing("堂深", ["乡射礼"], corpus, index, pinyin="táng shēn") == []
    # 韎 glossed apart in 士冠禮; 中 of 中庭 in 中掩 (another word: the entry answers null).
    [mei] = missing("韎韐", ["士冠礼"], corpus, index, pinyin="mèi gé")
    assert "at 韎 (音妹" in mei and "add yinyi: [韎, null]" in mei
    [zhong] = missing("中庭", ["乡射礼"], corpus, index, pinyin="zhōng tíng")
    assert "at 中掩 (劉丁仲反)" in zhong


def test_a_yinyi_list_answers_it(corpus, index) -> None:
    assert missing("搢扑", ["乡射礼"], corpus, index, yinyi=("搢三", None)) == []
    assert missing("中庭", ["乡射礼"], corpus, index, yinyi=(None, None)) == []
    assert missing("楅", ["乡射礼"], corpus, index) == []  # its own word's note: carried


def test_the_phrase_a_note_excepts_is_not_asked_for(corpus, index) -> None:
    # 決 古穴反 is asked for; 拾 of 決拾 is not (弓矢拾: 除決拾以外皆同).
    [jue] = missing("决拾", ["乡射礼"], corpus, index, traditional="決拾", pinyin="jué shí")
    assert jue.startswith("Y412 x.yinyi 決 ") and "add yinyi: [決, null]" in jue


def test_naming_the_excepted_note_is_refused_with_the_reason(corpus) -> None:
    yinyi = Yinyi.of(corpus)
    e = entry("决拾", ["乡射礼"], traditional="決拾", yinyi=("決", "弓矢拾"))
    [problem] = yinyi_problems("t.yaml", e, yinyi)
    assert problem.code == "Y408" and problem.path == "x.yinyi[1]"
    assert "excepts 決拾" in problem.message
    fine = entry("拾发", ["乡射礼"], traditional="拾發", yinyi=("弓矢拾", None))
    assert yinyi_problems("t.yaml", fine, yinyi) == []


def test_the_excepted_reading_in_the_excepted_phrase_is_warned_of(corpus) -> None:
    from glossary.enrich.readings.rules import excepted_problems

    yinyi = Yinyi.of(corpus)

    def warned(term: str, traditional: str, pinyin: str, **fields) -> list[str]:
        e = entry(term, ["乡射礼"], traditional=traditional, pinyin=pinyin, **fields)
        return [f"{p.code} {p.path} {p.message}" for p in excepted_problems("t.yaml", e, yinyi)]

    [message] = warned("决拾", "決拾", "jué jiè")
    assert message.startswith("Y413 x.pinyin 拾 jiè: the 儀禮音義 reads 拾 其劫反 at 弓矢拾")
    assert "but for 決拾, the entry's phrase" in message
    assert warned("决拾", "決拾", "jué shí") == []  # read as the character
    assert warned("决拾", "決拾", "jué jiè", reading_note="拾: jiè, as …") == []  # said why
    assert warned("拾发", "拾發", "jiè fā") == []  # not the excepted phrase: the reading holds
