"""The games at a table: their options, their repository (stored, cached), seating, the lobby,
watching, the round of play, turn clocks, rematches and the series of a match, which games are
rated and how they are recorded, and the live fan-out of a change."""
