"""An entry's senses by rite (issue 23, point 2) in every output: the printed entry and the web
page, the cards' definition, terms.json."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import ROOT, make_project
from test_shown_readings import build

SENSES = """  definition_zh: 庭之南北之中。
  senses:
    - rites: [乡射礼]
      gloss: where the 司正 stands with his cup
      definition: He goes down the west steps to it and faces north.
    - rites: [特牲馈食礼]
      gloss: where the <佐食> stands
"""


def test_senses_reach_the_book_the_cards_and_terms_json(tmp_path: Path) -> None:
    source = (ROOT / "tests" / "fixtures" / "terms-mini.yaml").read_text(encoding="utf-8")
    assert source.count("  definition_zh: 庭之南北之中。\n") == 1
    source = source.replace("  definition_zh: 庭之南北之中。\n", SENSES)
    result = build(make_project(tmp_path / "p"), tmp_path / "dist", terms=source)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "dist" / "glossary.html").read_text(encoding="utf-8")
    article = re.search(r'<article class="entry" id="e-zhong-ting".*?</article>', page, re.S)
    assert article is not None
    senses = re.findall(
        r"<li><span class=\"sense-rites\"[^>]*>(.*?)</span>: (.*?)</li>", article.group(0)
    )
    assert [rites for rites, _ in senses] == ["乡射礼", "特牲馈食礼"]
    assert "He goes down the west steps" in senses[0][1]
    assert '&lt;<span lang="zh">佐食</span>&gt;' in senses[1][1]  # escaped, Chinese marked
    csv = (tmp_path / "dist" / "yili-glossary.csv").read_text(encoding="utf-8")
    assert 'class=""senses""' in csv or 'class="senses"' in csv
    term = next(
        t
        for t in json.loads((tmp_path / "dist" / "terms.json").read_text(encoding="utf-8"))["terms"]
        if t["id"] == "zhong-ting"
    )
    assert term["senses"] == [
        {
            "rites": ["乡射礼"],
            "gloss": "where the 司正 stands with his cup",
            "definition": "He goes down the west steps to it and faces north.",
        },
        {"rites": ["特牲馈食礼"], "gloss": "where the <佐食> stands"},
    ]
