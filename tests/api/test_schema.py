"""schemathesis over every non-streaming operation with a real token: property-based
requests from the OpenAPI document, answered without a 5xx and within the schema."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api import services
from api.models import Scope
from api.root import api
from games import services as game_services
from games.models import Table
from tests.api.test_docs_match_the_code import STREAMS
from tests.support.properties import on_the_database

schema = schemathesis.openapi.from_dict(api.get_openapi_schema(path_prefix="/api/")).exclude(
    operation_id=sorted(STREAMS)
)
schema.app = get_wsgi_application()


@pytest.fixture
def in_test_transaction() -> Any:
    """The WSGI app closes the database connection after each request; Django's test
    client stops it doing so, and so does this (the test's transaction stays open)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def token(db: None, make_user: Any, settings: Any, in_test_transaction: None) -> str:
    """A player with every scope, seated at a table with a round on (so the round and
    table operations meet real rows as well as made-up ids)."""
    settings.API_REQUESTS_PER_TOKEN = settings.API_REQUESTS_PER_ACCOUNT = 10**6
    settings.ALLOWED_HOSTS = ["*"]
    user, other = make_user("schema"), make_user("other")
    table = game_services.create_table(user, name="Bàn schema", stake=10)
    game_services.sit(user, table.pk)
    game_services.sit(other, table.pk)
    game_services.start_round(user, table.pk)
    assert Table.objects.filter(pk=table.pk).exists()
    return services.create_token(user, name="schema", scopes=Scope.values).secret


@pytest.mark.slow
@schema.parametrize()
@on_the_database(30)
def test_every_operation_answers_within_its_schema_and_never_with_a_5xx(
    case: Any, token: str
) -> None:
    case.call_and_validate(
        headers={"Authorization": f"Bearer {token}"},
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
