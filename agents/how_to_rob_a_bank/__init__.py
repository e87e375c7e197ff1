"""What agents know of How to Rob a Bank (the parts :mod:`agents.profiles` names): its
heuristic player (compiled), its rollout policy, its shaping potential and the trainers'
defaults; and two scripts of its own, the phase study (:mod:`~agents.how_to_rob_a_bank.phases`)
and the value fit (:mod:`~agents.how_to_rob_a_bank.fit_value`), and the studies' restricted-play
rules (:mod:`~agents.how_to_rob_a_bank.restrictions`)."""
