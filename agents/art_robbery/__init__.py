"""What agents know of Art Robbery (the parts :mod:`agents.profiles` names): its heuristic
player, the heuristic compiled and the trainers' defaults."""
