"""The API's routes by resource: games, tables, watching, the stateless tools, the pages."""
