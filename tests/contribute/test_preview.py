"""`glossary preview ID`: an entry's cards and printed entry on one page (mini project)."""

import re
import struct
from pathlib import Path

import html5lib
import pytest
from click.testing import CliRunner
from conftest import MINI_PLAN, mini_entries, set_field

from glossary.cli import cli
from glossary.contribute.preview import PHONE_WIDTH, PNG_SCALE, PRINTED_WIDTH, render_card
from glossary.plan import load_plan
from glossary.render.anki.models import SPECS, template_text
from glossary.render.chromium import screenshots


def test_render_card_templates() -> None:
    fields = {"Term": "楅", "Traditional": "", "Passage": "乃設{{c1::楅}}于中庭"}
    assert render_card("{{Term}}{{#Traditional}}[{{Traditional}}]{{/Traditional}}", fields) == "楅"
    assert "[...]" in render_card("{{cloze:Passage}}", fields)
    assert '<span class="cloze">楅</span>' in render_card("{{cloze:Passage}}", fields, front="x")
    assert render_card("{{FrontSide}}<hr>{{tts zh_CN:Term}}", fields, front="F").startswith(
        "F<hr><span"
    )


def placed_entry() -> str:
    """An entry of the fixture glossary that has a place on the fixture plan."""
    plan, _ = load_plan(MINI_PLAN)
    assert plan is not None
    return next(ident for ident in mini_entries() if plan.for_term(ident) is not None)


def preview(project: Path, entry_id: str, out: Path, *args: str):
    return CliRunner().invoke(
        cli,
        [
            "preview",
            entry_id,
            "--terms",
            str(project / "terms.yaml"),
            "--corpus",
            str(project / "corpus"),
            "--out",
            str(out),
            *args,
        ],
    )


def test_preview_page_shows_every_card_and_the_printed_entry(mini_project: Path) -> None:
    entry_id = placed_entry()
    out = mini_project / "preview.html"
    result = preview(mini_project, entry_id, out)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(text)
    for card in (
        "Recognition — front",
        "Recognition — back",
        "Recall — front",
        "Hall plan — front",
        "Cloze — back",
    ):
        assert card in text
    assert "data:image/svg+xml;base64," in text and f'id="e-{entry_id}"' in text
    assert mini_entries()[entry_id].gloss in text
    assert not out.with_suffix(".png").exists()


def test_an_entry_off_the_plan_has_no_plan_card(mini_project: Path) -> None:
    plan, _ = load_plan(MINI_PLAN)
    assert plan is not None
    entry_id = next(ident for ident in mini_entries() if plan.for_term(ident) is None)
    out = mini_project / "preview.html"
    assert preview(mini_project, entry_id, out).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "Recognition — front" in text and "Hall plan — front" not in text


@pytest.mark.slow  # real Chromium
def test_preview_png_draws_each_card_and_the_printed_entry(mini_project: Path) -> None:
    entry_id = placed_entry()
    out = mini_project / "preview.html"
    result = preview(mini_project, entry_id, out, "--png")
    assert result.exit_code == 0, result.output
    names = [line.removeprefix("wrote ") for line in result.output.splitlines()]
    cards = [
        f"{entry_id}-{card}-{side}.png"
        for card in ("recognition", "recall", "hall-plan")
        for side in ("front", "back")
    ]
    # one picture a side of each card, in the page's order, then the printed entry, beside the page
    assert names[0] == str(out) and names[1:7] == [str(mini_project / n) for n in cards]
    assert names[-1] == str(mini_project / f"{entry_id}-printed.png")
    assert all(
        re.fullmatch(rf"{entry_id}-(cloze(-\d+)?-(front|back)|printed)\.png", Path(n).name)
        for n in names[7:]
    )
    assert not out.with_suffix(".png").exists()
    for name in names[1:]:
        png = Path(name).read_bytes()
        assert png.startswith(b"\x89PNG")
        width, height = struct.unpack(">II", png[16:24])
        # a phone's width at two device pixels a CSS pixel; as tall as the card, not a fixed window
        wanted = PRINTED_WIDTH if name.endswith("-printed.png") else PHONE_WIDTH
        assert width == wanted * PNG_SCALE and 100 < height < 16384, (name, width, height)
    heights = {struct.unpack(">II", Path(n).read_bytes()[16:24])[1] for n in names[1:]}
    assert len(heights) > 2


