"""Who says what in a note (glossary/corpus/commentators.py, and the mandoku reader's notes)."""

from __future__ import annotations

import dataclasses

from glossary.corpus.commentators import OLD_EXPLANATION, canonical, find_commentators
from glossary.corpus.mandoku import read_mandoku
from glossary.corpus.model import TextInfo


def speakers(text: str, author: str | None = "蔡德晉") -> list[tuple[str, str | None]]:
    """Each speaker's words, as (text, name)."""
    marks = find_commentators(text, author)
    ends = [start for start, _ in marks[1:]] + [len(text)]
    return [(text[start:end], name) for (start, name), end in zip(marks, ends)]


def test_a_note_that_names_no_one_is_the_authors() -> None:
    assert speakers("楹間兩楹之間也畫地為左右") == [("楹間兩楹之間也畫地為左右", "蔡德晉")]


def test_a_speaker_named_with_yue_speaks_until_a_gap_after_his_sentence() -> None:
    # KR1d0044_004.txt:19: the gap after 也 sets 蔡德晉's own remark apart.
    assert speakers("郝仲輿曰乃請亦謂致戒辭於賔也  此篇經文與鄉飲酒同者俱不重釋") == [
        ("郝仲輿曰乃請亦謂致戒辭於賔也", "郝仲輿"),
        ("  此篇經文與鄉飲酒同者俱不重釋", "蔡德晉"),
    ]


def test_the_authors_own_remark_inside_anothers_note_is_his() -> None:
    # KR1d0044_012.txt: 賈公彦's note, then 蔡德晉's 愚按 ("I remark") with no gap before it.
    text = "賈公彦曰此據死者之齒愚按楔齒者恐其口閉急也"
    assert speakers(text) == [
        ("賈公彦曰此據死者之齒", "賈公彦"),
        ("愚按楔齒者恐其口閉急也", "蔡德晉"),
    ]
    assert speakers("愚案下同", None) == [("愚案下同", None)]


def test_a_gap_inside_a_sentence_is_a_lost_character_not_a_new_speaker() -> None:
    # KR1d0044_015.txt:176: 髙紫超's note has a lacuna (腊  也); he goes on speaking.
    text = "髙紫超曰此主人之祭共鼎三牲鼎也魚鼎也腊  也"
    assert speakers(text) == [(text, "髙紫超")]


def test_every_way_of_introducing_a_speaker() -> None:
    for text in (
        "鄭康成曰笙小者謂之和",
        "鄭康成注曰笙小者謂之和",
        "鄭康成云笙小者謂之和",
        "鄭康成謂笙小者謂之和",
    ):
        assert speakers(text) == [(text, "鄭康成")], text
    assert speakers("舊説以為布侯") == [("舊説以為布侯", OLD_EXPLANATION)]
    # … and quoted inside a note, 舊説 ends with its sentence (KR1d0044_015.txt:220).
    assert speakers("饗勸强之也舊説以為告神也主人拜祈享也") == [
        ("饗勸强之也", "蔡德晉"),
        ("舊説以為告神也", OLD_EXPLANATION),
        ("主人拜祈享也", "蔡德晉"),
    ]
    # The modern rendering writes 说：, in simplified script: the same man.
    assert speakers("郑康成说：笙小者谓之和") == [("郑康成说：笙小者谓之和", "鄭康成")]


def test_a_quotation_inside_anothers_note_ends_with_its_sentence() -> None:
    text = "階間兩階之間鄭康成謂堂下之中也故立於此"
    assert speakers(text) == [
        ("階間兩階之間", "蔡德晉"),
        ("鄭康成謂堂下之中也", "鄭康成"),
        ("故立於此", "蔡德晉"),
    ]
    # … inside a commentator's note, the commentator speaks again after it.
    text = "敖君善曰此禮康成云主人之吏也非是"
    assert speakers(text) == [
        ("敖君善曰此禮", "敖君善"),
        ("康成云主人之吏也", "鄭康成"),
        ("非是", "敖君善"),
    ]


def test_other_names_of_a_man_are_his_name() -> None:
    assert canonical("康成") == canonical("鄭氏") == canonical("郑康成") == "鄭康成"
    assert canonical("仲輿") == "郝仲輿" and canonical("萬斯大") == "萬充宗"
    assert canonical("某甲") == "某甲"


INFO = TextInfo(
    id="KR1d0044",
    title="禮經本義",
    work="禮經本義",
    author="蔡德晉",
    edition="",
    script="",
    format="mandoku",
    files=("x",),
    section_markers=True,
    rites=((15, "特牲饋食禮"),),
)


