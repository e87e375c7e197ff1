"""What the studies read from How to Rob a Bank's states
(:class:`~heist_envs.core.study.GameStudy`): no per-seat score race, the sides win or lose
together."""

from heist_envs.core.study import GameStudy, state_field

from .state import PHASE_NAMES

STUDY = GameStudy(
    phase="phase",
    phase_names=PHASE_NAMES,
    rounds=lambda s: float(s.round_num),
    rounds_doc="at most 3 in a heist",
    columns={"round": state_field("round_num"), "stolen": state_field("stolen")},
)
