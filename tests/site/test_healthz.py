import json
import urllib.error
import urllib.request

import pytest
from django.urls import reverse

from tests.support.processes import daphne, site_env
from tests.support.services import TEST_DATABASE_URL, TEST_REDIS_URL


@pytest.mark.django_db
def test_healthz_reports_database_channel_layer_and_broker(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "channel_layer", "broker"}


@pytest.mark.django_db
def test_healthz_turns_red_when_a_check_fails(client, monkeypatch):
    from maubinh_site import health

    def broken() -> str:
        raise ConnectionError("broker down")

    monkeypatch.setitem(health.CHECKS, "broker", broken)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["checks"]["broker"]["status"] == "error"


def _get_json(url: str) -> dict:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:  # a red health check still answers with its report
        return json.loads(error.read())


@pytest.mark.slow
def test_healthz_is_green_on_the_embedded_default(tmp_path):
    env = site_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with daphne(env, tmp_path / "daphne.log") as base:
        body = _get_json(base + "/healthz")
    assert body["status"] == "ok", body
    assert body["checks"]["database"]["detail"] == "sqlite"
    assert body["checks"]["channel_layer"]["detail"] == "InMemoryChannelLayer"
    assert "embedded" in body["checks"]["broker"]["detail"]


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_healthz_is_green_on_postgresql_and_redis_and_leaves_no_subscription_behind(tmp_path):
    import redis

    env = site_env(DATABASE_URL=TEST_DATABASE_URL, REDIS_URL=TEST_REDIS_URL)
    server = redis.Redis.from_url(TEST_REDIS_URL)
    with daphne(env, tmp_path / "daphne.log") as base:
        bodies = [_get_json(base + "/healthz") for _ in range(5)]
        subscribed = server.pubsub_channels(f"{env['REDIS_PREFIX']}:*")
    body = bodies[-1]
    assert all(b["status"] == "ok" for b in bodies), bodies
    assert body["checks"]["database"]["detail"] == "postgresql"
    assert body["checks"]["channel_layer"]["detail"] == "RedisPubSubChannelLayer"
    assert body["checks"]["broker"]["detail"].startswith("redis://")
    assert subscribed == []
