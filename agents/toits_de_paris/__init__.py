"""What agents know of Les Toits de Paris (the parts :mod:`agents.profiles` names): its
heuristic player (compiled, with weights), its rollout policy and the trainers' defaults; and
the studies' restricted-play rules (:mod:`~agents.toits_de_paris.restrictions`)."""