def test_a_note_set_apart_below_a_running_note_is_a_note_of_its_own() -> None:
    # KR1d0044_015.txt 96–99: 敖君善's note runs on after the classic (and on the next line);
    # the note indented below it is 蔡德晉's own, not the rest of 敖君善's.
    text = (
        "拜賓答再拜三拜衆賓衆賓答再拜(敖君善曰衆賓答/一拜言再者字誤)¶\n"
        "(也/)¶\n"
        "　(門東廟門外之東也如初如筮位也賓及衆賓皆主/人所宿以助祭者宗人及祝立賓西北稍退居賓後)¶\n"
        "　(也以南為上宜變于賓也主人于賓再拜賓答亦如/之于衆賓輩共三拜衆賓止答一拜以答者衆也)¶\n"
        "主人揖入兄弟從賓及衆賓從即位于堂下如外位¶\n"
    )
    doc = read_mandoku(INFO, "x", text)
    notes = [s for s in doc.streams if s.layer == "commentary"]
    assert [n.text for n in notes] == [
        "敖君善曰衆賓答一拜言再者字誤也",
        "門東廟門外之東也如初如筮位也賓及衆賓皆主人所宿以助祭者宗人及祝立賓西北稍退居賓後"
        "也以南為上宜變于賓也主人于賓再拜賓答亦如之于衆賓輩共三拜衆賓止答一拜以答者衆也",
    ]
    assert [n.commentator_at(0) for n in notes] == ["敖君善", "蔡德晉"]


def test_a_note_running_on_in_a_notes_block_stays_one_note() -> None:
    # KR1d0044_004.txt 22–23: after a section marker the block is indented three; its note
    # runs on to the next line at the same indent.
    text = (
        "　　　右戒賔　大夫與則公士為賔(公士公朝之士/鄉射之賔本用)¶\n"
        "　　　(鄉之處士若有鄉大大與射則以/公士為正賔不以鄉人加尊者也)¶\n"
    )
    notes = [s for s in read_mandoku(INFO, "x", text).streams if s.layer == "commentary"]
    assert [n.text for n in notes] == [
        "公士公朝之士鄉射之賔本用鄉之處士若有鄉大大與射則以公士為正賔不以鄉人加尊者也"
    ]


def test_speakers_of_a_span() -> None:
    notes = [
        s
        for s in read_mandoku(INFO, "x", "甲(敖君善曰此禮康成云主人之吏也非是/)¶\n").streams
        if s.layer == "commentary"
    ]
    [note] = notes
    assert note.speakers(0, len(note.text) - 1) == ("敖君善", "鄭康成")
    assert note.speakers(0, 3) == ("敖君善",)


def quoted(text: str, breaks: tuple[int, ...] = (), notes=()) -> list[tuple[str, str | None]]:
    """Each speaker's words in a reference work's text (everyone it names is quoted)."""
    marks = find_commentators(text, "李如圭", True, breaks, notes)
    ends = [start for start, _ in marks[1:]] + [len(text)]
    return [(text[start:end], name) for (start, name), end in zip(marks, ends)]


def test_in_a_reference_work_a_name_with_yue_is_quoted_to_the_end_of_his_sentence() -> None:
    # KR1d0031_000.txt:145-148: 李如圭 quotes 郭氏 (unknown) and 鄭玄's note on 士昬禮 (注曰).
    text = "賈氏曰凡賓升皆當楣此深入當棟故云入堂深也又案聘禮諸侯受聘于庿"
    assert quoted(text) == [
        ("賈氏曰凡賓升皆當楣此深入當棟故云入堂深也", "賈公彦"),
        ("又案聘禮諸侯受聘于庿", "李如圭"),
    ]


def test_a_name_explaining_a_rite_is_a_speaker() -> None:
    # KR1d0031_000.txt:275 (p.16b): 賈氏釋士喪禮曰 "賈 explaining the 士喪禮 says" (a reader met
    # these words given to 鄭康成, whose 注曰 came before them).
    text = "士冠禮注曰坫在堂角賈氏釋士喪禮曰堂隅有坫以土為之或謂堂隅為坫也"
    at = text.index("賈氏")
    assert quoted(text)[-1] == (text[at:], "賈公彦")
    assert quoted(text[:at] + "賈氏釋曰堂隅")[-1][1] != "賈公彦"  # 釋 names a work: not bare


def test_in_a_reference_work_ran_an_answers_the_quotation_in_the_authors_words() -> None:
    # KR1d0031_000.txt:106-107: 李如圭 quotes 賈公彦 (賈氏曰 … 而已), then answers him: 然案聘禮….
    text = "賈氏曰大夫士惟東房西室故直云房而已然案聘禮賓館于大夫士"
    at = text.index("然案")
    assert quoted(text) == [(text[:at], "賈公彦"), (text[at:], "李如圭")]


