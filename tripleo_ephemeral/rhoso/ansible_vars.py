"""The Ansible variables a role's nodes keep: EDPM's names, TripleO's values.

Each :class:`Var` says where TripleO had the value (the THT parameter and
the config-download file), so the report and the NodeSet's comments can
say it. Only what the role had is carried: a role without ``tuned`` gets
no ``edpm_tuned_profile``, one without SR-IOV no SR-IOV mappings. What
the procedures set that TripleO has no value for is
:mod:`.procedure_vars`.
"""

import collections

CMS_OPTIONS = 'ovn::controller::ovn_cms_options'
GATEWAY_OPTION = 'enable-chassis-as-gw'
#: ``name``: EDPM's variable; ``source``: where TripleO kept the value.
Var = collections.namedtuple('Var', 'name value source')

#: hiera key of ovn-controller (service_configs) -> (EDPM variable, THT
#: parameter).
OVN = (
    ('ovn::controller::ovn_bridge_mappings', 'edpm_ovn_bridge_mappings',
     'NeutronBridgeMappings'),
    ('ovn::controller::ovn_bridge', 'edpm_ovn_bridge',
     'OVNIntegrationBridge'),
    ('ovn::controller::ovn_encap_type', 'edpm_ovn_encap_type',
     'OVNEncapType'),
    ('ovn::controller::ovn_encap_tos', 'edpm_ovn_encap_tos', 'OVNEncapTos'),
    ('ovn::controller::ovn_monitor_all', 'ovn_monitor_all',
     'ovn-controller\'s monitor-all'),
    ('ovn::controller::ovn_remote_probe_interval',
     'edpm_ovn_remote_probe_interval', 'OVNRemoteProbeInterval'),
    ('ovn::controller::ovn_ofctrl_wait_before_clear',
     'edpm_ovn_ofctrl_wait_before_clear', 'OVNOfctrlWaitBeforeClear'),
)
#: hiera key of the SR-IOV agent -> (EDPM variable, THT parameter).
SRIOV = (
    ('neutron::agents::ml2::sriov::physical_device_mappings',
     'edpm_neutron_sriov_agent_SRIOV_NIC_physical_device_mappings',
     'NeutronPhysicalDevMappings'),
    ('neutron::agents::ml2::sriov::resource_provider_bandwidths',
     'edpm_neutron_sriov_agent_SRIOV_NIC_resource_provider_bandwidths',
     'NeutronSriovResourceProviderBandwidths'),
    ('neutron::agents::ml2::sriov::resource_provider_hypervisors',
     'edpm_neutron_sriov_agent_SRIOV_NIC_resource_provider_hypervisors',
     'NeutronSriovResourceProviderHypervisors'),
)
#: group var -> (EDPM variable, THT parameter), carried when set.
GROUP_VARS = (
    ('neutron_physical_bridge_name', 'neutron_physical_bridge_name',
     'NeutronPhysicalBridge'),
    ('neutron_public_interface_name', 'neutron_public_interface_name',
     'NeutronPublicInterface'),
    ('tripleo_network_config_os_net_config_mappings',
     'edpm_network_config_os_net_config_mappings', 'NetConfigDataLookup'),
)


def _gv(role, key):
    return 'group_vars/%s %s' % (role.name, key)


def _hiera(role, key):
    return 'group_vars/%s service_configs %s' % (role.name, key)


def network(role):
    result = [Var('edpm_network_config_nmstate', False,
                  'TripleO ran os-net-config with its ifcfg provider '
                  '(EDPM defaults to nmstate)')]
    for key, name, parameter in GROUP_VARS:
        value = role.group_vars.get(key)
        if value not in (None, '', {}):
            result.append(Var(name, value, '%s (%s)' % (parameter,
                                                        _gv(role, key))))
    return result


def ovn(role):
    if 'ovn_controller' not in role.services:
        return []
    result = []
    for key, name, parameter in OVN:
        value = role.config(key)
        if value is not None:
            result.append(Var(name, value, '%s (%s)' % (
                parameter, _hiera(role, key))))
    options = [o.strip() for o in str(role.config(CMS_OPTIONS) or '')
               .split(',') if o.strip()]
    source = 'OVNCMSOptions (%s)' % _hiera(role, CMS_OPTIONS)
    result.append(Var('edpm_enable_chassis_gw',
                      GATEWAY_OPTION in options, source))
    if 'enable-chassis-as-extport-host' in options:
        result.append(Var('edpm_enable_chassis_extport', True, source))
    zones = [o.split('=', 1)[1] for o in options
             if o.startswith('availability-zones=')]
    if zones:
        result.append(Var('edpm_ovn_availability_zones',
                          zones[0].split(':'), source))
    return result


