"""What the trainers use for Art Robbery unless told otherwise."""

from ..profiles import TrainingDefaults

TRAINING = TrainingDefaults(
    timesteps=400_000,
    n_steps=32,
    opponents=("random,self:400000", "heuristic,self:600000"),
)