def test_in_a_reference_work_a_quotation_ends_with_its_paragraph() -> None:
    # KR1d0031_000.txt:86-88: 賈氏曰凡堂皆五架 … 則異耳 (no 也), then the next item at the margin.
    text = "賈氏曰凡堂皆五架則五架之屋通乎上下而其廣狹隆殺則異耳後楣以北為室與房"
    at = text.index("後楣")
    assert quoted(text, (at,)) == [(text[:at], "賈公彦"), (text[at:], "李如圭")]
    assert quoted("後楣以北為室與房") == [("後楣以北為室與房", "李如圭")]


def test_a_reference_work_may_say_whose_notes_it_quotes() -> None:
    text = "堂角有坫士冠禮注曰坫在堂角也其制未聞"
    notes = (("注", "鄭康成"),)
    assert quoted(text, notes=notes) == [
        ("堂角有坫士冠禮", "李如圭"),
        ("注曰坫在堂角也", "鄭康成"),
        ("其制未聞", "李如圭"),
    ]
    # Without the manifest's word, 注曰 names no one.
    assert quoted(text) == [(text, "李如圭")]


def test_the_reference_works_of_the_mini_corpus_credit_their_author(doc) -> None:
    d = doc("kanripo/KR1d0031/KR1d0031_000.txt")
    stream = next(s for s in d.streams if s.layer == "text")
    at = stream.text.index("又案聘禮諸侯受聘")
    assert stream.commentator_at(at) == "李如圭"
    assert stream.commentator_at(stream.text.index("凡賓升皆當楣")) == "賈公彦"
    assert stream.commentator_at(stream.text.index("堂深謂從堂")) == "鄭康成"
    # Every part of it is someone's, and most of it the author's own.
    spoken: dict[str, int] = {}
    ends = [s for s, _ in stream.commentators[1:]] + [len(stream.text)]
    for (start, who), end in zip(stream.commentators, ends):
        spoken[who] = spoken.get(who, 0) + end - start
    assert max(spoken, key=spoken.__getitem__) == "李如圭"


def test_zheng_xuan_is_zheng_kangcheng() -> None:
    assert canonical("鄭玄") == "鄭康成"


def test_the_notes_of_a_work_that_are_not_its_authors_are_credited_as_the_manifest_says() -> None:
    # KR1d0031_000.txt:80 and 111: 儀禮釋宮's small-print notes are the 四庫 editors', who compare
    # 朱子大全集 and speak of the author as 李氏; the text around them stays 李如圭's.
    info = dataclasses.replace(
        INFO,
        id="KR1d0031",
        title="儀禮釋宮",
        work="儀禮釋宮",
        author="李如圭 (宋)",
        main_layer="text",
        section_markers=False,
        rites=(),
        note_author="四庫館臣",
    )
    text = "棟南兩架北亦兩架(案朱子大全/集無此二句)棟前一架為楣¶\n"
    doc = read_mandoku(info, "x", text)
    (note,) = [s for s in doc.streams if s.layer == "commentary"]
    assert note.text == "案朱子大全集無此二句" and note.commentator_at(0) == "四庫館臣"
    (main,) = [s for s in doc.streams if s.layer == "text"]
    assert main.commentator_at(main.text.index("棟前")) == "李如圭"
    # Without the manifest's word the notes are the author's, as before.
    plain = read_mandoku(dataclasses.replace(info, note_author=None), "x", text)
    (note,) = [s for s in plain.streams if s.layer == "commentary"]
    assert note.commentator_at(0) == "李如圭"


def spoken(text: str, author: str) -> list[tuple[str, str | None]]:
    """Each speaker's words in a note of ``author``'s."""
    marks = find_commentators(text, author)
    ends = [start for start, _ in marks[1:]] + [len(text)]
    return [(text[start:end], name) for (start, name), end in zip(marks, ends)]


def test_an_old_explanation_ends_where_the_note_quotes_a_book() -> None:
    # KR1d0026_012.txt:183-185 (卷12 10b): 鄭玄 gives the 舊說, then answers it from the 喪服小記 in
    # his own words; a named man's quotation is not cut so (賈公彦 writes 經云 in his own words).
    text = (
        "免之制未聞舊說以爲如冠狀廣一寸喪服小記曰斬衰髺髪以麻免而以布此用麻布爲之狀如今之著幓頭矣"
    )
    assert spoken(text, "鄭康成") == [
        ("免之制未聞", "鄭康成"),
        ("舊說以爲如冠狀廣一寸", OLD_EXPLANATION),
        ("喪服小記曰斬衰髺髪以麻免而以布此用麻布爲之狀如今之著幓頭矣", "鄭康成"),
    ]
    text = "愚按賈公彦謂以木縛於柩車轅上經云前輅明有後也然則"
    assert [who for _, who in spoken(text, "蔡德晉")] == ["蔡德晉", "賈公彦", "蔡德晉"]
