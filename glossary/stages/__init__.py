"""Stage plans (``stages.yaml``): who stands where, facing which way, at every step of a rite.

``model`` holds the data (frozen, no I/O), ``load`` reads and validates the file, ``rules``
checks it against the hall plan, the glossary and the corpus (codes Y604–Y613).
"""
