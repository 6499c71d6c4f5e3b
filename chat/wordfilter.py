"""Masks Vietnamese and English swear words in table talk with asterisks.

The words come from committed lists (``chat/wordlists/*.txt``, each naming its source).
A message is matched letter by letter, ignoring case, the spaces and punctuation that
people put inside a word to get past a filter (``f u c k``, ``đ.m``) and the usual
digit-for-letter swaps (``sh1t``). Vietnamese diacritics: a listed word written with them
matches only the same diacritics (``địt`` is not ``đít``), and letters typed without
diacritics match any (``dit`` is ``địt``), since dropping them is the commonest evasion;
a listed word written without diacritics (``dm``) does not match a message word that has
them (``các`` is not ``cac``). Everyday words typed without diacritics that fold onto a
listed word (``cac`` for ``các``, ``di`` for ``đi``) are in ``wordlists/vi-plain.txt``.

Letters are read after the text policy's normalisation (accounts.text): compatibility
forms are the letters they stand for (full-width ``ｆｕｃｋ``), and invisible characters
and combining marks inside a word (``fu\u200dck``) are passed over without ending it. A
letter of another script that looks like a Latin one matches it (Cyrillic ``о`` is ``o``;
the confusables data of ``accounts.text.latin_lookalikes``), and inside a word that mixes
it with Latin letters so does its transliteration (Cyrillic ``у``, which looks like ``y``,
in ``fуck`` is ``u``).

A match must start and end at a word's edges: ``class`` keeps its ``ass``. One spanning
several words is a match only when the message splits it where the listed phrase has its
spaces (``dit me``), or when every piece is a single letter (``f u c k``).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from accounts.text import is_invisible, latin_lookalikes

LISTS = Path(__file__).resolve().parent / "wordlists"
LANGUAGES = ("vi", "en")
LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
# Transliteration of Cyrillic (ISO 9) and Greek (ISO 843) letters that are one Latin
# letter, diacritics dropped: what a letter of those scripts stands for inside a Latin word.
TRANSLITERATION = dict(
    zip(
        "абвгдеёзийклмнопрстуфхцыэіїјαβγδεζηικλμνξοπρσςτυφω",
        "abvgdeezijklmnoprstufhcyeiijavgdeziiklmnxoprsstyfo",
        strict=True,
    )
)


def _fold(char: str) -> str:
    """The letter without diacritics (``ặ`` → ``a``, ``đ`` → ``d``)."""
    if char == "đ":
        return "d"
    return unicodedata.normalize("NFD", char)[0]


def _letter(char: str) -> str | None:
    """The character as a letter of a word (lower case, digits swapped), or None."""
    lower = char.lower()
    char = LEET.get(lower, lower) if len(lower) == 1 else char
    if char.isalnum():
        return char
    return None


def _is_latin(char: str) -> bool:
    return char.isascii() or unicodedata.name(char, "").startswith("LATIN")


@dataclass(frozen=True)
class Entry:
    exact: str  # the listed word's letters, lower case, NFC, no spaces
    folded: str  # the same without diacritics
    splits: frozenset[int]  # where the listed phrase has a space (letter offsets)


@dataclass
class Skeleton:
    """A message's letters, with where each came from and where words start and end.

    Each letter is the set of letters it may be: one for a Latin letter or a digit, those it
    looks like (and, in a word with Latin letters, stands for) for a letter of another
    script."""

    exact: list[frozenset[str]] = field(default_factory=list)
    folded: list[frozenset[str]] = field(default_factory=list)
    source: list[int] = field(default_factory=list)  # index of each letter in the message
    word: list[int] = field(default_factory=list)  # which word each letter belongs to
    word_sizes: list[int] = field(default_factory=list)
    accented: list[bool] = field(default_factory=list)  # a word with a diacritic anywhere
    typed: str = ""  # one spelling of the letters (the first of each set)


def _skeleton(text: str) -> Skeleton:
    sk = Skeleton()
    lookalike: list[str | None] = []  # the other script's letter, for transliteration
    latin_words: set[int] = set()
    current = -1
    previous_was_letter = False
    for index, char in enumerate(text):
        if is_invisible(char) or unicodedata.category(char) in ("Mn", "Me"):
            continue  # inside a word, passed over: ``fu\u200dck``, ``f\u0301uck``
        letters = [_letter(c) for c in unicodedata.normalize("NFKC", char)] or [None]
        if any(letter is None for letter in letters):
            previous_was_letter = False
            continue
        if not previous_was_letter:
            current += 1
            sk.word_sizes.append(0)
            sk.accented.append(False)
        previous_was_letter = True
        for letter in letters:
            assert letter is not None
            looks = frozenset() if _is_latin(letter) else latin_lookalikes(letter)
            if looks:
                sk.exact.append(looks)
                sk.folded.append(looks)
                lookalike.append(letter)
            else:
                sk.exact.append(frozenset({letter}))
                sk.folded.append(frozenset({_fold(letter)}))
                lookalike.append(None)
                if letter.isalpha() and _is_latin(letter):
                    latin_words.add(current)
                if _fold(letter) != letter:
                    sk.accented[current] = True
            sk.source.append(index)
            sk.word.append(current)
            sk.word_sizes[current] += 1
    for position, other in enumerate(lookalike):
        if other is not None and sk.word[position] in latin_words:
            base = unicodedata.normalize("NFD", other)[0]
            if base in TRANSLITERATION:
                extra = frozenset({TRANSLITERATION[base]})
                sk.exact[position] |= extra
                sk.folded[position] |= extra
    sk.typed = "".join(min(letters) for letters in sk.exact)
    return sk


def _entry(line: str) -> Entry | None:
    text = unicodedata.normalize("NFC", line.strip().lower())
    if not text or text.startswith("#"):
        return None
    letters, splits = [], set()
    for char in text:
        letter = _letter(char)
        if letter is not None:
            letters.append(letter)
        elif letters:
            splits.add(len(letters))
    if len(letters) < 2:
        return None
    exact = "".join(letters)
    return Entry(exact, "".join(_fold(c) for c in exact), frozenset(splits))


@cache
def plain_words() -> frozenset[str]:
    """Everyday words typed without diacritics that must not fold onto a listed word."""
    lines = (LISTS / "vi-plain.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip() for w in lines if w.strip() and not w.startswith("#"))


@cache
def entries() -> tuple[Entry, ...]:
    found: dict[str, Entry] = {}
    for language in LANGUAGES:
        for line in (LISTS / f"{language}.txt").read_text(encoding="utf-8").splitlines():
            entry = _entry(line)
            if entry is not None:
                found.setdefault(
                    entry.exact + "|" + ",".join(map(str, sorted(entry.splits))), entry
                )
    return tuple(found.values())


@cache
def _by_first_letter() -> dict[str, tuple[Entry, ...]]:
    grouped: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries():
        grouped[entry.folded[0]].append(entry)
    return {letter: tuple(found) for letter, found in grouped.items()}


def _spelled(sk: Skeleton, entry: Entry, start: int) -> bool:
    """The message's letters from ``start`` may be the listed word's, diacritics aside."""
    end = start + len(entry.folded)
    if end > len(sk.folded):
        return False
    return all(entry.folded[k] in sk.folded[start + k] for k in range(len(entry.folded)))


def _matches(sk: Skeleton, entry: Entry, start: int) -> bool:
    end = start + len(entry.folded)  # exclusive
    # At a word's edges.
    if start > 0 and sk.word[start - 1] == sk.word[start]:
        return False
    if end < len(sk.folded) and sk.word[end] == sk.word[end - 1]:
        return False
    # A message word with diacritics must have the listed word's; one without matches any,
    # unless it is an everyday word typed without them (``cac`` for ``các``).
    first, last = sk.word[start], sk.word[end - 1]
    for offset in range(len(entry.folded)):
        position = start + offset
        if sk.accented[sk.word[position]] and entry.exact[offset] not in sk.exact[position]:
            return False
    typed = sk.typed[start:end]
    folded = "".join(_fold(c) for c in typed)
    if typed == folded and typed != entry.exact and typed in plain_words():
        return False
    if first == last:
        return True
    if all(sk.word_sizes[w] == 1 for w in range(first, last + 1)):
        return True  # spelled out letter by letter
    breaks = {
        offset for offset in range(1, len(entry.folded))
        if sk.word[start + offset] != sk.word[start + offset - 1]
    }  # fmt: skip
    return breaks == set(entry.splits)


def masked_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) character ranges of ``text`` that are swear words."""
    text = unicodedata.normalize("NFC", text)
    sk = _skeleton(text)
    by_first = _by_first_letter()
    spans = []
    for start, letters in enumerate(sk.folded):
        for letter in letters:
            for entry in by_first.get(letter, ()):
                if _spelled(sk, entry, start) and _matches(sk, entry, start):
                    end = start + len(entry.folded) - 1
                    spans.append((sk.source[start], sk.source[end] + 1))
    return spans


def mask(text: str) -> str:
    """``text`` with every letter of every swear word replaced by ``*`` (NFC)."""
    text = unicodedata.normalize("NFC", text)
    spans = masked_spans(text)
    if not spans:
        return text
    letters = set(_skeleton(text).source)
    chars = list(text)
    for start, end in spans:
        for index in range(start, end):
            if index in letters:
                chars[index] = "*"
    return "".join(chars)
