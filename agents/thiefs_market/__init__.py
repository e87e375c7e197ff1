"""What agents know of Thief's Market: its heuristic player and its rollout policy."""
