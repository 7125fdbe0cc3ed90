"""Tournaments online and at the club (issue 44, docs/tournaments.md): the requests
(:mod:`.book`), the settings (:mod:`.settings`), a stored tournament as the rules see it
(:mod:`.progress`) and as the API shows it (:mod:`.view`)."""
