"""Rule-based agents, one per game: simple, fast, and much stronger than random play.

Each reads only its observation (through the game's ``LAYOUT``) and the action mask, and
breaks ties with its own seeded RNG, so a game between seeded agents is reproducible.
"""

from .art_robbery import HeuristicAgent as ArtRobberyHeuristic
from .how_to_rob_a_bank import HeuristicAgent as HowToRobABankHeuristic
from .thiefs_market import HeuristicAgent as ThiefsMarketHeuristic
from .toits_de_paris import HeuristicAgent as ToitsDeParisHeuristic

#: game name -> its heuristic agent class
HEURISTICS = {
    "art_robbery": ArtRobberyHeuristic,
    "how_to_rob_a_bank": HowToRobABankHeuristic,
    "thiefs_market": ThiefsMarketHeuristic,
    "toits_de_paris": ToitsDeParisHeuristic,
}


def make_heuristic(game_name, seed=None):
    """The heuristic agent for ``game_name`` (with or without its ``_v0`` suffix)."""
    name = game_name.removesuffix("_v0")
    if name not in HEURISTICS:
        raise ValueError(
            f"no heuristic agent for game {game_name!r}; available: {', '.join(sorted(HEURISTICS))}"
        )
    return HEURISTICS[name](seed)


__all__ = [
    "HEURISTICS",
    "ArtRobberyHeuristic",
    "HowToRobABankHeuristic",
    "ThiefsMarketHeuristic",
    "ToitsDeParisHeuristic",
    "make_heuristic",
]
