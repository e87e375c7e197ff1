"""A player that asks a language model for its moves, through any OpenAI-compatible
chat-completions endpoint (the ``llm`` extra brings OpenAI's ``openai`` client).

    llm:model=NAME[,base_url=URL,timeout=60,budget=3600,retries=2,max_failures=3,temperature=T]

Nothing is sent unless the agent is configured: ``model=`` names the model, and the endpoint
is ``base_url=`` or else the environment's ``OPENAI_BASE_URL``; without both the agent
refuses to be built, in one line, before a game starts. The key is the environment's
``OPENAI_API_KEY`` (never an option, so that it stays out of agent specs and saved results;
without it the placeholder :data:`NO_KEY` is sent, which servers without keys accept).

Each decision is a conversation of its own: a system message with the game's rules
(:func:`agents.text_view.rules_summary`) and a user message with the seat's observation and
legal moves (:func:`agents.text_view.decision_text`), both functions of what the seat
observes. The last non-empty line of the reply is the move, by id or by name. A reply that
names no legal move is answered with what was wrong and asked again, up to ``retries``
times. The agent then plays its **fallback**, a uniformly random legal move drawn with the
agent's seed (so a game repeats from its seeds whatever the endpoint does), as it does at
once when a request fails: refused, timed out, an HTTP error, or an answer that is not a chat
completion. Each failure writes one line naming what was wrong (a warning of the logger
``agents.llm``) and the game goes on. After ``max_failures`` failed requests in a row, or
once the agent has spent ``budget`` seconds waiting for answers, it stops asking and plays
the fallback for the rest of its decisions, saying so in one line; each request waits at
most ``timeout`` seconds (less where the budget has less left).

:meth:`LLMAgent.stats` counts what happened, for a benchmark card.
"""

from __future__ import annotations

import logging
import os
import time

import openai
from openai.types.chat import ChatCompletion

import heist_envs

from .base import RandomAgent
from .text_view import decision_text, legal_moves, rules_summary

log = logging.getLogger(__name__)

#: the key sent where the environment has no OPENAI_API_KEY (OpenAI's client needs one)
NO_KEY = "no-key"
DEFAULT_TIMEOUT = 60.0
DEFAULT_BUDGET = 3600.0
DEFAULT_RETRIES = 2
DEFAULT_MAX_FAILURES = 3
#: the characters around a move that a reply may add (quotes, code marks, emphasis, a stop)
DECORATION = " \t`'\"*."

INSTRUCTIONS = (
    "You play one seat of {title}, a board game. Its rules:\n\n{rules}\n\n"
    "At each of your decisions you get what your seat observes, as the parts of the game's "
    "observation (each part's numbers, named as the game's observation layout names them), "
    "and your legal moves, one per line as 'id: name'. Think as you like, then end your "
    "reply with the id of the move you choose, alone on the last line."
)
ASK_AGAIN = "{problem}. Reply with the id of one of your legal moves, alone on the last line."


#: what :meth:`LLMAgent.stats` counts
COUNTS = (
    "decisions",
    "requests",
    "retries",
    "fallbacks",
    "failures",
    "prompt_tokens",
    "completion_tokens",
)


class NotAMove(ValueError):
    """A reply that names no legal move; its message says why."""


class FailedRequest(Exception):
    """A request that got no chat completion; its message says what was wrong."""


def read_move(game, reply: str | None, legal: list[int]) -> int:
    """The legal move that ``reply`` names on its last non-empty line, by id or by name
    (any case), or :class:`NotAMove` saying why it names none."""
    lines = [line.strip(DECORATION) for line in (reply or "").splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise NotAMove("The reply was empty")
    answer = lines[-1]
    if answer.isascii() and answer.isdigit():
        action = int(answer)
        if action in legal:
            return action
        if action < game.num_actions:
            raise NotAMove(f"{action} ({game.action_name(action)}) is not a legal move now")
        raise NotAMove(f"{action} is not a move id (they run from 0 to {game.num_actions - 1})")
    named = [
        a for a in range(game.num_actions) if game.action_name(a).casefold() == answer.casefold()
    ]
    playable = [a for a in named if a in legal]
    if len(playable) == 1:
        return playable[0]
    if playable:
        raise NotAMove(f"{answer!r} names several legal moves ({playable}); give its id")
    if named:
        raise NotAMove(f"{answer!r} is not a legal move now")
    raise NotAMove(f"The last line, {answer[:80]!r}, is neither a move id nor a move's name")


def completion_text(response) -> str | None:
    """The text of a chat completion's first choice (None for a reply without text), or
    :class:`FailedRequest` if the endpoint answered something else."""
    if isinstance(response, ChatCompletion):
        try:
            content = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError):
            pass
        else:
            if content is None or isinstance(content, str):
                return content
    raise FailedRequest(f"the endpoint's answer is not a chat completion: {str(response)[:80]!r}")


