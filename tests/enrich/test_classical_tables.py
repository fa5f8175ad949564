"""The classical readings come from shipped tables, not from tshet-uinh, pypinyin or new OpenCC
converters: the tables are what the scripts generate, lookups give what the libraries give, and a
check imports none of them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from conftest import MINI_CORPUS, MINI_TERMS, ROOT, SHIPPED_CORPUS, SHIPPED_TERMS

from glossary.enrich import mandarin
from glossary.enrich.readings import guangyun as guangyun_module
from glossary.enrich.readings.guangyun import guangyun
from glossary.enrich.readings.yinyi import Sound, positions_of
from glossary.normalize import fold_char

CASES = ROOT / "tests" / "cases"


def _script(name: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / name), "--check"], capture_output=True, text=True
    )


# -- the tables are what the scripts make of the installed libraries (and the corpus) ---------------


@pytest.mark.slow  # reruns the generator against the installed library, in a subprocess
def test_guangyun_table_is_what_the_installed_tshet_uinh_gives() -> None:
    # A new tshet-uinh with other readings fails here until scripts/gen_guangyun.py is run.
    result = _script("gen_guangyun.py")
    assert result.returncode == 0, result.stderr


@pytest.mark.slow  # reruns the generator against the installed library, in a subprocess
def test_forms_table_is_what_the_installed_opencc_gives() -> None:
    result = _script("gen_forms.py")
    assert result.returncode == 0, result.stderr
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import gen_forms
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    assert gen_forms.CONFIGS == guangyun_module._FORMS  # the columns the lookup reads


@pytest.mark.slow  # reruns the generator on the shipped corpus, in a subprocess
def test_fanqie_table_is_current_for_the_shipped_corpus() -> None:
    # A change to the corpus' 儀禮音義, to tshet-uinh or to the tables the 反切 are spelled out
    # with fails here until scripts/gen_fanqie.py is run (a check would still be right, and slower).
    result = _script("gen_fanqie.py")
    assert result.returncode == 0, result.stderr


# -- lookups give what the libraries give -------------------------------------------------------------


def _chars() -> list[str]:
    """Characters to ask about: every one of the mini corpus and fixture, and awkward ones."""
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(MINI_CORPUS.rglob("*.txt")))
    text += MINI_TERMS.read_text(encoding="utf-8")
    odd = [
        "",
        "ab",
        "\x00",
        "a",
        "\t",
        "\n",
        "|",
        "*",
        "#",
        "𤣥",
        "𦵏",
        "衆",
        "乗",
        "遥",
        "戸",
        "干",
        "忘",
        "肵",
        "\U0010ffff",
    ]
    return sorted(set(text)) + odd


@pytest.mark.slow  # the shipped table against the installed library, character by character
def test_guangyun_readings_are_tshet_uinhs() -> None:
    from tshet_uinh import 資料

    def own(char: str) -> list[tuple]:
        return (
            [(char, r.反切, r.音韻地位.描述, r.釋義) for r in 資料.query字頭(char)]
            if len(char) == 1
            else []
        )

    for char in _chars():
        expected = own(char)
        if not expected:  # its traditional form's, as the lookup has always done
            expected = next((found for form in _live_forms(char)[1:] if (found := own(form))), [])
        assert [(g.char, g.fanqie, g.position, g.meaning) for g in guangyun(char)] == expected, char


@cache
def _converter(name: str):
    import opencc

    return opencc.OpenCC(name)


def _live_forms(char: str) -> tuple[str, ...]:
    folded = fold_char(char) or char
    forms = (
        char,
        *(_converter(name).convert(c) for c in (char, folded) for name in ("s2t", "s2tw")),
    )
    return tuple(dict.fromkeys(form for form in forms if len(form) == 1))


@pytest.mark.slow  # the shipped table against the installed OpenCC, character by character
def test_forms_are_opencc_s() -> None:
    for char in _chars():
        if char != "\x00":  # OpenCC's s2tw gives NUL no form: the table asks OpenCC itself for it
            assert guangyun_module._forms(char) == _live_forms(char), repr(char)


@pytest.mark.slow  # the shipped tables against the installed libraries
def test_modern_readings_and_syllables_are_pypinyins_and_rhyme_groups_tshet_uinhs() -> None:
    from pypinyin.pinyin_dict import pinyin_dict
    from tshet_uinh.音韻屬性常量 import 韻到攝

    for char in _chars():
        if len(char) == 1:
            found = pinyin_dict.get(ord(char))
            assert mandarin.modern(char) == (tuple(found.split(",")) if found else ()), char
    marked = {s for readings_ in pinyin_dict.values() for s in readings_.split(",")}
    assert mandarin._syllables() == {mandarin.split_tone(s)[0] for s in marked}
    assert mandarin._rhyme_groups() == 韻到攝


def test_a_fanqie_outside_the_table_is_spelled_out_by_tshet_uinh() -> None:
    table = guangyun_module._fanqie_table()
    assert "申鴆" in table and table["申鴆"] == guangyun_module.spell_out("申", "鴆") == (
        "書開三侵去",
    )
    assert "中鴆" not in table  # not in the shipped 音義: tshet-uinh spells it when asked
    assert (
        positions_of(Sound("fanqie", "中鴆", "中鴆反", 0))
        == guangyun_module.spell_out("中", "鴆")
        == ("知開三侵去",)
    )


# -- a check imports none of them -----------------------------------------------------------------------

NO_IMPORTS = """
import json, sys
from glossary.cache import IndexCache
from glossary.check import check_project
from glossary.enrich.readings import guangyun
results = []
for _ in range({runs}):
    report = check_project({terms!r}, {corpus!r}, cache=IndexCache({cache!r} or None))
    results.append([report.verified, report.citations, len(report.readings), len(report.problems)])
print(json.dumps({{"results": results, "imported": sorted(m for m in ("tshet_uinh", "pypinyin") if m in sys.modules),
                  "converters": guangyun._opencc.cache_info().currsize}}))
"""


def _imports(terms: Path, corpus: Path, cache: str, runs: int = 1) -> dict:
    script = NO_IMPORTS.format(terms=str(terms), corpus=str(corpus), cache=cache, runs=runs)
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "GLOSSARY_CACHE_DIR": ""},
    )
    return json.loads(out.stdout)


@pytest.mark.slow  # another interpreter, twice
@pytest.mark.parametrize("cached", [False, True], ids=["no cache", "cache"])
def test_a_check_imports_neither_tshet_uinh_nor_pypinyin_nor_opens_a_converter(
    cached: bool, tmp_path: Path
) -> None:
    # With a cache: the second check opens the index from it.
    found = _imports(
        MINI_TERMS, MINI_CORPUS, str(tmp_path / "cache") if cached else "", runs=2 if cached else 1
    )
    assert found["imported"] == [] and found["converters"] == 0
    assert all(
        verified == citations > 0 and readings_ > 0
        for verified, citations, readings_, _ in found["results"]
    )
    assert len({json.dumps(r) for r in found["results"]}) == 1


@pytest.mark.slow  # the shipped corpus, read and indexed in another interpreter
def test_a_check_of_the_shipped_glossary_imports_neither(tmp_path: Path) -> None:
    found = _imports(SHIPPED_TERMS, SHIPPED_CORPUS, str(tmp_path / "cache"), runs=2)
    assert found["imported"] == [] and found["converters"] == 0
    assert (
        found["results"][0] == found["results"][1]
        and found["results"][0][0] == found["results"][0][1]
    )
