"""Outside agents in processes of their own, which see a seat's information and nothing else.

An outside agent (a spec naming a file, a module or an installed package's agent:
:func:`agents.registry.is_outside`) plays a tournament seat through a :class:`SeatProcess`: a
process that the game's process spawns (it shares no memory with it) and tells, per game,
which agent to build, then sends each decision's observation and action mask; the agent's
code is loaded and run there alone. A search agent (``wants_info_set``) gets a
:class:`RemoteInfoSet`, whose worlds the game's process samples for it: ``Game.determinize``
re-deals what the seat cannot see and reseeds the generator, so the true state never leaves
the game's process. What comes back (the action, a sample request, an error) is JSON, never a
pickle that could run code in the game's process.

This is a wall between an agent and the game's objects, not a sandbox: the agent's process
runs as the same user, with what that user may do on the machine.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import multiprocessing
import signal
import sys
import threading
import time

import numpy as np

from .registry import AgentBuildError, error_text, make_agent

#: the longest reply (bytes) the game's process reads from an agent's process
MAX_REPLY = 1 << 16
#: what an agent's process may send: its start, a built agent (or its error), a sample
#: request, an action (or something that is not one, as text, or an error), and the agent's
#: ``stats()``
REPLIES = {
    *("ready", "built", "built_by", "refused", "error", "sample", "action", "not_an_action"),
    "stats",
}


class SeatFailure(Exception):
    """A seat played by a :class:`SeatProcess` lost its game: ``reason`` is one of the
    arena's forfeit reasons (``error``, ``timeout``, ``crash``) and ``detail`` says what
    happened."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail = reason, detail


@contextlib.contextmanager
def ctrl_c_ignored():
    """Ignore Ctrl-C while a child process is started: the ignored SIGINT is inherited, so a
    Ctrl-C at the terminal reaches only the process that started it, which stops its children
    itself (and none of them prints a traceback). Signals are set in the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def end_with_parent():
    """Where Linux offers it, have this process killed when the process that started it ends
    (so that an agent busy in a decision does not outlive a stopped game's process)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


PR_SET_PDEATHSIG = 1


class SeatProcess:
    """The game's side of an outside agent's process: build the agent, ask for its actions,
    sample worlds for it; the process starts when first needed and again after it ended."""

    def __init__(self):
        self.process = None
        self.conn = None
        self.info_set = None
        self.limit = None
        self.wants_info_set = True  # the game's process holds the InfoSet, for the samples

    def _start(self):
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve, args=(child,), daemon=True)
        with ctrl_c_ignored():
            self.process.start()
        child.close()
        self._reply(None, "starting the agent's process")  # its imports, before any limit

    def build(self, agent, game_name, seed, num_players, seat, time_limit=None, build_limit=None):
        """Build this seat's agent for one game: ``agent`` is (target, spec, parameters) as
        :func:`~agents.registry.make_agent` takes them. ``time_limit``: the most seconds one of
        its decisions may take, ``build_limit`` building it (past either, and
        :data:`STOP_GRACE` more, the process is stopped); None: no limit."""
        if self.process is None:
            self._start()
        self.limit = time_limit
        self.conn.send(("build", *agent, game_name, seed, num_players, seat))
        reply = self._reply(build_limit, "building the agent", STOP_GRACE)
        if "error" in reply:
            raise SeatFailure("error", f"building the agent: {reply['error']}")
        return self

    def check(self, agent, game_name, num_players):
        """Build the agent once (seed 0) to see that it can be: raises what building it here
        would (a ValueError, or an :class:`~agents.registry.AgentBuildError`)."""
        if self.process is None:
            self._start()
        self.conn.send(("build", *agent, game_name, 0, num_players, 0))
        reply = self._reply(None, "building the agent")
        if "built_by" in reply:
            raise AgentBuildError(*reply["built_by"])
        if "refused" in reply:
            raise ValueError(reply["refused"])
        if "error" in reply:
            raise ValueError(f"agent {agent[1]!r} cannot be built: {reply['error']}")

    def act(self, observation, action_mask, info_set):
        """The agent's action; samples from ``info_set`` (the game's own) while it decides."""
        self.info_set = info_set
        self.conn.send(("act", observation, action_mask))
        reply = self._reply(self.limit, "a decision", STOP_GRACE)
        if "error" in reply:
            raise SeatFailure("error", reply["error"])
        if "action" in reply:
            return reply["action"]
        return NotAnAction(reply["not_an_action"])

    def stats(self) -> dict | None:
        """The agent's own counts (its ``stats()``, numbers by name; None if it has none),
        asked after a game; None too if its process does not answer in time."""
        if self.process is None:
            return None
        self.conn.send(("stats",))
        try:
            reply = self._reply(self.limit, "its stats", STOP_GRACE)
        except SeatFailure:
            return None
        return numbers(reply.get("stats"))

    def _reply(self, limit, what, grace=0.0):
        """The next reply of the agent's process, serving its sample requests meanwhile;
        stops the process past ``limit`` + ``grace`` seconds (None: no limit)."""
        deadline = None if limit is None else time.monotonic() + limit + grace
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self.conn.poll(wait):
                self._lose("timeout", f"{what} ran past {limit:g} s and was stopped")
            try:
                reply = json.loads(self.conn.recv_bytes(MAX_REPLY))
            except (EOFError, OSError):
                code = self.stop()
                raise SeatFailure(
                    "crash", f"the agent's process ended (exit code {code})"
                ) from None
            except ValueError:
                self._lose("error", "the agent's process sent something that is not JSON")
            if not isinstance(reply, dict) or not REPLIES & set(reply):
                self._lose("error", f"the agent's process sent {reply!r:.80}, not a reply")
            if "sample" not in reply:
                return reply
            self.conn.send(self._sample(reply["sample"]))

    def _lose(self, reason, detail):
        self.stop()
        raise SeatFailure(reason, detail)

    def _sample(self, seed) -> tuple:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
            return ("refused", f"a sample's seed must be an integer in [0, 2**64), got {seed!r}")
        if self.info_set is None:
            return ("refused", "only a decision can ask for samples")
        return ("world", self.info_set.sample(seed))

    def stop(self) -> int | None:
        """Stop the process (if it runs); its exit code."""
        if self.process is None:
            return None
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        code = self.process.exitcode
        self.conn.close()
        self.process = self.conn = None
        return code


