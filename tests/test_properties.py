"""Property tests (hypothesis) for the two modules every check stands on: normalize and load.

normalize: the key is made of letters and numbers only, folding is idempotent, the offset map
points each key character back at the printed character it came from, and folding agrees with
OpenCC's simplified→traditional conversion wherever that conversion is a plain 1:1 swap.

load: whatever text or bytes a terms file holds, ``load_yaml`` returns a ``Loaded`` and never
raises; every problem has a whole line number ≥ 0 within the file.

The scan of every code point (slow) found characters that once folded in two steps; they are
kept as explicit examples. Characters are drawn from the mini corpus (tests/fixtures), the
variant table and any Unicode character.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from itertools import pairwise

import opencc
import pytest
import yaml
from conftest import MINI_CORPUS
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from glossary.load import LOADER, Lines, Loaded
from glossary.load import load_bytes as load_text
from glossary.normalize import (
    PLACEHOLDER,
    PROTECTED,
    VARIANTS,
    fold_char,
    normalize,
    normalize_with_map,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- normalize -----------------------------------------------------------------------------

_S2T = opencc.OpenCC("s2t")
_T2S = opencc.OpenCC("t2s")

#: Characters that once folded in two steps (found by scanning every code point): CJK
#: compatibility ideographs fold to a traditional form, and 薴 → 苧 although 苧 → 苎.
TWO_STEP = "薴\uf9f1\ufa2f\ufacb\U0002f807\U0002f96f\U0002f981\U0002f9fe\U0002f9ff"

PUNCTUATION = "，。、；：？！「」『』（）【】《》〈〉…—·．,.;:!?()[]{}<>\"'-_/\\|*&^%$#@~` \t\r\n\u3000\u00a0\u200b\ufeff"


@cache
def corpus_chars() -> str:
    """Every distinct character of the mini corpus' texts (simplified and traditional)."""
    chars: set[str] = set()
    for path in sorted(MINI_CORPUS.rglob("*.txt")):
        chars.update(path.read_text(encoding="utf-8", errors="replace"))
    return "".join(sorted(chars))


def interesting_chars() -> list[str]:
    pool = (
        set(corpus_chars())
        | set(VARIANTS)
        | set(VARIANTS.values())
        | set(PROTECTED)
        | set(PUNCTUATION)
    )
    pool |= {PLACEHOLDER, "乘", "乗", "逺", "亷", "𤣥", "竿", "笴", "ß", "ﬁ", "Ⅻ", "①", "٣", "Ａ"}
    return sorted(pool)


CHARS = st.one_of(st.sampled_from(interesting_chars()), st.characters())
TEXTS = st.text(CHARS, max_size=60)


def kept(ch: str) -> bool:
    # Letters and numbers, and the CJK symbols that stand for characters (radicals, strokes,
    # description characters: README, "Text stays text"), which are "So".
    return (
        unicodedata.category(ch)[0] in "LN"
        or ch in PROTECTED
        or "\u2e80" <= ch <= "\u2fff"
        or "\u31c0" <= ch <= "\u31ef"
    )


@SETTINGS
@given(TEXTS)
@example(TWO_STEP)
@example("隣")
@example("薴麻")
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@pytest.mark.slow  # every code point
def test_no_other_character_breaks_idempotence() -> None:
    """Every code point, once: a key folds to itself."""
    broken = set()
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000:
            continue
        folded = fold_char(chr(cp))
        if folded and normalize(folded) != folded:
            broken.add(chr(cp))
    assert broken == set(), sorted(broken)


@SETTINGS
@given(TEXTS)
def test_key_has_no_punctuation_or_spacing(text: str) -> None:
    key = normalize(text)
    assert all(kept(ch) for ch in key), [
        (ch, unicodedata.category(ch)) for ch in key if not kept(ch)
    ]
    assert "\n" not in key  # the index joins streams with "\n": a key must never contain it
    assert normalize(text + "，。 \n" + text) == key + key


@SETTINGS
@given(TEXTS)
def test_offset_map_points_back_at_the_printed_characters(text: str) -> None:
    key, index = normalize_with_map(text)
    positions = list(index)
    assert key == normalize(text)
    assert len(positions) == len(index) == len(key)
    assert all(0 <= p < len(text) for p in positions)
    assert all(a < b for a, b in pairwise(positions)), positions
    for i, p in enumerate(positions):
        assert index[i] == p
        assert fold_char(text[p]) == key[i]
    # Every character left out of the map is one that folds to nothing.
    skipped = set(range(len(text))) - set(positions)
    assert all(fold_char(text[i]) == "" for i in skipped)


