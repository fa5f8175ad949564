"""The modern rendering shown beside the passages it renders: terms.json, card backs, the printed book.

The mini corpus' rendering pairs 【某之某，字称尸的父亲…】 with the note 某之某字尸父而名尸也
尸必筮無父者為之… of 卷十五 (015:53), which entry ``shi`` cites (tests/enrich/test_align.py
checks that pairing); 卷四 has no rendering.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from conftest import make_project, raw

from glossary.build import gather
from glossary.check import check_project
from glossary.model_alignment import Rendering
from glossary.render import RENDERERS, RenderOptions
from glossary.render.anki.models import TERM_FIELDS
from glossary.render.anki.modern import rendering_line
from glossary.render.anki.render import note_specs

RENDERING = next(
    p.strip()
    for p in raw("002_a73e8d04fc3338bc.txt").split("\n\n")
    if p.strip().startswith("【某之某")
)
LABEL = "modern rendering (seed-shiyu, modern Chinese translation from the project's user, translator not named)"


@pytest.fixture(scope="module")
def glossary(tmp_path_factory):
    folder = make_project(tmp_path_factory.mktemp("modern") / "project")
    report = check_project(folder / "terms.yaml", folder / "corpus")
    assert not report.failed()
    return gather(report, folder)


def test_terms_json_loci_carry_the_rendering(glossary) -> None:
    data = json.loads(RENDERERS["terms.json"](glossary, RenderOptions()).files["terms.json"])
    (source,) = data["modern_renderings"]
    assert source == {
        "text": "seed-shiyu",
        "file": "002_a73e8d04fc3338bc.txt",
        "renders": "KR1d0044",
        "label": LABEL,
        "threshold": 0.5,
    }
    loci = {
        (locus["file"], locus["text"]): locus
        for term in data["terms"]
        for citation in term["citations"]
        for locus in citation["loci"]
    }
    assert loci[("kanripo/KR1d0044/KR1d0044_015.txt", "尸必筮無父者為之")]["modern"] == RENDERING
    for (file, _), locus in loci.items():
        if not file.endswith(("_014.txt", "_015.txt")):
            assert "modern" not in locus and "modern_uncertain" not in locus, file


def test_card_backs_show_the_sentence_that_renders_the_quote(glossary) -> None:
    """Issue 25, point 4: under 尸必筮無父者為之, the sentence that renders it, without the
    paragraph's other sentences, its brackets or a label; whose rendering it is is said once, in
    the root deck's description."""
    spec = next(s for s in note_specs(glossary) if s.key == "note:shi")
    citations = dict(zip([name for name, _ in TERM_FIELDS], spec.fields))["Citations"]
    assert '<div class="modern" lang="zh-Hans">尸必须筮选没有父亲的人担任。</div>' in citations
    assert "modern-label" not in citations and "modern rendering" not in citations
    assert "【" not in citations and "字称尸的父亲" not in citations
    assert citations.count('class="modern"') == 1
    assert citations.index("尸必筮無父者為之") < citations.index("尸必须筮选")
    files = RENDERERS["anki"](glossary, RenderOptions()).files
    with zipfile.ZipFile(io.BytesIO(files["yili-glossary.apkg"])) as archive:
        collection = archive.read("collection.anki2")
    assert b"translator not named" in collection  # the root deck's description


def test_the_printed_citation_shows_the_sentence_that_renders_it(glossary) -> None:
    """Issue 26, point 4: the book shows what the cards show (one function decides), with a
    one-word mark instead of the 90-character label, and no paragraph twice within an entry."""
    page = RENDERERS["print"](glossary, RenderOptions()).files["glossary.html"].decode("utf-8")
    assert LABEL not in page[page.index("<main") : page.index('id="bibliography"')]
    article = page[page.index('id="e-shi"') :]
    article = article[: article.index("</article>")]
    line = '<span class="modern-label">modern:</span> <span lang="zh-Hans">尸必须筮选没有父亲的人担任。</span>'
    assert line in article and article.count('class="modern"') == 1
    assert RENDERING not in article and "【" not in article
    # Under the citation of the passage it renders, after its locus.
    assert (
        article.index("尸必筮無父者為之")
        < article.index("KR1d0044_WYG_015-3b")
        < article.index("尸必须筮选")
    )
    # No rendered sentence twice in one entry, in any entry.
    for entry in page.split('<article class="entry"')[1:]:
        shown = [m for m in entry.split('class="modern-label">modern:</span> ')[1:]]
        texts = [m.split("</span>")[0] for m in shown]
        assert len(texts) == len(set(texts))


def rendering(text: str) -> Rendering:
    return Rendering("label", text, "002.txt", 0, 1.0)


@pytest.mark.parametrize(
    ("text", "quote", "line"),
    [
        # The sentence that renders the quote, the paragraph's mark 译 left out.
        ("译主人拜谢。祝官把觯放在铏的南边。尸坐下。", "祝奠觶于鉶南", "祝官把觯放在铏的南边。"),
        # A sentence with the placeholder gives way to the next best; none at all if it was the only one.
        ("主人穿〇服就位。主人穿服在门外就位。", "主人服即位于門外", "主人穿服在门外就位。"),
        ("主人穿〇服就位。", "主人服即位", None),
        # Too little in common with the quote: nothing rather than a wrong sentence.
        ("宾客到来。", "祝奠觶于鉶南", None),
        # A quoted speech that goes on after the sentence is closed on the card.
        (
            "郑康成说：“尸不接受鱼腊。因为丧礼不备五味。”",
            "尸不受魚腊",
            "郑康成说：“尸不接受鱼腊。”",
        ),
    ],
)
def test_the_line_a_card_shows(text: str, quote: str, line: str | None) -> None:
    assert rendering_line(rendering(text), quote) == line
