"""Marking the language of mixed text: Chinese runs inside English get ``lang="zh"``."""
from __future__ import annotations

import re

from markupsafe import Markup, escape

# Han characters (BMP and supplementary planes) and the CJK punctuation that travels with them.
CJK_RUN = re.compile(r"[\u2e80-\u2fdf\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0003ffff]+")


def mark_cjk(text: str) -> Markup:
    """Escaped text whose Chinese runs are wrapped in ``<span lang="zh">``."""
    escaped = str(escape(text))
    return Markup(CJK_RUN.sub(lambda m: f'<span lang="zh">{m.group()}</span>', escaped))
