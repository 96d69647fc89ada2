"""The stack's deployed servers and the URL each one's agent polls.

The deployed-server guide's "Configuring Deployed Servers to poll Heat":
each ``OS::Heat::DeployedServer`` resource's metadata names the URL its
agent polls (``os-collect-config.request.metadata_url``), and that URL goes
into ``/etc/os-collect-config.conf`` on the matching server.

A Heat without Swift (every ephemeral Heat, and ``POLL_SERVER_HEAT``
servers) puts no ``request`` URL in the metadata; the server's resource
metadata API URL on the Heat endpoint is used instead, which the request
collector can poll when that endpoint needs no token (the ephemeral Heat).
"""

import dataclasses
import logging
from typing import Any, Mapping, Protocol, Sequence, TypeVar

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import inventory as inventory_mod

LOG = logging.getLogger(__name__)

DEPLOYED_SERVER_TYPE = 'OS::Heat::DeployedServer'
#: Where the URL came from.
FROM_METADATA = 'resource metadata'
FROM_HEAT_API = 'heat api'


@dataclasses.dataclass
class Server:
    """One deployed server of the stack and what its agent polls."""

    role: str
    index: int
    hostname: str | None
    server_id: str
    stack_name: str | None
    stack_id: str | None
    resource_name: str
    metadata_url: str | None = None
    source: str | None = None


def _output(client: Any, stack: str, key: str) -> Any:
    try:
        value = client.stacks.output_show(stack, key)
    except Exception as exc:  # heatclient raises several HTTP types
        raise exceptions.StackOutputsError(
            'Stack %s has no usable output %s: %s' % (stack, key, exc))
    return ((value or {}).get('output') or {}).get('output_value') or {}


def _nested_stack(link_or_stack_name: str | None,
                  resource: Any) -> tuple[str | None, str | None]:
    """Return ``(name, id)`` of the stack holding ``resource``."""
    for link in getattr(resource, 'links', None) or []:
        if link.get('rel') == 'stack':
            parts = link['href'].rstrip('/').split('/')
            return parts[-2], parts[-1]
    return link_or_stack_name, None


def deployed_servers(client: Any, stack: str) -> list[Server]:
    """Return the :class:`Server` list of ``stack``, by role and index."""
    ids = _output(client, stack, 'ServerIdData').get('server_ids') or {}
    names = _output(client, stack, 'RoleNetHostnameMap')
    by_id: dict[str, tuple[str, int, str | None]] = {}
    for role, role_ids in ids.items():
        fqdns = ((names.get(role) or {}).get(inventory_mod.HOST_NETWORK)
                 or [])
        for index, server_id in enumerate(role_ids or []):
            hostname = (inventory_mod.short_name(fqdns[index])
                        if index < len(fqdns) else None)
            by_id[server_id] = (role, index, hostname)
    servers: list[Server] = []
    for res in client.resources.list(stack, nested_depth=5):
        if res.resource_type != DEPLOYED_SERVER_TYPE:
            continue
        found = by_id.get(res.physical_resource_id)
        if found is None:
            LOG.debug('Deployed server %s is in no role of %s',
                      res.physical_resource_id, stack)
            continue
        stack_name, stack_id = _nested_stack(
            getattr(res, 'stack_name', None), res)
        servers.append(Server(found[0], found[1], found[2],
                              res.physical_resource_id, stack_name,
                              stack_id, res.resource_name))
    if not servers:
        raise exceptions.StackOutputsError(
            'Stack %s has no deployed servers (%s resources)' % (
                stack, DEPLOYED_SERVER_TYPE))
    return sorted(servers, key=lambda s: (s.role, s.index))


def heat_api_metadata_url(endpoint: str, server: Server) -> str:
    """The resource metadata URL of ``server`` on the Heat ``endpoint``."""
    return '%s/stacks/%s/%s/resources/%s/metadata' % (
        endpoint.rstrip('/'), server.stack_name, server.stack_id,
        server.resource_name)


def request_url(metadata: Mapping[str, Any] | None) -> str | None:
    """Return ``os-collect-config.request.metadata_url`` or None."""
    occ = (metadata or {}).get('os-collect-config') or {}
    return (occ.get('request') or {}).get('metadata_url')


def resolve_urls(client: Any, servers: list[Server],
                 endpoint: str) -> list[Server]:
    """Fill in each server's ``metadata_url`` and ``source``."""
    for server in servers:
        metadata = client.resources.metadata(
            '%s/%s' % (server.stack_name, server.stack_id)
            if server.stack_id else server.stack_name,
            server.resource_name)
        url = request_url(metadata)
        if url:
            server.metadata_url, server.source = url, FROM_METADATA
        else:
            server.metadata_url = heat_api_metadata_url(endpoint, server)
            server.source = FROM_HEAT_API
    return servers


class Placed(Protocol):
    """A server by its role and index in it (:class:`Server` and what
    is made of one)."""

    role: str
    index: int


PlacedT = TypeVar('PlacedT', bound=Placed)


def assign_hosts(servers: Sequence[PlacedT],
                 role_hosts: Mapping[str, Sequence[str]]
                 ) -> list[tuple[PlacedT, str]]:
    """Return ``[(server, host)]``: the n-th host of a role is index n.

    ``role_hosts`` maps role -> list of addresses, like the guide's
    ``OVERCLOUD_ROLES`` and ``<role>_hosts``.
    """
    by_role: dict[str, list[PlacedT]] = {}
    for server in servers:
        by_role.setdefault(server.role, []).append(server)
    pairs: list[tuple[PlacedT, str]] = []
    for role, hosts in role_hosts.items():
        members = sorted(by_role.get(role, []), key=lambda s: s.index)
        if role not in by_role:
            raise exceptions.DeployedServersError(
                'Role %s has no deployed servers in the stack (roles: %s)'
                % (role, ', '.join(sorted(by_role)) or 'none'))
        if len(hosts) != len(members):
            raise exceptions.DeployedServersError(
                'Role %s has %d deployed servers in the stack but %d hosts '
                'were given: list one host per server, in index order'
                % (role, len(members), len(hosts)))
        pairs.extend(zip(members, hosts))
    return pairs
