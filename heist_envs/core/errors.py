"""Exceptions raised on bad input. Each says what was wrong and what is allowed."""


class HeistError(Exception):
    """Base class of every error raised by heist-envs."""


class IllegalActionError(HeistError, ValueError):
    """An action that is not legal in the current state; the game is left unchanged."""


class GameRecordError(HeistError, ValueError):
    """A saved game or game record that is malformed or does not match the game."""


class CallOrderError(HeistError, RuntimeError):
    """A call out of order: before ``reset()``, or after the game ended for every agent."""


class InvalidStateError(GameRecordError):
    """A game state whose fields are out of range or contradict each other: no game of the
    rules reaches it. The message names the first bad field and what it allows."""


class DeviceError(HeistError, RuntimeError):
    """The GPU engine cannot run here: numba-cuda or a CUDA device is missing, a game's kernel
    functions do not compile for it, or a batch does not fit its memory. The message says
    which, and what to do."""
