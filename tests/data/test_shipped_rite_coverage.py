"""Rite coverage on the shipped glossary: the issue's own count, and the rule stays a preview."""

from conftest import rite_named

from glossary.enrich.rite_coverage import uses


def test_jin_pu_stands_eight_times_in_the_classic_of_da_she(shipped_entries, shipped_index) -> None:
    # Issue 23, point 1, counted by a reader: 搢扑 stands eight times in 大射儀's classic.
    jin_pu = [entry for entry in shipped_entries if entry.term == "搢扑"]
    found = uses(jin_pu, shipped_index)[jin_pu[0].id]
    assert found[rite_named("大射仪")].count == 8
    assert found[rite_named("大射仪")].juan == rite_named("大射仪").juan
