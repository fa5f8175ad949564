"""Tools for contributors: scaffold an entry, format the file, list changes, preview cards."""
