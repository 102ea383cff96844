"""The agent-gate `gate init`'s workflow installs: the build that ran it, by a reference CI can use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.requirements import Requirement

from gate.cli.app import main
from gate.commands import init_workflow
from gate.commands.init_workflow import PLACEHOLDER, Pin, pin_from, requirements

SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(("direct_url", "requirement"), [
    (None, "agent-gate==0.1.0"),
    ({"url": "https://github.com/acme/agent-gate", "vcs_info": {"vcs": "git", "commit_id": SHA,
                                                              "requested_revision": "v0.1.0"}},
     f"agent-gate @ git+https://github.com/acme/agent-gate@{SHA}"),
    ({"url": "ssh://git@github.com/acme/agent-gate.git", "vcs_info": {"vcs": "git", "commit_id": SHA}},
     f"agent-gate @ git+ssh://git@github.com/acme/agent-gate.git@{SHA}"),
    ({"url": "https://github.com/acme/agent-gate/archive/v0.1.0.zip", "archive_info": {"hashes": {"sha256": "f" * 64}}},
     f"agent-gate @ https://github.com/acme/agent-gate/archive/v0.1.0.zip#sha256={'f' * 64}"),
], ids=["index", "git-https", "git-ssh", "archive"])
def test_an_installable_build_is_pinned_as_it_was_installed(direct_url: dict[str, object] | None,
                                                             requirement: str) -> None:
    pin = pin_from("0.1.0", None if direct_url is None else json.dumps(direct_url))
    assert pin.installable and pin.requirement == requirement
    assert Requirement(pin.requirement).name == "agent-gate"
    assert f"\n{requirement}\n" in requirements(pin)


@pytest.mark.parametrize("direct_url", [
    {"url": "file:///home/me/agent-gate", "dir_info": {"editable": True}},
    {"url": "file:///home/me/agent-gate", "vcs_info": {"vcs": "git", "commit_id": SHA}},
    {"url": "file:///home/me/dist/agent_gate-0.1.0-py3-none-any.whl", "archive_info": {}},
    {"url": "https://github.com/acme/agent-gate", "vcs_info": {"vcs": "git", "commit_id": "main"}},
    "not json",
], ids=["editable", "local-git", "local-wheel", "no-commit", "unreadable"])
def test_a_build_ci_cannot_install_gets_the_placeholder_and_says_so(direct_url: object) -> None:
    pin = pin_from("0.1.0", direct_url if isinstance(direct_url, str) else json.dumps(direct_url))
    assert not pin.installable and pin.requirement == PLACEHOLDER
    text = requirements(pin)
    assert "agent-gate 0.1.0 ran `gate init` from a local directory, which CI cannot install" in text
    assert "/home/me" not in text  # a path of the machine that ran it is not committed


def _init(tmp_path: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["init", "--dir", str(tmp_path)], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_gate_init_warns_when_the_workflow_names_the_placeholder(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(init_workflow, "installed_pin", lambda: pin_from("0.1.0", '{"url": "file:///x", "dir_info": {}}'))
    code, _, err = _init(tmp_path)
    assert code == 0
    assert err == ("gate: warning: this agent-gate 0.1.0 runs from a local directory, which CI cannot install: put "
                   "the repository and full commit SHA of this version in requirements-gate.txt (see \"Pinning "
                   "agent-gate\" in docs/github-actions.md)\n")


def test_gate_init_pins_the_build_it_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pin = Pin(f"agent-gate @ git+https://github.com/acme/agent-gate@{SHA}", "0.1.0", "https://github.com/acme/agent-gate",
              True)
    monkeypatch.setattr(init_workflow, "installed_pin", lambda: pin)
    code, _, err = _init(tmp_path)
    assert code == 0 and err == ""
    lines = (tmp_path / "requirements-gate.txt").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if not line.startswith("#")] == [pin.requirement]
    assert "# agent-gate 0.1.0 as `gate init` was installed, from https://github.com/acme/agent-gate." in lines


def test_the_running_build_is_read_from_its_metadata() -> None:
    from importlib import metadata

    import gate

    pin = init_workflow.installed_pin()
    assert pin.version == gate.__version__ == metadata.version("agent-gate")
