"""The quick phrases and the reactions: fixed lists, sent by id.

A phrase is shown in each reader's language; a reaction floats over the sender's seat.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

PHRASES = {
    "hello": _("Hello everyone!"),
    "good_luck": _("Good luck!"),
    "nice": _("Nice hand!"),
    "hurry": _("A little faster, please."),
    "thinking": _("Let me think a moment."),
    "thanks": _("Thanks!"),
    "sorry": _("Sorry!"),
    "again": _("One more round?"),
    "good_game": _("Good game!"),
    "bye": _("Bye, see you!"),
}

# id -> emoji; the ids are what the protocol carries. Faces and a heart only: Debian's
# Chromium fonts have no glyph for hands or fire.
REACTIONS = {
    "laugh": "😂",
    "smile": "😊",
    "wink": "😉",
    "cool": "😎",
    "wow": "😮",
    "sad": "😢",
    "angry": "😠",
    "heart": "❤️",
}