def request_failure(error: Exception, timeout: float) -> str:
    """What was wrong with a request, in a few words."""
    if isinstance(error, openai.APITimeoutError):
        return f"no answer within {timeout:g} s"
    if isinstance(error, openai.APIConnectionError):
        cause = error.__cause__
        return f"could not reach the endpoint ({cause or error})"
    if isinstance(error, openai.APIStatusError):
        return f"the endpoint answered with an error: {error}"[:200]
    return f"{type(error).__name__}: {error}"[:200]


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class LLMAgent:
    """A seat played by a language model; see the module's docstring."""

    def __init__(
        self,
        game_name,
        seed=None,
        model=None,
        base_url=None,
        timeout=DEFAULT_TIMEOUT,
        budget=DEFAULT_BUDGET,
        retries=DEFAULT_RETRIES,
        max_failures=DEFAULT_MAX_FAILURES,
        temperature=None,
    ):
        base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        if not model or not base_url:
            raise ValueError(
                "agent 'llm' needs model=NAME and an endpoint, base_url=URL or the environment's "
                "OPENAI_BASE_URL (e.g. llm:model=NAME,base_url=http://127.0.0.1:8000/v1); "
                "nothing is sent until both are given"
            )
        for name, value in (("timeout", timeout), ("budget", budget)):
            if not is_number(value) or not value > 0:
                raise ValueError(f"agent 'llm': {name} must be a positive number, got {value!r}")
        for name, value, least in (("retries", retries, 0), ("max_failures", max_failures, 1)):
            if not is_number(value) or value != int(value) or value < least:
                raise ValueError(
                    f"agent 'llm': {name} must be a whole number, at least {least}; got {value!r}"
                )
        self.game = heist_envs.get_game(game_name)
        self.model = model
        self.base_url = base_url
        self.timeout = float(timeout)
        self.budget = float(budget)
        self.retries = int(retries)
        self.max_failures = int(max_failures)
        self.temperature = temperature
        self.client = openai.OpenAI(
            base_url=base_url, api_key=os.environ.get("OPENAI_API_KEY") or NO_KEY, max_retries=0
        )
        self.fallback = RandomAgent(seed)
        self.instructions = INSTRUCTIONS.format(
            title=self.game.title, rules=rules_summary(self.game)
        )
        self.failures_in_a_row = 0
        self.stopped = False
        self.counts = dict.fromkeys(COUNTS, 0)
        self.request_seconds = 0.0

    def stats(self) -> dict:
        """What this agent did so far: ``decisions``, ``requests`` sent, ``retries`` (the
        re-asks after a reply that named no legal move), ``fallbacks`` (decisions the
        fallback played), ``failures`` (requests that got no chat completion),
        ``prompt_tokens`` and ``completion_tokens`` (as the endpoint's ``usage`` reports
        them; 0 where it reports none), ``request_seconds`` (the wall time spent waiting
        for answers: their latency, summed) and ``stopped`` (whether it has stopped
        asking)."""
        return {**self.counts, "request_seconds": self.request_seconds, "stopped": self.stopped}

    def act(self, observation, action_mask) -> int:
        self.counts["decisions"] += 1
        legal = [a for a, _ in legal_moves(self.game, action_mask)]
        messages = [
            {"role": "system", "content": self.instructions},
            {"role": "user", "content": decision_text(self.game, observation, action_mask)},
        ]
        for attempt in range(self.retries + 1):
            if self.stopped:
                return self.play_fallback(action_mask, None)
            try:
                reply = self.ask(messages)
                return read_move(self.game, reply, legal)
            except FailedRequest as failure:
                return self.play_fallback(action_mask, str(failure))
            except NotAMove as problem:
                if attempt == self.retries:
                    why = f"{problem} ({attempt + 1} replies named no legal move)"
                    return self.play_fallback(action_mask, why)
                self.counts["retries"] += 1
                messages += [
                    {"role": "assistant", "content": reply or ""},
                    {"role": "user", "content": ASK_AGAIN.format(problem=problem)},
                ]
            finally:
                self.check_limits()

    def ask(self, messages) -> str | None:
        """The model's reply to ``messages``, or :class:`FailedRequest`; counts the request,
        its tokens and its latency."""
        left = self.budget - self.request_seconds
        timeout = min(self.timeout, left)
        options = {} if self.temperature is None else {"temperature": self.temperature}
        self.counts["requests"] += 1
        started = time.perf_counter()
        try:
            response = self.client.chat.completions.create(
                model=self.model, messages=messages, timeout=timeout, **options
            )
            text, failure = completion_text(response), None
        except openai.OpenAIError as error:
            failure = FailedRequest(request_failure(error, timeout))
        except FailedRequest as error:
            failure = error
        self.request_seconds += time.perf_counter() - started
        if failure is not None:
            self.counts["failures"] += 1
            self.failures_in_a_row += 1
            raise failure
        self.failures_in_a_row = 0
        usage = getattr(response, "usage", None)
        self.counts["prompt_tokens"] += getattr(usage, "prompt_tokens", None) or 0
        self.counts["completion_tokens"] += getattr(usage, "completion_tokens", None) or 0
        return text

    def check_limits(self):
        """Stop asking, in one line, once ``max_failures`` requests in a row have failed or
        the agent has waited ``budget`` seconds for answers."""
        if self.stopped:
            return
        if self.failures_in_a_row >= self.max_failures:
            why = f"{self.failures_in_a_row} requests in a row failed"
        elif self.request_seconds >= self.budget:
            why = f"it has waited {self.request_seconds:.0f} s for answers, its budget"
        else:
            return
        self.stopped = True
        log.warning(
            f"llm {self.model} at {self.base_url}: {why}; it plays the fallback (a random "
            "legal move) from now on"
        )

    def play_fallback(self, action_mask, why: str | None) -> int:
        """The fallback's move; ``why`` (None once the agent has stopped asking) is written
        as one line with it."""
        self.counts["fallbacks"] += 1
        action = self.fallback.act(None, action_mask)
        if why is not None:
            log.warning(
                f"llm {self.model} at {self.base_url}, {self.game.name} decision "
                f"{self.counts['decisions']}: {why}; played the fallback {action} "
                f"({self.game.action_name(action)})"
            )
        return action
