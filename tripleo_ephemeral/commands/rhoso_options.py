"""The options of ``overcloud adoption export|validate``, declared once and
read once into a frozen :class:`~tripleo_ephemeral.rhoso.plan.Choices`."""

from osc_lib.cli import parseractions
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.rhoso import netplan
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso.controlplane import inputs as cp_inputs

#: option dest -> the network plan's part it gives.
PART_OPTIONS = (('dataplane_ranges', netplan.DATAPLANE),
                ('pods_ranges', netplan.PODS),
                ('loadbalancer_ranges', netplan.LOADBALANCERS))


def add_version_option(parser, default_help=None):
    versions = schema.versions()
    parser.add_argument(
        '--rhoso-version', metavar='<version>', choices=versions,
        help=_('RHOSO version whose CRD schemas and webhook rules apply '
               '(bundled: %(versions)s; default: %(default)s)') % {
                   'versions': ', '.join(versions),
                   'default': default_help or schema.default_version()})


def add_nic_options(parser):
    group = parser.add_argument_group(_('NIC templates'))
    group.add_argument(
        '--nic-template-dir', metavar='<dir>', type=options.abs_path,
        help=_('Where relative <Role>NetworkConfigTemplate paths are '
               '(a copy of tripleo-ansible\'s tripleo_network_config role; '
               'default: that of TripleO\'s Ansible, "openstack tripleo '
               'ansible install")'))
    group.add_argument(
        '--nic-template', metavar='<role>=<file>', dest='nic_templates',
        action=parseractions.KeyValueAction, default={},
        help=_('The TripleO NIC template of a role, read from this file '
               'instead of its group_vars path (repeat for more roles)'))


def add_export_options(parser):
    add_version_option(parser)
    group = parser.add_argument_group(_('What each role becomes'))
    group.add_argument(
        '--networker', metavar='<role>', action='append', default=[],
        dest='networkers',
        help=_('Adopt this role\'s hosts as EDPM networker nodes (a role '
               'running OVN chassis gateways without Nova compute must be '
               'named here or with --skip-role; repeat for more)'))
    group.add_argument(
        '--skip-role', metavar='<role>', action='append', default=[],
        dest='skipped',
        help=_('Leave this role\'s hosts out of the data plane (repeat for '
               'more)'))
    group.add_argument(
        '--cell', metavar='<role>=<cell>', dest='cells',
        action=parseractions.KeyValueAction, default={},
        help=_('The cell a compute role\'s hosts join (default: '
               '--default-cell)'))
    group.add_argument(
        '--default-cell', metavar='<cell>', default=plan.DEFAULT_CELL,
        help=_('The cell the stack\'s computes join (default: %s)')
        % plan.DEFAULT_CELL)
    group.add_argument(
        '--network-map', metavar='<tripleo>=<rhoso>', dest='network_map',
        action=parseractions.KeyValueAction, default={},
        help=_('RHOSO name of a TripleO network (its name_lower); default: '
               '%s, others keep theirs') % ', '.join(
                   '%s=%s' % kv for kv in sorted(
                       plan.DEFAULT_NETWORK_MAP.items())))
    add_nic_options(parser)
    add_network_options(parser)
    add_downstream_options(parser)
    group = parser.add_argument_group(_('Secrets'))
    group.add_argument(
        '--ssh-key-secret', metavar='<name>',
        default='dataplane-adoption-secret',
        help=_('Name of the Secret with the key TripleO\'s Ansible logged '
               'in with (default: %(default)s)'))
    group.add_argument(
        '--embed-secrets', action='store_true',
        help=_('Put the passwords into adoption-vars.sh (then 0600) instead '
               'of sourcing secrets/passwords.sh'))


def add_network_options(parser):
    group = parser.add_argument_group(_('Networks'))
    group.add_argument(
        '--netconfig', metavar='<file>', type=options.abs_path,
        help=_('The NetConfig of the namespace you adopt into, as "oc get '
               'netconfig -o yaml" prints it (an empty List: none yet): '
               'TripleO\'s networks are merged into it, never replacing it'))
    group.add_argument(
        '--reserve', metavar='<network>=<first>-<last>[,...]',
        action='append', default=[], dest='reservations',
        help=_('Keep these addresses of a RHOSO network out of every range '
               '(OpenShift workers\' addresses...; repeat)'))
    for dest, part in PART_OPTIONS:
        group.add_argument(
            netplan.OPTION[part], metavar='<network>=<ranges>|<size>',
            action='append', default=[], dest=dest,
            help=_('The %(part)s part of a network: ranges (<first>-<last>'
                   '[,...]) or a size to carve (0: none; default: '
                   '%(size)d%(where)s)') % {
                       'part': part, 'size': netplan.DEFAULT_SIZE[part],
                       'where': '' if part == netplan.DATAPLANE else
                       _(' on %s') % ', '.join(sorted(
                           netplan.CONTROL_PLANE_NETWORKS))})


def add_downstream_options(parser):
    group = parser.add_argument_group(_('Packages (downstream RHOSO)'))
    group.add_argument(
        '--redhat', action='store_true',
        help=_('Downstream RHOSO: the "redhat" service first, rhc_* '
               'variables, and the subscription and registry Secrets as '
               'ansibleVarsFrom'))
    group.add_argument('--subscription-secret', metavar='<name>',
                       default='subscription-manager',
                       help=_('The Secret with rhc_auth (default: '
                              '%(default)s)'))
    group.add_argument('--registry-secret', metavar='<name>',
                       default='redhat-registry',
                       help=_('The Secret with edpm_container_registry_'
                              'logins (default: %(default)s)'))
    group.add_argument('--rhc-release', metavar='<release>', default='9.2',
                       help=_('rhc_release (default: %(default)s)'))
    group.add_argument('--rhc-repository', metavar='<repository>',
                       action='append', default=[], dest='rhc_repositories',
                       help=_('A repository to enable (repeat; required '
                              'with --redhat)'))
    group.add_argument(
        '--ovs-package', metavar='<package>', action='append',
        dest='ovs_packages',
        help=_('What edpm_ovs_packages pins, so that the adoption makes no '
               'OVS major upgrade (repeat; default: %s)') % ', '.join(
                   plan.DEFAULT_OVS_PACKAGES))


