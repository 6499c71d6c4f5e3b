import pytest
from django.core.management import call_command

from accounts.models import User
from accounts.roles import is_admin, is_moderator

pytestmark = pytest.mark.django_db


def test_seed_demo_creates_players_a_moderator_and_an_admin_once(capsys):
    call_command("seed_demo")
    call_command("seed_demo")
    out = capsys.readouterr().out
    assert "maubinh-demo" in out
    assert User.objects.count() == 6
    assert is_moderator(User.objects.get(username="mod"))
    assert is_admin(User.objects.get(username="admin"))
    assert not is_moderator(User.objects.get(username="an"))
    assert User.objects.get(username="an").check_password("maubinh-demo")
