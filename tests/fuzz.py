"""Fuzzing the public API with tampered input, each batch of cases in its own process.

A case is a JSON dict (``kind``: ``state``, ``malformed``, ``record``, ``options`` or
``vector``) that says how to build one input from a real game and how to spoil it. The worker
(``python -m tests.fuzz``, cases on stdin, one JSON outcome per line on stdout) runs each
case: the input must be rejected with a ValueError, or be accepted and then play to the end
with random legal moves, the same way twice. A crash (a signal) or a hang kills the worker,
not the test run: :func:`run_cases` reports it, then finds the case that did it.

``python -m tests.fuzz measure --cases 807`` tampers that many state dicts (one value each,
within its dtype) and counts the outcomes.
"""

import argparse
import collections
import json
import subprocess
import sys

import numpy as np

MAX_STEPS = 20_000
#: How each allowed outcome of a case is named in the worker's answers.
ALLOWED = ("rejected", "played")


# The worker --------------------------------------------------------------------------------


def base_env(case):
    """An env of the case's game after ``moves`` random legal moves from ``seed``."""
    import heist_envs

    env = heist_envs.make(case["game"], num_players=case["players"])
    env.reset(seed=case["seed"])
    rng = np.random.default_rng(case["seed"])
    for _ in range(case["moves"]):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env


def tampered_value(dtype, current, mode, number):
    """A new value of ``dtype`` for one element: near ``current``, a bound, or any."""
    info = np.iinfo(dtype)
    if mode == "delta":
        return int(np.clip(current + number, info.min, info.max))
    if mode == "bound":
        return [info.min, info.max, -1, 0, 1][number % 5]
    return info.min + number % (int(info.max) - int(info.min) + 1)


def tampered_state(case):
    """(env, state dict) with one element of one field changed as the case says."""
    env = base_env(case)
    data = env.state_dict()
    fields = data["fields"]
    name = sorted(fields)[case["field"] % len(fields)]
    dtype = env.game.state_dtype.fields[name][0].base
    values = np.array(fields[name], dtype=object)
    flat = values.reshape(-1) if values.ndim else values.reshape(1)
    i = case["index"] % flat.size
    flat[i] = tampered_value(dtype, int(flat[i]), case["mode"], case["number"])
    fields[name] = flat.reshape(values.shape).tolist() if values.ndim else int(flat[0])
    return env, data


def malformed_state(case):
    """(env, state dict) spoiled in its structure: a field missing, of another shape or
    type, a wrong version or game, deep nesting."""
    env = base_env(case)
    data = env.state_dict()
    fields = data["fields"]
    name = sorted(fields)[case["field"] % len(fields)]
    how = case["how"]
    junk = {
        "missing": None,
        "float": 1.5,
        "string": "3",
        "bool": True,
        "nested": [[[[0]]]],
        "deep": nested(case["number"] % 5000 + 1),
        "huge": 10**30,
        "list": [fields[name]] * 2,
    }
    if how == "missing":
        del fields[name]
    elif how in junk:
        fields[name] = junk[how]
    elif how == "version":
        data["version"] = case["number"] % 5
    elif how == "game":
        data["game"] = ["art_robbery_v0"]
    elif how == "not_a_dict":
        data = [data]
    return env, data


def nested(depth):
    value = 0
    for _ in range(depth):
        value = [value]
    return value


def play_out(env, seed):
    """Play random legal moves to the end; the final record's bytes."""
    rng = np.random.default_rng(seed)
    for _ in range(MAX_STEPS):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.game.check_state(env.state_record)
            return env.state_record.tobytes()
        env.step(int(rng.choice(env.legal_actions())))
    raise AssertionError(f"no end after {MAX_STEPS} moves")


def run_loaded(env, data, seed):
    """Load ``data`` into ``env``: 'rejected' (ValueError, env unchanged) or 'played' (the
    game plays to its end, the same way from a second load)."""
    import heist_envs

    before = env.state_record.tobytes()
    try:
        env.load_state(data)
    except ValueError:
        if env.state_record.tobytes() != before:
            return "rejected, but the env changed"
        return "rejected"
    other = heist_envs.make(env.game.name, num_players=env.num_players)
    other.reset(seed=0)
    other.load_state(data)
    if play_out(env, seed) != play_out(other, seed):
        return "played differently from two loads"
    return "played"


