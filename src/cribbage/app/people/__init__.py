"""The people: accounts and their names, passkeys, ratings and the standings."""
