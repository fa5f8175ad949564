"""glossary/problems.py: every way a problem is shown is safe for a terminal and bounded."""

from __future__ import annotations

import json

import pytest

from glossary.problems import ERROR, MAX_MESSAGE, Problem, dump_json, printable

#: What a hostile value may carry: clear the screen, hide text, ring, reverse the line, end
#: the line and print a fake summary of its own.
HOSTILE = "\x1b[2J\x1b[8mhidden\x07\u202etxt.exe\u2066\x9b31m\r\n0 error(s), 0 warning(s)\u2028"
RAW = ("\x1b", "\x07", "\u202e", "\u2066", "\x9b", "\r", "\n", "\u2028")


def hostile_problem() -> Problem:
    return Problem(
        f"terms{HOSTILE}.yaml",
        3,
        f"bi{HOSTILE}.gloss",
        ERROR,
        f"unknown {HOSTILE}",
        (f"hint {HOSTILE}",),
    )


def test_printable_escapes_every_unsafe_character() -> None:
    shown = printable(HOSTILE)
    for raw in RAW:
        assert raw not in shown
    assert shown == (
        "\\u001b[2J\\u001b[8mhidden\\u0007\\u202etxt.exe\\u2066\\u009b31m\\u000d\\u000a"
        "0 error(s), 0 warning(s)\\u2028"
    )


def test_printable_keeps_text_and_variation_selectors() -> None:
    text = "楅︀ 命弟子設楅\t「乃設楅」 — 第4字: 竿 ≠ 笴"
    assert printable(text) == text


def test_text_output_is_one_line_per_problem_and_hint() -> None:
    shown = str(hostile_problem())
    for raw in RAW:
        assert raw not in shown.replace("\n    hint", "")  # the one newline is before the hint
    lines = shown.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("terms\\u001b[2J") and lines[1].startswith("    hint ")
    assert not any(line.startswith("0 error(s)") for line in lines)


def test_github_output_is_one_command() -> None:
    shown = hostile_problem().to_github()
    assert shown.count("\n") == 0
    for raw in RAW:
        assert raw not in shown
    assert shown.startswith("::error file=terms\\u001b[2J\\u001b[8mhidden\\u0007\\u202etxt.exe")


def test_json_output_escapes_bidi_and_separators_too() -> None:
    text = dump_json({"problems": [hostile_problem().to_json()]})
    for raw in RAW:
        assert raw not in text.replace("\n", "")  # JSON's own line breaks between values only
    assert "\u202e" not in text and "\\u202e" in text
    assert json.loads(text)["problems"][0]["message"] == f"unknown {HOSTILE}"


def test_long_messages_are_cut_everywhere() -> None:
    problem = Problem("terms.yaml", 1, "bi", ERROR, "x" * 50_000, ("y" * 50_000,))
    text, github, data = str(problem), problem.to_github(), problem.to_json()
    assert f"{'x' * MAX_MESSAGE}…(50,000 characters)" in text
    assert len(text) < 3 * MAX_MESSAGE and len(github) < 3 * MAX_MESSAGE
    assert data["message"] == f"{'x' * MAX_MESSAGE}…(50,000 characters)"
    assert data["hints"] == [f"{'y' * MAX_MESSAGE}…(50,000 characters)"]


@pytest.mark.parametrize(
    "fake", ["\n0 error(s), 0 warning(s)", "\r0 error(s)", "\u2028ok", "\x85ok"]
)
def test_a_path_cannot_start_a_line(fake: str) -> None:
    shown = str(Problem("terms.yaml", 7, f"bi{fake}.id", ERROR, "bad id"))
    assert len(shown.splitlines()) == 1


@pytest.mark.parametrize(
    "line, shown",
    [
        ("::warning file=x::fake", "\\u003a:warning file=x::fake"),
        ("   ::stop-commands::tok", "   \\u003a:stop-commands::tok"),
        ("a ##[error]b", "a ##\\u005berror]b"),
        ("a::b and # [x]", "a::b and # [x]"),  # not a command: unchanged
    ],
)
def test_workflow_commands_in_data_are_shown_not_run(line: str, shown: str) -> None:
    from glossary.problems import ci_safe, safe_output

    assert ci_safe(line) == shown
    assert safe_output(f"first\n{line}\x1b") == f"first\n{shown}\\u001b"
