"""Every rule of `glossary check`: a stable code, a kebab name, and its page.

Codes never change meaning and are never reused (a retired rule keeps its line, ``retired=True``).
Groups by hundreds: Y0xx reading a file (bytes, YAML); Y1xx an entry's fields (schema, text,
ids, cross-entry); Y2xx citations (is the quote there, at the place named); Y3xx the apparatus
(who is named, which rite, the witness, headwords in quotes); Y4xx readings (pinyin, tts,
廣韻, 音義); Y5xx headword scripts; Y6xx the hall plan and its stage plans (stages.yaml); Y7xx
media; Y8xx the Anki ledger and retired ids; Y9xx the checker's own (the corpus, ``ignore:`` lists).

This module imports nothing of the package: :class:`glossary.problems.Problem` reads names here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """One rule: what it checks (``summary``), why and how to fix it (``fix``), and the check
    (a function, ``module:function``) that reports it."""

    code: str
    name: str
    severity: str  # "error", "warning" or "note": what the check reports at most
    check: str
    summary: str
    fix: str
    #: A preview rule is checked but reported only when ``--select`` names its code in full (it
    #: would warn on entries still waiting for their review: docs/checks.md says which).
    preview: bool = False


E, W, N = "error", "warning", "note"
LOAD, SCHEMA = "glossary.load:load_bytes", "glossary.schema_check:schema_problems"
TEXT = "glossary.textcheck:text_problems"
VALIDATE, CIT = "glossary.validate:validate", "glossary.citations:CitationChecker.check"
ENTRY = "glossary.rules.entry"
MEDIA, LEDGER = "glossary.media", "glossary.published"

# One rule a line (code and name, severity, check, summary, fix): kept unformatted to be read as a table.
# fmt: off
RULES: tuple[Rule, ...] = tuple(Rule(*rule[0].split(), *rule[1:]) for rule in (  # type: ignore[arg-type]
    # Y0xx: reading a file
    ("Y001 cannot-read", E, LOAD, "A file the check needs cannot be read.", "Make it a regular, readable file (not a link)."),
    ("Y002 not-utf8", E, LOAD, "The file is not UTF-8.", "Save the file as UTF-8."),
    ("Y003 yaml-syntax", E, LOAD, "A YAML syntax error (said alone: nothing else is checked until the file reads).", "Fix the line named; the message says the indentation it needs."),
    ("Y004 unusual-line-break", E, LOAD, "A character YAML reads as a line break but editors do not (U+0085, U+2028, U+2029).", "Replace it with a newline."),
    ("Y005 yaml-alias", E, LOAD, "A YAML alias (*name).", "Write the value out."),
    ("Y006 nested-too-deep", E, LOAD, "Nesting deeper than a terms file's shape.", "Write entries as the guide shows."),
    ("Y007 empty-file", E, LOAD, "The file holds no entries.", "Add entries."),
    ("Y008 duplicate-key", E, LOAD, "A key given twice in one mapping.", "Keep one of them."),
    ("Y009 key-not-text", E, LOAD, "A mapping key that is not plain text.", "Write field names as plain words."),
    ("Y010 bad-value", E, LOAD, "A value the loader refuses (a YAML tag, a date).", "Write it as plain text, in quotes."),
    ("Y011 too-many-entries", E, VALIDATE, "More entries than a terms file may hold.", "Split the file, or remove copies."),
    ("Y012 too-many-citations", E, VALIDATE, "More citations in all than a terms file may hold.", "Remove copied citations."),
    # Y1xx: an entry's fields
    ("Y101 unknown-field", E, SCHEMA, "A field the schema does not know (or one indented into the wrong mapping).", "Rename it as suggested, or indent it as said."),
    ("Y102 missing-field", E, SCHEMA, "A required field is missing.", "Add it."),
    ("Y103 wrong-type", E, SCHEMA, "A value of the wrong type (text, list, mapping, number).", "Write the type named; quote text YAML would read as a number or yes/no."),
    ("Y104 not-one-of", E, SCHEMA, "A value that is not one of the allowed values (a category, a layer).", "Choose one of those listed."),
    ("Y105 bad-id", E, SCHEMA, "An id that is not lowercase letters and digits joined by hyphens.", "Write it as `si-she`."),
    ("Y106 bad-tag", E, SCHEMA, "A tag with spaces or other characters Anki refuses.", "Use letters, digits, '_', ':', '.', '-'."),
    ("Y107 empty-value", E, SCHEMA, "A text field that is empty.", "Write it, or leave an optional field out."),
    ("Y108 too-few-items", E, SCHEMA, "A list shorter than it must be.", "Add items."),
    ("Y109 too-long", E, SCHEMA, "A text longer than the field allows.", "Shorten it."),
    ("Y110 too-many-items", E, SCHEMA, "A list longer than the field allows.", "Remove items."),
    ("Y111 out-of-range", E, SCHEMA, "A number outside its bounds (a plan coordinate).", "Give a number inside them."),
    ("Y112 repeated-item", E, SCHEMA, "A list names the same item twice.", "Keep one."),
    ("Y113 schema", E, SCHEMA, "Any other schema rule.", "Follow the message."),
    ("Y114 invisible-character", E, TEXT, "A value holds a control, bidi or other invisible character.", "Remove it."),
    ("Y115 prints-as-nothing", E, TEXT, "A value of only fillers or combining marks.", "Write the text."),
    ("Y116 scaffold-placeholder", E, VALIDATE, "Still the placeholder `glossary new` wrote (TODO …).", "Write the field, or leave an optional field out."),
    ("Y117 duplicate-id", E, VALIDATE, "Two entries with one id.", "Give one of them another id."),
    ("Y118 related-to-itself", E, VALIDATE, "An entry lists itself as related.", "Remove it."),
    ("Y119 unknown-related", E, VALIDATE, "`related` names no entry's id.", "Use an existing id (see the suggestion)."),
    ("Y120 unknown-rite", E, VALIDATE, "A rite name the vocabulary does not know.", "Write a rite of glossary/data/vocab.yaml, in either script or English."),
    ("Y121 bad-juan", E, VALIDATE, "A 卷 that is not a number.", "Write 4 or 卷四."),
    ("Y122 ignore-unknown-code", E, "glossary.rules.select:apply_ignores", "An `ignore:` item names a code no rule has.", "Use a code `glossary check --explain` knows."),
    ("Y123 ignore-stale", W, "glossary.rules.select:apply_ignores", "An `ignore:` item whose code does not fire on the entry (any more).", "Remove the item."),
    ("Y124 ignore-not-allowed", E, "glossary.rules.select:apply_ignores", "An `ignore:` item for a rule an entry cannot waive (reading the file, the ignore list itself, the ledger).", "Fix the problem instead."),
    ("Y125 sense-rite-not-listed", E, f"{ENTRY}:senses", "A sense names a rite the entry does not list.", "List the rite (with a citation from it), or leave it out of the sense."),
    ("Y126 sense-rite-twice", E, f"{ENTRY}:senses", "A rite in two senses of one entry.", "Keep it in one; split the entry if the word has two senses there."),
    # Y2xx: citations
    ("Y201 quote-not-found", E, CIT, "The quote is not in the corpus (nor through an edition variant).", "Paste the nearest passage shown, or `glossary locate` it."),
    ("Y202 locus-mismatch", E, CIT, "The quote is in the corpus but not at the work, 卷, page or section the citation names.", "Correct the place (found at: …)."),
    ("Y203 unknown-work", E, CIT, "A `work` the corpus does not hold.", "Name a work of corpus/manifest.yaml."),
    ("Y204 unknown-section", E, CIT, "A `section` no text of the corpus has.", "Name the section as the corpus heads it."),
    ("Y205 quote-empty", E, CIT, "A quote of no characters to look for.", "Quote the passage."),
    ("Y206 quote-too-long", E, CIT, "A quote longer than any passage checked.", "Quote the passage itself."),
    ("Y207 quote-too-short", E, CIT, "Too few characters of its own to name a passage.", "Quote more of the passage."),
    ("Y208 too-many-places", E, CIT, "The quote matches more places than a reader can use.", "Quote more, or name the 卷, page or section."),
    ("Y209 quote-not-as-printed", W, CIT, "The quote verifies but is not written as its source prints it (script, punctuation).", "`glossary fmt --quotes` writes it."),
    ("Y210 placeholder-match", W, CIT, "Verified only through the corpus' 〇 placeholder.", "Check the character against another edition."),
    ("Y211 edition-variant", W, CIT, "Found only as another edition writes it (壹 for 一).", "Write the quote as the corpus prints it."),
    ("Y212 variant-folds", N, "glossary.report:fold_note", "A verified quote needed variant folds (a note, never a failure).", "Nothing, or write the printed forms."),
    # Y3xx: the apparatus
    ("Y301 authority-not-cited", E, "glossary.apparatus:claim_problems", "A gloss or definition names a commentator or work no cited passage is his or in it (under any of his names: 鄭玄, 康成, Zheng Xuan …).", "Cite his passage; `glossary locate` shows who speaks."),
    ("Y302 rite-not-cited", E, "glossary.apparatus:rite_problems", "A rite listed that no citation is located in.", "Cite a passage of the rite, or leave it out."),
    ("Y303 received-reading", W, "glossary.enrich.witness_rules:reading_problems", "The received text reads a quoted passage of the classic otherwise.", "Say which reading the entry follows: `reading: {follows, why}`."),
    ("Y304 repeats-zheng", W, "glossary.enrich.witness_rules:repeat_problems", "The author is credited with words of his that repeat 鄭玄's note.", "Say that he follows 鄭玄, and cite 鄭玄's note."),
    ("Y305 headword-not-quoted", W, f"{ENTRY}:headword_quoted", "No form of the headword occurs in any quote.", "Cite a passage that uses the term."),
    ("Y306 variant-not-quoted", W, f"{ENTRY}:variants_quoted", "A `variants` form that no quote of the entry contains.", "Cite a passage with it, or remove it."),
    ("Y307 rite-not-listed", W, "glossary.enrich.rite_coverage:coverage_problems", "Preview, on in the shipped glossary (pyproject.toml): the classic of a rite (禮經本義) uses the headword (any form, not inside a longer headword), and the entry neither lists the rite nor declines it; the warning names the count and the first place.", "List the rite with a citation from it, or say why not: `rites_declined: {士喪禮: another sense}`.", True),
    ("Y308 rite-declined-stale", W, "glossary.enrich.rite_coverage:coverage_problems", "A `rites_declined` rite that the entry also lists, or whose classic does not use the headword.", "Remove it from `rites_declined` (or from `rites`)."),
    ("Y309 repeats-zheng-here", W, f"{ENTRY}:repeats_zheng_here", "Preview: a cited note of the author's (蔡德晉) repeats 4 or more characters of 鄭玄's notes on the same passage (the stretch of the classic that the author's note explains, carried into the received text where the two classics align, and the note after it; words of the classic aside), and the entry neither cites a note of 鄭玄's nor names him.", "Say that he follows 鄭玄, and cite 鄭玄's note (`work: 儀禮`, `layer: commentary`).", True),
    ("Y310 classic-not-received", W, f"{ENTRY}:classic_not_received", "Preview: a quoted passage of the classic (禮經本義) that the received text (儀禮, KR1d0026) has at no place (no part of it aligns, and no run of two thirds of it stands anywhere in the received classic: a 記 moved, a graph that differs), and the citation has no `note` (or `reading`) saying what it is: an item the author appends (附記, 條附補 …), a 記 he places elsewhere, or a page the received copy lacks.", "Say what the passage is in the citation's `note` (and in the definition: never the received classic); `glossary corpus` lists the pages the received copy lacks.", True),
    ("Y311 received-gap", W, f"{ENTRY}:received_gap", "Preview: a quoted passage of the classic where the received text (儀禮, KR1d0026) has a character or two more or fewer inside it (the print's 來日卜𦵏 for the received 來日某卜葬), and the citation has no `reading` saying which the entry follows; Y303 is the rule for a character read otherwise.", "Say which reading the entry follows and why (`reading: {follows: print|received, why: …}`); where the English renders the words that differ, follow the reading chosen.", True),
    ("Y312 inline-chinese-unquoted", W, f"{ENTRY}:inline_quoted", "Preview: Chinese that a gloss or definition gives in parentheses, four characters or more, that none of the entry's quotes contains (names of rites, works, sections, commentators and books aside): the claim rests on words outside the cited passage (the rubric's R1), or on words the corpus does not hold.", "Lengthen the quote that has the words, or cite their passage; else cut them.", True),
    ("Y313 modal-unrendered", W, f"{ENTRY}:modals_rendered", "Preview, on in the shipped glossary: Chinese that a gloss or definition gives in parentheses holds a modal (不敢 'dare', 必 'must', 蓋 'probably' opening a clause, 可也 'may'), and the English of its sentence has no word that renders it (the rubric's R6). About half of what it finds is a modal rendered in another sentence, or 蓋 as a lid: read each finding.", "Render the modal (does not dare, must, probably, may); where the English of another sentence renders it, waive the finding for the entry: `ignore: [{code: Y313, why: …}]`.", True),
    # Y4xx: readings
    ("Y401 pinyin-not-syllables", E, f"{ENTRY}:pinyin", "`pinyin` is not syllables with tone marks.", "Write tone marks (lǐ, not li3)."),
    ("Y402 pinyin-count", E, f"{ENTRY}:pinyin", "Not one syllable per headword character.", "Give one syllable per character."),
    ("Y403 pinyin-unusual", W, f"{ENTRY}:pinyin", "A reading pypinyin lacks, and neither the 廣韻 reading chosen nor the 經典釋文 gives.", "Look twice; say why in reading_note."),
    ("Y404 tts-reads-otherwise", E, f"{ENTRY}:tts", "The `tts` characters read otherwise in everyday Mandarin.", "Choose characters that read as `pinyin`."),
    ("Y405 guangyun-count", E, f"{ENTRY}:guangyun", "`guangyun` is not one item per headword character.", "One per character (null where none fits)."),
    ("Y406 guangyun-not-the-character", E, f"{ENTRY}:guangyun", "A 反切 that is not a 廣韻 reading of its character.", "Choose one of the readings listed."),
    ("Y407 yinyi-count", E, f"{ENTRY}:yinyi", "`yinyi` is not one item per headword character.", "One per character (null where the 音義 has none)."),
    ("Y408 yinyi-not-found", E, f"{ENTRY}:yinyi", "No note of the 儀禮音義 reads the character in the entry's rites.", "Correct it, or null."),
    ("Y409 guangyun-gives-otherwise", W, f"{ENTRY}:classical", "The 廣韻 reading chosen regularly gives another Mandarin reading.", "Choose another, null, or say why in reading_note."),
    ("Y410 shiwen-gives-otherwise", W, f"{ENTRY}:classical", "The 經典釋文 reads the character otherwise.", "Follow it, or say why in reading_note."),
    ("Y411 guangyun-missing", W, f"{ENTRY}:guangyun_missing", "No `guangyun` where the 廣韻 has readings of every headword character.", "`glossary new` lists the readings that fit: add `guangyun:` (null for a character none fits)."),
    ("Y412 yinyi-missing", W, f"{ENTRY}:yinyi_missing", "The 儀禮音義 reads a headword character in one of the entry's rites, in a longer headword (搢三), one of that character alone (韎, 韐), or another graph (朼 for 匕), and the entry has no `yinyi` to carry it (a note whose exception, 除決拾以外皆同, is the entry's phrase does not count).", "Add `yinyi:` as the message writes it (null where the 音義's word is another), then follow its reading in `pinyin` or say why not in `reading_note`."),
    ("Y413 yinyi-phrase-excepted", W, f"{ENTRY}:yinyi_excepted", "The pinyin reads a character as a note of the entry's rites reads it, where that note excepts the entry's phrase (弓矢拾 其劫反 … 除決拾以外皆同: not jiè in 決拾).", "Read the character otherwise in that phrase (as the character, or as another note reads it), or say why in `reading_note`."),
    # Y5xx: headword scripts
    ("Y501 headword-other-script", E, f"{ENTRY}:headword_scripts", "A second entry for a headword that another entry has in the other script.", "Merge the two entries."),
    ("Y502 term-not-simplified", E, f"{ENTRY}:term_script", "`term` is written in traditional script.", "Write `term` simplified and the form as printed in `traditional`."),
    ("Y503 traditional-missing", W, f"{ENTRY}:term_script", "No `traditional` where the headword has a traditional form of its own.", "Add `traditional:`."),
    ("Y504 headword-a-variant", E, f"{ENTRY}:headword_a_variant", "An entry for a headword that another entry lists among its `variants`.", "Add what the entry says to the entry that lists the variant."),
    # Y6xx: the hall plan
    ("Y601 duplicate-place", E, "glossary.plan:load_plan", "Two places of one id.", "Rename one."),
    ("Y602 not-a-coordinate", E, "glossary.plan:load_plan", "A coordinate that is not a finite number.", "Give a number."),
    ("Y603 unknown-term", E, "glossary.check_files:check_plan", "A place names no entry.", "Use an entry's id."),
    # Y6xx: the stage plans (stages.yaml), drawn on the hall plan
    ("Y604 stage-unknown-section", E, "glossary.stages.rules:section_problems", "A stage plan's section that its rite does not have (as the primary text's 右… markers name them, in their order).", "Name a section of the rite, as `glossary locate` shows it."),
    ("Y605 stage-unknown-place", E, "glossary.stages.rules:step_problems", "A placement or movement names no place of plan.yaml.", "Use a place id of plan.yaml."),
    ("Y606 stage-unknown-actor", E, "glossary.stages.rules:step_problems", "An actor that is no entry of the glossary.", "Use the id of a role entry (zhu-ren, bin)."),
    ("Y607 stage-actor-not-a-role", E, "glossary.stages.rules:step_problems", "An actor whose entry is not a role (an object, a position, an action).", "Use the id of a role entry."),
    ("Y608 stage-place-not-quoted", E, "glossary.stages.rules:step_problems", "The quote does not name the place: neither its label, an alias plan.yaml gives, nor a headword of the entry the place illustrates (a movement's quote: the place left or the place reached).", "Quote the words that name the place, or correct the place."),
    ("Y609 stage-facing-not-quoted", E, "glossary.stages.rules:step_problems", "A facing (北面 …) that the quote does not say.", "Quote the words that say it, or leave the facing null."),
    ("Y610 stage-qualifier-not-quoted", E, "glossary.stages.rules:step_problems", "A qualifier (當楣, 東上 …) that the quote does not say.", "Quote the words that say it, or leave the qualifier out."),
    ("Y611 stage-actor-twice", E, "glossary.stages.rules:step_problems", "One actor in two places in one step (two placements, or a placement away from where his movement ends).", "Split the step, or keep one place."),
    ("Y612 stage-carry-not-marked", E, "glossary.stages.rules:carry_problems", "A placement that only repeats the passage of an earlier one of the actor: it carries over, unsaid.", "Write it `carried: true` without a quote, or quote the passage of this step."),
    ("Y613 stage-carried-elsewhere", E, "glossary.stages.rules:carry_problems", "A carried placement (or a movement's start) where the actor does not stand: placed nowhere before in the rite, or elsewhere (facing, qualifier) since.", "Place him with a quote, or carry the place he was last given."),
    # Y7xx: media
    ("Y701 media-path", E, "glossary.validate:check_media_path", "A media path outside media/, through a link, of an unsafe name, or missing.", "Put the file in media/ under a plain name."),
    ("Y702 media-name-taken", E, VALIDATE, "Two media paths of one file name.", "Rename one (Anki keeps media by bare name)."),
    ("Y703 media-unlicensed", E, f"{MEDIA}:media_problems", "A media file with no licence record.", "Add it to media/licenses.yaml."),
    ("Y704 licence-duplicate", E, f"{MEDIA}:media_problems", "A file with two licence records.", "Keep one."),
    ("Y705 media-unused", W, f"{MEDIA}:media_problems", "A media file no entry uses.", "Remove it, or use it."),
    ("Y706 media-too-large", E, f"{MEDIA}:media_size_problems", "A media file, or all of them, larger than the decks may carry.", "Make it smaller."),
    # Y8xx: ledger and retired ids
    ("Y801 ledger-unreadable", E, f"{LEDGER}:ledger_problems", "The Anki ledger cannot be read.", "Restore it from git."),
    ("Y802 published-id-gone", E, f"{LEDGER}:identity_problems", "An id users' notes are keyed on is no longer in the glossary.", "Restore it, or retire it in retired.yaml."),
    ("Y803 ledger-rewritten", E, f"{LEDGER}:append_only_problems", "The ledger lost or rewrote what its base revision published.", "Restore it from the base revision."),
    ("Y804 retired-but-live", E, "glossary.retired:load_retired", "A retired id that is also an entry's (said at the entry).", "Choose another id for the entry: the message names free ones."),
    ("Y805 retired-twice", E, "glossary.retired:load_retired", "An id retired twice.", "Keep one."),
    ("Y806 merged-into-unknown", E, "glossary.retired:load_retired", "`merged_into` names no entry.", "Name the entry that holds it now."),
    ("Y807 merged-term", E, "glossary.retired:merged_terms", "An entry whose headword or variant is the headword of a retired entry, besides the entry it was merged into.", "Add what the entry says to the entry it was merged into."),
    # Y9xx: the checker's own
    ("Y901 corpus-unreadable", E, "glossary.check:_check_project", "The corpus cannot be read.", "Restore corpus/ (its SHA256SUMS say what it holds)."),
    ("Y902 project-preview-unknown", E, "glossary.project:project_rules", "`[tool.glossary] preview` in the pyproject.toml beside the terms file is not a list of preview rules' codes (or the file is no TOML).", "Write `preview = [\"Y307\"]`, codes `glossary check --explain` marks as preview."),
))
# fmt: on

#: Code → rule.
BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
#: Codes of the preview rules: checked, reported only when ``--select`` names them in full.
PREVIEW: frozenset[str] = frozenset(rule.code for rule in RULES if rule.preview)
#: Kebab name → rule.
BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}


def name_of(code: str) -> str:
    """The kebab name of a code ('' for none)."""
    rule = BY_CODE.get(code)
    return rule.name if rule is not None else ""