def add_controlplane_options(parser):
    group = parser.add_argument_group(_('Control plane'))
    group.add_argument(
        '--ocp-worker', metavar='<node>=<nic>', dest='ocp_workers',
        action=parseractions.KeyValueAction, default={},
        help=_('An OpenShift worker that runs the control plane, and the NIC '
               'its VLANs of TripleO\'s networks go on (repeat for every '
               'worker; without it, no NodeNetworkConfigurationPolicy is '
               'written)'))
    group.add_argument(
        '--ocp-worker-range', metavar='<network>=<first>-<last>',
        dest='ocp_worker_ranges', action=parseractions.KeyValueAction,
        default={},
        help=_('Where the workers\' addresses on a network come from, one '
               'per --ocp-worker in order (default: carved from the top of '
               'the subnet\'s free space, before the network plan)'))
    group.add_argument(
        '--storage-class', metavar='<name>',
        help=_('The StorageClass of the databases and message queues '
               '(default: %s, as the procedure\'s example)')
        % cp_inputs.DEFAULT_STORAGE_CLASS)
    group.add_argument(
        '--replicas', metavar='<count>', type=int,
        help=_('Replicas of Galera, Memcached, the OVN databases and the '
               'Image service (default: %d)') % cp_inputs.DEFAULT_REPLICAS)
    group.add_argument(
        '--skip-service', metavar='<service>', action='append', default=[],
        dest='skip_services',
        help=_('Leave a service out of the control plane\'s adoption: a '
               'TripleO service of the roles, or a RHOSO service (keystone, '
               'neutron, glance...); repeat for more'))


def controlplane_inputs(parsed_args):
    """The control plane's :class:`~.controlplane.inputs.Inputs`."""
    return cp_inputs.inputs(
        workers=parsed_args.ocp_workers,
        worker_ranges=parsed_args.ocp_worker_ranges,
        storage_class=parsed_args.storage_class,
        replicas=parsed_args.replicas,
        skip_services=parsed_args.skip_services)


def _split(option, value):
    network, sep, rest = str(value).partition('=')
    if not sep or not network or not rest:
        raise osc_exceptions.CommandError(_(
            '%(option)s %(value)s: write <network>=<value>') % {
                'option': option, 'value': value})
    return network, rest


def _ranges(option, network, text):
    try:
        return tuple(netplan.Range.parse(t) for t in text.split(','))
    except ValueError:
        raise osc_exceptions.CommandError(_(
            '%(option)s %(network)s=%(text)s: %(text)s is not addresses '
            '(<first>-<last>[,<first>-<last>...])') % {
                'option': option, 'network': network, 'text': text})


def network_choices(parsed_args):
    """The :class:`~tripleo_ephemeral.rhoso.plan.NetworkChoices` of the
    options."""
    option = netplan.OPTION[netplan.RESERVED]
    reservations = {}
    for value in parsed_args.reservations:
        network, text = _split(option, value)
        reservations.setdefault(network, []).extend(
            netplan.Reservation(r, option, False)
            for r in _ranges(option, network, text))
    wants = {}
    for dest, part in PART_OPTIONS:
        option = netplan.OPTION[part]
        for value in getattr(parsed_args, dest):
            network, text = _split(option, value)
            if text.isdigit():
                want = netplan.Want(None, int(text), option)
            else:
                want = netplan.Want(_ranges(option, network, text), 0, option)
            if part in wants.get(network, {}):
                raise osc_exceptions.CommandError(_(
                    '%(option)s %(network)s is given twice: give its ranges '
                    'in one, comma-separated') % {'option': option,
                                                  'network': network})
            wants.setdefault(network, {})[part] = want
    return plan.NetworkChoices(parsed_args.netconfig, reservations, wants)


def redhat_choices(parsed_args):
    if not parsed_args.redhat:
        return None
    if not parsed_args.rhc_repositories:
        raise osc_exceptions.CommandError(_(
            '--redhat needs the repositories to enable: give --rhc-repository '
            'for each (https://access.redhat.com/articles/7139612)'))
    return plan.RedHat(parsed_args.subscription_secret,
                       parsed_args.registry_secret, parsed_args.rhc_release,
                       tuple(parsed_args.rhc_repositories))


def choices(parsed_args):
    """The export's :class:`~tripleo_ephemeral.rhoso.plan.Choices`."""
    return plan.choices(
        parsed_args.rhoso_version or schema.default_version(),
        networkers=parsed_args.networkers, skipped=parsed_args.skipped,
        cells=parsed_args.cells, default_cell=parsed_args.default_cell,
        network_map=parsed_args.network_map,
        nic_templates={role: options.abs_path(path) for role, path in
                       parsed_args.nic_templates.items()},
        nic_template_dir=parsed_args.nic_template_dir,
        embed_secrets=parsed_args.embed_secrets,
        ssh_key_secret=parsed_args.ssh_key_secret,
        network=network_choices(parsed_args),
        redhat=redhat_choices(parsed_args),
        ovs_packages=parsed_args.ovs_packages or plan.DEFAULT_OVS_PACKAGES)
