"""Every write of the social app: one transaction each."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from social.errors import SocialError
from social.models import Block


@transaction.atomic
def block_user(blocker: User, blocked: User) -> Block:
    """`blocker` stops seeing `blocked`; blocking twice is the same as once."""
    if blocker.pk == blocked.pk:
        raise SocialError(_("You cannot block yourself."), code="block_self")
    block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    return block


@transaction.atomic
def unblock_user(blocker: User, blocked: User) -> None:
    """Lift a block; lifting one that does not exist changes nothing."""
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()
