""" "Play now": the pools and the pairing (pure, :mod:`.matchmaking`), the game of each match
made (:mod:`.play`), and the orchestrator between the queue and the games (:mod:`.orchestrator`)."""
