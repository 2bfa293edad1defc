"""deploy/'s kit, without a proxy: every setting of ``zamek serve`` comes from the environment (``ZAMEK_*``), the
example environment file names only real settings and gives them, and systemd accepts the unit as shipped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from zamek.cli.web import serve_command

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def environment_file(path: Path) -> dict[str, str]:
    """The variables of a systemd environment file (``NAME=value`` lines; ``#`` comments)."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def served_with(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> dict[str, Any]:
    """What ``zamek serve`` (no option on its command line) would serve with, given only the environment."""
    seen: dict[str, Any] = {}

    def serve_workers(**given: Any) -> None:
        seen.update(given)

    monkeypatch.setattr("zamek.server.server.serve_workers", serve_workers)
    for name in [n for n in os.environ if n.startswith("ZAMEK_")]:
        monkeypatch.delenv(name)
    result = CliRunner().invoke(serve_command, [], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return seen


def test_every_option_of_zamek_serve_has_an_environment_variable_of_its_own() -> None:
    variables = {p.name: p.envvar for p in serve_command.params if isinstance(p, click.Option)}
    assert all(isinstance(v, str) and v.startswith("ZAMEK_") for v in variables.values()), variables
    assert len(set(variables.values())) == len(variables)


def test_zamek_serve_takes_each_setting_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = served_with(monkeypatch, {
        "ZAMEK_DB": "postgresql://zamek@db.example.org/zamek", "ZAMEK_WORKERS": "3", "ZAMEK_HOST": "127.0.0.2",
        "ZAMEK_PORT": "9001", "ZAMEK_COMPUTER_PROCESSES": "2", "ZAMEK_ALLOWED_HOSTS": "a.example.org b.example.org",
        "ZAMEK_FORWARDED_ALLOW_IPS": "10.0.0.5", "ZAMEK_COMPUTER_DELAY": "0.3", "ZAMEK_COMPUTER_LEASE": "40",
        "ZAMEK_METRICS_ALLOW_IPS": "10.0.0.0/8,::1", "ZAMEK_EXPIRE_UNJOINED_HOURS": "6",
        "ZAMEK_EXPIRE_IDLE_DAYS": "7",
    })
    assert seen == {
        "db_url": "postgresql://zamek@db.example.org/zamek", "workers": 3, "host": "127.0.0.2", "port": 9001,
        "computer_processes": 2, "allowed_hosts": ("a.example.org", "b.example.org"),
        "forwarded_allow_ips": "10.0.0.5", "computer_delay": 0.3, "computer_lease": 40.0,
        "metrics_allow_ips": ["10.0.0.0/8", "::1"], "expire_unjoined_hours": 6.0, "expire_idle_days": 7.0,
        "fairness": seen["fairness"], "header_timeout": 10.0, "body_timeout": 60.0, "max_connections": None,
    }


def test_the_example_environment_file_gives_real_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    example = environment_file(DEPLOY / "zamek.env.example")
    variables = {p.envvar for p in serve_command.params if isinstance(p, click.Option)}
    assert set(example) <= variables
    seen = served_with(monkeypatch, example)
    assert seen["db_url"] == example["ZAMEK_DB"] and seen["allowed_hosts"] == ("zamek.example.org",)


def test_a_wrong_metrics_address_is_told_at_the_start(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result = CliRunner().invoke(serve_command, [], env={
        "ZAMEK_DB": f"sqlite:///{tmp_path / 'games.sqlite3'}", "ZAMEK_WORKERS": "1",
        "ZAMEK_METRICS_ALLOW_IPS": "127.0.0.1,prometheus.local"})
    assert result.exit_code != 0
    assert "not an address or network: 'prometheus.local'" in result.output


def test_systemd_accepts_the_unit_and_it_takes_every_setting_from_the_environment_file(tmp_path: Path) -> None:
    unit = (DEPLOY / "zamek.service").read_text()
    assert "EnvironmentFile=/etc/zamek/zamek.env\n" in unit
    assert "ExecStart=/opt/zamek/.venv/bin/zamek serve\n" in unit  # no option: the environment file says all
    for setting in ("User=zamek", "Restart=on-failure", "LimitNOFILE=65536", "NoNewPrivileges=yes",
                    "ProtectSystem=strict"):
        assert f"\n{setting}\n" in unit
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is missing")
    installed = tmp_path / "zamek.service"
    installed.write_text(unit.replace("/opt/zamek/.venv/bin/zamek", str(Path(sys.executable).parent / "zamek")))
    checked = subprocess.run([analyze, "verify", str(installed)], capture_output=True, text=True)
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr
