"""Tools behind the `heist` command: demo, play, leaderboard, benchmark, docs, eval."""
