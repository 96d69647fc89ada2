"""What becomes of each role: the operator's choices and the node groups.

A role whose hosts run Nova compute is adopted as compute nodes of a cell
(``--default-cell``, or ``--cell ROLE=CELL``). A role that runs
``ovn_controller`` as a chassis gateway (``OVNCMSOptions`` with
``enable-chassis-as-gw``) and no Nova compute cannot be decided from the
work dir: its hosts become EDPM networker nodes (``--networker ROLE``) or
are left out because their gateways move elsewhere (``--skip-role ROLE``);
the export refuses to guess. Any other role (control plane, storage) is
left out and the report says why. Each group of hosts becomes one
OpenStackDataPlaneNodeSet: one per cell (``openstack-<cell>``, the name
upstream's later steps loop over), its roles' hosts together when they run
the same EDPM services (what differs between the roles is set per node);
the networkers in ``openstack-networker``. Roles of one cell (or
networkers) with different services get a NodeSet each,
``openstack-<cell>-<role>``, cut to the 63 characters a NodeSet name may
have. A role of a topology the export does not adopt (:mod:`.topology`)
is refused unless left out.
"""

import collections
import hashlib
import re
from typing import NamedTuple

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import ansible_vars
from tripleo_ephemeral.rhoso import netplan
from tripleo_ephemeral.rhoso import services as services_mod
from tripleo_ephemeral.rhoso import topology

COMPUTE = services_mod.COMPUTE_KIND
NETWORKER = services_mod.NETWORKER_KIND
SKIP = 'skip'
DEFAULT_CELL = 'cell1'
GATEWAY_OPTION = ansible_vars.GATEWAY_OPTION
CMS_OPTIONS = ansible_vars.CMS_OPTIONS
#: TripleO network name_lower -> RHOSO network name, where they differ
#: (the upstream adoption procedure's names; others keep theirs).
DEFAULT_NETWORK_MAP = {'internal_api': 'internalapi',
                       'storage_mgmt': 'storagemgmt'}
#: What the API takes as a NetConfig network or subnet name.
NETWORK_NAME = re.compile(r'^[a-zA-Z0-9][a-zA-Z0-9\-_]*[a-zA-Z0-9]$')
_LABEL = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')
#: A NodeSet name is a label value (the operator labels what it makes
#: with it): 63 characters at most.
MAX_NAME = 63
PREFIX = 'openstack'
DEFAULT_OVS_PACKAGES = ('openvswitch3.3',)

#: Downstream RHOSO: the ``redhat`` service, the Secrets the operator
#: made for ``rhc_auth`` and ``edpm_container_registry_logins``, the
#: release and the repositories to enable.
RedHat = collections.namedtuple('RedHat', 'subscription_secret '
                                'registry_secret release repositories')


class NetworkChoices(NamedTuple):
    """The network plan's choices: the operator's NetConfig file (or
    None), reservations (RHOSO network -> Reservation list), wants (RHOSO
    network -> {part: netplan.Want})."""

    netconfig_file: str | None = None
    reservations: dict[str, list[netplan.Reservation]] = {}
    wants: dict[str, dict[str, netplan.Want]] = {}


class Choices(collections.namedtuple('Choices', (
        'version', 'networkers', 'skipped', 'cells', 'default_cell',
        'network_map', 'nic_templates', 'nic_template_dir', 'embed_secrets',
        'ssh_key_secret', 'network', 'redhat', 'ovs_packages'))):
    """The operator's decisions, read once from the command line:
    ``networkers``/``skipped`` (role names), ``cells`` (role -> cell),
    ``network_map`` (TripleO name_lower -> RHOSO name, over
    :data:`DEFAULT_NETWORK_MAP`), ``nic_templates`` (role -> a NIC
    template file to use instead of the role's), ``nic_template_dir``
    (where relative NIC template paths are), ``embed_secrets`` (the shell
    variables hold the passwords), ``ssh_key_secret`` (the Secret name of
    the Ansible SSH key), ``network`` (:class:`NetworkChoices`),
    ``redhat`` (:class:`RedHat`, or None upstream), ``ovs_packages``
    (what ``edpm_ovs_packages`` pins)."""

    def rhoso_network(self, net_lower):
        return (self.network_map or {}).get(
            net_lower, DEFAULT_NETWORK_MAP.get(net_lower, net_lower))


