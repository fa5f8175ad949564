#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine (Python 3.11+), then lint,
# type-check and run it. Arguments go to pytest (`bash scripts/test.sh -m "not slow"`: the quick loop).
# Debian packages: chromium (print tests), fonts-noto-cjk (CJK glyphs in printed pages),
# fonts-babelstone-han (the characters Noto CJK lacks, 𤣥 𦵏 …: every build subsets it), poppler-utils (pdftoppm: PNGs of the first printed pages, kept in test-artifacts/).
# Python packages: the versions of constraints.txt (scripts/lock.sh writes it), installed into
# .venv again only when pyproject.toml, constraints.txt or the Python changed (.venv/.installed).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  need=""
  command -v chromium >/dev/null || need="$need chromium"
  dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need="$need fonts-noto-cjk"
  dpkg -s fonts-babelstone-han >/dev/null 2>&1 || need="$need fonts-babelstone-han"
  command -v pdftoppm >/dev/null || need="$need poppler-utils"
  if [ -n "$need" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
  fi
fi
stamp="$({ cat pyproject.toml constraints.txt; python3 -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"
if [ ! -x .venv/bin/python ] || [ "$(cat .venv/.installed 2>/dev/null)" != "$stamp" ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q -c constraints.txt --upgrade pip
  .venv/bin/python -m pip install -q -c constraints.txt -e '.[test,lint]'
  echo "$stamp" > .venv/.installed
fi
# Lint, format and types first (a few seconds); every check runs, and any failure fails the run.
status=0
.venv/bin/ruff check . || status=1
.venv/bin/ruff format --check . || status=1
.venv/bin/mypy || status=1
.venv/bin/python -m pytest -q "$@" || status=$?
exit "$status"
