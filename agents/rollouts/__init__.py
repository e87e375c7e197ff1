"""Compiled rollout policies for ISMCTS, one optional module per game.

A search samples a full world, so a rollout policy may read the whole kernel state. The
module ``agents.<game>.rollout`` defines

- ``rollout_action(s, mask) -> int``, compiled with numba: an action legal in ``mask`` for
  ``s.actor`` in the running state ``s`` (it may draw from numba's ``np.random``, which the
  search seeds);
- optionally ``evaluate(s, out)``, compiled: each seat's expected return (on the scale of the
  game's ``returns``) for a running state, which lets a search cut rollouts short
  (``rollout_depth``). ``s`` is the search's scratch world, so ``evaluate`` may play it on
  (to a point where it is easier to judge) before scoring it;
- optionally ``SEARCH_DEFAULTS``, a dict of the search settings that suit the policy (keys of
  :data:`agents.ismcts.SEARCH_SETTINGS`), used where the agent is not given them;
- optionally ``PRIOR_ALONE_PHASES``, the values of the state's ``phase`` in which a search
  with ``prior_alone`` plays its prior policy's move without searching.

Games without a module are rolled out with uniformly random legal moves.
"""

import importlib
import importlib.util


def rollout_module(game_name):
    """The rollout module of ``game_name``, or None if it has none."""
    name = f"agents.{game_name}.rollout"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)
