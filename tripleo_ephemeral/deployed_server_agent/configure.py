"""Configuring the agents of a stack's deployed servers, as one request.

:func:`configure` finds the stack's deployed servers on a running Heat
(an installed one, or one ``tripleo launch heat`` started; reached through
clouds.yaml), writes each one's ``os-collect-config.conf`` into the work
dir (``<work dir>/os-collect-config/<role>-<index>.conf``) and, when the
request names the servers' hosts, pushes it to them over SSH and restarts
the agent. A server that cannot be reached is a failure of its own: the
others are still configured, and the result lists both.
"""

import dataclasses
from typing import Mapping, Sequence

from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral.deployed_server_agent import conf
from tripleo_ephemeral.deployed_server_agent import push as push_mod
from tripleo_ephemeral.deployed_server_agent import servers as servers_mod
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_launcher import installed
from tripleo_ephemeral import process
from tripleo_ephemeral import workdir as workdir_mod


@dataclasses.dataclass(frozen=True)
class AgentConfigRequest:
    """What to configure: the stack of ``workdir`` on the Heat of
    ``cloud`` (None: ``OS_CLOUD``); ``role_hosts`` (role -> the addresses
    of its servers in index order; empty: write the files only)."""

    workdir: workdir_mod.WorkDir
    cloud: str | None = None
    polling_interval: int = conf.DEFAULT_POLLING_INTERVAL
    agent_command: str = conf.DEFAULT_AGENT_COMMAND
    role_hosts: Mapping[str, Sequence[str]] = dataclasses.field(
        default_factory=dict)
    ssh_user: str | None = None
    ssh_key: str | None = None
    config_path: str = push_mod.REMOTE_CONFIG
    restart_command: str | None = push_mod.DEFAULT_RESTART


@dataclasses.dataclass
class ConfiguredServer:
    """A deployed server, the URL its agent polls (and where that URL came
    from: ``source``), its file in the work dir, and the ``host`` it was
    pushed to (None: not asked to) with whether that succeeded."""

    role: str
    index: int
    hostname: str | None
    metadata_url: str
    source: str
    config_file: str
    host: str | None = None
    pushed: bool = False


@dataclasses.dataclass(frozen=True)
class AgentConfigResult:
    """Every server by role and index; one line per failed push, of the
    ``hosts`` the request named."""

    servers: list[ConfiguredServer]
    failures: list[str]
    hosts: int


def find_servers(request: AgentConfigRequest) -> list[servers_mod.Server]:
    """The stack's deployed servers and their URLs, from its Heat."""
    heat = installed.InstalledHeatLauncher(request.workdir.heat_dir,
                                           cloud=request.cloud)
    client = heat_client.make_client(heat.session())
    found = servers_mod.deployed_servers(client, request.workdir.stack)
    return servers_mod.resolve_urls(client, found, heat.endpoint)


def write(request: AgentConfigRequest,
          servers: Sequence[servers_mod.Server]) -> list[ConfiguredServer]:
    """Write each server's configuration file into the work dir."""
    workdir = request.workdir
    workdir.create()
    fileutil.ensure_private_dir(workdir.agent_config_dir)
    written = []
    for server in servers:
        path = workdir.agent_config_file(server.role, server.index)
        url = server.metadata_url or ''
        fileutil.write_atomic(path, conf.render_conf(
            url, request.polling_interval, request.agent_command))
        written.append(ConfiguredServer(
            server.role, server.index, server.hostname, url,
            server.source or '', path))
    return written


def push(request: AgentConfigRequest,
         written: Sequence[ConfiguredServer],
         runner: process.ProcessRunner | None = None) -> list[str]:
    """Push each written file to its host (the request's ``role_hosts``);
    return one line per server that was not configured."""
    failures = []
    for done, host in servers_mod.assign_hosts(written, request.role_hosts):
        done.host = host
        with open(done.config_file) as f:
            text = f.read()
        try:
            push_mod.push(host, text, user=request.ssh_user,
                          key=request.ssh_key,
                          known_hosts=request.workdir.agent_known_hosts,
                          remote_path=request.config_path,
                          restart=request.restart_command, runner=runner)
        except exceptions.AgentPushError as exc:
            failures.append(str(exc))
            continue
        done.pushed = True
    return failures


def configure(request: AgentConfigRequest) -> AgentConfigResult:
    """Write (and push, with ``role_hosts``) every server's agent
    configuration."""
    written = write(request, find_servers(request))
    failures = push(request, written) if request.role_hosts else []
    return AgentConfigResult(
        written, failures,
        sum(len(h) for h in request.role_hosts.values()))
