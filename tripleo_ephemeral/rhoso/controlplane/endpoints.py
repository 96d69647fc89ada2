"""Where the control plane's services listen: the networks they attach to
and the load balancer address of each, from the networks' splits.

The procedure shares one internal address among the API services
(``metallb.universe.tf/allow-shared-ip: internalapi``, every
``proc_adopting-the-*.adoc``), gives each RabbitMQ its own
(``proc_deploying-backend-services.adoc``) and the DNS service one on the
control plane network. They are the first addresses of the load
balancers' range, in that order.
"""

import collections
from typing import Any, Iterable, Sequence

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso import netplan

POOL = 'metallb.universe.tf/address-pool'
SHARED = 'metallb.universe.tf/allow-shared-ip'
ADDRESS = 'metallb.universe.tf/loadBalancerIPs'
SHARED_NAME = 'internal'


class Endpoints:
    """``internal`` and ``storage``, ``tenant``, ``ctlplane``: the RHOSO
    names of those networks (None when the stack has none);
    ``addresses``: ``{what: (network, address)}``."""

    def __init__(self, internal: str | None, storage: str | None,
                 tenant: str | None, ctlplane: str | None) -> None:
        self.internal = internal
        self.storage = storage
        self.tenant = tenant
        self.ctlplane = ctlplane
        self.addresses: collections.OrderedDict[
            str, tuple[str, netplan.Address]] = collections.OrderedDict()

    def annotations(self, what: str, shared: bool = True) -> dict[str, str]:
        network, address = self.addresses[what]
        result = {POOL: network, ADDRESS: str(address)}
        if shared:
            result[SHARED] = network
        return result

    def service(self, what: str, shared: bool = True) -> dict[str, Any]:
        """A ``override.service`` entry of a LoadBalancer Service."""
        return {'metadata': {'annotations': self.annotations(what, shared)},
                'spec': {'type': 'LoadBalancer'}}

    def internal_override(self, what: str = SHARED_NAME) -> dict[str, Any]:
        """An API's ``override.service`` with its internal endpoint on the
        load balancer."""
        return {'internal': self.service(what)}


def _by_lower(splits: Iterable[addressing.Split],
              lower: str) -> addressing.Split | None:
    return next((s for s in splits if s.network.lower == lower
                 and s.attached), None)


def _name(split: addressing.Split | None) -> str | None:
    return None if split is None else split.name


def _take(split: addressing.Split, names: Sequence[str],
          taken: dict[str, set[netplan.Address]]
          ) -> dict[str, netplan.Address]:
    # endpoints() takes from a split with a load balancers' range.
    assert split.loadbalancers is not None
    first, last = split.loadbalancers
    free = [a for a in addressing.runs(first, last, taken.get(
        split.name, set()))]
    addresses = [ip for a, b in free for ip in addressing.addresses(a, b)]
    if len(addresses) < len(names):
        raise exceptions.RhosoExportError(
            'The load balancers\' range %s of %s holds %d addresses; the '
            'control plane needs %d there (%s): give a larger '
            '--loadbalancer-range %s=FIRST-LAST' % (
                addressing.text(split.loadbalancers), split.name,
                len(addresses), len(names), ', '.join(names), split.name))
    taken.setdefault(split.name, set()).update(addresses[:len(names)])
    return dict(zip(names, addresses))


def endpoints(splits: Sequence[addressing.Split],
              cells: Iterable[str]) -> Endpoints:
    """The :class:`Endpoints` of the networks ``splits`` for ``cells``."""
    internal = _by_lower(splits, 'internal_api') or _by_lower(splits,
                                                              'ctlplane')
    storage = _by_lower(splits, 'storage') or internal
    tenant = _by_lower(splits, 'tenant') or internal
    ctlplane = _by_lower(splits, 'ctlplane')
    result = Endpoints(_name(internal), _name(storage), _name(tenant),
                       _name(ctlplane))
    taken: dict[str, set[netplan.Address]] = {}
    if internal is not None and internal.loadbalancers:
        names = [SHARED_NAME, 'rabbitmq'] + [
            'rabbitmq-%s' % c for c in sorted(cells)]
        for name, ip in _take(internal, names, taken).items():
            result.addresses[name] = (internal.name, ip)
    if ctlplane is not None and ctlplane.loadbalancers:
        for name, ip in _take(ctlplane, ['dns'], taken).items():
            result.addresses[name] = (ctlplane.name, ip)
    return result