def run_record(case):
    """A game record spoiled as the case says: rejected, or it replays and plays on."""
    from heist_envs.core.record import GameRecord

    env = base_env(case)
    data = json.loads(env.game_record().to_json())
    how, number = case["how"], case["number"]
    if how == "action" and data["actions"]:
        data["actions"][number % len(data["actions"])] = number - (1 << 40)
    elif how == "action_type" and data["actions"]:
        data["actions"][0] = ["1", 1.0, None, True][number % 4]
    elif how in ("game", "num_players", "seed", "options", "version"):
        data[how] = [None, ["x"], "1", 1.5, {}, 10**40, -1][number % 7]
    elif how == "deep":
        data["options"] = {"x": "DEEP"}
    depth = number % 100_000 + 1
    text = json.dumps(data).replace('"DEEP"', "[" * depth + "]" * depth)
    if how == "deep_text":
        text = "[" * depth
    try:
        env = GameRecord.from_json(text).replay()
    except ValueError:
        return "rejected"
    play_out(env, case["seed"])
    return "played"


def run_options(case):
    """A game set up with the case's option values: rejected, or a game that plays out."""
    import heist_envs

    try:
        env = heist_envs.make(case["game"], num_players=case["players"])
        env.reset(seed=case["seed"], options=case["options"])
    except ValueError:
        return "rejected"
    play_out(env, case["seed"])
    env.game_record().to_json()
    return "played"


def run_vector(case):
    """The batched engine with the case's arguments: rejected, or a few steps run."""
    import heist_envs
    from heist_envs.core.vector import VectorGames

    game = heist_envs.get_game(case["game"])
    try:
        games = VectorGames(game, case["num_envs"], case["players"])
    except ValueError:
        return "rejected"
    actors, obs, masks = games.reset(case["seed"])
    rng = np.random.default_rng(case["seed"])
    for _ in range(3):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        active = case["active"] if case["active"] is not None else None
        junk = case["actions"]
        try:
            games.step(junk if junk is not None else actions, active)
        except ValueError:
            return "rejected"
    return "played"


def run_case(case):
    kind = case["kind"]
    if kind in ("state", "malformed"):
        env, data = (tampered_state if kind == "state" else malformed_state)(case)
        return run_loaded(env, data, case["seed"])
    return {"record": run_record, "options": run_options, "vector": run_vector}[kind](case)


def worker():
    """Answer each case on stdin with one JSON line on stdout."""
    for line in sys.stdin:
        case = json.loads(line)
        try:
            outcome = run_case(case)
        except Exception as e:  # noqa: BLE001 - every other error is a finding
            outcome = f"{type(e).__name__}: {e}"[:300]
        print(json.dumps(outcome), flush=True)


# The driver --------------------------------------------------------------------------------


def run_batch(cases, timeout):
    """The worker's outcomes for ``cases``, or None for every case if it crashed or hung."""
    text = "".join(json.dumps(c) + "\n" for c in cases)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tests.fuzz", "worker"],
            input=text,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None, "hung"
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    if done.returncode != 0 or len(outcomes) != len(cases):
        return None, f"worker died (exit {done.returncode}): {done.stderr[-500:]}"
    return outcomes, ""


def run_cases(cases, timeout=120):
    """[(case, outcome)] for the cases; a batch that crashes or hangs is rerun case by case
    so the outcome names the case that did it."""
    outcomes, failure = run_batch(cases, timeout)
    if outcomes is not None:
        return list(zip(cases, outcomes, strict=True))
    results = []
    for case in cases:
        single, failure = run_batch([case], timeout)
        results.append((case, single[0] if single else failure))
    return results


def tampered_state_cases(count, seed):
    """``count`` cases that tamper a state dict (one value each, within its dtype), taking
    the registered games in turn."""
    import heist_envs

    rng = np.random.default_rng(seed)
    names = heist_envs.game_names()
    cases = []
    for k in range(count):
        game = heist_envs.get_game(names[k % len(names)])
        cases.append(
            {
                "kind": "state",
                "game": game.name,
                "players": int(rng.integers(game.min_players, game.max_players + 1)),
                "seed": int(rng.integers(1 << 31)),
                "moves": int(rng.integers(0, 80)),
                "field": int(rng.integers(1 << 20)),
                "index": int(rng.integers(1 << 20)),
                "mode": str(rng.choice(["delta", "bound", "any"])),
                "number": int(rng.choice([-2, -1, 1, 2, rng.integers(1 << 62)])),
            }
        )
    return cases


def measure(count, seed, batch):
    """Tamper ``count`` state dicts (one value each, within its dtype); tally the outcomes."""
    cases = tampered_state_cases(count, seed)
    tally = collections.Counter()
    for i in range(0, count, batch):
        for _, outcome in run_cases(cases[i : i + batch], timeout=600):
            tally[outcome if outcome in ALLOWED else "failed: " + outcome.split(":")[0]] += 1
    print(f"{count} tampered state dicts:", dict(tally.most_common()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["worker", "measure"])
    parser.add_argument("--cases", type=int, default=807)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()
    if args.mode == "worker":
        worker()
    else:
        measure(args.cases, args.seed, args.batch)


if __name__ == "__main__":
    main()
