"""What the trainers use for How to Rob a Bank unless told otherwise.

The robbers' team reward is too sparse to learn from (random robbers steal 0.013 bags a game):
shaping rewards their progress toward the target (:mod:`agents.how_to_rob_a_bank.shaping`).
Even so PPO from scratch teaches its robbers nothing; the shipped policy for this game starts
from an imitation of the heuristic (``experiments.train.imitation``, then ``--init``), which
labels each decision with every action the heuristic ranks best (:func:`teacher_scores`).
"""

from ..profiles import TrainingDefaults
from .compiled import params, scores


def teacher_scores(obs, mask):
    """The legal actions and the heuristic's score of each (:func:`.compiled.scores`)."""
    return scores(obs, mask, params())


TRAINING = TrainingDefaults(
    timesteps=400_000,
    n_steps=32,
    shaping=1.0,
    opponents=("heuristic,self",),
    teacher_scores=teacher_scores,
)
