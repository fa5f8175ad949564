"""Enrichment of checked entries: ritual pinyin and the corpus concordance."""
