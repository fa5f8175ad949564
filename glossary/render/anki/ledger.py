"""The modification-time ledger: a note's mod changes only when its content does.

Anki's "update if newer" compares modification times. The ledger (kept in the
repository, ``anki-ledger.json``) records each note's content hash and the mod it
was given; a note whose hash is unchanged keeps its mod, a changed or new note
gets the build's epoch (SOURCE_DATE_EPOCH, else the commit time), so rebuilding
the same commit gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

FILENAME = "anki-ledger.json"
#: Modification times are seconds since 1970; Anki keeps them as 64-bit integers (and note
#: ids are built from them in milliseconds), so anything past year 9999 is a corrupt ledger.
MAX_MOD = 253402300799


@dataclass(frozen=True)
class Stamp:
    sha256: str
    mod: int
    #: For a passage note: the entry ids its clozes ask, c1 first. A number, once given, keeps
    #: asking the same headword (a card's review history belongs to its number).
    clozes: tuple[str, ...] = ()


@dataclass
class Ledger:
    """Content hash and mod per key (``note:bi``, ``notetype:Yili term``)."""

    stamps: dict[str, Stamp] = field(default_factory=dict)

    def stamp(self, key: str, content: str, epoch: int) -> int:
        """The mod for ``content`` under ``key``; records a new stamp if the content changed."""
        digest = hashlib.sha256(content.encode("utf-8")).hexdigest()
        old = self.stamps.get(key)
        if old is not None and old.sha256 == digest:
            return old.mod
        # Never go back in time: Anki only applies updates that are newer. Never past the largest
        # time a ledger may hold either (parse_ledger refuses more): a ledger at MAX_MOD keeps it,
        # and every later build still works.
        mod = min(max(epoch, old.mod + 1) if old is not None else epoch, MAX_MOD)
        self.stamps[key] = Stamp(digest, mod, old.clozes if old is not None else ())
        return mod

    def cloze_order(self, key: str, ids: list[str]) -> list[str]:
        """The cloze numbers of a passage note: the ids recorded for it in their order (an id no
        longer asked keeps its number, unused), then new ones; recorded for the next build."""
        old = self.stamps.get(key)
        recorded = list(old.clozes) if old is not None else []
        order = recorded + [i for i in ids if i not in recorded]
        if old is not None and tuple(order) != old.clozes:
            self.stamps[key] = Stamp(old.sha256, old.mod, tuple(order))
        elif old is None:
            # Stamped with the note's content right after; the order is kept with it.
            self.stamps[key] = Stamp("", 0, tuple(order))
        return order

    def to_bytes(self) -> bytes:
        data = {
            key: {
                "sha256": s.sha256,
                "mod": s.mod,
                **({"clozes": list(s.clozes)} if s.clozes else {}),
            }
            for key, s in sorted(self.stamps.items())
        }
        return (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode(
            "utf-8"
        )


def parse_ledger(data: bytes | None) -> Ledger:
    """The ledger from its file's bytes (an empty ledger when there is no file yet)."""
    if data is None:
        return Ledger()
    try:
        raw = json.loads(data.decode("utf-8"))
        stamps = {
            str(key): Stamp(
                str(value["sha256"]),
                int(value["mod"]),
                tuple(str(i) for i in value.get("clozes", ())),
            )
            for key, value in raw.items()
        }
    except (
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        OverflowError,
    ) as exc:  # Overflow: int(1e400)
        raise ValueError(f"{FILENAME}: cannot read the Anki ledger: {exc}") from None
    for key, stamp in stamps.items():
        if not 0 <= stamp.mod <= MAX_MOD:
            raise ValueError(
                f"{FILENAME}: {key}: mod {stamp.mod} is not a time Anki can store (0 to {MAX_MOD})"
            )
    return Ledger(stamps)
