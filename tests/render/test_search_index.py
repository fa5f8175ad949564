"""The web search's build-time keys (glossary/render/search_index.py) and its vendored library."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

from conftest import mini_entries

from glossary.render import search_index
from glossary.vocab import vocabulary


def test_every_way_of_writing_a_syllable() -> None:
    assert search_index.syllable_forms("jiē") == ["jiē", "jie1", "jie"]
    assert search_index.syllable_forms("lǚ") == ["lǚ", "lv3", "lu3", "lv", "lu"]
    assert search_index.syllable_forms("zi") == ["zi", "zi5"]


def test_pinyin_keys_apart_and_joined() -> None:
    keys = search_index.pinyin_keys("zuò jiē").split()
    assert {"zuò", "jiē", "zuo4", "jie1", "zuo", "jie", "zuòjiē", "zuo4jie1", "zuojie"} <= set(keys)
    assert len(keys) == len(set(keys))


def test_headwords_are_folded_to_one_script() -> None:
    assert search_index.fold("西階") == search_index.fold("西阶") == "西阶"
    assert search_index.fold("鄭玄") == "郑玄"


def test_fold_table_holds_every_character_that_folds_and_nothing_else() -> None:
    table = search_index.folds(["鄉射禮", "乡射礼", "abc"])
    assert table == {"鄉": "乡", "禮": "礼"}


def test_search_data_is_json_with_no_markup() -> None:
    entries = list(mini_entries().values())
    numbers = {e.id: i + 1 for i, e in enumerate(entries)}
    rite = vocabulary().rite("乡射礼")
    assert rite is not None
    text = str(search_index.search_data(entries, numbers, [(rite, 3)], {}))
    assert "<" not in text
    data = json.loads(text)
    assert [d["id"] for d in data["entries"]] == [e.id for e in entries]
    xiangshe = data["rites"][0]
    assert xiangshe["id"] == "rite-xiangshe" and "鄉射禮" not in xiangshe["h"]
    assert "乡射礼" in xiangshe["h"] and "xiang" in xiangshe["p"].split()
    assert xiangshe["e"] == rite.english and xiangshe["c"] == 3
    assert ["stair", "step", "staircase", "stairway"] in data["synonyms"]


def test_vendored_files_match_their_pinned_checksums() -> None:
    folder = resources.files("glossary") / "templates" / "print" / "vendor"
    lines = (folder / "SHA256SUMS").read_text("utf-8").split("\n")
    sums = {name: digest for digest, name in (line.split() for line in lines if line)}
    assert set(sums) == {
        "minisearch.js",
        "minisearch-LICENSE.txt",
        "stemmer.js",
        "stemmer-LICENSE.txt",
    }
    for name, digest in sums.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    script = str(search_index.vendored_scripts())
    assert (
        "global.MiniSearch = factory()" in script
        and "export " not in script.split("minisearch.js")[0]
    )
    assert "sourceMappingURL" not in script
