"""Rite coverage: the rites whose classic uses an entry's headword and that it does not list."""

from dataclasses import replace

from conftest import mini_entries, raw, rite_named
from test_concordance import entry, mandoku_layers

from glossary.enrich.rite_coverage import coverage_problems, uses
from glossary.model import Declined

SHIYU = "kanripo/KR1d0044/KR1d0044_014.txt"
XIANGSHE = "kanripo/KR1d0044/KR1d0044_004.txt"
#: 卷十六 of the fixture holds only 有司徹 (from its heading 有司徹埽堂).
YOUSI = "kanripo/KR1d0044/KR1d0044_016.txt"
RECEIVED = "kanripo/KR1d0026/KR1d0026_017.txt"


def test_counts_the_headword_in_each_rites_classic_by_hand(index) -> None:
    found = uses([entry("堂")], index)["堂"]
    assert found[rite_named("士虞礼")].count == mandoku_layers(SHIYU, "堂")["classic"] > 0


def test_a_longer_headword_keeps_its_characters(index) -> None:
    # 哭 inside 卒哭 is 卒哭's (as the Anki passages blank it), else 哭's.
    shiyu = rite_named("士虞礼")
    alone = uses([entry("哭")], index)["哭"][shiyu].count
    both = uses([entry("哭"), entry("卒哭")], index)
    assert both["卒哭"][shiyu].count > 0
    assert both["哭"][shiyu].count == alone - both["卒哭"][shiyu].count


def test_any_script_or_variant_form_counts(index) -> None:
    xiangshe = rite_named("乡射礼")
    simplified = uses([entry("西阶")], index)["西阶"][xiangshe].count
    assert uses([entry("西階")], index)["西階"][xiangshe].count == simplified > 0
    other = replace(entry("某某"), variants=("西阶",))
    assert uses([other], index)["某某"][xiangshe].count == simplified


def test_first_locus_is_the_line_the_word_is_printed_on(index) -> None:
    use = uses([entry("堂")], index)["堂"][rite_named("士虞礼")]
    assert use.juan == 14
    assert "堂" in raw(SHIYU).splitlines()[use.line - 1]
    # No earlier line of the rite's classic prints it (notes, in parentheses, left out).
    earlier = raw(SHIYU).splitlines()[: use.line - 1]
    assert not any("堂" in line.split("(")[0] for line in earlier if not line.startswith("#"))


def test_only_the_primary_texts_classic(index) -> None:
    # The seed excerpt of 鄉射禮 and the received 有司徹 (KR1d0026) print 堂 too: not counted.
    assert "堂" in raw("000_b6ac9449aa5994ba.txt") and "堂" in raw(RECEIVED)
    found = uses([entry("堂")], index)["堂"]
    assert found[rite_named("乡射礼")].count == mandoku_layers(XIANGSHE, "堂")["classic"]
    assert found[rite_named("有司彻")].count == mandoku_layers(YOUSI, "堂")["classic"]


def test_missing_rites_are_warned_with_count_and_locus(index) -> None:
    tang = mini_entries()["tang"]
    missing, declined = coverage_problems("t.yaml", [tang], index)
    named = [p.message.split(" the classic of ")[1].split(",")[0] for p in missing]
    assert named == ["鄉射禮", "特牲饋食禮", "有司徹"]  # not 士虞禮, which it lists
    count = mandoku_layers(XIANGSHE, "堂")["classic"]
    assert f"stands {count}× in the classic of 鄉射禮, first at 卷4" in missing[0].message
    assert all(p.path == "tang.rites" and p.line == tang.line_of("rites") for p in missing)
    assert not declined


def test_a_declined_rite_is_not_missing_but_must_be_used_and_unlisted(index) -> None:
    tang = mini_entries()["tang"]
    reasons = tuple(
        Declined(rite_named(name), "another sense", line)
        for line, name in ((90, "乡射礼"), (91, "士虞礼"), (92, "士冠礼"))
    )
    missing, declined = coverage_problems("t.yaml", [replace(tang, rites_declined=reasons)], index)
    assert "鄉射禮" not in "".join(p.message for p in missing) and len(missing) == 2
    assert [(p.line, p.path) for p in declined] == [
        (91, "tang.rites_declined.士虞禮"),  # listed too
        (92, "tang.rites_declined.士冠禮"),  # the classic does not use it
    ]
