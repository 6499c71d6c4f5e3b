"""static/games/resend.js: the page resends an unanswered or failed submit with the same
``ref`` until the server answers it, and stops at a final answer."""

from __future__ import annotations

import pytest

SCRIPT = """
async (replies) => {
  const { untilAnswered } = await import('/static/games/resend.js');
  const sent = [];
  const live = {
    refs: 0,
    nextRef() { return ++this.refs; },
    async request(message, ref) {
      sent.push({ ...message, ref });
      return { ...replies[sent.length - 1], ref };
    },
  };
  const reply = await untilAnswered(live, { type: 'submit', round: 4, chi: [] });
  return { reply, sent };
}
"""


@pytest.mark.browser
def test_an_unanswered_or_failed_submit_is_resent_with_the_same_ref_until_acknowledged(
    pages,
) -> None:  # type: ignore[no-untyped-def]
    page = pages.new()
    page.goto(pages.site.url + "/accounts/login/")
    replies = [
        {"type": "error", "code": "timeout"},
        {"type": "error", "code": "disconnected"},
        {"type": "error", "code": "server_error"},
        {"type": "ok", "for": "submit", "round": 4},
    ]
    result = page.evaluate(SCRIPT, replies)
    assert result["reply"]["type"] == "ok"
    assert [m["ref"] for m in result["sent"]] == [1, 1, 1, 1]
    assert all(m["type"] == "submit" and m["round"] == 4 for m in result["sent"])


@pytest.mark.browser
def test_a_refused_submit_is_not_resent(pages) -> None:  # type: ignore[no-untyped-def]
    page = pages.new()
    page.goto(pages.site.url + "/accounts/login/")
    result = page.evaluate(SCRIPT, [{"type": "error", "code": "too_late"}])
    assert result["reply"]["code"] == "too_late"
    assert len(result["sent"]) == 1
