from pathlib import Path

import html5lib
from click.testing import CliRunner
from conftest import CORPUS, ROOT, TERMS

from glossary.cli import cli
from glossary.contribute.preview import render_card


def test_render_card_templates() -> None:
    fields = {"Term": "楅", "Traditional": "", "Passage": "乃設{{c1::楅}}于中庭"}
    assert render_card("{{Term}}{{#Traditional}}[{{Traditional}}]{{/Traditional}}", fields) == "楅"
    assert "[…]" in render_card("{{cloze:Passage}}", fields)
    assert '<span class="cloze">楅</span>' in render_card("{{cloze:Passage}}", fields, front="x")
    assert render_card("{{FrontSide}}<hr>{{tts zh_CN:Term}}", fields, front="F").startswith("F<hr><span")


def test_preview_page_and_png(tmp_path: Path) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_bytes(TERMS.read_bytes())
    (tmp_path / "plan.yaml").write_bytes((ROOT / "plan.yaml").read_bytes())
    out = tmp_path / "preview.html"
    result = CliRunner().invoke(cli, ["preview", "xi-jie", "--terms", str(terms), "--corpus", str(CORPUS),
                                      "--out", str(out), "--png"])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(text)
    for card in ("Recognition — front", "Recognition — back", "Recall — front", "Hall plan — front", "Cloze — back"):
        assert card in text
    assert "data:image/svg+xml;base64," in text and 'id="e-xi-jie"' in text
    assert out.with_suffix(".png").read_bytes().startswith(b"\x89PNG")


def test_preview_unknown_id(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["preview", "no-such", "--terms", str(TERMS), "--corpus", str(CORPUS),
                                      "--out", str(tmp_path / "p.html")])
    assert result.exit_code == 1 and "no valid entry 'no-such'" in result.output
