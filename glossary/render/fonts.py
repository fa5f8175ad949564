"""The fonts the outputs draw with: every character of an output has a glyph, or the build fails.

The printed glossary, the study sheets and the cards are set in Noto Serif CJK (SC and TC; its
Latin too) and Noto Sans CJK SC (pinyin). Characters none of them has (CJK Extension B and
beyond: 𤣥, 𦵏 …) are drawn by BabelStone Han (Debian ``fonts-babelstone-han``), embedded as a
subset of exactly those characters (``EXTRA_FAMILY``). For the PDF, the Noto faces are also
embedded, as TrueType subsets of the characters printed: Chromium prints OpenType/CFF fonts as
Type 3 bitmaps-of-outlines (one font object per few glyphs, 27 MB for the book), and TrueType
ones as real font subsets.

Like ``pdf.py`` running Chromium, this module reads files outside the project: the installed
fonts. Subsetting uses fixed options and keeps the fonts' own timestamps, so the same fonts and
text give the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from glossary.errors import BuildError

#: The family name of the embedded subset of BabelStone Han, in every font stack.
EXTRA_FAMILY = "Yili BabelStone Han"
#: The subset's and its licence's file names (in dist/ and as Anki media: a leading ``_`` keeps
#: Anki from deleting media that only the note type's CSS names).
EXTRA_FONT_FILE = "_yili-babelstone-han.ttf"
EXTRA_LICENSE_FILE = "_yili-babelstone-han-LICENSE.txt"


@dataclass(frozen=True)
class Face:
    """An installed font face: family, weight, file and index in a collection."""

    family: str
    weight: int
    file: str
    index: int


#: The faces the outputs use (family, weight), as fontconfig names them; the first four are
#: embedded in the PDF as TrueType subsets.
FACES = (
    ("Noto Serif CJK SC", 400),
    ("Noto Serif CJK TC", 400),
    ("Noto Serif CJK SC", 700),
    ("Noto Serif CJK TC", 700),
    ("Noto Sans CJK SC", 400),
)
EXTRA_SOURCE = ("BabelStone Han", 400)
#: Where Debian puts them, when fontconfig cannot say.
_KNOWN = {
    ("Noto Serif CJK SC", 400): ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2),
    ("Noto Serif CJK TC", 400): ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 3),
    ("Noto Serif CJK SC", 700): ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 2),
    ("Noto Serif CJK TC", 700): ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 3),
    ("Noto Sans CJK SC", 400): ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
    ("BabelStone Han", 400): ("/usr/share/fonts/truetype/babelstone/BabelStoneHan.ttf", 0),
}
INSTALL = "install the Debian packages fonts-noto-cjk and fonts-babelstone-han"


@cache
def face(family: str, weight: int = 400) -> Face:
    """The installed face of ``family`` at ``weight`` (fontconfig's answer, else Debian's path)."""
    style = "Bold" if weight >= 600 else "Regular"
    if shutil.which("fc-list"):
        listed = subprocess.run(
            ["fc-list", "-f", "%{file}|%{index}|%{style}\n", f"{family}:style={style}"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.splitlines()
        found = sorted(line for line in listed if line.count("|") == 2)
        if found:
            file, index, _ = found[0].split("|")
            return Face(family, weight, file, int(index))
    known = _KNOWN.get((family, weight))
    if known and os.path.exists(known[0]):
        return Face(family, weight, *known)
    raise BuildError(f"the font {family} ({style}) is not installed: {INSTALL}")


def _open(f: Face, lazy: bool = True):  # type: ignore[no-untyped-def]
    from fontTools.ttLib import TTFont

    return TTFont(f.file, fontNumber=f.index, lazy=lazy, recalcTimestamp=False)


@cache
def coverage(family: str, weight: int = 400) -> frozenset[int]:
    """The code points a face has a glyph for (controls below U+0020 aside)."""
    f = face(family, weight)
    listed = _fc_charset(f)
    if listed is not None:
        return listed
    return frozenset(cp for cp in _open(f)["cmap"].getBestCmap() if cp >= 0x20)


def _fc_charset(f: Face) -> frozenset[int] | None:
    """fontconfig's charset of a face, or None where ``fc-query`` cannot say.

    It is the same set as the face's best cmap (tests/render/test_fonts.py compares them), read
    in 20 ms instead of fontTools' 150–300 ms per CJK face: every ``check`` and ``preview`` asks
    which characters need the extra face, so this is most of what a contributor's loop waits on
    for fonts."""
    if not shutil.which("fc-query"):
        return None
    done = subprocess.run(
        ["fc-query", "-i", str(f.index), "-f", "%{charset}", f.file],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not done.stdout.strip():
        return None
    return parse_charset(done.stdout)


def parse_charset(text: str) -> frozenset[int] | None:
    """Code points of fontconfig's charset notation (``20-7e a0 3000-303f``), controls aside;
    None when the text is not in that notation."""
    points: set[int] = set()
    for token in text.split():
        first, _, last = token.partition("-")
        try:
            low, high = int(first, 16), int(last or first, 16)
        except ValueError:
            return None
        points.update(range(max(low, 0x20), high + 1))
    return frozenset(points)


@lru_cache(maxsize=1)
def base_coverage() -> frozenset[int]:
    """What the Noto faces draw (every output's text fonts)."""
    return frozenset().union(*(coverage(*f) for f in FACES[:2] + FACES[4:]))


#: Characters that are layout, not ink: no glyph needed.
_BLANK = re.compile(r"[\s\u200b-\u200f\u2028-\u202f\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def drawn(text: str) -> set[str]:
    """The characters of ``text`` that need a glyph."""
    return {ch for ch in set(text) if not _BLANK.match(ch)}


def extra_chars(chars: Iterable[str]) -> tuple[str, ...]:
    """The characters the Noto faces lack, in code point order."""
    base = base_coverage()
    return tuple(sorted({ch for ch in chars if ord(ch) not in base}))


def missing(chars: Iterable[str]) -> tuple[str, ...]:
    """The characters that neither the Noto faces nor BabelStone Han draw."""
    extra = extra_chars(chars)
    if not extra:
        return ()
    babel = coverage(*EXTRA_SOURCE)
    return tuple(ch for ch in extra if ord(ch) not in babel)


def check_drawn(outputs: Mapping[str, str], where: Mapping[str, str] | None = None) -> None:
    """Fail, naming every character and where it occurs, when some character of an output has no
    glyph in the fonts it uses. ``outputs``: name → text; ``where``: an anchor or note id → the
    place it comes from (``terms.yaml:12 (bi)``), for the message."""
    problems = []
    for name, text in sorted(outputs.items()):
        for ch in missing(drawn(text)):
            places = _places(text, ch, where or {})
            problems.append(
                f"{name}: [missing-glyph] U+{ord(ch):04X} {ch} has no glyph in "
                f"Noto Serif/Sans CJK or BabelStone Han; at {', '.join(places)}"
            )
    if problems:
        raise BuildError(
            f"{len(problems)} character(s) would print as empty boxes (no font draws them):\n"
            + "\n".join(problems)
        )


_ID = re.compile(r'\bid="([^"]+)"')


def _places(text: str, ch: str, where: Mapping[str, str], limit: int = 5) -> list[str]:
    """Where ``ch`` occurs: the nearest element id before each occurrence, mapped by ``where``."""
    ids = [(m.start(), m.group(1)) for m in _ID.finditer(text)]
    found: list[str] = []
    start = text.find(ch)
    while start != -1 and len(found) < limit:
        anchor = next((i for pos, i in reversed(ids) if pos < start), None)
        line = text.count("\n", 0, start) + 1
        label = where.get(anchor or "", f"#{anchor}" if anchor else f"line {line} of the text")
        if label not in found:
            found.append(label)
        start = text.find(ch, start + 1)
    return found or ["(not in an element with an id)"]


def subset(f: Face, chars: Iterable[str], *, truetype: bool = False) -> bytes:
    """A subset of ``f`` holding ``chars`` (fixed options: no hinting, no layout features, the
    font's own names and timestamps), as TrueType outlines if ``truetype``."""
    from fontTools import subset as fts

    options = fts.Options()
    options.layout_features = []
    options.hinting = False
    options.notdef_outline = True
    # ``meta`` (the face's design languages) says nothing a subset needs, and fontTools cannot
    # subset it: left in, it is dropped anyway with a warning on every build.
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "BASE", "VORG", "vhea", "vmtx", "DSIG", "meta"]
    font = _open(f)
    subsetter = fts.Subsetter(options)
    subsetter.populate(unicodes=sorted({ord(ch) for ch in chars}))
    subsetter.subset(font)
    if truetype and "CFF " in font:
        _to_truetype(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _to_truetype(font) -> None:  # type: ignore[no-untyped-def]
    """Replace a font's CFF outlines by quadratic TrueType ones (fontTools' otf2ttf, in short)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    quadratic = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        quadratic[name] = pen.glyph()
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = quadratic
    del font["CFF "]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name in order:
        hmtx[name] = (hmtx[name][0], getattr(glyf[name], "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for key in (
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(maxp, key, 0)
    maxp.maxZones = 1
    font["post"].formatType = 3.0  # no glyph names: the ToUnicode map carries the text
    font.sfntVersion = "\x00\x01\x00\x00"


def extra_font(chars: Iterable[str]) -> bytes | None:
    """The BabelStone Han subset for the characters the Noto faces lack (None if none is)."""
    extra = extra_chars(chars)
    return _cached(face(*EXTRA_SOURCE), extra, truetype=False) if extra else None


def license_text() -> bytes:
    """BabelStone Han's licence (Arphic Public License; CC BY-SA for some symbol glyphs)."""
    return resources.files("glossary.data").joinpath("BabelStoneHan-LICENSE.txt").read_bytes()


def _data_url(data: bytes) -> str:
    return "data:font/ttf;base64," + base64.b64encode(data).decode("ascii")


def _range(chars: Iterable[str]) -> str:
    return ", ".join(f"U+{ord(ch):X}" for ch in sorted(set(chars)))


def extra_font_face(chars: Iterable[str], src: str | None = None) -> str:
    """The @font-face rule of the BabelStone subset for ``chars`` ("" if the Noto faces draw all):
    inlined (a data URL) unless ``src`` names the file."""
    extra = extra_chars(chars)
    data = extra_font(extra)
    if data is None:
        return ""
    url = f'url("{src}")' if src else f'url("{_data_url(data)}")'
    return (
        f'@font-face {{ font-family: "{EXTRA_FAMILY}"; src: {url} format("truetype"); '
        f"unicode-range: {_range(extra)}; }}"
    )


def print_font_faces(chars: Iterable[str]) -> str:
    """@font-face rules that give Chromium TrueType subsets of the Noto faces under their own
    names, for printing: the PDF then embeds real font subsets, not Type 3 fonts."""
    wanted = sorted(set(chars))
    rules = []
    for family, weight in FACES:
        f = face(family, weight)
        have = coverage(family, weight)
        chars_here = [ch for ch in wanted if ord(ch) in have]
        data = _cached(f, tuple(chars_here), truetype=True)
        rules.append(
            f'@font-face {{ font-family: "{family}"; font-weight: {weight}; '
            f'src: url("{_data_url(data)}") format("truetype"); }}'
        )
    return "\n".join(rules)


@lru_cache(maxsize=32)
def _cached(f: Face, chars: tuple[str, ...], *, truetype: bool) -> bytes:
    """:func:`subset`, kept in the cache folder under the font's bytes' identity, the characters
    and fontTools' version (subsetting a CJK face costs seconds)."""
    import fontTools

    from glossary.cache import default_dir

    stat = os.stat(f.file)
    key = hashlib.sha256(
        repr(
            (f.file, f.index, stat.st_size, stat.st_mtime_ns, chars, truetype, fontTools.version)
        ).encode()
    ).hexdigest()[:32]
    folder = default_dir()
    target = folder / "fonts" / f"{key}.ttf" if folder is not None else None
    if target is not None and target.is_file():
        return target.read_bytes()
    data = subset(f, chars, truetype=truetype)
    if target is not None:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            temp = target.with_suffix(f".{os.getpid()}.tmp")
            temp.write_bytes(data)
            temp.replace(target)
        except OSError:
            pass  # a cache that cannot be written only costs time
    return data


def files_for(chars: Iterable[str]) -> dict[str, bytes]:
    """The subset and its licence as output files (none if the Noto faces draw everything)."""
    data = extra_font(chars)
    return {} if data is None else {EXTRA_FONT_FILE: data, EXTRA_LICENSE_FILE: license_text()}
