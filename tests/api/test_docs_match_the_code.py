"""docs/api.md and /api/openapi.json say what the code does (issue 27: a bot author needs
nothing else): every operation, the streams and each line type they send, each
operation's own error codes, the round's states and fields."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from api.errors import error_codes, status_of
from api.root import api
from api.schemas import ChallengeOut, RoundFull, RoundPlayerRow, RoundView
from api.streams import EVENT_STREAM_TYPES, TABLE_STREAM_TYPES, TABLE_TALK

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
ENGLISH, VIETNAMESE = DOCS.split("\n## Tiếng Việt\n", 1)

# The operationIds issue 27 names, and the ones it asks for without naming them
# (tournament standings, the daily hand).
ISSUE_OPERATIONS = {
    "account_me",
    "tables_list",
    "tables_create",
    "table_sit",
    "table_leave",
    "table_stream",
    "round_submit",
    "events_stream",
    "rounds_export",
    "round_get",
    "tournaments_list",
    "tournament_join",
    "tournament_withdraw",
    "bot_upgrade",
}
OURS = {"tournament_standings", "daily_hand", "daily_submit"}
# The challenges the event stream carries (issue 27: "a challenge").
CHALLENGES = {"challenge_create", "challenge_accept", "challenge_decline", "challenge_cancel"}
STREAMS = {"table_stream", "events_stream"}


def _document() -> dict[str, Any]:
    """The document as /api/openapi.json serves it (JSON: every key a string)."""
    return dict(json.loads(json.dumps(api.get_openapi_schema(path_prefix="/api/"))))


def _operations() -> dict[str, dict[str, Any]]:
    document = _document()
    return {op["operationId"]: op for path in document["paths"].values() for op in path.values()}


def _section(text: str, heading: str) -> str:
    """The text under ``heading`` (a markdown heading line), up to the next heading of its
    level or above."""
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index(heading + "\n") + len(heading) + 1
    end = re.search(rf"^#{{1,{level}}} ", text[start:], re.MULTILINE)
    return text[start : start + end.start()] if end else text[start:]


def _backticked(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_:]+)`", text))


def test_the_document_has_every_operation_the_issue_names_and_ours() -> None:
    assert set(_operations()) >= ISSUE_OPERATIONS | OURS | CHALLENGES


def test_the_streams_are_in_the_document_answering_application_x_ndjson() -> None:
    operations = _operations()
    for name in STREAMS:
        assert list(operations[name]["responses"]["200"]["content"]) == ["application/x-ndjson"]


def test_each_operation_lists_only_the_error_codes_it_can_answer_with() -> None:
    operations = _operations()
    for name, operation in operations.items():
        codes = error_codes(operation)
        assert codes, name
        for status, listed in codes.items():
            assert all(status_of(code) == status for code in listed), (name, status)
    everything = {
        code for op in operations.values() for c in error_codes(op).values() for code in c
    }
    # Not every code everywhere: the account and the lists cannot refuse an arrangement.
    assert _flat(operations["account_me"]) == {"unauthenticated", "rate_limited"}
    assert _flat(operations["tournaments_list"]) == {"unauthenticated", "rate_limited"}
    assert "missing_scope" in _flat(operations["table_sit"])
    assert "card_not_dealt" in _flat(operations["round_submit"])
    assert "card_not_dealt" not in _flat(operations["table_sit"]) | _flat(operations["round_get"])
    assert "too_many_streams" in _flat(operations["table_stream"])
    for name in CHALLENGES - {"challenge_create"}:
        assert {"not_found", "challenge_expired", "already_answered"} <= _flat(operations[name])
    assert {"challenge_self", "challenge_refused", "you_blocked", "balance_too_low"} <= _flat(
        operations["challenge_create"]
    )
    assert "challenge_self" not in _flat(operations["challenge_accept"])
    assert "already_seated" in _flat(operations["challenge_accept"])
    assert all(len(_flat(op)) < len(everything) for op in operations.values())


def _flat(operation: dict[str, Any]) -> set[str]:
    return {code for codes in error_codes(operation).values() for code in codes}


@pytest.mark.parametrize(
    ("text", "heading"),
    [(ENGLISH, "### Errors by operation"), (VIETNAMESE, "#### Lỗi theo thao tác")],
)
def test_docs_list_each_operation_s_error_codes_as_its_schema_does(text: str, heading: str) -> None:
    documented = {
        name: set(re.findall(r"`([a-z_]+)`", codes))
        for name, codes in re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", _section(text, heading), re.M)
    }
    assert documented == {name: _flat(op) for name, op in _operations().items()}


@pytest.mark.parametrize(
    ("text", "event_heading", "table_heading"),
    [
        (ENGLISH, "### Your event stream", "### A table stream"),
        (VIETNAMESE, "#### Luồng sự kiện của bạn", "#### Luồng của một bàn"),
    ],
)
def test_docs_name_every_type_each_stream_sends(
    text: str, event_heading: str, table_heading: str
) -> None:
    def types(heading: str) -> set[str]:
        return set(re.findall(r"^\| `([a-z_]+)` \|", _section(text, heading), re.M))

    assert types(event_heading) == set(EVENT_STREAM_TYPES)
    assert types(table_heading) == set(TABLE_STREAM_TYPES)


# What the services send that the streams do not carry as it is: the lobby's and the
# tournament socket's messages, the socket's replies, the channel layer's own messages,
# the two the streams act on (shut_out, token_revoked: the stream ends) and table talk.
NOT_STREAMED = {
    "lobby",
    "table",
    "tournament",
    "ok",
    "error",
    "game.event",
    "session.ended",
    "session.check",
    "shut_out",
    "token_revoked",
    "chat_role",
    "chat_state",
    *TABLE_TALK,
}
SENDERS = ["games", "tournaments", "social", "chat", "api/auth.py", "api/streams.py"]


def _sent_types() -> set[str]:
    """Every ``{"type": "..."}`` literal of the modules that send events."""
    found: set[str] = set()
    for sender in SENDERS:
        base = ROOT / sender
        for path in [base] if base.is_file() else base.rglob("*.py"):
            if {"migrations", "rules", "tests"} & set(path.parts):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Dict):
                    for key, value in zip(node.keys, node.values, strict=True):
                        if (
                            isinstance(key, ast.Constant)
                            and key.value == "type"
                            and isinstance(value, ast.Constant)
                            and isinstance(value.value, str)
                        ):
                            found.add(value.value)
    return found


def test_the_streams_types_are_every_type_the_services_send_them() -> None:
    streamed = _sent_types() - NOT_STREAMED
    assert streamed == set(TABLE_STREAM_TYPES | EVENT_STREAM_TYPES)


@pytest.mark.parametrize(
    ("text", "heading"), [(ENGLISH, "### The round object"), (VIETNAMESE, "#### Đối tượng ván")]
)
def test_docs_explain_every_round_state_and_field(text: str, heading: str) -> None:
    section = _backticked(_section(text, heading))
    assert set(RoundFull.model_fields) <= section
    assert set(RoundView.model_fields) <= section  # view, typed
    assert {field.alias or name for name, field in RoundPlayerRow.model_fields.items()} <= section
    assert {"arranging", "showdown", "settled", "cancelled"} <= section


@pytest.mark.parametrize(
    ("text", "heading"), [(ENGLISH, "## Versions"), (VIETNAMESE, "### Phiên bản")]
)
def test_docs_say_what_version_counts_and_what_a_gap_means(text: str, heading: str) -> None:
    section = _section(text, heading)
    assert "version" in section and "snapshot" in section and "stale_version" in section


def test_round_get_types_every_player_result_in_the_schema() -> None:
    schemas = _document()["components"]["schemas"]
    full = schemas["RoundFull"]["properties"]
    assert full["players"]["items"] == {"$ref": "#/components/schemas/RoundPlayerRow"}
    assert full["pairs"]["items"] == {"$ref": "#/components/schemas/PairResult"}
    assert full["postings"]["items"] == {"$ref": "#/components/schemas/Posting"}
    assert full["transfers"]["items"] == {"$ref": "#/components/schemas/RoundTransfer"}
    assert full["seeds"] == {"$ref": "#/components/schemas/Seeds"}
    player = schemas["RoundPlayerRow"]["properties"]
    assert {"units", "xu", "cards", "arrangement", "status"} <= set(player)
    assert "from" in schemas["RoundTransfer"]["properties"]
    assert set(full["state"]["enum"]) == {"arranging", "showdown", "settled", "cancelled"}


def test_account_me_s_round_names_its_table_in_the_schema() -> None:
    schemas = _document()["components"]["schemas"]
    assert "table" in schemas["CurrentRound"]["required"]


@pytest.mark.parametrize(
    ("text", "heading"), [(ENGLISH, "## Challenges"), (VIETNAMESE, "### Thách đấu")]
)
def test_docs_explain_every_field_and_state_of_a_challenge(text: str, heading: str) -> None:
    section = _backticked(_section(text, heading))
    assert {field.alias or name for name, field in ChallengeOut.model_fields.items()} <= section
    assert {"open", "accepted", "declined", "cancelled", "expired"} <= section
    assert "challenge_create" in section
