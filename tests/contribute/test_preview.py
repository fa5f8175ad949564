"""`glossary preview ID`: an entry's cards and printed entry on one page (mini project)."""
from pathlib import Path

import html5lib
import pytest
from click.testing import CliRunner
from conftest import MINI_PLAN, mini_entries

from glossary.cli import cli
from glossary.contribute.preview import render_card
from glossary.plan import load_plan


def test_render_card_templates() -> None:
    fields = {"Term": "楅", "Traditional": "", "Passage": "乃設{{c1::楅}}于中庭"}
    assert render_card("{{Term}}{{#Traditional}}[{{Traditional}}]{{/Traditional}}", fields) == "楅"
    assert "[…]" in render_card("{{cloze:Passage}}", fields)
    assert '<span class="cloze">楅</span>' in render_card("{{cloze:Passage}}", fields, front="x")
    assert render_card("{{FrontSide}}<hr>{{tts zh_CN:Term}}", fields, front="F").startswith("F<hr><span")


def placed_entry() -> str:
    """An entry of the fixture glossary that has a place on the fixture plan."""
    plan, _ = load_plan(MINI_PLAN)
    return next(ident for ident in mini_entries() if plan.for_term(ident) is not None)


def preview(project: Path, entry_id: str, out: Path, *args: str):
    return CliRunner().invoke(cli, ["preview", entry_id, "--terms", str(project / "terms.yaml"),
                                    "--corpus", str(project / "corpus"), "--out", str(out), *args])


def test_preview_page_shows_every_card_and_the_printed_entry(mini_project: Path) -> None:
    entry_id = placed_entry()
    out = mini_project / "preview.html"
    result = preview(mini_project, entry_id, out)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(text)
    for card in ("Recognition — front", "Recognition — back", "Recall — front", "Hall plan — front", "Cloze — back"):
        assert card in text
    assert "data:image/svg+xml;base64," in text and f'id="e-{entry_id}"' in text
    assert mini_entries()[entry_id].gloss in text
    assert not out.with_suffix(".png").exists()


def test_an_entry_off_the_plan_has_no_plan_card(mini_project: Path) -> None:
    plan, _ = load_plan(MINI_PLAN)
    entry_id = next(ident for ident in mini_entries() if plan.for_term(ident) is None)
    out = mini_project / "preview.html"
    assert preview(mini_project, entry_id, out).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "Recognition — front" in text and "Hall plan — front" not in text


@pytest.mark.slow  # real Chromium
def test_preview_png(mini_project: Path) -> None:
    out = mini_project / "preview.html"
    result = preview(mini_project, placed_entry(), out, "--png")
    assert result.exit_code == 0, result.output
    assert out.with_suffix(".png").read_bytes().startswith(b"\x89PNG")


def test_preview_unknown_id(mini_project: Path, tmp_path: Path) -> None:
    result = preview(mini_project, "no-such", tmp_path / "p.html")
    assert result.exit_code == 1 and "no valid entry 'no-such'" in result.output
    assert not (tmp_path / "p.html").exists()
