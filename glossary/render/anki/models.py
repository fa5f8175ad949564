"""The note types. Ids are literals: they must never change, even if a name does.

Fields and templates carry explicit ids too (Anki keeps them), so renaming a field
in a later release updates it in place instead of forking the note type.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import genanki

TERM_MODEL_ID = 1740512001
CLOZE_MODEL_ID = 1740512002
SEQUENCE_MODEL_ID = 1740512003
STAGE_MODEL_ID = 1740512004

#: (name, field id). Append new fields at the end; never reuse an id.
TERM_FIELDS = (
    ("Term", 7400120001),
    ("Traditional", 7400120002),
    ("Pinyin", 7400120003),
    ("Ruby", 7400120004),
    ("Gloss", 7400120005),
    ("Definition", 7400120006),
    ("DefinitionZh", 7400120007),
    ("Category", 7400120008),
    ("Rites", 7400120009),
    ("Citations", 7400120010),
    ("Concordance", 7400120011),
    ("Related", 7400120012),
    ("Id", 7400120013),
    ("Plan", 7400120014),
    ("PlanQuestion", 7400120015),
    ("PlanCitations", 7400120016),
    ("Media", 7400120017),
    ("Readings", 7400120018),
    # The gloss and the rites with the headword masked (～) in every form: what a front that asks
    # for the headword may show.
    ("CueGloss", 7400120019),
    ("CueRites", 7400120020),
    # What text-to-speech reads: the headword, or homophones that read as the ritual reading, or
    # nothing where a voice would read it wrong.
    ("TTS", 7400120021),
)
#: (name, template id, front file, back file, browser question, browser answer).
TERM_TEMPLATES = (
    (
        "Recognition",
        7400130001,
        "recognition_front.html",
        "recognition_back.html",
        "{{Term}}",
        "{{Pinyin}} · {{Gloss}}",
    ),
    (
        "Recall",
        7400130002,
        "recall_front.html",
        "recall_back.html",
        "{{CueGloss}}",
        "{{Term}} {{Pinyin}}",
    ),
    # Only positions that stand on the hall plan get this card (its front is empty otherwise).
    (
        "Hall plan",
        7400130003,
        "plan_front.html",
        "plan_back.html",
        "Hall plan: which place? ({{Category}})",
        "{{Term}} {{Pinyin}}",
    ),
)
CLOZE_FIELDS = (
    ("Passage", 7400140001),
    ("Locus", 7400140002),
    ("Term", 7400140003),
    ("Ruby", 7400140004),
    ("Gloss", 7400140005),
    ("Id", 7400140006),
    # One cloze per headword ({{c2::…}}), the text text-to-speech reads for it (cloze-only).
    ("TTS", 7400140007),
)
CLOZE_TEMPLATES = (
    ("Cloze", 7400150001, "cloze_front.html", "cloze_back.html", "{{Locus}}", "{{Term}}"),
)
SEQUENCE_FIELDS = (
    ("Key", 7400160001),
    ("Rite", 7400160002),
    ("Number", 7400160003),
    ("Section", 7400160004),
    ("Next", 7400160005),
    ("Previous", 7400160006),
    ("Locus", 7400160007),
    # Non-empty for 喪服, whose sections are the grades of mourning (vocab.yaml `sections: grades`):
    # the card asks for the next lighter grade, not the next step.
    ("Grades", 7400160008),
)
SEQUENCE_TEMPLATES = (
    (
        "What comes next",
        7400170001,
        "sequence_front.html",
        "sequence_back.html",
        "{{Rite}} {{Number}}: after 〈{{Section}}〉",
        "{{Next}}",
    ),
)
#: A stage-plan note: one actor's placement in one step of a rite (glossary/render/anki/stages.py).
STAGE_FIELDS = (
    # The sort field: the rite in 禮經本義's order, the section's number, the step, the actor.
    ("Key", 7400180001),
    ("Rite", 7400180002),
    ("Section", 7400180003),
    # The section's name with the actor's headword masked (～): what the reverse front shows.
    ("CueSection", 7400180004),
    ("Step", 7400180005),
    ("Steps", 7400180006),
    ("Actor", 7400180007),
    ("Ruby", 7400180008),
    ("Gloss", 7400180009),
    # The place's label and qualifier (阼階 上 當楣), its entry's gloss, the facing.
    ("Place", 7400180010),
    ("PlaceGloss", 7400180011),
    ("Facing", 7400180012),
    ("FacingEn", 7400180013),
    # The drawings: the step without the asked actor (front), the whole step (backs), the step
    # with his mark labelled ？ (the reverse front; empty where the reverse card is not made).
    ("Plan", 7400180014),
    ("PlanAnswer", 7400180015),
    ("PlanReverse", 7400180016),
    ("Citation", 7400180017),
    ("StepNote", 7400180018),
    # The actor's entry id.
    ("Id", 7400180019),
)
STAGE_TEMPLATES = (
    (
        "Place and facing",
        7400190001,
        "stage_front.html",
        "stage_back.html",
        "{{Rite}} 〈{{Section}}〉 step {{Step}}: where does {{Actor}} stand?",
        "{{Place}} {{Facing}}",
    ),
    # Only where no other actor of the section stands at that place facing that way.
    (
        "Who stands here",
        7400190002,
        "stage_reverse_front.html",
        "stage_back.html",
        "{{Rite}} 〈{{CueSection}}〉 step {{Step}}: who stands at {{Place}} {{Facing}}?",
        "{{Actor}}",
    ),
)
SPECS = {
    "term": (TERM_FIELDS, TERM_TEMPLATES),
    "cloze": (CLOZE_FIELDS, CLOZE_TEMPLATES),
    "sequence": (SEQUENCE_FIELDS, SEQUENCE_TEMPLATES),
    "stage": (STAGE_FIELDS, STAGE_TEMPLATES),
}
FONT = "Noto Serif CJK TC"


def field_values(kind: str, values: dict[str, str]) -> tuple[str, ...]:
    """A note's field values in the note type's field order, given by field name.

    Every field must be named, and no other: a value can never land in the wrong field
    of a user's deck because a list was out of step.
    """
    names = [name for name, _ in SPECS[kind][0]]
    if set(values) != set(names):
        missing, extra = sorted(set(names) - set(values)), sorted(set(values) - set(names))
        raise ValueError(f"{kind} note fields: missing {missing}, unknown {extra}")
    return tuple(str(values[name]) for name in names)


def template_text(name: str) -> str:
    return resources.files("glossary.templates").joinpath("anki", name).read_text(encoding="utf-8")


class StableModel(genanki.Model):
    """A genanki model whose modification time comes from the ledger, not the clock."""

    def __init__(self, *args: object, mod: int = 0, **kwargs: object):
        super().__init__(*args, **kwargs)
        self.mod = mod

    def to_json(self, timestamp: float, deck_id: int) -> dict[str, object]:
        data: dict[str, object] = super().to_json(self.mod, deck_id)
        return data


def _fields(spec: tuple[tuple[str, int], ...]) -> list[dict]:
    return [{"name": name, "id": field_id, "font": FONT} for name, field_id in spec]


def _templates(spec: tuple[tuple[str, int, str, str, str, str], ...]) -> list[dict]:
    return [
        {
            "name": name,
            "id": template_id,
            "qfmt": template_text(front),
            "afmt": template_text(back),
            "bqfmt": question,
            "bafmt": answer,
        }
        for name, template_id, front, back, question, answer in spec
    ]


@lru_cache(maxsize=1)
def css() -> str:
    return template_text("card.css")


def model_source(kind: str) -> str:
    """Everything that defines a note type, for the ledger's content hash."""
    fields, templates = SPECS[kind]
    return repr((fields, _templates(templates), css(), SORT_FIELDS[kind]))


