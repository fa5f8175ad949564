"""Renderers: each turns a checked glossary into one output file's bytes."""
