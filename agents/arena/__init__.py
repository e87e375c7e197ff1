"""Games between agents: one game (:func:`play`), and tournaments with ratings (:func:`tournament`).

A tournament seats its entrants on the game's sides (seats, or teams: How to Rob a Bank's
robbers are one side) in every rotation, gives each game its own seed, plays the games in
worker processes, and summarises every entrant: win rate and mean reward (and score, where the
game reports one) with 95% intervals, an OpenSkill rating, and how much the first seat helps.
For any ``game_name`` of ``heist_envs.game_names()``:

    result = tournament(game_name, ["random", "heuristic"], games=200, num_players=4)
    print(result.table())
    result.write("out/")  # summary.csv, games.csv, tournament.json

Its rooms: ``seating`` (entrants, seat rotations, seeds, the plan of a tournament's games),
``games`` (one game, forfeits, a game's record), ``workers`` (playing tournaments in worker
processes, their failures, Ctrl-C), ``batched`` (the batched route: a table's games many at
once) and ``results`` (outcomes, ratings, summaries). The names below are theirs.
"""

from .games import (
    FORFEIT_REASONS,
    GameResult,
    agent_stats,
    decide,
    forfeit_result,
    game_record,
    illegal_action,
    illegal_fields,
    is_action_id,
    is_legal,
    play,
    run_game,
)
from .results import (
    Outcome,
    TournamentResult,
    entrant_summary,
    mean_summary,
    rate,
    rate_summary,
    side_outcomes,
)
from .seating import (
    Entrant,
    TournamentPlan,
    agent_seed,
    as_entrant,
    check_count,
    check_time_limit,
    parse_entrant,
    plan_tournament,
    rotations,
    schedule,
    seat_agents,
    seat_entrants,
    unique_labels,
)
from .workers import TournamentInterrupted, play_tournaments, tournament

__all__ = [
    "GameResult",
    "play",
    "FORFEIT_REASONS",
    "run_game",
    "is_action_id",
    "is_legal",
    "decide",
    "illegal_action",
    "illegal_fields",
    "forfeit_result",
    "rotations",
    "seat_agents",
    "Entrant",
    "check_time_limit",
    "parse_entrant",
    "as_entrant",
    "unique_labels",
    "schedule",
    "seat_entrants",
    "agent_stats",
    "game_record",
    "agent_seed",
    "TournamentPlan",
    "check_count",
    "plan_tournament",
    "tournament",
    "TournamentInterrupted",
    "play_tournaments",
    "Outcome",
    "side_outcomes",
    "rate",
    "rate_summary",
    "mean_summary",
    "entrant_summary",
    "TournamentResult",
]
