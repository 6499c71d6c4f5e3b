from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Table talk")

    def ready(self) -> None:
        # The moderators' replay of a round shows its table talk; moderation does not
        # import chat, so chat hands it the steps.
        from chat.selectors import replay_steps
        from moderation.selectors import add_replay_source

        add_replay_source(replay_steps)
