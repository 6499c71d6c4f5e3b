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

A match must start and end at a word's edges: ``class`` keeps its ``ass``. One spanning
several words is a match only when the message splits it where the listed phrase has its
spaces (``dit me``), or when every piece is a single letter (``f u c k``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LISTS = Path(__file__).resolve().parent / "wordlists"
LANGUAGES = ("vi", "en")
LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}


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


@dataclass(frozen=True)
class Entry:
    exact: str  # the listed word's letters, lower case, NFC, no spaces
    folded: str  # the same without diacritics
    splits: frozenset[int]  # where the listed phrase has a space (letter offsets)


@dataclass
class Skeleton:
    """A message's letters, with where each came from and where words start and end."""

    exact: str
    folded: str
    source: list[int]  # index of each letter in the message
    word: list[int]  # which word of the message each letter belongs to
    word_sizes: list[int]
    accented: list[bool]  # does each word carry a diacritic anywhere


def _skeleton(text: str) -> Skeleton:
    exact, source, word, sizes = [], [], [], []
    current = -1
    previous_was_letter = False
    for index, char in enumerate(text):
        letter = _letter(char)
        if letter is None:
            previous_was_letter = False
            continue
        if not previous_was_letter:
            current += 1
            sizes.append(0)
        previous_was_letter = True
        exact.append(letter)
        source.append(index)
        word.append(current)
        sizes[current] += 1
    exact_text = "".join(exact)
    folded = "".join(_fold(c) for c in exact_text)
    accented = [False] * len(sizes)
    for index, char in enumerate(exact_text):
        if char != folded[index]:
            accented[word[index]] = True
    return Skeleton(exact_text, folded, source, word, sizes, accented)


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
        if sk.accented[sk.word[start + offset]] and sk.exact[start + offset] != entry.exact[offset]:
            return False
    typed = sk.exact[start:end]
    if typed == sk.folded[start:end] and typed != entry.exact and typed in plain_words():
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
    spans = []
    for entry in entries():
        start = sk.folded.find(entry.folded)
        while start != -1:
            if _matches(sk, entry, start):
                end = start + len(entry.folded) - 1
                spans.append((sk.source[start], sk.source[end] + 1))
            start = sk.folded.find(entry.folded, start + 1)
    return spans


def mask(text: str) -> str:
    """``text`` with every letter of every swear word replaced by ``*`` (NFC)."""
    text = unicodedata.normalize("NFC", text)
    spans = masked_spans(text)
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        for index in range(start, end):
            if _letter(chars[index]) is not None:
                chars[index] = "*"
    return "".join(chars)
