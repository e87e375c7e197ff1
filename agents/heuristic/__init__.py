"""Rule-based agents, one per game: simple, fast, and much stronger than random play.

Each reads only its observation (through the game's ``LAYOUT``) and the action mask, and
breaks ties with its own seeded RNG, so a game between seeded agents is reproducible.
"""

from agents.art_robbery.heuristic import HeuristicAgent as ArtRobberyHeuristic
from agents.how_to_rob_a_bank.heuristic import HeuristicAgent as HowToRobABankHeuristic
from agents.thiefs_market.heuristic import HeuristicAgent as ThiefsMarketHeuristic
from agents.toits_de_paris.heuristic import HeuristicAgent as ToitsDeParisHeuristic

#: game name -> its heuristic agent class
HEURISTICS = {
    "art_robbery": ArtRobberyHeuristic,
    "how_to_rob_a_bank": HowToRobABankHeuristic,
    "thiefs_market": ThiefsMarketHeuristic,
    "toits_de_paris": ToitsDeParisHeuristic,
}


#: games whose heuristic plays a table of weights that ``weights`` may replace
WEIGHTED = ("toits_de_paris",)


def make_heuristic(game_name, seed=None, weights=None):
    """The heuristic agent for ``game_name`` (with or without its ``_v0`` suffix).

    ``weights`` (Les Toits de Paris only): "tuned" for the weights learned by
    ``experiments.train.weights``, or the path of a file it wrote; None: the hand-set ones.
    """
    name = game_name.removesuffix("_v0")
    if name not in HEURISTICS:
        raise ValueError(
            f"no heuristic agent for game {game_name!r}; available: {', '.join(sorted(HEURISTICS))}"
        )
    if weights is None:
        return HEURISTICS[name](seed)
    if name not in WEIGHTED:
        raise ValueError(
            f"the {name} heuristic has no weights to replace; games with weights: "
            + ", ".join(WEIGHTED)
        )
    return HEURISTICS[name](seed, weights=weights)


__all__ = [
    "HEURISTICS",
    "ArtRobberyHeuristic",
    "HowToRobABankHeuristic",
    "ThiefsMarketHeuristic",
    "ToitsDeParisHeuristic",
    "make_heuristic",
]
