"""The rules' pages, from the registry: ``glossary check --explain CODE`` and docs/checks.md
(``python scripts/gen_checks_doc.py`` writes it; a test fails when it is stale)."""

from __future__ import annotations

from glossary.errors import GlossaryError
from glossary.problems import did_you_mean
from glossary.rules.codes import BY_CODE, BY_NAME, RULES, Rule

#: The groups of codes, by their hundreds.
GROUPS = {
    "Y0": "Reading a file (bytes, YAML)",
    "Y1": "An entry's fields (schema, text, ids, across entries, `ignore:`)",
    "Y2": "Citations: is the quote there, at the place named",
    "Y3": "The apparatus: who is named, which rite, the received text, the headword in quotes",
    "Y4": "Readings: pinyin, tts, 廣韻, 儀禮音義",
    "Y5": "Headword scripts",
    "Y6": "The hall plan (plan.yaml) and its stage plans (stages.yaml)",
    "Y7": "Media (media/, media/licenses.yaml)",
    "Y8": "The Anki ledger and retired ids",
    "Y9": "The checker's own (the corpus)",
}


def page(rule: Rule) -> str:
    """A rule's page, as Markdown."""
    return (
        f"### {rule.code} {rule.name}\n\n"
        f"{rule.summary}\n\n"
        f"- severity: {rule.severity}\n"
        f"- fix: {rule.fix}\n"
        f"- checked by: `{rule.check}`\n"
        + (
            f"- preview: off unless named, `glossary check --select {rule.code}`\n"
            if rule.preview
            else ""
        )
    )


def explain(code: str) -> str:
    """The page of the rule of ``code`` (or kebab name); a GlossaryError for neither."""
    rule = BY_CODE.get(code.strip().upper()) or BY_NAME.get(code.strip().lower())
    if rule is None:
        raise GlossaryError(
            f"no rule is {code!r}{did_you_mean(code, [*BY_CODE, *BY_NAME])}; "
            "docs/checks.md lists them"
        )
    return page(rule)


def checks_markdown() -> str:
    """docs/checks.md: every rule, by group."""
    lines = [
        "# The checks of `glossary check`",
        "",
        "Generated from the registry (`glossary/rules/codes.py`) by",
        "`python scripts/gen_checks_doc.py`; do not edit. Every message shows its rule's code and",
        "name (`terms.yaml:42: bi.citations[0].quote: Y201 quote-not-found: …`). Choose rules with",
        "`glossary check --select Y2 --ignore Y209`; read one with `glossary check --explain Y201`.",
        "An entry may waive a rule where a scholar has a reason, in `terms.yaml`:",
        "",
        "```yaml",
        "  ignore:",
        "    - code: Y305",
        "      why: the quotes write the headword by its other name",
        "```",
        "",
        "A code that no longer fires on the entry is a warning (Y123); the rules of Y0xx, Y12x,",
        "Y8xx and Y9xx cannot be waived.",
        "",
        "A rule marked *preview* is checked in every run but reported only when `--select` names",
        "its code in full (`glossary check --select Y307`), or when the project turns it on in the",
        'pyproject.toml beside its terms file (`[tool.glossary]`, `preview = ["Y307"]`, as the',
        "shipped glossary does): then every run reports it and `--strict` fails on it.",
        "",
        "| code | name | severity | what |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {r.code} | {r.name} | {r.severity}{' (preview)' if r.preview else ''} | {r.summary} |"
        for r in RULES
    ]
    for prefix, title in GROUPS.items():
        lines += ["", f"## {prefix}xx: {title}", ""]
        for rule in RULES:
            if rule.code.startswith(prefix):
                lines += [page(rule)]
    return "\n".join(lines).rstrip() + "\n"
