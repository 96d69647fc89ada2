"""The options of ``overcloud adoption export|validate``, declared once and
read once into a frozen :class:`~tripleo_ephemeral.rhoso.plan.Choices`."""

from osc_lib.cli import parseractions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso.controlplane import inputs as cp_inputs


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
               'per --ocp-worker in order (default: carved from the '
               'subnet\'s free space)'))
    group.add_argument(
        '--pods-range', metavar='<network>=<first>-<last>',
        dest='pods_ranges', action=parseractions.KeyValueAction, default={},
        help=_('The pods\' addresses on a network (the '
               'NetworkAttachmentDefinition range; default: %d carved from '
               'the free space)') % cp_inputs.DEFAULT_POD_ADDRESSES)
    group.add_argument(
        '--loadbalancer-range', metavar='<network>=<first>-<last>',
        dest='loadbalancer_ranges', action=parseractions.KeyValueAction,
        default={},
        help=_('The load balancers\' addresses on a network (the MetalLB '
               'IPAddressPool; default: %d carved from the free space)')
        % cp_inputs.DEFAULT_LB_ADDRESSES)
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
        pod_ranges=parsed_args.pods_ranges,
        lb_ranges=parsed_args.loadbalancer_ranges,
        storage_class=parsed_args.storage_class,
        replicas=parsed_args.replicas,
        skip_services=parsed_args.skip_services)


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
        ssh_key_secret=parsed_args.ssh_key_secret)