def _comma(value):
    """EDPM's SR-IOV variables are comma-separated strings; TripleO's
    hiera has lists."""
    if isinstance(value, (list, tuple)):
        return ','.join(str(v) for v in value)
    return str(value)


def sriov(role):
    """The SR-IOV agent's mappings, as the procedure's optional step sets
    them (with the ``neutron-sriov`` service)."""
    if 'neutron_sriov_agent' not in role.services:
        return []
    return [Var(name, _comma(role.config(key)),
                '%s (%s)' % (parameter, _hiera(role, key)))
            for key, name, parameter in SRIOV
            if role.config(key) not in (None, '', [])]


def _ntp_entry(server, pool=False):
    if isinstance(server, dict):
        entry = {'hostname': server.get('server_host') or
                 server.get('hostname')}
    else:
        entry = {'hostname': str(server)}
    if pool:
        entry['pool'] = True
    return entry


def ntp(role):
    servers = role.group_vars.get('chrony_ntp_servers') or []
    pools = role.group_vars.get('chrony_ntp_pools') or []
    if not servers and not pools:
        return []
    value = ([_ntp_entry(s) for s in servers] +
             [_ntp_entry(p, True) for p in pools])
    return [Var('timesync_ntp_servers', value, 'NtpServer, NtpPool (%s, '
                'chrony_ntp_pools)' % _gv(role, 'chrony_ntp_servers'))]


def host_tuning(role):
    """tuned, kernel args and hugepages: what the pre-adoption validation
    compares with the node."""
    result = []
    if 'tuned' in role.services and role.group_vars.get('tuned_profile'):
        result.append(Var('edpm_tuned_profile',
                          role.group_vars['tuned_profile'],
                          'TunedProfileName (%s)' % _gv(role,
                                                        'tuned_profile')))
        if role.group_vars.get('tuned_custom_profile'):
            result.append(Var('edpm_tuned_custom_profile',
                              role.group_vars['tuned_custom_profile'],
                              'TunedCustomProfile (%s)' % _gv(
                                  role, 'tuned_custom_profile')))
    tuned = role.step0.get('tuned') or {}
    if tuned.get('tuned_isolated_cores'):
        result.append(Var('edpm_tuned_isolated_cores',
                          tuned['tuned_isolated_cores'],
                          'IsolCpusList (%s/deploy_steps_tasks_step0.yaml)'
                          % role.name))
    kernel = role.step0.get('tripleo_kernel') or {}
    where = '%s/deploy_steps_tasks_step0.yaml' % role.name
    if 'tripleo_kernel_args' in kernel:
        result.append(Var('edpm_kernel_args', kernel['tripleo_kernel_args']
                          or '', 'KernelArgs (%s)' % where))
    if kernel.get('tripleo_kernel_hugepages'):
        result.append(Var('edpm_kernel_hugepages',
                          kernel['tripleo_kernel_hugepages'],
                          'Hugepages (%s)' % where))
    return result


def sshd(role, ctlplane_cidrs):
    """The ranges TripleO's firewall let SSH in from: every source of its
    port 22 rules, or anywhere when SshFirewallAllowAll kept that rule."""
    rules = role.group_vars.get('tripleo_firewall_rules') or {}
    ranges = []
    for name, rule in sorted(rules.items()):
        if not isinstance(rule, dict) or str(rule.get('dport')) != '22':
            continue
        if (rule.get('extras') or {}).get('ensure') == 'absent':
            continue
        source = rule.get('source') or '0.0.0.0/0'
        if source not in ranges:
            ranges.append(source)
    if ranges:
        return [Var('edpm_sshd_allowed_ranges', ranges,
                    'SshFirewallAllowAll and the ctlplane subnets (%s '
                    'rules for port 22)' % _gv(role,
                                               'tripleo_firewall_rules'))]
    return [Var('edpm_sshd_allowed_ranges', list(ctlplane_cidrs),
                'the ctlplane subnets (TripleO\'s default SSH rule)')]


def role_vars(role, ctlplane_cidrs):
    """Every carried :class:`Var` of ``role`` but the NIC template's."""
    return (network(role) + ovn(role) + sriov(role) + ntp(role) +
            host_tuning(role) + sshd(role, ctlplane_cidrs))
