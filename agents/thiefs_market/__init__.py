"""What agents know of Thief's Market (the parts :mod:`agents.profiles` names): its heuristic
player (compiled), its rollout policy and the trainers' defaults; and the studies'
restricted-play rules (:mod:`~agents.thiefs_market.restrictions`)."""
