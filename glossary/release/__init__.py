"""`glossary release`: every output of a tagged commit in one folder, for students to download
(:mod:`glossary.release.make`), with its notes in a student's words (:mod:`glossary.release.notes`).
"""
