"""Anki decks: note types, notes keyed on entry ids, deterministic packages and a CSV."""
