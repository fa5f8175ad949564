"""`glossary fmt` writes an entry's `senses` (a list of mappings) in block style, unchanged in data."""

from __future__ import annotations

from glossary.contribute.fmt import format_text
from glossary.load import load_bytes

TERMS = """\
- id: si-ma
  term: 司马
  traditional: 司馬
  pinyin: sī mǎ
  category: role
  rites: [乡射礼, 少牢馈食礼]
  gloss: marshal; officer at the sheep
  definition: >-
    Two senses.
  senses:
    - rites: [乡射礼]
      gloss: marshal of the archery
      definition: >-
        The 司正 serves as 司馬
        once the shooting begins.
    - rites: [少牢馈食礼]
      gloss: officer at the sheep
  citations:
    - quote: 司正為司馬
      work: 禮經本義
      juan: 4
"""


def test_senses_stay_a_block_list() -> None:
    out = format_text(TERMS)
    assert out == TERMS
    assert load_bytes(out.encode(), "t").data == load_bytes(TERMS.encode(), "t").data
