"""The shipped supervisor files restart everything that dies, as docs/deploy.md says."""

from __future__ import annotations

import configparser

import pytest

from tests.support.processes import ROOT

UNITS = sorted((ROOT / "deploy" / "systemd").glob("*.service"))


def _unit(path):  # type: ignore[no-untyped-def]
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text())
    return parser


def test_there_is_a_unit_for_daphne_the_workers_and_beat():
    names = {path.name for path in UNITS}
    assert {"maubinh-daphne@.service", "maubinh-worker@.service", "maubinh-beat.service"} <= names


@pytest.mark.parametrize("path", UNITS, ids=lambda path: path.name)
def test_every_process_is_restarted_whenever_it_dies_without_a_start_limit(path):
    unit = _unit(path)
    assert unit["Service"]["Restart"] == "always"
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"


@pytest.mark.parametrize("path", UNITS, ids=lambda path: path.name)
def test_the_deployment_guide_names_every_unit(path):
    assert path.name in (ROOT / "docs" / "deploy.md").read_text()


def test_daphne_serves_the_listening_socket_systemd_holds_across_its_restarts():
    service = _unit(ROOT / "deploy" / "systemd" / "maubinh-daphne@.service")
    socket_unit = _unit(ROOT / "deploy" / "systemd" / "maubinh-daphne@.socket")
    assert socket_unit["Socket"]["ListenStream"] == "127.0.0.1:%i"
    assert socket_unit["Socket"]["Service"] == "maubinh-daphne@%i.service"
    assert "maubinh-daphne@%i.socket" in service["Unit"]["Requires"]
    assert " --fd 3 " in service["Service"]["ExecStart"]
    assert "maubinh-daphne@.socket" in (ROOT / "docs" / "deploy.md").read_text()
