"""The 廣韻 readings of a character (the shipped table from tshet-uinh) and of its forms."""

from glossary.enrich.readings.guangyun import guangyun


def test_guangyun_readings_of_a_character_and_its_forms() -> None:
    assert [(g.fanqie, g.position) for g in guangyun("敦")][0] == ("都回", "端合一灰平")
    assert [g.fanqie for g in guangyun("乗")] == [g.fanqie for g in guangyun("乘")]  # an old form
    assert [g.fanqie for g in guangyun("衆")] == ["職戎", "之仲"]  # the 廣韻 writes 眾
    assert guangyun("肵") == ()
