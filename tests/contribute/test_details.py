"""`glossary changelog --details`: each changed field as a word-level diff, citations with their place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MINI_TERMS, mini_entries, set_field
from test_changelog import git

from glossary.cli import cli
from glossary.contribute import details
from glossary.contribute.details import MAX_FIELD, entry_diff, markdown, text, word_diff


def changelog(*args: str) -> str:
    result = CliRunner().invoke(cli, ["changelog", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_english_is_compared_by_word_and_chinese_by_character() -> None:
    old, new = "The rack on which the arrows are laid.", "The stand on which arrows are laid."
    assert word_diff(old, new) == (
        ("=", "The "),
        ("-", "rack"),
        ("+", "stand"),
        ("=", " on which"),
        ("-", " the"),
        ("=", " arrows are laid."),
    )
    assert word_diff("盛矢之器形如交龙", "盛矢之具形如交龍") == (
        ("=", "盛矢之"),
        ("-", "器"),
        ("+", "具"),
        ("=", "形如交"),
        ("-", "龙"),
        ("+", "龍"),
    )
    # pinyin's tone marks belong to the word
    assert word_diff("shèng shǐ", "shèng shī") == (("=", "shèng "), ("-", "shǐ"), ("+", "shī"))


def test_a_rewritten_phrase_reads_as_one_deletion_and_one_insertion() -> None:
    segments = word_diff("set in middle court", "set at east hall")
    assert segments == (("=", "set "), ("-", "in middle court"), ("+", "at east hall"))
    # whatever the diff, the old text is the kept and removed parts, the new the kept and added
    old, new = "set in the middle of the court", "set at the east of the hall"
    segments = word_diff(old, new)
    assert "".join(t for op, t in segments if op != "+") == old
    assert "".join(t for op, t in segments if op != "-") == new


def test_text_form_marks_removed_and_added_words(tmp_path: Path) -> None:
    bi = mini_entries()["bi"]
    text_ = MINI_TERMS.read_text(encoding="utf-8")
    (tmp_path / "old.yaml").write_text(text_, encoding="utf-8")
    changed = set_field(text_, "bi", "gloss", bi.gloss.replace("arrow", "arrows'"))
    (tmp_path / "new.yaml").write_text(changed, encoding="utf-8")
    output = changelog("--details", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"))
    assert "0 added, 1 changed, 0 removed" in output
    assert f"bi {bi.term} (changed)\n  gloss: [-arrow-]{{+arrows'+}} rack\n" in output
    assert "citations" not in output  # no citation changed


def test_a_changed_citation_shows_its_quote_and_its_place() -> None:
    bi = mini_entries()["bi"]
    old = {
        "id": "bi",
        "term": bi.term,
        "citations": [{"quote": "甲乙", "work": "禮經本義", "juan": 4}],
    }
    new = {
        "id": "bi",
        "term": bi.term,
        "citations": [
            {"quote": "甲丙", "work": "禮經本義", "juan": 4, "section": "取矢"},
            {"quote": "丁", "work": "KR1d0044", "page": "21b", "layer": "commentary"},
        ],
    }
    diff = entry_diff(old, new)
    assert diff.fields == ()
    (changed, added) = diff.citations
    assert (changed.label, changed.status) == ("citations[0]", "changed")
    assert changed.quote == (("=", "甲"), ("-", "乙"), ("+", "丙"))
    assert changed.place == (("=", "禮經本義 卷4"), ("+", " 〈取矢〉"))
    assert (added.label, added.status, added.quote) == ("citations[1]", "added", (("+", "丁"),))
    assert added.place == (("+", "KR1d0044 p.21b commentary"),)
    # a citation put in before the others leaves them alone
    moved = entry_diff(new, {**new, "citations": [{"quote": "戊"}, *new["citations"]]})
    assert [(c.label, c.status) for c in moved.citations] == [("citations[0]", "added")]


def test_added_and_removed_entries_show_every_field(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text("- {id: a, term: 甲, gloss: one}\n", encoding="utf-8")
    (tmp_path / "new.yaml").write_text(
        "- {id: b, term: 乙, gloss: two, citations: [{quote: 乙丙, work: 禮經本義, juan: 2}]}\n",
        encoding="utf-8",
    )
    output = changelog("--details", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"))
    assert "b 乙 (added)\n  term: {+乙+}\n  gloss: {+two+}\n  citations[0] (added)\n" in output
    assert "    quote: {+乙丙+}\n    place: {+禮經本義 卷2+}\n" in output
    assert "a 甲 (removed)\n  term: [-甲-]\n  gloss: [-one-]\n" in output


HOSTILE = (
    "<script>alert(1)</script> **bold** [link](https://example.com)\n\n"
    "::error::forged\n##[error]old\u202eright-to-left\x1b[31m"
)


def test_markdown_shows_a_hostile_value_and_obeys_none_of_it() -> None:
    diff = entry_diff({"id": "a", "gloss": "x"}, {"id": "a", "gloss": HOSTILE, "term": "<b>"})
    summary = markdown([diff], "old", "new")
    assert "<script>" not in summary and "&lt;script&gt;" in summary
    assert "<code>a</code> &lt;b&gt; (changed)" in summary
    # a value's blank lines do not end the HTML block, so markdown never reads the value
    assert "\n\n::" not in summary and "<br><br>&#58;&#58;error&#58;&#58;forged" in summary
    assert "##&#91;error]" in summary and "[link]" not in summary
    assert "\u202e" not in summary and "\\u202e" in summary and "\x1b" not in summary
    for block in summary.split("\n\n"):
        assert all(line.startswith("<") for line in block.splitlines() if line), block
    # a field's name is the entry's text too
    named = entry_diff({"id": "a"}, {"id": "a", "x\n::error::forged": 1, 7: "<i>"})
    assert not re.search(r"^\s*::", text([diff, named], "old", "new"), re.MULTILINE)
    assert "<th>x<br>&#58;&#58;error" in markdown([named], "old", "new")
    assert "<th>7</th><td><ins>&lt;i&gt;</ins>" in markdown([named], "old", "new")


def test_values_and_the_report_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    long = "字" * (MAX_FIELD * 25)
    (field,) = entry_diff({"id": "a"}, {"id": "a", "definition": long}).fields
    ((op, shown),) = field.segments
    assert op == "+" and shown == "字" * MAX_FIELD + f"…({len(long):,} characters)"
    monkeypatch.setattr(details, "MAX_OUTPUT", 2000)
    # the limit is in bytes, as GitHub's: a Chinese character is three
    diffs = [entry_diff(None, {"id": f"e{i}", "gloss": "字" * 100}) for i in range(20)]
    summary = markdown(diffs, "old", "new")
    assert len(summary.encode()) <= 2000 + 200  # the note of what was left out is the excess
    assert "more entries left out (the summary's size limit)" in summary
    assert 0 < summary.count("<h3>") < 20 and text(diffs, "old", "new").count("(added)") < 20


def test_revisions_alone_are_their_terms_yaml_and_ids_are_those_to_preview(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    git(tmp_path, "init", "-q")
    text_ = MINI_TERMS.read_text(encoding="utf-8")
    (tmp_path / "terms.yaml").write_text(text_, encoding="utf-8")
    git(tmp_path, "add", "terms.yaml")
    git(tmp_path, "commit", "-q", "-m", "v1")
    added = "\n- {id: zz-new, term: 乏}\n- {id: 'Bad id', term: 乏}\n"
    changed = set_field(text_, "bi", "gloss", "arrow stand") + added
    (tmp_path / "terms.yaml").write_text(changed, encoding="utf-8")
    git(tmp_path, "commit", "-q", "-am", "v2")
    monkeypatch.chdir(tmp_path)
    output = changelog("--details", "HEAD~1", "HEAD")
    assert "bi 楅 (changed)\n  gloss: arrow [-rack-]{+stand+}\n" in output
    # the ids a shell may be given: added and changed, valid ids only
    assert changelog("--format", "ids", "HEAD~1", "HEAD") == "zz-new\nbi\n"
    missing = CliRunner().invoke(cli, ["changelog", "no-such-rev", "HEAD"])
    assert missing.exit_code == 1
    assert "no-such-rev: no such file, nor a git revision with a terms.yaml" in missing.output