#: The field the browser sorts by: the term, the headwords a passage asks, the rite's order.
SORT_FIELDS = {"term": "Term", "cloze": "Term", "sequence": "Key", "stage": "Key"}

#: kind → (model id, name, genanki model type).
MODELS = {
    # Recognition (characters → reading and meaning), recall (meaning → characters), hall plan.
    "term": (TERM_MODEL_ID, "Yili glossary term", genanki.Model.FRONT_BACK),
    # The term blanked inside one of its verified source passages, with the locus shown.
    "cloze": (CLOZE_MODEL_ID, "Yili glossary passage cloze", genanki.Model.CLOZE),
    # "What comes next": the order of a rite's sections, from the corpus' section markers.
    "sequence": (SEQUENCE_MODEL_ID, "Yili glossary rite sequence", genanki.Model.FRONT_BACK),
    # Stage plans: a step of a rite drawn on the hall plan → where an actor stands, and who stands
    # at a marked place.
    "stage": (STAGE_MODEL_ID, "Yili glossary stage plan", genanki.Model.FRONT_BACK),
}


@lru_cache(maxsize=64)
def model(kind: str, mod: int) -> StableModel:
    """The note type ``kind``, stamped with its modification time: one object for each, since
    genanki works out which fields each card needs (rendering every template) once an object."""
    model_id, name, model_type = MODELS[kind]
    fields, templates = SPECS[kind]
    return StableModel(
        model_id,
        name,
        fields=_fields(fields),
        templates=_templates(templates),
        css=css(),
        model_type=model_type,
        mod=mod,
        sort_field_index=[name for name, _ in fields].index(SORT_FIELDS[kind]),
    )


def all_models(mods: dict[str, int]) -> dict[str, StableModel]:
    """Every note type, stamped with its modification time."""
    return {kind: model(kind, mods[f"notetype:{kind}"]) for kind in MODELS}
