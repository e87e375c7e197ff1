"""The table of a game as JSON-compatible data for the browser, from the kernel record.

``table_view(game, s, seat)`` is what the browser draws: the game's own
:attr:`~heist_envs.core.game.Game.table_view`, written beside its observation
(``heist_envs/<game>/table_view.py``), so that one folder decides what a seat may see; a game
without one shows its text render. With ``seat=None`` it is the spectator's view (every hand,
the decks' order); with a seat it holds only what that seat's observation holds, so a page
showing a seat's view cannot reveal anything hidden from it, even to someone reading the
page's network traffic.
"""


def table_view(game, s, seat=None) -> dict:
    """The drawn table of record ``s`` from ``seat``'s view (None: the spectator's)."""
    return game.table_view(s, seat)
