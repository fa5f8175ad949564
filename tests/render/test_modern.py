"""The modern rendering shown beside the passages it renders: terms.json, card backs, the printed book.

The mini corpus' rendering pairs 【某之某，字称尸的父亲…】 with the note 某之某字尸父而名尸也
尸必筮無父者為之… of 卷十五 (015:53), which entry ``shi`` cites (tests/enrich/test_align.py
checks that pairing); 卷四 has no rendering.
"""

from __future__ import annotations

import html
import json

import pytest
from conftest import make_project, raw
from markupsafe import escape

from glossary.build import gather
from glossary.check import check_project
from glossary.render import RENDERERS, RenderOptions
from glossary.render.anki.models import TERM_FIELDS
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


def test_card_backs_show_it_labelled(glossary) -> None:
    spec = next(s for s in note_specs(glossary) if s.key == "note:shi")
    citations = dict(zip([name for name, _ in TERM_FIELDS], spec.fields))["Citations"]
    assert (
        f'<span class="modern-label" lang="en">{html.escape(LABEL, quote=False)}:</span>'
        in citations
    )
    assert f'<span lang="zh-Hans">{RENDERING}</span>' in citations
    # One rendering, under the passage it renders.
    assert citations.count('class="modern"') == 1
    assert citations.index("尸必筮無父者為之") < citations.index(RENDERING)


def test_the_printed_citation_shows_it_labelled(glossary) -> None:
    page = RENDERERS["print"](glossary, RenderOptions()).files["glossary.html"].decode("utf-8")
    article = page[page.index('id="e-shi"') :]
    article = article[: article.index("</article>")]
    assert (
        f'<span class="modern-label">{escape(LABEL)}:</span> <span lang="zh-Hans">{RENDERING}</span>'
        in article
    )
    # Under the citation of the passage it renders, after its locus.
    assert (
        article.index("尸必筮無父者為之")
        < article.index("KR1d0044_WYG_015-3b")
        < article.index(RENDERING)
    )