@SETTINGS
@given(st.lists(st.tuples(TEXTS, st.sampled_from(["", " ", "，", "\n", "「", "」"])), max_size=5))
def test_map_of_a_concatenation(parts: list[tuple[str, str]]) -> None:
    text = "".join(a + b for a, b in parts)
    key, index = normalize_with_map(text)
    assert key == "".join(normalize(a + b) for a, b in parts)
    assert len(index) == len(key)


@cache
def swappable() -> list[str]:
    """Simplified characters of the corpus that OpenCC converts 1:1 both ways and no variant rule touches."""
    out = []
    for ch in corpus_chars():
        if fold_char(ch) != ch or ch in VARIANTS:
            continue
        trad = _S2T.convert(ch)
        if len(trad) == 1 and _T2S.convert(trad) == ch and trad not in VARIANTS:
            out.append(ch)
    return out


def test_swappable_pool_includes_traditional_pairs() -> None:
    pool = swappable()
    # Without characters whose traditional form differs, the test below would compare equal strings.
    pairs = [ch for ch in pool if _S2T.convert(ch) != ch]
    assert pairs and set(pairs) < set(pool)
    assert all(len(_S2T.convert(ch)) == 1 and fold_char(_S2T.convert(ch)) == ch for ch in pairs)


@SETTINGS
@given(
    st.lists(st.one_of(st.sampled_from(swappable()), st.sampled_from("，。、「」 ")), max_size=40)
)
def test_folding_commutes_with_opencc_s2t(chars: list[str]) -> None:
    simplified = "".join(chars)
    traditional = "".join(
        _S2T.convert(ch) for ch in chars
    )  # character by character: no phrase readings
    assert normalize(traditional) == normalize(simplified)
    assert normalize(simplified) == normalize(normalize(simplified))


def test_protected_ritual_characters_are_never_folded() -> None:
    for ch in PROTECTED:
        assert normalize(ch) == ch
        assert normalize(f"設{ch}，") == f"设{ch}"


# -- load_yaml -----------------------------------------------------------------------------

FRAGMENTS = [
    "- ",
    "-",
    "--- ",
    "---\n",
    "...\n",
    ": ",
    ":",
    "? ",
    "key: value",
    "- id: bi",
    "  term: 楅",
    "  citations:",
    "    - quote: 楅长如笴博三寸",
    "  juan: 4",
    "  page: 22a",
    "[",
    "]",
    "{",
    "}",
    ", ",
    "[a, b]",
    "{a: 1}",
    "&a ",
    "*a",
    "&a [1, 2]",
    "- *a",
    "<<: *a",
    "!!python/object:os.system",
    "!!python/object/apply:os.system [echo]",
    "!!str ",
    "!!map",
    "!!seq",
    "!custom ",
    "!<tag:x> ",
    "%YAML 1.1\n",
    "%TAG ! tag:x,2000:\n",
    "# comment",
    " #",
    "|",
    "|-",
    ">",
    ">+",
    "'",
    '"',
    "''",
    '"\\x"',
    "\t",
    "\n",
    "\r\n",
    "  ",
    "    ",
    "\ufeff",
    "~",
    "null",
    "true",
    "yes",
    "1e3",
    "0x1F",
    "0o7",
    ".inf",
    "楅",
    "鄉射禮",
    "乡射礼",
    "“”",
    "：",
    "－",
    "\x00",
    "\x07",
    "\x1b",
    "\ud7ff",
    "\ue000",
    "\U0001f600",
]
YAMLISH = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=40).map(
    "".join
)

#: YAML counts these as line breaks where editors do not (pinned in test_robustness.py).
ODD_BREAKS = ("\r", "\x85", "\u2028", "\u2029")


def load_bytes(data: bytes) -> Loaded:
    return load_text(data, "terms.yaml")


def assert_well_formed(loaded: Loaded, data: bytes) -> None:
    assert isinstance(loaded, Loaded)
    assert loaded.file == "terms.yaml"
    lines = data.count(b"\n") + 1
    for problem in loaded.problems:
        assert type(problem.line) is int and problem.line >= 0, problem
        assert problem.file == "terms.yaml"
        assert type(problem.message) is str and problem.message
    if any(b in data.decode("utf-8", "replace") for b in ODD_BREAKS):
        return
    for problem in loaded.problems:
        # lines + 1: PyYAML places an error at the end of the stream one line past a last line
        # that has no line end (pinned in test_error_at_the_end_of_a_file_without_final_newline).
        assert problem.line <= lines + 1, (problem, lines)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(YAMLISH)
