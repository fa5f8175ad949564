"""How the headwords were read: the 廣韻 (tshet-uinh) and 經典釋文's 儀禮音義.

- :mod:`.guangyun`: the 廣韻's readings of a character (from the shipped table), a 反切 spelled
  out, the reading to propose for a syllable;
- :mod:`.yinyi`: the 儀禮音義 parsed into headwords and notes, a note's readings and the
  character of its headword it reads;
- :mod:`.lookup`: the note that reads an entry's character, in its rites, found again in the
  corpus;
- :mod:`.rules`: the checks of an entry's ``guangyun``, ``yinyi`` and pinyin against them.

**What a check loads.** No library the readings come from is imported by a check (tshet-uinh
parses the whole 廣韻 on import, pypinyin its phrase tables): they are shipped as tables
generated from the libraries, each with a test that it is what the installed library gives —
``glossary/data/guangyun.tsv`` (every character's 廣韻 readings, ``scripts/gen_guangyun.py``),
``opencc_forms.tsv`` (OpenCC's traditional forms of a character, ``scripts/gen_forms.py``),
``yinyi_fanqie.tsv`` (every 反切 of the shipped 儀禮音義 spelled out by tshet-uinh,
``scripts/gen_fanqie.py``; any other 反切 is spelled out by tshet-uinh when asked) and
pypinyin's ``pypinyin_readings.tsv``. Of the corpus' 儀禮音義, a check analyses only the notes
whose headwords hold a character some entry asks about.
"""
