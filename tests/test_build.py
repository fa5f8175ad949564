"""`glossary build`: outputs written whole, deterministically, or not at all."""
import hashlib
import json
from pathlib import Path

from click.testing import CliRunner
from conftest import CORPUS, TERMS

from glossary.cli import cli


def build(terms: Path, out: Path):
    # Builds update the Anki ledger next to the terms file: never the repository's in tests.
    if terms == TERMS:
        terms = out.parent / "project" / "terms.yaml"
        terms.parent.mkdir(exist_ok=True)
        terms.write_bytes(TERMS.read_bytes())
    return CliRunner(env={"SOURCE_DATE_EPOCH": "1700000000"}).invoke(
        cli, ["build", "--terms", str(terms), "--corpus", str(CORPUS), "--out", str(out)]
    )


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_build_deck_script_runs_the_same_build(tmp_path: Path) -> None:
    import subprocess
    import sys

    from conftest import ROOT

    (tmp_path / "terms.yaml").write_bytes(TERMS.read_bytes())
    result = subprocess.run([sys.executable, str(ROOT / "build_deck.py"), "--terms", str(tmp_path / "terms.yaml"),
                             "--corpus", str(CORPUS), "--out", str(tmp_path / "d")],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "d" / "terms.json").exists()


def test_build_writes_terms_json_with_resolved_citations(tmp_path: Path) -> None:
    result = build(TERMS, tmp_path / "dist")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "dist" / "terms.json").read_text(encoding="utf-8"))
    bi = next(t for t in data["terms"] if t["id"] == "bi")
    assert bi["citations"][0]["loci"][0]["page"] in ("7", "21b")
    assert bi["concordance"]["total"] > 0
    assert "kanripo.org" in data["attribution"]


def test_same_input_same_bytes(tmp_path: Path) -> None:
    build(TERMS, tmp_path / "a")
    build(TERMS, tmp_path / "b")
    assert digest(tmp_path / "a") == digest(tmp_path / "b")


def test_failed_build_leaves_the_previous_output_untouched(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    assert build(TERMS, out).exit_code == 0
    before = digest(out)
    broken = tmp_path / "terms.yaml"
    broken.write_text(TERMS.read_text(encoding="utf-8").replace("楅长如笴博三寸", "楅长如竿博三寸", 1), encoding="utf-8")
    result = build(broken, out)
    assert result.exit_code == 1
    assert "nothing written" in result.output
    assert digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dist", "project", "terms.yaml"]


def test_rebuild_replaces_stale_outputs(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    assert build(TERMS, out).exit_code == 0
    (out / "stale.apkg").write_text("old", encoding="utf-8")
    assert build(TERMS, out).exit_code == 0
    assert not (out / "stale.apkg").exists()


def test_refuses_to_replace_a_folder_it_did_not_write(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    result = build(TERMS, tmp_path)
    assert result.exit_code == 1
    assert "not a glossary build folder" in result.output
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
