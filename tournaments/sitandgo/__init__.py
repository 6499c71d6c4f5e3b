"""The sit-and-go: a tournament that starts when full and ends when one player has every
chip (docs/tournaments.md, Sit-and-go). Its rules (levels, seating, balancing, a round's
chips), services, selectors, timers, pages and form; its page's socket is the tournament
socket both kinds share (``tournaments.consumers``). Built on what both kinds share
(``tournaments.services``, ``tournaments.selectors``, ``tournaments.rules``); never
imports the arena."""
