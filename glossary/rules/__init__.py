"""The checks of `glossary check` as a registry of coded rules (ruff's way).

:mod:`glossary.rules.codes` lists every rule (code, kebab name, severity, the function that
checks it, its page); :mod:`glossary.rules.entry` holds the checks of one entry, each a function
of one signature in one list (beancount's validators); :mod:`glossary.rules.select` chooses
codes (``--select``/``--ignore``) and applies an entry's own ``ignore:`` list;
:mod:`glossary.rules.docs` writes docs/checks.md and the ``--explain`` page.
"""
