"""What agents know of Les Toits de Paris: its heuristic player and its rollout policy."""
