"""Errors a user can act on: each is reported as ``glossary: <message>`` with exit 1, never a traceback.

Like mkdocs' exceptions, they are click's own ``ClickException`` subclasses, so the CLI
needs no converting of its own; library callers catch :class:`GlossaryError`.
"""

from __future__ import annotations

import click


class GlossaryError(click.ClickException):
    """A failure the user can fix: the message says what and where."""

    exit_code = 1

    def format_message(self) -> str:
        # Messages quote data (a manifest's values, a path): shown, never obeyed by the terminal.
        from glossary.problems import printable

        return "\n".join(printable(line) for line in self.message.split("\n"))


class CorpusError(GlossaryError):
    """The corpus folder itself is broken (missing manifest or file, changed file)."""


class BuildError(GlossaryError):
    """The outputs cannot be made or written (output folder, ledger, sheet name)."""


class PdfError(GlossaryError):
    """Headless Chromium is missing or failed."""


class DataError(GlossaryError):
    """A data file has problems that stop the command (they are listed in the message)."""


class ReleaseError(GlossaryError):
    """A release cannot be made from this checkout (not clean, not tagged, tag and version differ)."""
