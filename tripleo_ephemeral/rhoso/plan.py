"""What becomes of each role: the operator's choices and the node groups.

A role whose hosts run Nova compute is adopted as compute nodes of a cell
(``--default-cell``, or ``--cell ROLE=CELL``). A role that runs
``ovn_controller`` as a chassis gateway (``OVNCMSOptions`` with
``enable-chassis-as-gw``) and no Nova compute cannot be decided from the
work dir: its hosts become EDPM networker nodes (``--networker ROLE``) or
are left out because their gateways move elsewhere (``--skip-role ROLE``);
the export refuses to guess. Any other role (control plane, storage) is
left out and the report says why. Each group of hosts becomes one
OpenStackDataPlaneNodeSet: one per cell and role, one per networker role.
"""

import collections
import re

from tripleo_ephemeral import exceptions

COMPUTE = 'compute'
NETWORKER = 'networker'
SKIP = 'skip'
DEFAULT_CELL = 'cell1'
GATEWAY_OPTION = 'enable-chassis-as-gw'
CMS_OPTIONS = 'ovn::controller::ovn_cms_options'
#: TripleO network name_lower -> RHOSO network name, where they differ
#: (the upstream adoption procedure's names; others keep theirs).
DEFAULT_NETWORK_MAP = {'internal_api': 'internalapi',
                       'storage_mgmt': 'storagemgmt'}
#: What the API takes as a NetConfig network or subnet name.
NETWORK_NAME = re.compile(r'^[a-zA-Z0-9][a-zA-Z0-9\-_]*[a-zA-Z0-9]$')
_LABEL = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')


class Choices(collections.namedtuple('Choices', (
        'version', 'networkers', 'skipped', 'cells', 'default_cell',
        'network_map', 'nic_templates', 'nic_template_dir', 'embed_secrets',
        'ssh_key_secret'))):
    """The operator's decisions, read once from the command line:
    ``networkers``/``skipped`` (role names), ``cells`` (role -> cell),
    ``network_map`` (TripleO name_lower -> RHOSO name, over
    :data:`DEFAULT_NETWORK_MAP`), ``nic_templates`` (role -> a NIC
    template file to use instead of the role's), ``nic_template_dir``
    (where relative NIC template paths are), ``embed_secrets`` (the shell
    variables hold the passwords), ``ssh_key_secret`` (the Secret name of
    the Ansible SSH key)."""

    def rhoso_network(self, net_lower):
        return (self.network_map or {}).get(
            net_lower, DEFAULT_NETWORK_MAP.get(net_lower, net_lower))


def choices(version, networkers=(), skipped=(), cells=None,
            default_cell=DEFAULT_CELL, network_map=None, nic_templates=None,
            nic_template_dir=None, embed_secrets=False,
            ssh_key_secret='dataplane-adoption-secret'):
    return Choices(version, frozenset(networkers), frozenset(skipped),
                   dict(cells or {}), default_cell, dict(network_map or {}),
                   dict(nic_templates or {}), nic_template_dir,
                   embed_secrets, ssh_key_secret)


class Group:
    """Hosts that become one NodeSet: ``kind`` (compute, networker), the
    ``cell`` of computes, the ``role`` (a :class:`~.source.Role`)."""

    def __init__(self, name, kind, role, cell=None):
        self.name = name
        self.kind = kind
        self.role = role
        self.cell = cell


def is_compute(role):
    return 'nova_compute' in role.services


def is_gateway(role):
    options = role.config(CMS_OPTIONS) or ''
    return ('ovn_controller' in role.services and
            GATEWAY_OPTION in str(options).split(','))


def _slug(name):
    return re.sub(r'[^a-z0-9-]+', '-', name.lower()).strip('-')


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
    for cell in [choices.default_cell] + list(choices.cells.values()):
        if not _LABEL.match(cell or ''):
            raise exceptions.RhosoExportError(
                'Cell name %r is not a DNS label (lower-case letters, digits, '
                '"-"): choose another --cell/--default-cell' % (cell,))
    for lower in sorted(choices.network_map):
        name = choices.network_map[lower]
        if not NETWORK_NAME.match(name):
            raise exceptions.RhosoExportError(
                '--network-map %s=%s: %r is not a NetConfig network name '
                '(letters, digits, "-", "_"): choose another'
                % (lower, name, name))


def classify(deployment, choices):
    """``(groups, skipped)``: the :class:`Group` list, and ``{role:
    reason}`` for the roles left out. RhosoExportError when an option
    names an unknown role or a role needs the operator's decision."""
    _check_names(deployment, choices)
    kinds, skipped = {}, {}
    for name, role in deployment.roles.items():
        if name in choices.skipped:
            skipped[name] = 'left out with --skip-role'
        elif is_compute(role):
            if name in choices.networkers:
                raise exceptions.RhosoExportError(
                    '--networker %s: role %s runs Nova compute, so it is '
                    'adopted as compute nodes (a gateway too when its '
                    'OVNCMSOptions say so): leave it out of --networker'
                    % (name, name))
            kinds[name] = COMPUTE
        elif name in choices.networkers:
            kinds[name] = NETWORKER
        elif is_gateway(role):
            raise exceptions.RhosoExportError(
                'Role %s runs ovn_controller as a chassis gateway '
                '(OVNCMSOptions: %s) and no Nova compute: say what its hosts '
                'become with --networker %s (EDPM networker nodes) or '
                '--skip-role %s (not adopted; its gateways move elsewhere)'
                % (name, role.config(CMS_OPTIONS), name, name))
        else:
            skipped[name] = ('runs neither Nova compute nor an OVN chassis '
                             'gateway (control plane or storage)')
        if name in choices.cells and kinds.get(name) != COMPUTE:
            raise exceptions.RhosoExportError(
                '--cell %s=%s: role %s is not adopted as compute nodes, so '
                'it joins no cell: remove the option'
                % (name, choices.cells[name], name))
    if not kinds:
        raise exceptions.RhosoExportError(
            'Stack %s has no role to adopt into the data plane (none runs '
            'Nova compute; roles: %s): name networker roles with '
            '--networker' % (deployment.stack,
                             ', '.join(sorted(deployment.roles))))
    return _groups(deployment, choices, kinds), skipped


def _groups(deployment, choices, kinds):
    by_cell = collections.defaultdict(list)
    networkers = []
    for name, kind in kinds.items():
        role = deployment.roles[name]
        if kind == COMPUTE:
            by_cell[choices.cells.get(name, choices.default_cell)].append(
                role)
        else:
            networkers.append(role)
    groups = []
    for cell, roles in sorted(by_cell.items()):
        for role in roles:
            name = 'openstack-%s' % cell
            if len(roles) > 1:
                name += '-' + _slug(role.name)
            groups.append(Group(name, COMPUTE, role, cell))
    for role in networkers:
        name = 'openstack-networker'
        if len(networkers) > 1:
            name += '-' + _slug(role.name)
        groups.append(Group(name, NETWORKER, role))
    return groups
