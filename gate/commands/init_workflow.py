"""The pull-request workflow `gate init` writes, and the requirements file it installs from.

The workflow installs agent-gate with pip from ``requirements-gate.txt`` — pinned to the build that
ran `gate init` — and runs the same steps as the packaged action, so it works as written without a
placeholder action reference: the file is also the key of setup-python's pip cache. Each adapter's
workflow starts what its agent needs (the http agent's service, with a readiness wait).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import metadata
from typing import Any

REQUIREMENTS = "requirements-gate.txt"
PLACEHOLDER = "agent-gate @ git+https://github.com/OWNER/agent-gate@FULL_COMMIT_SHA"
_COMMIT = re.compile(r"[0-9a-f]{40}")


@dataclass(frozen=True)
class Pin:
    """The requirement that installs one agent-gate build, and where that build came from."""

    requirement: str
    version: str
    source: str
    installable: bool
    """False when the build came from a local directory, which no CI runner can install from."""


def pin_from(version: str, direct_url: str | None) -> Pin:
    """The pin of the build whose PEP 610 ``direct_url.json`` is ``direct_url`` (None: it came
    from a package index, where a released version's files never change)."""
    if direct_url is None:
        return Pin(f"agent-gate=={version}", version, "the package index", True)
    try:
        origin: Any = json.loads(direct_url)
    except ValueError:
        origin = {}
    url = origin.get("url") if isinstance(origin, dict) else None
    if isinstance(url, str) and url.startswith(("https://", "ssh://")):
        vcs = origin.get("vcs_info")
        if isinstance(vcs, dict) and vcs.get("vcs") == "git" and _COMMIT.fullmatch(str(vcs.get("commit_id", ""))):
            return Pin(f"agent-gate @ git+{url}@{vcs['commit_id']}", version, url, True)
        archive = origin.get("archive_info")
        if isinstance(archive, dict) and url.startswith("https://"):
            hashes = archive.get("hashes")
            digest = f"sha256={hashes['sha256']}" if isinstance(hashes, dict) and "sha256" in hashes else None
            return Pin(f"agent-gate @ {url}" + (f"#{digest}" if digest else ""), version, url, True)
    return Pin(PLACEHOLDER, version, "a local directory", False)


def installed_pin() -> Pin:
    """The pin of the agent-gate running now."""
    from gate import __version__

    try:
        found = metadata.distribution("agent-gate")
    except metadata.PackageNotFoundError:
        return pin_from(__version__, "{}")  # run from a source tree, not installed
    return pin_from(found.version, found.read_text("direct_url.json"))


def requirements(pin: Pin) -> str:
    """requirements-gate.txt: what the workflow installs, and the key of its pip cache."""
    if pin.installable:
        said = f"# agent-gate {pin.version} as `gate init` was installed, from {pin.source}.\n"
    else:
        said = (f"# agent-gate {pin.version} ran `gate init` from {pin.source}, which CI cannot install:\n"
                "# replace OWNER and FULL_COMMIT_SHA with the repository and the full commit SHA of this version.\n")
    return (f"# What .github/workflows/agent-gate.yml installs, and the key of its pip cache.\n{said}"
            "# To upgrade, see \"Pinning agent-gate\" in agent-gate's docs/github-actions.md.\n"
            f"{pin.requirement}\n"
            "# Add what your agent needs to run in the job (the python adapter imports it into the gate).\n")


_CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"
_SETUP_PYTHON = "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065 # v5.6.0"
_UPLOAD = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2"

HTTP_PORT = 8765
"""Where the starter agent service listens: agent_server.py, gate.yaml's url and the readiness wait."""

_START_HTTP = f"""\
      - name: Start the agent service
        run: |
          python agent_server.py > agent_server.log 2>&1 &
          pid=$!
          for _ in $(seq 1 30); do  # ready once its port takes a connection: 30 s at most
            if (exec 3<>/dev/tcp/127.0.0.1/{HTTP_PORT}) 2>/dev/null; then exit 0; fi
            if ! kill -0 "$pid" 2>/dev/null; then break; fi  # it exited: waiting is no use
            sleep 1
          done
          echo "::error title=agent-gate::the agent service is not listening on 127.0.0.1:{HTTP_PORT}; agent_server.log:"
          cat agent_server.log
          exit 1
"""

_WORKFLOW = """\
# Written by `gate init`: the golden cases on every pull request, the gate's verdict as the check.
name: agent-gate
on:
  pull_request:
permissions: {{}}
concurrency:  # a new push to a pull request cancels the run it supersedes
  group: ${{{{ github.workflow }}}}-${{{{ github.event.pull_request.number }}}}
  cancel-in-progress: true
defaults:
  run:
    shell: bash
jobs:
  gate:
    name: agent-gate
    runs-on: ubuntu-latest
    timeout-minutes: 30
    permissions:
      contents: read
      pull-requests: write  # the sticky comment; a fork's pull request gets a read-only token and no comment
    steps:
      - uses: {checkout}
        with:
          persist-credentials: false
          fetch-depth: 0  # the gate reads the base branch's bar and baseline
      - uses: {setup_python}
        with:
          python-version: "3.12"
          cache: pip
          cache-dependency-path: {requirements}
      - name: Install agent-gate
        run: python -m pip install --disable-pip-version-check -r {requirements}
{start}      - name: Run the gate
        id: gate
{env}        run: |
          code=0
          gate check || code=$?
          echo "exit-code=$code" >> "$GITHUB_OUTPUT"
      - name: Annotate the failing cases
        env:
          GATE_EXIT_CODE: ${{{{ steps.gate.outputs.exit-code }}}}
        run: python -m gate.github.action --exit-code "${{GATE_EXIT_CODE:-3}}" --config gate.yaml
      - name: Post the PR comment
        env:
          GITHUB_TOKEN: ${{{{ github.token }}}}
        run: gate comment
      - uses: {upload}
        if: always()
        with:
          name: gate-results
          path: {upload_paths}
      - name: Fail when the gate failed
        env:
          GATE_EXIT_CODE: ${{{{ steps.gate.outputs.exit-code }}}}
        run: |
          code="${{GATE_EXIT_CODE:-3}}"
          if [ "$code" != 0 ]; then
            echo "::error title=agent-gate::gate check exited $code (1: the gate failed, 2: unusable input, 3: internal error, 4: the agent is unavailable)"
            exit "$code"
          fi
"""

_STARTS = {"http": _START_HTTP}
_ACKNOWLEDGE = ("          # a maintainer's label acknowledges a deliberate lowering of the base's bar\n"
                "          GATE_ACCEPT_LOWERED_BAR: ${{ contains(github.event.pull_request.labels.*.name, "
                "'gate-lower-the-bar') }}\n")
_ENVS = {"openai": "        env:\n" + _ACKNOWLEDGE + "          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}  # the key reaches "
                   "this step only\n"}
_UPLOADS = {"http": "|\n            gate-results/\n            agent_server.log"}


def workflow(adapter: str) -> str:
    """.github/workflows/agent-gate.yml for ``adapter``."""
    return _WORKFLOW.format(checkout=_CHECKOUT, setup_python=_SETUP_PYTHON, upload=_UPLOAD, requirements=REQUIREMENTS,
                            start=_STARTS.get(adapter, ""), env=_ENVS.get(adapter, "        env:\n" + _ACKNOWLEDGE),
                            upload_paths=_UPLOADS.get(adapter, "gate-results/"))
