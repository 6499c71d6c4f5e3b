"""The challenge's form: the create-table form's own fields and validation (stake, rules
preset, house rules), without what a challenge fixes itself (two seats, private, both
seated at once, no duplicate deals, a name made of the two players')."""

from __future__ import annotations

from typing import Any

from games.forms import CreateTableForm

# What a challenge's table always is (social.services.accept_challenge): not asked.
FIXED = (
    "name",
    "seats",
    "is_private",
    "sit_down",
    "allow_bots",
    "bot_wait_seconds",
    "duplicate_schedule",
)


class ChallengeForm(CreateTableForm):
    """The stake, the preset and the house rules of a challenge, validated exactly as the
    lobby validates a new table's (the same fields, the same limits, the same messages)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in FIXED:
            del self.fields[name]

    def challenge_options(self) -> dict[str, Any]:
        """What ``social.services.challenge`` gets from a valid form."""
        data = self.cleaned_data
        return {
            "preset": data["preset"],
            "stake": data["stake"],
            "rules_overrides": self.rules_overrides(),
        }
