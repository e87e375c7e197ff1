"""The per-seat network (agents.network): its checkpoints, the ppo agent and the guided search."""

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

import heist_envs  # noqa: E402
from agents.arena import play  # noqa: E402
from agents.batch_search import BatchSearch, Leaves, RolloutEvaluator  # noqa: E402
from agents.network import (  # noqa: E402
    NetworkEvaluator,
    PolicyValueNet,
    load_network,
    save_network,
)
from agents.ppo import PPOAgent  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from heist_envs.core.errors import GameRecordError  # noqa: E402
from tests.agents.test_batch_search import decision_states  # noqa: E402


def seat_net(name, num_players, seed=0):
    game = heist_envs.get_game(name)
    torch.manual_seed(seed)
    return PolicyValueNet(
        game.obs_size, game.num_actions, (16,), "relu", value_seats=game.num_seats(num_players)
    ).eval()


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    path = tmp_path_factory.mktemp("net") / "net"
    return save_network(seat_net("art_robbery", 4), path, "art_robbery", 4)


def test_a_saved_network_loads_with_every_seats_value_and_plays_as_ppo(checkpoint):
    game = heist_envs.get_game("art_robbery")
    net = seat_net("art_robbery", 4)
    back, num_players = load_network(checkpoint, "art_robbery")
    states = decision_states("art_robbery", 4, 5)
    leaves = Leaves(game, states, np.ones((5, game.num_actions), np.int8), states["actor"], 4)
    obs, masks = torch.from_numpy(leaves.observations), torch.ones(5, game.num_actions).bool()
    for mine, theirs in zip(net(obs, masks), back(obs, masks), strict=True):
        torch.testing.assert_close(mine, theirs)
    assert num_players == 4 and back.value_seats == 4
    agent = PPOAgent(checkpoint, "art_robbery", num_players=4)  # the policy head alone
    for row, mask in zip(leaves.observations, leaves.masks, strict=True):
        assert agent.act(row, mask) == int(net.predict(row[None], mask[None])[0][0])


def test_the_evaluator_gives_the_policy_over_legal_moves_and_every_seats_value():
    game = heist_envs.get_game("thiefs_market")
    net = seat_net("thiefs_market", 3)
    states = decision_states("thiefs_market", 3, 6)
    masks = np.zeros((6, game.num_actions), np.int8)
    for i in range(6):
        game.entry.refresh(states[i : i + 1], masks[i])
    leaves = Leaves(game, states, masks, states["actor"].astype(np.int64), 3)
    priors, values = NetworkEvaluator(net)(leaves)
    assert priors.shape == (6, game.num_actions) and values.shape == (6, 3)
    np.testing.assert_allclose(priors.sum(1), 1, rtol=1e-5)
    assert (priors[masks == 0] == 0).all() and (priors[masks > 0] > 0).all()
    _, expected = net(torch.from_numpy(leaves.observations).float(), torch.from_numpy(masks).bool())
    np.testing.assert_allclose(values, expected.detach().numpy(), rtol=1e-5)
    rollouts = RolloutEvaluator(game)
    _, mixed = NetworkEvaluator(net, 1.0, rollouts)(leaves)
    assert np.isin(mixed, [-1.0, 1.0]).all()  # rollouts alone: games' returns


