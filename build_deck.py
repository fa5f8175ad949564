#!/usr/bin/env python3
"""Build every output from terms.yaml and corpus/ into dist/ (same as `glossary build`)."""

from glossary.cli import cli

if __name__ == "__main__":
    cli(["build", *__import__("sys").argv[1:]], prog_name="build_deck.py")
