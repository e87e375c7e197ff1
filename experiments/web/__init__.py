"""The web table: watch, replay and play the games in a browser (``heist serve``)."""
