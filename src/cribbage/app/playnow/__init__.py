""" "Play now": the pools and the pairing (pure), and the game of each match made."""
