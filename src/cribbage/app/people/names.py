"""The one rule for every person's name: an account's, and a seat's at a table (``docs/api.md``,
"Names").

A name is 3 to 20 characters: words of letters (with their combining marks), digits, ``_``,
``-`` and ``.``, one space between words.  Each word follows the PRECIS profile for usernames
(RFC 8265's UsernameCasePreserved, through ``precis-i18n``), applied word by word as RFC 8265
§3.5 suggests for names people show: that refuses control, bidi and format characters, default
ignorables (U+034F, variation selectors), Hangul fillers, symbols and compatibility forms
(full-width letters are mapped to their plain form).  Each word is then checked as an
identifier by Unicode TS #39 (through ICU's SpoofChecker): only characters of its General
Security Profile (Identifier_Status=Allowed: no strikethrough overlays), no mixing of scripts in
one word (a Cyrillic ``о`` in a Latin word), no repeated mark and at most
:data:`MAX_MARKS` nonspacing marks in a row (§5.4).

Two names are one when their :func:`name_key` (NFKC, case-folded) is, and they look alike when
their :func:`name_skeleton` (TS #39's skeleton of the case-folded name) is: an account's name
may be neither another's, nor a deleted account's while it is held.
"""

from __future__ import annotations

import unicodedata
from typing import Final

import icu
from precis_i18n import get_profile

from ..errors import AppError

__all__ = ["MAX_MARKS", "NAME_LENGTH", "check_name", "name_key", "name_skeleton"]

NAME_LENGTH: Final = (2, 20)
"""The shortest and longest name, in characters (code points, after NFC)."""

MAX_MARKS: Final = 4
"""The most nonspacing marks in a row (Unicode TS #39 §5.4)."""

_PUNCTUATION: Final = frozenset("_-.")

_PROFILE: Final = get_profile("UsernameCasePreserved")


def _spoof_checker() -> icu.SpoofChecker:
    """TS #39's identifier checks: the General Security Profile's characters (Recommended and
    Inclusion), one script a word but Latin with another (Moderately Restrictive), no digits of
    two systems, no invisible sequences.  Used read-only once made (ICU: safe across threads)."""
    checker = icu.SpoofChecker()
    allowed = icu.UnicodeSet()
    allowed.addAll(checker.getRecommendedUnicodeSet())
    allowed.addAll(checker.getInclusionUnicodeSet())
    checker.setAllowedUnicodeSet(allowed)
    checker.setRestrictionLevel(icu.URestrictionLevel.MODERATELY_RESTRICTIVE)
    checks = icu.USpoofChecks
    checker.setChecks(checks.CHAR_LIMIT | checks.INVISIBLE | checks.MIXED_NUMBERS | checks.RESTRICTION_LEVEL)
    return checker


_SPOOF: Final = _spoof_checker()
_CHARACTERS: Final = icu.USpoofChecks.CHAR_LIMIT | icu.USpoofChecks.INVISIBLE
"""What :func:`check_name` calls ``characters``; the rest of the checks are ``scripts``."""


def name_key(name: str) -> str:
    """The form under which two names are one: NFKC, casefolded.

    >>> name_key("Ａｉｋｏ") == name_key("AIKO") == "aiko"
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def name_skeleton(name: str) -> str:
    """The form under which two names look alike: Unicode TS #39's skeleton of the name's
    :func:`name_key` (so compared case-folded).

    >>> name_skeleton("Aik\u043e") == name_skeleton("\u0410IKO") == name_skeleton("aiko")
    True
    """
    return str(_SPOOF.getSkeleton(0, name_key(name)))


def _refused(code: str, field: str, reason: str, message: str) -> AppError:
    """A seat's name (``bad_name``) or an account's (``account.bad_name``) refused."""
    if code == "bad_name":
        return AppError("bad_name", message, field=field, reason=reason)
    return AppError("account.bad_name", message, field=field, reason=reason)


def check_name(text: object, *, code: str = "account.bad_name", field: str = "name") -> str:
    """A name, checked: trimmed, NFC, each word as the PRECIS profile enforces it.  A refusal
    is ``code`` naming the ``field`` and the ``reason``: ``length``, ``spaces``, ``characters``
    or ``scripts`` (two scripts or digit systems in one word).

    >>> check_name(" Aiko_2 ")
    'Aiko_2'
    >>> check_name("Ｉｖａｎ Петров")
    'Ivan Петров'
    >>> check_name("<b>x</b>")
    Traceback (most recent call last):
    cribbage.app.errors.AppError: a name holds letters, digits, '_', '-', '.' and single spaces
    """
    if not isinstance(text, str):
        raise _refused(code, field, "characters", "a name must be text")
    name = unicodedata.normalize("NFC", text).strip()
    shortest, longest = NAME_LENGTH
    if not shortest <= len(name) <= longest:
        raise _refused(
            code, field, "length", f"a name is {shortest} to {longest} characters, not {len(name)}"
        )
    if "  " in name:
        raise _refused(code, field, "spaces", "a name has single spaces only")
    words = [_word(word, code, field) for word in name.split(" ")]
    return " ".join(words)


def _word(word: str, code: str, field: str) -> str:
    """One word of a name: the house's characters, then PRECIS, then TS #39."""
    characters = "a name holds letters, digits, '_', '-', '.' and single spaces"
    previous = ""
    marks = 0
    for char in word:
        kind = unicodedata.category(char)
        # A combining mark only on a letter (Devanagari's vowel signs, Thai's): never alone.
        mark = kind in ("Mn", "Mc") and (previous.startswith("L") or previous in ("Mn", "Mc"))
        marks = marks + 1 if kind == "Mn" else 0
        previous = kind
        if not (kind.startswith("L") or kind == "Nd" or mark or char in _PUNCTUATION) or marks > MAX_MARKS:
            raise _refused(code, field, "characters", characters)
    try:
        enforced = str(_PROFILE.enforce(word))
    except UnicodeEncodeError as exc:  # precis-i18n names what it refused: DISALLOWED/...
        raise _refused(code, field, "characters", f"{characters} ({exc.reason})") from None
    found = _SPOOF.check(enforced)
    if found & _CHARACTERS:
        raise _refused(code, field, "characters", f"{characters} (not an identifier's, Unicode TS #39)")
    if found:
        raise _refused(code, field, "scripts", f"each word of a name is in one script: {word!r} mixes them")
    return enforced