class DenseEvaluator:
    """The network's dense forward pass, as the evaluator computed it before its sparse first
    layer."""

    scores_finished = False

    def __init__(self, net):
        self.net = net

    def __call__(self, leaves):
        with torch.inference_mode():
            obs = torch.from_numpy(leaves.observations).float()
            logits, values = self.net(obs, torch.from_numpy(leaves.masks).bool())
            return torch.softmax(logits, -1).numpy(), values.numpy()


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_sparse_first_layer_gives_the_dense_networks_priors_values_and_searches(name):
    """Over real leaves of each game (observations of its own dtype), the priors and values
    of evaluate() are the dense forward pass's, and the guided search chooses the same moves
    with the same visits, seed for seed."""
    game = heist_envs.get_game(name)
    net = seat_net(name, 4)
    torch.nn.init.normal_(net.trunk[0].bias)  # the bias counts too
    states = decision_states(name, 4, 12)
    seen = []
    dense = DenseEvaluator(net)

    def recorded(leaves):
        seen.append(leaves)
        return dense(leaves)

    recorded.scores_finished = False
    expected = BatchSearch(game, recorded, 8, "gumbel", seed=3).search(states)
    assert any((leaves.observations != 0).mean() < 0.5 for leaves in seen)
    for leaves in seen:
        priors, values = net.evaluate(leaves.observations, leaves.masks)
        dense_priors, dense_values = dense(leaves)
        np.testing.assert_allclose(priors, dense_priors, rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(values, dense_values, rtol=1e-4, atol=1e-5)
    with torch.no_grad():  # a write in place, as an optimiser's step makes: seen too
        net.trunk[0].weight.mul_(-2)
    priors, values = net.evaluate(seen[0].observations, seen[0].masks)
    dense_priors, dense_values = dense(seen[0])
    np.testing.assert_allclose(priors, dense_priors, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(values, dense_values, rtol=1e-4, atol=1e-5)
    low = seat_net(name, 4)
    low.low_precision = True  # a bfloat16 trunk keeps its dense layers: forward's own results
    priors, values = low.evaluate(seen[0].observations, seen[0].masks)
    dense_priors, dense_values = DenseEvaluator(low)(seen[0])
    np.testing.assert_array_equal(priors, dense_priors)
    np.testing.assert_array_equal(values, dense_values)
    with torch.no_grad():
        net.trunk[0].weight.div_(-2)
    found = BatchSearch(game, NetworkEvaluator(net), 8, "gumbel", seed=3).search(states)
    np.testing.assert_array_equal(found.actions, expected.actions)
    np.testing.assert_array_equal(found.visits, expected.visits)
    np.testing.assert_allclose(found.improved, expected.improved, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("selection", ["puct", "gumbel"])
@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_guided_search_never_reads_what_the_searching_seat_cannot_see(name, selection):
    """The same decisions with everything the seat to move cannot see re-dealt give the same
    guided searches, row by row."""
    game = heist_envs.get_game(name)
    states = decision_states(name, 4, 5)
    redealt = states.copy()
    for i in range(len(redealt)):
        game.determinize(redealt[i], int(redealt[i]["actor"]), np.uint64(7 + i))
    assert redealt.tobytes() != states.tobytes()
    evaluator = NetworkEvaluator(seat_net(name, 4))
    results = [
        BatchSearch(game, evaluator, simulations=24, selection=selection, seed=2).search(s)
        for s in (states, redealt)
    ]
    for found, other in zip(*results, strict=True):
        np.testing.assert_array_equal(found, other)


def test_the_guided_search_agent_plays_legal_moves(checkpoint):
    agent = make_agent(
        "ismcts", "art_robbery", seed=0, num_players=4, network=str(checkpoint), simulations=16
    )
    assert agent.searcher.selection == "puct"
    others = [make_agent("random", "art_robbery", seed=s) for s in range(3)]
    result = play("art_robbery", [agent, *others], 4, seed=3)  # the env raises on illegal
    assert len(result.rewards) == 4


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"simulations": 0}, r"simulations must be 1 to 100,000 per search, got 0$"),
        ({"mix": 1.5}, r"mix must be a number from 0 to 1, got 1.5$"),
        ({"num_players": 3}, r"trained for art_robbery with 4 players, not art_robbery with 3$"),
    ],
)
def test_a_bad_guided_search_is_refused_in_one_line(checkpoint, settings, message):
    settings = {"num_players": 4, "network": str(checkpoint), **settings}
    with pytest.raises(ValueError, match=message) as error:
        make_agent("ismcts", "art_robbery", **settings)
    assert "\n" not in str(error.value)


def test_a_checkpoint_that_cannot_guide_is_refused_in_one_line(checkpoint, tmp_path):
    def refused(path, message, name="art_robbery"):
        with pytest.raises(GameRecordError, match=message) as error:
            load_network(path, name)
        assert "\n" not in str(error.value)

    refused(
        checkpoint, "trained for art_robbery with 4 players, not thiefs_market", "thiefs_market"
    )
    refused("agents/policies/art_robbery.zip", r"has 1 value\(s\) per decision; .* one per seat")
    tampered = tmp_path / "tampered.zip"
    data = bytearray(checkpoint.read_bytes())
    data[len(data) // 2] ^= 1
    tampered.write_bytes(bytes(data))
    info = json.loads(checkpoint.with_suffix(".json").read_text())
    tampered.with_suffix(".json").write_text(json.dumps(info))
    refused(tampered, "is not the file its metadata tampered.json was written for")
    with pytest.raises(GameRecordError, match="is not the file its metadata"):
        PPOAgent(tampered, "art_robbery")
    bank = save_network(seat_net("how_to_rob_a_bank", 4), tmp_path / "bank", "how_to_rob_a_bank", 4)
    info = json.loads(bank.with_suffix(".json").read_text())
    bank.with_suffix(".json").write_text(json.dumps({**info, "side": "bank"}))
    refused(bank, "plays the bank only; a search guide plays every seat", "how_to_rob_a_bank")
    other = save_network(seat_net("art_robbery", 3), tmp_path / "other", "art_robbery", 3)
    info = json.loads(other.with_suffix(".json").read_text())
    other.with_suffix(".json").write_text(json.dumps({**info, "value_seats": 4, "num_players": 4}))
    refused(other, r"its network reads 400 numbers and writes 20 moves and 3 values; .* 4")


def test_a_seed_draws_the_network_it_always_drew():
    """Every layer made first, then SB3's orthogonal initialisation, trunk then heads: the
    order the published learning curves' networks were drawn in (drawing each layer's weights
    as it was made changed every seeded run, and the learning-curve test with it)."""
    from torch import nn

    torch.manual_seed(7)
    net = PolicyValueNet(12, 5, (8, 6), "tanh")
    torch.manual_seed(7)
    trunk = [nn.Linear(12, 8), nn.Linear(8, 6)]
    heads = [(nn.Linear(6, 5), 0.01), (nn.Linear(6, 1), 1.0)]
    for layer, gain in [(layer, 2**0.5) for layer in trunk] + heads:
        nn.init.orthogonal_(layer.weight, gain)
    layers = [*net.trunk[::2], net.policy_head, net.value_head]
    expected = trunk + [head for head, _ in heads]
    assert all(
        torch.equal(ours.weight, theirs.weight)
        for ours, theirs in zip(layers, expected, strict=True)
    )
