"""scripts/review_status.py: the record of the second reading is read and its form checked."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "review_status", ROOT / "scripts" / "review_status.py"
)
assert _spec and _spec.loader
review_status = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(review_status)


def test_records_are_read_with_their_batch(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(
        "- id: bi\n  verdict: faithful\n  rules: []\n"
        "- id: si-ma\n  verdict: wrong\n  rules: [R2]\n  found: x\n  changed: y\n",
        encoding="utf-8",
    )
    records, problems = review_status.read_records(tmp_path)
    assert problems == []
    assert [(r["id"], r["verdict"], r["batch"]) for r in records] == [
        ("bi", "faithful", "a"),
        ("si-ma", "wrong", "a"),
    ]


def test_malformed_records_are_problems(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text(
        "- id: bi\n  verdict: fine\n"
        "- id: gong\n  verdict: faithful\n  rules: [R2]\n"
        "- id: shi\n  verdict: minor\n  rules: [R9]\n"
        "- id: zu\n  verdict: minor\n"
        "- verdict: wrong\n",
        encoding="utf-8",
    )
    (tmp_path / "c.yaml").write_text("id: bi\n", encoding="utf-8")
    _, problems = review_status.read_records(tmp_path)
    assert problems == [
        "b.yaml[0]: bi: verdict is one of faithful, minor, wrong",
        "b.yaml[1]: gong: a faithful entry has no rule at fault",
        "b.yaml[2]: shi: rules are codes R1–R8",
        "b.yaml[3]: zu: name the rules at fault (R1–R8)",
        "b.yaml[4]: a record is a mapping with an id",
        "c.yaml: not a list of records",
    ]


def test_a_reread_is_a_later_reading_not_a_second_record(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(
        "- id: bi\n  verdict: minor\n  rules: [R1]\n"
        "- id: bi\n  verdict: faithful\n  rules: []\n  reread: R7 after the readings changed\n"
        "- id: gong\n  verdict: faithful\n  rules: []\n  reread: ''\n",
        encoding="utf-8",
    )
    records, problems = review_status.read_records(tmp_path)
    assert problems == ["a.yaml[2]: gong: reread says why the entry was read again"]
    assert [r.get("reread") for r in records] == [None, "R7 after the readings changed", ""]


def test_help_is_the_usage_and_an_unknown_option_is_refused(capsys) -> None:
    assert review_status.main(["--help"]) == 0
    assert "Usage: python scripts/review_status.py" in capsys.readouterr().out
    assert review_status.main(["--chek"]) == 2
    assert "unknown option --chek" in capsys.readouterr().err
