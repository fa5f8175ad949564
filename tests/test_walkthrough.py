"""The contributor's walkthrough of issue 28, in a fresh clone: add an entry with `glossary new`,
then make each mistake the guide warns of, one at a time, and get a message that names the file,
the line and the path, the rule's code, and the fix.

The mistakes: a second entry for a headword in the other script, `term` in traditional script,
`traditional` or `guangyun` left out, a commentator by another of his names, a `variants` form no
quote has (rules of headwords and attribution); a retired id, a merged word (retired.yaml); a
citation's dash out of line, an unquoted `: `, `category:object`, a rite by a name vocab.yaml does
not know (the YAML and the vocabulary). Slow: each `glossary check` reads the whole glossary.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT
from test_docs import Workspace, entry_span

QUOTE = "三虞卒哭他用剛日亦如初曰哀薦成事"
COMMENTARY = "卒哭在三虞之明日其祝辭皆如初但易虞事為成事耳"
JIXI = "卒哭三虞後祭名是祭之後乃卒殯宫朝夕哭"
ZHENG = "卒哭三虞之後祭名"  # 鄭玄's note, which 蔡's JIXI repeats


class Clone(Workspace):
    """A git clone of the working tree (its uncommitted changes applied), as a contributor has."""

    def __init__(self, folder: Path, cache: Path):
        subprocess.run(["git", "clone", "-q", str(ROOT), str(folder)], check=True)
        diff = subprocess.run(
            ["git", "-C", str(ROOT), "diff", "--binary", "HEAD"], check=True, capture_output=True
        ).stdout
        if diff:
            subprocess.run(["git", "-C", str(folder), "apply"], input=diff, check=True)
        super().__init__(folder, cache, copy=False)


def replace_in(text: str, entry_id: str, old: str, new: str) -> str:
    """``text`` with the first ``old`` of entry ``entry_id``'s lines made ``new``."""
    lines = text.split("\n")
    start, end = entry_span(lines, entry_id)
    at = next(i for i in range(start, end) if old in lines[i])
    lines[at] = lines[at].replace(old, new, 1)
    return "\n".join(lines)


