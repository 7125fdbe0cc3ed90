"""Games against the computer played where the person is: in the browser, under Pyodide, on the
package's own engine, table, players and AI (issue 45; docs/pyodide.md).

:class:`~cribbage.local.game.LocalGame` is such a game: the same ``STATE``, the same action
templates and the same refusals (codes and values) as the server's game against the computer
(:class:`cribbage.app.games.live_game.LiveGame`), made from the game alone, so that the page's
store, views and replay are one code for a game online and one in the browser.  Nothing here
imports the server's layers (the application, the storage, the web): their libraries do not run
under Pyodide (tests/core/test_local_boundary.py holds that line).
"""
