"""The reading warnings use pypinyin's character table as shipped data, not pypinyin itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import MINI_CORPUS, MINI_TERMS, ROOT

from glossary.enrich.pinyin import pypinyin_readings, valid_syllables


@pytest.mark.slow  # reruns the generator against the installed library, in a subprocess
def test_shipped_table_is_what_the_installed_pypinyin_gives() -> None:
    # A new pypinyin with other readings fails here until scripts/gen_readings.py is run.
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_readings.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.slow  # the shipped table against the installed pypinyin, every character
def test_every_character_reads_as_in_pypinyins_own_table() -> None:
    from pypinyin.pinyin_dict import pinyin_dict

    assert {code: ",".join(pypinyin_readings(chr(code))) for code in pinyin_dict} == pinyin_dict
    assert valid_syllables() == {
        r for readings in pinyin_dict.values() for r in readings.split(",")
    }
    # Not in the table: letters of the readings themselves, separators, strings that are no character.
    for other in ("a", "ā", ",", "\t", "\n", "#", " ", "楅長", ""):
        assert pypinyin_readings(other) == ()
    assert pypinyin_readings("敦") == tuple(pinyin_dict[ord("敦")].split(","))


@pytest.mark.slow  # another interpreter
def test_a_check_never_imports_pypinyin_and_ritual_readings_change_no_warning() -> None:
    script = f"""
import json, sys
from glossary.check import check_project
from glossary.enrich.pinyin import RitualReadings, reading_problems
from glossary.model import Entry
report = check_project({str(MINI_TERMS)!r}, {str(MINI_CORPUS)!r})
imported = "pypinyin" in sys.modules
entry = Entry(id="x", term="楅", pinyin="fú", category="object", gloss="g", definition="d", line=3)
before = reading_problems(entry)
RitualReadings([entry]).plain("楅長如笴")
print(json.dumps([imported, report.verified, report.citations, before, reading_problems(entry),
                  "pypinyin" in sys.modules]))
"""
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "GLOSSARY_CACHE_DIR": ""},
    )
    imported, verified, citations, before, after, now = json.loads(out.stdout)
    assert not imported and verified == citations > 0
    assert before == after and before[0][:2] == ["warning", "Y403"] and "fú of 楅" in before[0][2]
    assert now  # reading a passage did use pypinyin: the check above would have shown it
