"""What the trainers use for Les Toits de Paris unless told otherwise."""

from ..profiles import TrainingDefaults

TRAINING = TrainingDefaults(
    timesteps=400_000,
    n_steps=32,
    opponents=("random,self:400000", "heuristic,self:400000"),
)
