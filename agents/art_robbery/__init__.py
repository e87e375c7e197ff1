"""What agents know of Art Robbery: its heuristic player."""