@pytest.mark.slow  # real Chromium
def test_screenshots_are_as_tall_as_the_page() -> None:
    tall = b"<!DOCTYPE html><html><body style='margin:0'><div style='height:50vh'></div><div style='height:3000px'></div></body></html>"
    short = b"<!DOCTYPE html><html><body style='margin:0'><p style='margin:0;height:40px'>x</p></body></html>"
    drawn = screenshots([(tall, 300), (short, 200)], scale=2)
    sizes = [struct.unpack(">II", png[16:24]) for png in drawn]
    # vh is the window's (800 px), not the picture's
    assert sizes == [(600, 2 * 3400), (400, 80)]


def test_preview_unknown_id(mini_project: Path, tmp_path: Path) -> None:
    result = preview(mini_project, "no-such", tmp_path / "p.html")
    assert result.exit_code == 1 and "no valid entry 'no-such'" in result.output
    assert not (tmp_path / "p.html").exists()


# -- contributor text is never read as template syntax (issue 13) --------------------------------

#: What a contributor could write in a field if it reached the preview unescaped.
SYNTAX = "{{Gloss}} {{#Term}} {{/Gloss}} {{{Id}}} {{FrontSide}} {{c1::x}}"


def test_a_field_shown_on_the_front_is_not_expanded_on_the_back() -> None:
    fields = {"Term": "{{Gloss}}", "Gloss": "SECRET", "Pinyin": "bī"}
    front = render_card("{{Term}}", fields)
    assert front == "{{Gloss}}"
    # {{FrontSide}} puts the rendered front into the back: its text must stay text there.
    assert render_card("{{FrontSide}}<hr>{{Pinyin}}", fields, front=front) == "{{Gloss}}<hr>bī"


def test_an_unclosed_section_in_a_field_does_not_break_the_card() -> None:
    fields = {"Term": "{{#Term}}", "Gloss": "{{/Gloss}}"}
    front = render_card("{{Term}}", fields)
    assert front == "{{#Term}}"
    assert (
        render_card("{{FrontSide}}<hr>{{Gloss}}", fields, front=front) == "{{#Term}}<hr>{{/Gloss}}"
    )


def test_a_cloze_passage_is_not_expanded_either() -> None:
    fields = {"Passage": "乃設{{c1::楅}}于中庭 {{Gloss}}", "Gloss": "SECRET"}
    assert (
        render_card("{{cloze:Passage}}", fields)
        == '乃設<span class="cloze">[...]</span>于中庭 {{Gloss}}'
    )
    back = render_card("{{cloze:Passage}}", fields, front="f")
    assert back == '乃設<span class="cloze">楅</span>于中庭 {{Gloss}}'


@pytest.mark.parametrize("kind", sorted(SPECS))
def test_every_card_template_keeps_template_syntax_in_fields_as_text(kind: str) -> None:
    names = [name for name, _ in SPECS[kind][0]]
    fields = {name: f"{name}: {SYNTAX}" for name in names}
    if "Passage" in fields:
        fields["Passage"] = f"乃設{{{{c1::楅}}}}于中庭 {SYNTAX}"
    for card, _, front_file, back_file, *_ in SPECS[kind][1]:
        front = render_card(template_text(front_file), fields)
        back = render_card(template_text(back_file), fields, front=front)
        for side in (front, back):
            assert "{{Gloss}} {{#Term}} {{/Gloss}} {{{Id}}} {{FrontSide}}" in side, (kind, card)