@pytest.mark.slow  # some fifteen runs of glossary over the shipped glossary
def test_each_mistake_gets_a_located_message_that_says_the_fix(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    work = Clone(tmp_path / "clone", tmp_path / "cache")
    assert work.run("python scripts/practice.py zu-ku")[0] == 0
    status, out = work.run(f"glossary new 卒哭 --category action --quote {QUOTE} --append")
    assert status == 0, out
    # The contributor writes what the scaffold leaves to a person, and a second citation.
    text = work.terms.read_text(encoding="utf-8")
    text = re.sub(r"  guangyun: \[null, 空谷\].*", "  guangyun: [子聿, 空谷]", text)
    # In 既夕禮 the 音義's 或卒 (七忽反) reads another word, 卒 "hasty" (Y412 once it is listed).
    text = re.sub(
        r"(  guangyun: \[子聿, 空谷\])\n(?!  yinyi)", r"\1\n  yinyi: [null, null]\n", text
    )
    text = re.sub(r"(  pinyin: zú kū).*", r"\1", text)
    for old, new in (
        ("TODO short English gloss", "ending the wailing"),
        (
            "TODO: what the cited passages say, naming who says it",
            # 蔡's 既夕 note repeats 鄭玄's (rule Y309): named, and his note cited.
            "The sacrifice after the third 虞 (鄭玄: 卒哭三虞之後祭名); 蔡德晉 says its prayer "
            "says 成事 for 虞事.",
        ),
        ("definition_zh: TODO", "definition_zh: 三虞之明日行之，祝辞易虞事为成事。"),
        (
            "  related: []\n  tags: []",
            f"    - quote: {COMMENTARY}\n      work: 禮經本義\n      juan: 14\n"
            "      layer: commentary\n"
            # 既夕禮's classic names it too (rule Y307): the rite listed, with 蔡's note there.
            f"    - quote: {JIXI}\n      work: 禮經本義\n      juan: 13\n"
            "      layer: commentary\n"
            f"    - quote: {ZHENG}\n      work: 儀禮\n      juan: 13\n"
            "      layer: commentary\n  related: []\n  tags: []",
        ),
        ("  rites: [士虞礼]", "  rites: [士虞礼, 既夕礼]"),
    ):
        text = replace_in(text, "zu-ku", old, new) if "\n" not in old else text.replace(old, new)
    work.terms.write_text(text, encoding="utf-8")
    good = text
    status, out = work.run("glossary check --strict")
    assert status == 0, "\n".join(out[-20:])

    def mistake(
        command: str, path: str, code: str, fix: str, at: str, edit: str | None = None
    ) -> None:
        """Run ``command`` on the good text changed by ``edit``; it fails at ``path``, on the line
        that holds ``at``, with ``code`` and a message that has ``fix``."""
        work.terms.write_text(edit if edit is not None else good, encoding="utf-8")
        status, out = work.run(command)
        said = "\n".join(out)
        assert status == 1, f"{command} exited {status}:\n{said}"
        assert "Traceback" not in said
        pattern = re.compile(
            rf"^(?P<file>[\w./-]+):(?P<line>\d+): {re.escape(path)}: (?:warning: )?{code} [a-z-]+: "
        )
        found = [m for line in out if (m := pattern.match(line))]
        assert found, f"{command}: no {code} at {path}:\n{said}"
        line = next(line for line in out if pattern.match(line))
        assert fix in line, f"{command}: {code} does not say {fix!r}:\n{line}"
        file = work.folder / found[0].group("file")
        assert at in file.read_text(encoding="utf-8").splitlines()[int(found[0].group("line")) - 1]

    check = "glossary check --strict"
    # Point 1: the rules the guide sets.
    mistake(
        check,
        "zu-ku.term",
        "Y501",
        "in the other script (绥祭): merge the two entries",
        "- id: zu-ku",
        replace_in(good, "zu-ku", "term: 卒哭", "term: 綏祭"),
    )
    mistake(
        check,
        "sui-ji.term",
        "Y502",
        "write term: 绥祭 and traditional: 綏祭",
        "- id: sui-ji",
        replace_in(good, "sui-ji", "term: 绥祭", "term: 綏祭"),
    )
    mistake(
        check,
        "sui-ji.term",
        "Y503",
        "add traditional: 綏祭",
        "- id: sui-ji",
        replace_in(good, "sui-ji", "  traditional: 綏祭", "  # traditional: 綏祭"),
    )
    mistake(
        check,
        "zu-ku.term",
        "Y411",
        "give the 廣韻 reading of each character of 卒哭 (卒: 子聿/倉沒/臧沒; 哭: 空谷)",
        "- id: zu-ku",
        replace_in(good, "zu-ku", "  guangyun: [子聿, 空谷]", "  # guangyun left out"),
    )
    mistake(
        check,
        "zu-ku.definition",
        "Y301",
        "names 鄭康成, but none of the entry's cited passages is his or in his work: cite the passage",
        "definition:",
        # 鄭玄 named (as Zheng Xuan too) with his note no longer cited.
        replace_in(good, "zu-ku", "蔡德晉 says", "Zheng Xuan says").replace(
            f"    - quote: {ZHENG}\n      work: 儀禮\n      juan: 13\n      layer: commentary\n", ""
        ),
    )
    mistake(
        check,
        "zu-ku.variants",
        "Y306",
        "cite a passage",
        "variants:",
        replace_in(good, "zu-ku", "  term: 卒哭", "  term: 卒哭\n  variants: [卒哭祭]"),
    )
    # Point 3: retired and merged ids.
    mistake(
        "glossary new 挼祭 --category action",
        "ruo-ji.term",
        "Y807",
        "was merged into sui-ji (绥祭, terms.yaml:",
        "- id: ruo-ji",
    )
    mistake(
        "glossary new 挼祭 --category action",
        "sui-ji.variants[0]",
        "Y504",
        "add what you would write to sui-ji rather than a new entry",
        "variants: [挼祭]",
    )
    status, out = work.run("glossary new 若即 --category action")
    assert status == 0 and "- id: ruo-ji-action  # ruo-ji is a retired id (retired.yaml:3" in out[0]
    mistake(
        check,
        "ruo-ji.id",
        "Y804",
        "choose another id for this entry; free: ",
        "- id: ruo-ji",
        replace_in(good, "zu-ku", "- id: zu-ku", "- id: ruo-ji"),
    )
    # Point 7: the YAML slips and the rites' names.
    mistake(
        check,
        "zu-ku.citations[1]",
        "Y003",
        "a citation's `- ` lines up under the one above it (4 spaces)",
        f"  - quote: {COMMENTARY}",
        replace_in(good, "zu-ku", f"    - quote: {COMMENTARY}", f"  - quote: {COMMENTARY}"),
    )
    mistake(
        check,
        "zu-ku.gloss",
        "Y003",
        'put the value in quotes, `gloss: "ending the wailing: after the third repose"`',
        "gloss:",
        replace_in(
            good, "zu-ku", "ending the wailing", "ending the wailing: after the third repose"
        ),
    )
    mistake(
        check,
        "zu-ku.category",
        "Y003",
        "write `category: action`",
        "category:action",
        replace_in(good, "zu-ku", "category: action", "category:action"),
    )
    mistake(
        check,
        "zu-ku.rites[0]",
        "Y120",
        "the rites (either script, or English): 士冠礼 (士冠禮, The Capping of an Ordinary Officer)",
        "rites:",
        replace_in(good, "zu-ku", "rites: [士虞礼,", "rites: [The Repose Rite,"),
    )
    # vocab.yaml's English name is the rite's.
    work.terms.write_text(
        replace_in(good, "zu-ku", "rites: [士虞礼,", "rites: [The Repose Sacrifice,"),
        encoding="utf-8",
    )
    status, out = work.run(check)
    assert status == 0, "\n".join(out[-10:])