def choices(version, networkers=(), skipped=(), cells=None,
            default_cell=DEFAULT_CELL, network_map=None, nic_templates=None,
            nic_template_dir=None, embed_secrets=False,
            ssh_key_secret='dataplane-adoption-secret', network=None,
            redhat=None, ovs_packages=DEFAULT_OVS_PACKAGES):
    return Choices(version, frozenset(networkers), frozenset(skipped),
                   dict(cells or {}), default_cell, dict(network_map or {}),
                   dict(nic_templates or {}), nic_template_dir,
                   embed_secrets, ssh_key_secret,
                   network or NetworkChoices(), redhat, tuple(ovs_packages))


class Group:
    """Hosts that become one NodeSet: ``kind`` (compute, networker), the
    ``cell`` of computes, the ``roles`` (:class:`~.source.Role`) whose
    hosts it holds, and their EDPM ``services``."""

    def __init__(self, name, kind, roles, cell=None, services=()):
        self.name = name
        self.kind = kind
        self.roles = list(roles)
        self.cell = cell
        self.services = list(services)
        #: its OpenStackDataPlaneNodeSet, once the export made it
        self.document = None

    @property
    def hosts(self):
        return [h for role in self.roles for h in role.hosts]

    @property
    def role_names(self):
        return [r.name for r in self.roles]


def is_compute(role):
    return 'nova_compute' in role.services


def is_gateway(role):
    options = role.config(CMS_OPTIONS) or ''
    return ('ovn_controller' in role.services and
            GATEWAY_OPTION in str(options).split(','))


def _slug(name):
    return re.sub(r'[^a-z0-9-]+', '-', name.lower()).strip('-') or 'role'


def nodeset_name(prefix, role_name=None):
    """``prefix`` (``openstack-cell1``), and ``-<role>`` when given, cut
    to :data:`MAX_NAME` with a digest of the role's name that keeps it
    unique."""
    if role_name is None:
        return prefix
    name = '%s-%s' % (prefix, _slug(role_name))
    if len(name) <= MAX_NAME:
        return name
    digest = hashlib.sha256(role_name.encode('utf-8')).hexdigest()[:6]
    keep = MAX_NAME - len(prefix) - len(digest) - 2
    return '%s-%s-%s' % (prefix, _slug(role_name)[:keep].rstrip('-'),
                         digest)


def _check_names(deployment, choices):
    roles = deployment.roles
    for option, names in (('--networker', choices.networkers),
                          ('--skip-role', choices.skipped),
                          ('--cell', choices.cells)):
        for name in sorted(names):
            if name not in roles:
                raise exceptions.RhosoExportError(
                    '%s %s: stack %s has no role %s with hosts (roles: %s)'
                    % (option, name, deployment.stack, name,
                       ', '.join(sorted(roles))))
    both = choices.networkers & choices.skipped
    if both:
        raise exceptions.RhosoExportError(
            'Role %s is given to both --networker and --skip-role: keep one'
            % sorted(both)[0])
    longest = MAX_NAME - len(PREFIX) - 1
    for cell in [choices.default_cell] + list(choices.cells.values()):
        if not _LABEL.match(cell or ''):
            raise exceptions.RhosoExportError(
                'Cell name %r is not a DNS label (lower-case letters, digits, '
                '"-"): choose another --cell/--default-cell' % (cell,))
        if len(cell) > longest:
            raise exceptions.RhosoExportError(
                'Cell name %s has %d characters: its NodeSet %s-%s would '
                'have more than the %d a NodeSet name may have; choose a '
                'cell name of %d characters or fewer' % (
                    cell, len(cell), PREFIX, cell, MAX_NAME, longest))
    for lower in sorted(choices.network_map):
        name = choices.network_map[lower]
        if not NETWORK_NAME.match(name):
            raise exceptions.RhosoExportError(
                '--network-map %s=%s: %r is not a NetConfig network name '
                '(letters, digits, "-", "_"): choose another'
                % (lower, name, name))


