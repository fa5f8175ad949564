import subprocess
import sys

import pytest
from conftest import ROOT

from glossary.normalize import PROTECTED, SOURCES, VARIANTS, normalize

TABLE = ROOT / "glossary" / "data" / "variants.tsv"


def rows() -> dict[str, list[str]]:
    text = TABLE.read_text(encoding="utf-8")
    return {
        line.split("\t")[0]: line.split("\t")
        for line in text.splitlines()
        if not line.startswith("#")
    }


def is_standard(ch: str) -> bool:
    for encoding in ("gb2312", "big5"):
        try:
            ch.encode(encoding)
            return True
        except UnicodeEncodeError:
            pass
    return False


@pytest.mark.slow  # reruns scripts/gen_variants.py on data/, in a subprocess
def test_generated_table_is_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_variants.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_every_fold_names_its_source() -> None:
    table = rows()
    assert table["賔"][1:3] == ["賓", "yitizi"] and table["賔"][3].startswith("全等")
    assert table["乗"][1:3] == ["乘", "yitizi"]
    assert table["戸"][1:3] == ["戶", "yitizi"]
    assert table["𤣥"][1:3] == ["玄", "curated"]
    assert table["楅"][2] == "protected"
    assert {row[2] for row in table.values()} == {"yitizi", "unihan", "curated", "protected"}
    assert all(row[3].strip() for row in table.values()), "a fold without a note"
    assert SOURCES["髙"] in ("yitizi", "unihan") and VARIANTS["髙"] == "高"


@pytest.mark.parametrize(
    "old, standard",
    [
        ("靣", "面"),
        ("歩", "步"),
        ("戸", "户"),
        ("懐", "怀"),
        ("馀", "余"),
        ("扄", "扃"),
        ("㸑", "爨"),
        ("𦵏", "葬"),
    ],
)
def test_the_old_forms_of_the_issue_fold(old: str, standard: str) -> None:
    # The fold gaps found by quoting other editions (issue 14): each now folds, from its source.
    assert normalize(old) == normalize(standard)


def test_automatic_sources_fold_only_non_standard_forms() -> None:
    # 於 has semantic variants 于 and 亏; folding standard characters would merge 亏 (虧) too.
    assert "於" not in VARIANTS and "亏" not in VARIANTS
    # 醋/酢 and 辟/避 are yitizi "equivalents", but both standard: edition variants, never folds.
    assert normalize("醋") != normalize("酢") and normalize("辟") != normalize("避")
    for variant, row in rows().items():
        if row[2] in ("yitizi", "unihan") and is_standard(variant):
            # The one exception: a simplified form whose only traditional form OpenCC folds elsewhere.
            assert row[3].startswith("kTraditionalVariant"), row


def test_nothing_folds_into_a_protected_character() -> None:
    assert all(standard not in PROTECTED for standard in VARIANTS.values())


def test_yitizi_folds_are_edges_of_the_published_yitizi_graph() -> None:
    # data/yitizi is the typed source of the `yitizi` package (v0.1.3): every fold taken from it
    # is an edge of the graph that package publishes.
    yitizi = pytest.importorskip("yitizi")
    taken = [(variant, row[1]) for variant, row in rows().items() if row[2] == "yitizi"]
    assert len(taken) > 500
    missing = [(v, s) for v, s in taken if s not in yitizi.get(v)]
    assert not missing, missing[:20]