def test_load_yaml_never_raises_on_yamlish_text(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    assert_well_formed(load_bytes(data), data)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.binary(max_size=200))
def test_load_yaml_never_raises_on_bytes(data: bytes) -> None:
    assert_well_formed(load_bytes(data), data)


@pytest.mark.slow  # hundreds of generated files, each parsed twice
@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(YAMLISH.filter(lambda t: not any(b in t for b in ODD_BREAKS)))
def test_crlf_and_bom_change_no_line(text: str) -> None:
    def placed(loaded: Loaded) -> list[tuple[int, str]]:
        return sorted((p.line, p.path) for p in loaded.problems)

    plain = load_bytes(text.encode("utf-8", "surrogatepass"))
    crlf = load_bytes(text.replace("\n", "\r\n").encode("utf-8", "surrogatepass"))
    bom = load_bytes(b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass"))
    if not text.startswith("\ufeff"):
        assert placed(bom) == placed(plain)
        assert bom.data == plain.data
    assert placed(crlf) == placed(plain)


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "- id: bi\n",
                "  term: 楅\n",
                "  gloss: rack\n",
                "  gloss: again\n",
                "  rites: [乡射礼]\n",
                "  citations:\n",
                "    - quote: 楅长如笴博三寸\n",
                "      juan: 4\n",
                "# note\n",
                "\n",
                "- &a {id: x}\n",
                "- *a\n",
                "  bad: !!python/object:x y\n",
                "  : odd\n",
                "\t- tab\n",
            ]
        ),
        max_size=30,
    )
)
def test_every_line_number_is_a_line_of_the_file(lines: list[str]) -> None:
    data = "".join(lines).encode("utf-8")
    loaded = load_bytes(data)
    assert_well_formed(loaded, data)
    for problem in loaded.problems:
        # Every fragment ends with a line end, so the end of the stream is the start of line len + 1.
        assert 1 <= problem.line <= len(lines) + 1, problem


@pytest.mark.parametrize(
    "value",
    [
        "2001-13-45",
        "2001-02-30",
        "2001-01-01 25:00:00",
        "!!int x",
        "!!float x",
        "!!bool maybe",
        "!!timestamp x",
    ],
)
def test_load_yaml_reports_values_that_cannot_be_built(value: str) -> None:
    data = f"- id: bi\n  page: {value}\n".encode()
    loaded = load_bytes(data)
    assert_well_formed(loaded, data)
    assert [p.line for p in loaded.problems] == [2]


def test_error_at_the_end_of_a_file_without_final_newline() -> None:
    data = "- id: bi\n  term: 楅\n  related: [si-ma".encode()
    loaded = load_bytes(data)
    assert [p.line for p in loaded.problems] == [3], loaded.problems


def _nodes(node: yaml.Node, seen: set[int] | None = None):
    seen = set() if seen is None else seen
    if id(node) in seen:
        return  # an alias: its node was walked already
    seen.add(id(node))
    yield node
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _nodes(key, seen)
            yield from _nodes(value, seen)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _nodes(item, seen)


@pytest.mark.slow  # hundreds of generated files, each parsed twice
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(YAMLISH)
def test_yaml_line_of_a_node_equals_counting_line_ends(text: str) -> None:
    # The loader takes libyaml's own line when the text has no odd breaks: it must be ours.
    text = text.removeprefix("\ufeff")
    try:
        node = yaml.compose(text, Loader=LOADER)
    except (yaml.YAMLError, RecursionError, ValueError):
        return
    if node is None:
        return
    lines = Lines(text)
    for each in _nodes(node):
        assert lines.of(each.start_mark) == lines.at(each.start_mark.index), (text, each)


@pytest.mark.slow  # hundreds of generated files, each read by two YAML readers
@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(YAMLISH)
@example(
    "- id: bi\n  juan: 4\n  page: 22a\n  ok: yes\n  none: ~\n  when: 2001-01-01\n  f: 1.5\n  q: '4'\n"
)
@example("a: &x 1\nb: 2\n")
def test_built_data_equals_pyyaml_where_the_file_is_clean(text: str) -> None:
    # Our event-stream builder must read every file it accepts as PyYAML's safe loader does.
    loaded = load_bytes(text.encode("utf-8", "surrogatepass"))
    if loaded.problems:
        return
    expected = yaml.load(text.removeprefix("\ufeff"), Loader=LOADER)
    assert repr(loaded.data) == repr(expected)
