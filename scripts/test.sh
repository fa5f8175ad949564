#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine (Python 3.11), then run it.
# Debian packages: chromium (print tests), fonts-noto-cjk (CJK glyphs in printed pages),
# poppler-utils (pdftoppm: PNGs of the first printed pages, kept in test-artifacts/).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  need=""
  command -v chromium >/dev/null || need="$need chromium"
  dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need="$need fonts-noto-cjk"
  command -v pdftoppm >/dev/null || need="$need poppler-utils"
  if [ -n "$need" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
  fi
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
exec .venv/bin/python -m pytest -q "$@"
