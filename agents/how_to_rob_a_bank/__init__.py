"""What agents know of How to Rob a Bank: its heuristic player and its rollout policy."""
