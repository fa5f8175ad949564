import subprocess
import sys

from conftest import ROOT

from glossary.normalize import VARIANTS


def test_generated_table_is_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_variants.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_table_has_unihan_and_curated_folds_with_provenance() -> None:
    table = (ROOT / "glossary" / "data" / "variants.tsv").read_text(encoding="utf-8")
    rows = {line.split("\t")[0]: line.split("\t") for line in table.splitlines() if not line.startswith("#")}
    assert rows["賔"][1:] == ["賓", "Unihan 15.0 kSemanticVariant"]
    assert rows["乗"][1] == "乘" and rows["乗"][2].startswith("curated:")
    assert rows["楅"][2].startswith("protected:")
    assert VARIANTS["髙"] == "高"


def test_standard_characters_are_not_folded_by_unihan_data() -> None:
    # 於 has semantic variants 于 and 亏; folding standard characters would merge 亏 (虧) too.
    assert "於" not in VARIANTS and "亏" not in VARIANTS
