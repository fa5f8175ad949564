"""scripts/rite_coverage.py: the reviewers' page of rule Y307, on the mini glossary and corpus."""

from conftest import ROOT, load_script, mini_entries, rite_named

from glossary.enrich.rite_coverage import coverage_problems

SCRIPT = load_script(ROOT / "scripts" / "rite_coverage.py")


def test_the_page_lists_what_the_check_warns(index) -> None:
    entries = list(mini_entries().values())
    text = SCRIPT.page(entries, index)
    warned, _ = coverage_problems("terms.yaml", entries, index)
    rows = {
        line.split(" | ")[0][2:]: line
        for line in text.splitlines()
        if line.startswith("| ") and " | " in line
    }
    # One row per entry with a missing rite, naming each rite the check warns about.
    assert {p.path.split(".")[0] for p in warned} == {i for i in rows if i in mini_entries()}
    for problem in warned:
        rite = problem.message.split(" the classic of ")[1].split(",")[0]
        count = problem.message.split(" stands ")[1].split("×")[0]
        assert f"{rite} {count}×" in rows[problem.path.split(".")[0]]
    assert f"{len(warned)} missing rites in" in text


def test_the_rite_table_counts_entries_listing_each_rite(index) -> None:
    entries = list(mini_entries().values())
    text = SCRIPT.page(entries, index)
    rite = rite_named("士虞礼")
    listing = sum(rite in entry.rites for entry in entries)
    assert f"| {rite.traditional} | {listing} |" in text