def numbers(stats) -> dict | None:
    """The numbers of an agent's ``stats()`` by name (a flag as 0 or 1); None for anything
    that is not a dict."""
    if not isinstance(stats, dict):
        return None
    return {
        str(name): float(value)
        for name, value in stats.items()
        if isinstance(value, (int, float, np.integer, np.floating)) and np.isfinite(value)
    }


class NotAnAction:
    """What an agent's process returned that is not an action id, as the agent's repr."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


#: seconds a decision may run past its time limit before its process is stopped (one that
#: returns within them loses its game all the same)
STOP_GRACE = 1.0


class SeatProcesses:
    """The seat processes of one game process, by (entrant label, the entrant's k-th seat of
    the game): each entrant's agents keep to processes of their own."""

    def __init__(self):
        self.processes: dict[tuple, SeatProcess] = {}

    def get(self, label, slot) -> SeatProcess:
        return self.processes.setdefault((label, slot), SeatProcess())

    def stop(self):
        for process in self.processes.values():
            process.stop()
        self.processes.clear()


#: the process that checks outside agents before a tournament (they are built in it, never
#: in the process that plans the games), and the ``sys.path`` it started with
_checker: tuple[SeatProcess, list] | None = None


def check(agent, game_name, num_players):
    """Raise what building an outside agent would (``agent``: target, spec, parameters),
    building it in a process of its own (started again where ``sys.path`` changed, as it
    finds modules and installed agents there)."""
    global _checker
    if _checker is None or _checker[1] != sys.path:
        if _checker is not None:
            _checker[0].stop()
        _checker = (SeatProcess(), list(sys.path))
    try:
        _checker[0].check(agent, game_name, num_players)
    except SeatFailure as failure:
        raise ValueError(f"agent {agent[1]!r} cannot be built: {failure.detail}") from None


# The agent's process ------------------------------------------------------------------------


class RemoteInfoSet:
    """A seat's information set, seen from the agent's process: worlds sampled by the game's
    process (:meth:`agents.base.InfoSet.sample`), so the true state never reaches this one.

    ``kernel_state()`` is such a world too: the compiled search code it is for determinizes
    every world it starts from before reading it, so a sample serves it as well."""

    def __init__(self, conn, game_name, seat, seed):
        self._conn = conn
        self._game_name = game_name
        self.seat = seat
        self._seed = seed or 0
        self._worlds = 0

    @property
    def game(self):
        import heist_envs

        return heist_envs.get_game(self._game_name)

    def sample(self, seed) -> np.recarray:
        """A 1-element state array: one world consistent with the seat's information."""
        _send(self._conn, {"sample": int(seed)})
        kind, world = self._conn.recv()
        if kind != "world":
            raise ValueError(world)
        return world

    def kernel_state(self):
        """A world sampled for this call, as the array view that compiled code takes."""
        self._worlds += 1
        seed = np.random.SeedSequence([self._seed, self._worlds]).generate_state(1, np.uint64)[0]
        return self.game.kernel_view(self.sample(int(seed)))


def _send(conn, message):
    conn.send_bytes(json.dumps(message).encode())


def _failed(error) -> str:
    return error_text(error)[:1000]


def _action(action) -> dict:
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return {"action": int(action)}
    return {"not_an_action": repr(action)[:100]}


def serve(conn):
    """An agent's process: build the agent the game's process names, answer its decisions."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the process that started it
    end_with_parent()
    agent = info_set = None
    with contextlib.suppress(EOFError, OSError):  # the game's process ended: so does this one
        _send(conn, {"ready": True})
        while True:
            message = conn.recv()
            if message[0] == "build":
                _, target, spec, kwargs, game_name, seed, num_players, seat = message
                agent = info_set = None
                try:
                    agent = make_agent(target, game_name, seed, num_players, spec=spec, **kwargs)
                except AgentBuildError as error:
                    reason = error.reason[:1000]
                    _send(conn, {"error": reason, "built_by": [spec, error.call[:1000], reason]})
                    continue
                except Exception as error:  # a ValueError: the spec's, saying what is wrong
                    refused = (
                        {"refused": str(error)[:1000]} if isinstance(error, ValueError) else {}
                    )
                    _send(conn, {"error": _failed(error), **refused})
                    continue
                if getattr(agent, "wants_info_set", False):
                    info_set = RemoteInfoSet(conn, game_name, seat, seed)
                _send(conn, {"built": True})
            elif message[0] == "stats":
                try:
                    stats = numbers(agent.stats()) if hasattr(agent, "stats") else None
                except Exception:  # its counts are no part of its games: none, then
                    stats = None
                _send(conn, {"stats": stats})
            else:
                _, observation, mask = message
                try:
                    if info_set is None:
                        action = agent.act(observation, mask)
                    else:
                        action = agent.act(observation, mask, info_set)
                except (Exception, SystemExit) as error:
                    _send(conn, {"error": _failed(error)})
                    continue
                _send(conn, _action(action))