def test_preview_of_an_entry_with_template_syntax_in_its_text(mini_project: Path) -> None:
    terms = mini_project / "terms.yaml"
    text = set_field(terms.read_text(encoding="utf-8"), "bi", "gloss", "{{Gloss}} {{#Term}}")
    terms.write_text(
        set_field(text, "bi", "definition", "{{FrontSide}} [sound:x.mp3]"), encoding="utf-8"
    )
    out = mini_project / "preview.html"
    result = preview(mini_project, "bi", out)
    assert result.exit_code == 0, result.output
    page = html5lib.parse(out.read_text(encoding="utf-8"), namespaceHTMLElements=False)
    shown = "".join(page.itertext())
    assert shown.count("{{Gloss}} {{#Term}}") >= 3  # the cards' backs and the printed entry
    assert "{{FrontSide}} [sound:x.mp3]" in shown


def test_preview_into_a_missing_folder_is_an_error_not_a_crash(
    mini_project: Path, tmp_path: Path
) -> None:
    result = preview(mini_project, placed_entry(), tmp_path / "no-such-folder" / "p.html")
    assert result.exit_code == 1 and "does not exist" in result.output
    assert "internal error" not in result.output


def test_previews_of_several_entries_into_a_folder(mini_project: Path, tmp_path: Path) -> None:
    entries = mini_entries()
    ids = ["bi", "sheng-shi"]
    folder = tmp_path / "previews"
    folder.mkdir()
    project = [
        "--terms",
        str(mini_project / "terms.yaml"),
        "--corpus",
        str(mini_project / "corpus"),
    ]
    result = CliRunner().invoke(cli, ["preview", *ids, *project, "--folder", str(folder)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == [f"preview-{i}.html" for i in ids]
    for ident in ids:
        page = (folder / f"preview-{ident}.html").read_text(encoding="utf-8")
        assert f"<h1>Preview of <code>{ident}</code></h1>" in page and entries[ident].gloss in page
    # one --out for several pages is refused, an id that is not valid names itself, nothing written
    both = CliRunner().invoke(cli, ["preview", *ids, *project, "--out", str(tmp_path / "p.html")])
    assert both.exit_code == 2 and "use --folder for several" in both.output
    other = tmp_path / "other"
    other.mkdir()
    missing = CliRunner().invoke(
        cli, ["preview", "bi", "no-such", *project, "--folder", str(other)]
    )
    assert missing.exit_code == 1 and "no valid entry 'no-such'" in missing.output
    assert not any(other.iterdir())


def test_a_previews_notes_are_the_decks_notes_of_its_entries(mini_project: Path) -> None:
    """Issue 28: a preview makes only its entries' notes (no reader text, no stage or sequence
    notes), and they are the very notes the build puts in the deck: same fields, same tags."""
    from glossary.build import gather
    from glossary.check import check_project
    from glossary.render.anki.models import SPECS
    from glossary.render.anki.render import note_specs

    report = check_project(mini_project / "terms.yaml", mini_project / "corpus")
    whole = gather(report, mini_project)
    full = note_specs(whole)
    asked = [name for name, _ in SPECS["cloze"][0]].index("Id")
    for wanted in ({"bi"}, {"bi", "sheng-shi"}):
        glossary = gather(report, mini_project, reader=False, only=frozenset(wanted))
        assert glossary.reader is None
        assert set(glossary.concordance) == wanted
        assert all(glossary.concordance[i] == whole.concordance[i] for i in wanted)
        some = note_specs(glossary, only=frozenset(wanted))
        asks = {s.key for s in some if s.kind == "term"}
        assert asks == {f"note:{i}" for i in wanted}
        deck = {s.key: (s.fields, s.tags) for s in full}
        assert all(deck[s.key] == (s.fields, s.tags) for s in some)
        # The passage notes that ask its entries, with whatever other entries share them: every
        # passage is still chosen, so each is the deck's own.
        clozes = {s.key for s in some if s.kind == "cloze"}
        assert clozes == {
            s.key
            for s in full
            if s.kind == "cloze"
            and "yili::retired" not in s.tags
            and wanted & set(s.fields[asked].split())
        }
        assert clozes
