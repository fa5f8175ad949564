"""The aligner on the shipped modern rendering: the hand-checked sample, docs/alignment.md, coverage.

The sample (alignment_sample.yaml) was read by hand; scripts/alignment_report.py measures the
aligner on it and docs/alignment.md shows what it measured. The whole shipped corpus is read.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from conftest import ROOT, SHIPPED_CORPUS, SHIPPED_TERMS, load_script

from glossary.build import gather
from glossary.check import check_project
from glossary.enrich.align import align, alignments, paragraphs, passages
from glossary.model_alignment import ALIGNMENT_THRESHOLD
from glossary.render import terms_json

pytestmark = pytest.mark.slow  # reads and aligns the whole shipped corpus

SAMPLE = Path(__file__).resolve().parent / "alignment_sample.yaml"


def _report() -> ModuleType:
    return load_script(ROOT / "scripts" / "alignment_report.py", register=True)


@pytest.fixture(scope="module")
def alignment(shipped_corpus):
    (found,) = alignments(shipped_corpus)
    return found


@pytest.fixture(scope="module")
def sample() -> list[dict]:
    return yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))


def test_the_sample_is_large_and_spread_over_the_file(alignment, sample) -> None:
    assert len(sample) >= 30
    kinds = Counter(item["kind"] for item in sample)
    assert all(kinds[kind] >= 5 for kind in ("yi", "classic", "commentary", "marker")), kinds
    held_out = [item for item in sample if item["set"] == "held-out"]
    assert len(held_out) >= 30
    for items in (sample, held_out):
        indices = sorted(item["paragraph"] for item in items)
        assert indices[0] <= 5 and indices[-1] >= len(alignment.pairs) - 10
        assert max(b - a for a, b in zip(indices, indices[1:])) <= 15
    assert len({item["paragraph"] for item in sample}) == len(sample)


def test_docs_show_the_accuracy_measured_now(shipped_corpus) -> None:
    table = _report().table(SHIPPED_CORPUS)
    docs = (ROOT / "docs" / "alignment.md").read_text(encoding="utf-8")
    assert f"<!-- accuracy -->\n{table}<!-- /accuracy -->" in docs, (
        "run python scripts/alignment_report.py"
    )


def test_accuracy_on_the_sample(alignment, sample) -> None:
    tallies = _report().evaluate(alignment, sample)
    held_out, tuning = tallies["held-out"], tallies["tuning"]
    right, total = held_out.pairs
    assert right / total >= 0.95, held_out.errors
    assert tuning.pairs[0] / tuning.pairs[1] >= 0.95, tuning.errors
    # What is shown as certain is right.
    assert held_out.certain[0] == held_out.certain[1]
    assert tuning.certain[0] / tuning.certain[1] >= 0.95


def test_without_its_original_a_paragraph_is_not_paired_certainly_elsewhere(
    shipped_corpus, alignment
) -> None:
    doc = next(d for d in shipped_corpus.documents if d.path == alignment.file)
    modern = [p.text for p in paragraphs(doc)]
    original = [
        p
        for d in shipped_corpus.documents
        if d.text_info.id == "KR1d0044" and d.juans and d.juans[0][1] in (14, 15)
        for p in passages(d)
    ]
    full, _ = align(modern, original)
    removed = set(range(150, 170))  # 主人酳尸 to 主婦亞獻: 20 passages
    kept = [j for j in range(len(original)) if j not in removed]
    links, _ = align(modern, [original[j] for j in kept])
    for before, after in zip(full, links):
        was = {j for j, _ in before}
        wrong = [kept[j] for j, c in after if kept[j] not in was and c >= ALIGNMENT_THRESHOLD]
        assert not wrong


def test_every_locus_with_a_certain_rendering_carries_it(tmp_path) -> None:
    report = check_project(SHIPPED_TERMS, SHIPPED_CORPUS)
    assert not report.failed()
    glossary = gather(report, SHIPPED_TERMS.parent)
    data = json.loads(terms_json.render(glossary)["terms.json"])
    assert data["modern_renderings"][0]["threshold"] == ALIGNMENT_THRESHOLD
    (alignment,) = glossary.alignments
    # The stretch of 卷十四 the rendering renders, from its first passage on.
    first = min(
        p.start for pair in alignment.pairs for p in pair.original if p.file.endswith("_014.txt")
    )
    in_stretch = with_modern = juan14 = 0
    for entry in glossary.entries:
        for cited, item in zip(
            glossary.cited[entry.id],
            next(t for t in data["terms"] if t["id"] == entry.id)["citations"],
        ):
            for locus, shown in zip(cited.loci, item["loci"]):
                sure = [r.text for r in glossary.renderings(locus)]
                assert shown.get("modern") == ("\n".join(sure) if sure else None)
                if locus.file.endswith("_014.txt") and locus.layer == "classic":
                    juan14 += 1
                    rendered = any(
                        alignment.renderings(locus.file, locus.start, locus.end, locus.layer)
                    )
                    if locus.start >= first and rendered:
                        in_stretch += 1
                        with_modern += "modern" in shown
    # Where the rendering renders the passage, the locus shows it (a few links may be uncertain).
    assert in_stretch and with_modern / in_stretch >= 0.95
    print(
        f"卷14 classic loci: {juan14}, with modern: {with_modern} ({with_modern / juan14:.0%}); "
        f"in passages the rendering renders: {in_stretch}"
    )


def test_glossary_align_json_has_every_paragraph(alignment) -> None:
    from click.testing import CliRunner

    from glossary.cli import cli

    result = CliRunner().invoke(
        cli, ["align", "--json", "--corpus", str(SHIPPED_CORPUS)], catch_exceptions=False
    )
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [item["paragraph"] for item in data] == list(range(len(alignment.pairs))) and len(
        data
    ) == 191
    for item in data:
        assert set(item) >= {"paragraph", "modern", "original", "confidence"}
        assert 0 <= item["confidence"] <= 1
        for passage in item["original"]:
            assert set(passage) >= {"file", "line", "page_id", "layer", "text"}
            assert passage["layer"] in ("classic", "commentary")
            assert passage["file"] in (
                "kanripo/KR1d0044/KR1d0044_014.txt",
                "kanripo/KR1d0044/KR1d0044_015.txt",
            )
