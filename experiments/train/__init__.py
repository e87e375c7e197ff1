"""Trainers: MaskablePPO self-play (sb3), RLlib (rllib), imitation, heuristic weights, and
their shared evaluation and reward shaping."""
