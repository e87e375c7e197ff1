"""Studies of strategies: games as pandas tables (:mod:`.data`), game metrics (:mod:`.metrics`)
and restricted play (:mod:`.restricted`), for notebooks and the ``heist metrics`` command."""
