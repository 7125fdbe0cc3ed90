"""What drives games: the table (one game with who sits in each seat), bot matches, the fast
playout of matches between the greedy levels.

Every interface and every match drives its games through :class:`~cribbage.table.table.Table`;
none keeps a game loop of its own.
"""
