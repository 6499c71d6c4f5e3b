"""The arena: a timed tournament of duplicate boards, scored in points with the fire
(docs/tournaments.md, Arena). Its rules (pairing, points, ranking), services, selectors,
timers, receivers, pages, form and socket. Built on what both kinds share
(``tournaments.services``, ``tournaments.selectors``, ``tournaments.rules``); never
imports the sit-and-go."""
