"""Checkpoints: loaded without unpickling, refused for another game or player count wherever
they are loaded, and bad files reported in one clear line."""

import json
import os
import shutil
import zipfile

import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from agents import ppo  # noqa: E402
from agents.arena import tournament  # noqa: E402
from experiments.cli import main  # noqa: E402
from experiments.train import evaluate  # noqa: E402
from heist_envs.core.errors import GameRecordError  # noqa: E402

SHIPPED = ppo.POLICY_DIR / "art_robbery.zip"


class Payload:
    """Pickles as a call that creates a marker file: loading it must not run it."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.makedirs, (self.marker,))


def copy_shipped(tmp_path, **changes):
    path = tmp_path / "policy.zip"
    shutil.copy(SHIPPED, path)
    info = json.loads(SHIPPED.with_suffix(".json").read_text()) | changes
    info.pop("weights_sha256", None)  # these tests write other weights into the copy
    path.with_suffix(".json").write_text(json.dumps(info))
    return path


def cli(argv, capsys):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    return exit.value.code, capsys.readouterr().err


def test_a_malicious_policy_file_is_not_unpickled(tmp_path):
    path = copy_shipped(tmp_path)
    torch.save({"state_dict": Payload(tmp_path / "ran")}, path)
    with pytest.raises(GameRecordError, match="pickled Python objects"):
        ppo.PPOAgent(path, "art_robbery")
    assert not (tmp_path / "ran").exists()


def test_a_malicious_model_zip_is_not_unpickled(tmp_path):
    path = copy_shipped(tmp_path, policy_only=False)
    torch.save({"x": Payload(tmp_path / "ran")}, tmp_path / "policy.pth")
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(tmp_path / "policy.pth", "policy.pth")
        archive.writestr("data", json.dumps({"policy_class": {":serialized:": "gARLAS4="}}))
    with pytest.raises(GameRecordError, match="pickled Python objects"):
        ppo.PPOAgent(path, "art_robbery")
    assert not (tmp_path / "ran").exists()


def test_missing_and_truncated_checkpoints_say_so(tmp_path):
    with pytest.raises(GameRecordError, match=r"checkpoint .*nothing\.zip not found"):
        ppo.PPOAgent(tmp_path / "nothing.zip", "art_robbery")
    path = copy_shipped(tmp_path)
    path.write_bytes(SHIPPED.read_bytes()[: SHIPPED.stat().st_size // 2])
    with pytest.raises(GameRecordError, match="truncated or not a checkpoint"):
        ppo.PPOAgent(path, "art_robbery")
    path.with_suffix(".json").unlink()
    with pytest.raises(GameRecordError, match="no metadata file policy.json"):
        ppo.PPOAgent(path, "art_robbery")


def test_a_policy_is_refused_at_another_player_count_in_the_arena_and_play(capsys):
    with pytest.raises(ValueError, match="trained for art_robbery with 4 players, not"):
        tournament("art_robbery", ["ppo", "random"], games=2, num_players=5, workers=1)
    status, err = cli(["play", "art_robbery", "--players", "5", "--against", "ppo"], capsys)
    assert status == 2 and err.count("\n") == 1
    assert "trained for art_robbery with 4 players, not art_robbery with 5" in err
    status, err = cli(["watch", "art_robbery", "--players", "5", "--agents", "ppo"], capsys)
    assert status == 2 and "with 4 players" in err


def test_evaluate_refuses_another_count_in_one_line(capsys):
    with pytest.raises(SystemExit) as exit:
        evaluate.main([str(SHIPPED), "--game", "art_robbery", "--players", "3", "--games", "2"])
    assert (
        exit.value.code == 2 and "with 4 players, not art_robbery with 3" in capsys.readouterr().err
    )


def test_a_count_general_policy_plays_any_count_it_was_trained_for(tmp_path):
    path = copy_shipped(tmp_path, num_players=[3, 4])
    assert ppo.PPOAgent(path, "art_robbery", num_players=3).num_players == 3
    with pytest.raises(GameRecordError, match="with 3 or 4 players, not art_robbery with 5"):
        ppo.PPOAgent(path, "art_robbery", num_players=5)
    result = tournament(
        "art_robbery",
        [f"ppo:path='{path}'", "random"],
        games=2,
        num_players=3,
        workers=1,
        progress=False,
    )
    assert len(result.games) == 6  # rounded up to whole seat rotations


def test_a_missing_extra_is_one_line(monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "agents.ppo", None)
    status, err = cli(["play", "art_robbery", "--against", "ppo"], capsys)
    assert status == 2 and "needs the 'train' extra" in err and "Traceback" not in err


BAD_METADATA = [
    ({"activation": 5}, "'activation' must be one of tanh, relu, elu, gelu, silu; got 5"),
    ({"num_players": "4"}, "'num_players' must be a player count 2 to 5"),
    ({"num_players": [3, True]}, "'num_players' must be a player count 2 to 5"),
    ({"num_players": []}, "'num_players' must be a player count 2 to 5"),
    ({"game": ["art_robbery"]}, "'game' must be one of art_robbery, how_to_rob_a_bank"),
    ({"policy_only": "yes"}, "'policy_only' must be true or false; got 'yes'"),
]


@pytest.mark.parametrize("changes, message", BAD_METADATA)
def test_bad_metadata_is_refused_alike_by_every_loader(tmp_path, changes, message, capsys):
    """Issue 29 item 2: ``"activation": 5`` raised AttributeError, and ``"num_players": "4"``
    was refused by PPOAgent only; export_policy and heist train --init took it."""
    from experiments.train import sb3 as train

    path = copy_shipped(tmp_path, **changes)
    with pytest.raises(GameRecordError, match=f"policy.json: {message}"):
        ppo.PPOAgent(path, "art_robbery")
    with pytest.raises(GameRecordError, match=f"policy.json: {message}"):
        ppo.export_policy(path, tmp_path / "exported.zip")
    with pytest.raises(SystemExit):
        train.parse_args(["--game", "art_robbery", "--init", str(path)])
    err = capsys.readouterr().err
    assert message in err.replace("\n", " ") and "Traceback" not in err


def test_random_bytes_are_reported_as_not_a_checkpoint(tmp_path):
    """Issue 29 item 2: 5,000 random bytes were said to hold pickled Python objects."""
    import numpy as np

    for policy_only in (True, False):
        path = copy_shipped(tmp_path, policy_only=policy_only)
        path.write_bytes(np.random.default_rng(0).bytes(5000))
        with pytest.raises(GameRecordError, match="is not a checkpoint file") as error:
            ppo.PPOAgent(path, "art_robbery")
        assert "pickled" not in str(error.value)