def _kind(name, role, choices):
    if is_compute(role):
        if name in choices.networkers:
            raise exceptions.RhosoExportError(
                '--networker %s: role %s runs Nova compute, so it is '
                'adopted as compute nodes (a gateway too when its '
                'OVNCMSOptions say so): leave it out of --networker'
                % (name, name))
        return COMPUTE
    if name in choices.networkers:
        return NETWORKER
    if is_gateway(role):
        raise exceptions.RhosoExportError(
            'Role %s runs ovn_controller as a chassis gateway '
            '(OVNCMSOptions: %s) and no Nova compute: say what its hosts '
            'become with --networker %s (EDPM networker nodes) or '
            '--skip-role %s (not adopted; its gateways move elsewhere)'
            % (name, role.config(CMS_OPTIONS), name, name))
    return None


def classify(deployment, choices):
    """``(groups, skipped)``: the :class:`Group` list, and ``{role:
    reason}`` for the roles left out. RhosoExportError when an option
    names an unknown role, a role needs the operator's decision, or its
    topology is one the export does not adopt."""
    _check_names(deployment, choices)
    kinds, skipped = {}, {}
    for name, role in deployment.roles.items():
        if name in choices.skipped:
            skipped[name] = 'left out with --skip-role'
            continue
        kind = _kind(name, role, choices)
        if name in choices.cells and kind != COMPUTE:
            raise exceptions.RhosoExportError(
                '--cell %s=%s: role %s is not adopted as compute nodes, so '
                'it joins no cell: remove the option'
                % (name, choices.cells[name], name))
        if kind is None:
            skipped[name] = ('runs neither Nova compute nor an OVN chassis '
                             'gateway (control plane or storage)')
            continue
        refused = topology.refusal(role)
        if refused:
            raise exceptions.RhosoExportError(refused)
        kinds[name] = kind
    if not kinds:
        raise exceptions.RhosoExportError(
            'Stack %s has no role to adopt into the data plane (none runs '
            'Nova compute; roles: %s): name networker roles with '
            '--networker' % (deployment.stack,
                             ', '.join(sorted(deployment.roles))))
    return _groups(deployment, choices, kinds), skipped


def _split(prefix, kind, roles, cell, redhat):
    """One Group for ``roles`` when they run the same services, else one
    per set of roles that do."""
    by_services = collections.OrderedDict()
    for role in roles:
        found = services_mod.edpm_services(role, kind, cell, redhat)
        by_services.setdefault(tuple(found), []).append(role)
    if len(by_services) == 1:
        (found, members), = by_services.items()
        return [Group(prefix, kind, members, cell, found)]
    return [Group(nodeset_name(prefix, members[0].name), kind, members, cell,
                  found) for found, members in by_services.items()]


def _groups(deployment, choices, kinds):
    by_cell = collections.OrderedDict()
    networkers = []
    for name, kind in kinds.items():
        role = deployment.roles[name]
        if kind == COMPUTE:
            by_cell.setdefault(choices.cells.get(
                name, choices.default_cell), []).append(role)
        else:
            networkers.append(role)
    redhat = choices.redhat is not None
    groups = []
    for cell in sorted(by_cell):
        groups += _split('%s-%s' % (PREFIX, cell), COMPUTE, by_cell[cell],
                         cell, redhat)
    if networkers:
        groups += _split('%s-%s' % (PREFIX, NETWORKER), NETWORKER,
                         networkers, None, redhat)
    return groups
