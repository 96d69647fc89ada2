"""What the operator gives the control plane: OpenShift workers, their
addresses, storage, replicas, services left out.

Everything here is a decision the work dir cannot make (which OpenShift
workers run the control plane and on which NIC, which addresses they get,
the storage class); the pods' and load balancers' ranges are the network
plan's options. :func:`inputs` reads the raw option values once into a
frozen :class:`Inputs`; a malformed value is one line naming the option.
"""

import ipaddress
import re
from typing import Any, Iterable, Mapping, NamedTuple, NoReturn

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import netplan

#: The procedure's values where the operator gives nothing.
DEFAULT_STORAGE_CLASS = 'local-storage'
DEFAULT_REPLICAS = 3
_NODE = re.compile(r'^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$')
_IFACE = re.compile(r'^[A-Za-z0-9][A-Za-z0-9_.:-]{0,14}$')


#: ``(first, last)`` addresses, both in.
Bounds = tuple[netplan.Address, netplan.Address]


class Inputs(NamedTuple):
    """``workers``: ``((node, interface), ...)`` in the order given;
    ``worker_ranges``: ``{network: (first, last)}`` (RHOSO network names);
    ``skip_services``: services the operator leaves out."""

    workers: tuple[tuple[str, str], ...]
    worker_ranges: dict[str, Bounds]
    storage_class: str
    replicas: int
    skip_services: frozenset[str]


def _fail(message: str) -> NoReturn:
    raise exceptions.RhosoExportError(message)


def parse_range(option: str, network: str, text: object) -> Bounds:
    """``(first, last)`` of ``FIRST-LAST`` (or one address)."""
    head, _, tail = str(text).partition('-')
    try:
        first = ipaddress.ip_address(head.strip())
        last = ipaddress.ip_address((tail or str(first)).strip())
    except ValueError:
        _fail('%s %s=%s: not an address range FIRST-LAST (e.g. '
              '172.17.0.100-172.17.0.139)' % (option, network, text))
    if first.version != last.version or \
            first > last:  # type: ignore[operator]
        _fail('%s %s=%s: the range is empty or mixes IPv4 and IPv6; give '
              'FIRST-LAST with FIRST <= LAST' % (option, network, text))
    return first, last


def _ranges(option: str,
            given: Mapping[str, object] | None) -> dict[str, Bounds]:
    return {net: parse_range(option, net, text)
            for net, text in sorted((given or {}).items())}


def inputs(workers: Mapping[str, str] | Iterable[tuple[str, str]] | None
           = None,
           worker_ranges: Mapping[str, object] | None = None,
           storage_class: str | None = None,
           replicas: int | str | None = None,
           skip_services: Iterable[str] | None = ()) -> Inputs:
    """The :class:`Inputs` of the raw option values (``workers``:
    ``{node: interface}`` or pairs)."""
    pairs: list[Any] = list((workers or {}).items()) if isinstance(
        workers, dict) else list(workers or ())
    for node, iface in pairs:
        if not _NODE.match(node or ''):
            _fail('--ocp-worker %s=%s: %r is not an OpenShift node name '
                  '(lower-case letters, digits, "-", ".")'
                  % (node, iface, node))
        if not _IFACE.match(iface or ''):
            _fail('--ocp-worker %s=%s: %r is not an interface name (at most '
                  '15 letters, digits, "_", ".", ":", "-")'
                  % (node, iface, iface))
    if replicas is not None and int(replicas) < 1:
        _fail('--replicas %s: give 1 or more' % replicas)
    if storage_class is not None and not _NODE.match(storage_class):
        _fail('--storage-class %s: not a StorageClass name' % storage_class)
    return Inputs(
        tuple(pairs), _ranges('--ocp-worker-range', worker_ranges),
        storage_class or DEFAULT_STORAGE_CLASS,
        int(replicas or DEFAULT_REPLICAS), frozenset(skip_services or ()))
