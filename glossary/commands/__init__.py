"""The commands of ``glossary``, by group: each module's click commands, added to the group in :mod:`glossary.cli`."""
