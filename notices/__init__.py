"""What the site tells a player: one ``Notification`` model, its kinds and their texts.

Every app that has something to tell a player (moderation's case outcomes, social's friend
requests and invitations) writes here through ``notices.services``; the inbox
(``maubinh_site/inbox.py``) reads it. It sits just above the ledger in the layers
(pyproject.toml): its texts write amounts of xu as the rest of the site does
(``ledger.formats``), and every app with something to say (games and up) can reach it.
"""
