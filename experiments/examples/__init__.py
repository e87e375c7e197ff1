"""Short runnable examples of training heist-envs games with the RL libraries users bring;
``tests/integrations`` runs each one."""
