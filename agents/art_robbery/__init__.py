"""What agents know of Art Robbery (the parts :mod:`agents.profiles` names): its heuristic
player (compiled) and the trainers' defaults."""
