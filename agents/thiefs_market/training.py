"""What the trainers use for Thief's Market unless told otherwise."""

from ..profiles import TrainingDefaults

TRAINING = TrainingDefaults(
    timesteps=600_000,
    n_steps=64,
    opponents=("random,self:600000", "heuristic,self:600000"),
)
