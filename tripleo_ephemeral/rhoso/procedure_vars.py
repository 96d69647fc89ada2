"""What the procedures set for adopted nodes that TripleO has no value for.

The compute and networker procedures' NodeSets set these Ansible
variables on every adopted node; each :class:`~.ansible_vars.Var` names
its line (:mod:`.upstream`). Where TripleO has the value (the SELinux
mode, the hugepage sizes) it is TripleO's; else the procedure's:

* ``edpm_bootstrap_release_version_package: []``: bootstrap would install
  the release package;
* computes' ``edpm_bootstrap_command``: the ``openstack-selinux`` upgrade
  and the removal of ``/run/virtlogd.pid``, without which libvirt does not
  start during the adoption;
* ``edpm_ovs_packages`` pinned (no OVS major upgrade during adoption);
* ``edpm_default_mounts``: a hugetlbfs mount per page size the nodes have;
* the validation, firewall, logging and fact settings of the procedure;
* downstream (``--redhat``): ``rhc_release``, ``rhc_repositories`` and the
  operator's Secrets as ``ansibleVarsFrom``.
"""

import re

from tripleo_ephemeral.rhoso import ansible_vars
from tripleo_ephemeral.rhoso import services
from tripleo_ephemeral.rhoso import upstream

Var = ansible_vars.Var
#: proc_adopting-compute-services-to-the-data-plane.adoc lines 545-549
#: (downstream; upstream's adds the repo-setup lines before them).
BOOTSTRAP_COMMAND = ('set -euxo pipefail\n'
                     'sudo dnf -y upgrade openstack-selinux\n'
                     'sudo rm -f /run/virtlogd.pid\n')
#: variable -> (value, the kinds whose procedure sets it).
FIXED = (
    ('edpm_bootstrap_release_version_package', [], (
        services.COMPUTE_KIND, services.NETWORKER_KIND)),
    ('edpm_bootstrap_network_resolvconf_update', False, (
        services.COMPUTE_KIND,)),
    ('edpm_network_config_hide_sensitive_logs', False, (
        services.COMPUTE_KIND, services.NETWORKER_KIND)),
    ('edpm_nodes_validation_validate_controllers_icmp', False, (
        services.COMPUTE_KIND, services.NETWORKER_KIND)),
    ('edpm_nodes_validation_validate_gateway_icmp', False, (
        services.COMPUTE_KIND, services.NETWORKER_KIND)),
    ('gather_facts', False, (services.COMPUTE_KIND,
                             services.NETWORKER_KIND)),
    ('enable_debug', False, (services.NETWORKER_KIND,)),
    ('edpm_sshd_configure_firewall', True, (
        services.COMPUTE_KIND, services.NETWORKER_KIND)),
)
#: The NodeSet ``env`` of each procedure (lines 430-436 and 93-97).
ENV = {services.COMPUTE_KIND: [
    {'name': 'ANSIBLE_CALLBACKS_ENABLED', 'value': 'profile_tasks'},
    {'name': 'ANSIBLE_FORCE_COLOR', 'value': 'True'},
    {'name': 'ANSIBLE_VERBOSITY', 'value': '3'}],
    services.NETWORKER_KIND: [
    {'name': 'ANSIBLE_CALLBACKS_ENABLED', 'value': 'profile_tasks'},
    {'name': 'ANSIBLE_FORCE_COLOR', 'value': 'True'}]}
_SIZE = re.compile(r'^(\d+)\s*([KMG]?)B?$', re.I)
_KERNEL_SIZES = re.compile(r'(?:^|\s)(?:default_)?hugepagesz=(\S+)')


def _cite(name, kind):
    found = upstream.variable_lines(name, kind)
    return 'the %s procedure (%s)' % (kind, found.text()) if found else \
        'the %s procedure' % kind


def _kb(text):
    """A page size (``1G``, ``2M``, ``1GB``, ``2048`` in kB) in kB."""
    match = _SIZE.match(str(text).strip())
    if not match:
        return None
    number, unit = int(match.group(1)), match.group(2).upper()
    return number * {'': 1, 'K': 1, 'M': 1024, 'G': 1024 * 1024}[unit]


def _label(kb):
    for unit, size in (('G', 1024 * 1024), ('M', 1024)):
        if kb % size == 0:
            return '%d%s' % (kb // size, unit)
    return '%dK' % kb


def hugepage_sizes(role):
    """The page sizes (kB) of ``role``'s hugepages: the ``Hugepages``
    parameter's and those ``KernelArgs`` names."""
    kernel = role.step0.get('tripleo_kernel') or {}
    sizes = {_kb(k) for k in (kernel.get('tripleo_kernel_hugepages') or {})}
    sizes |= {_kb(s) for s in _KERNEL_SIZES.findall(
        str(kernel.get('tripleo_kernel_args') or ''))}
    return sorted(s for s in sizes if s)


def mounts(role):
    """``edpm_default_mounts``: a hugetlbfs mount per page size the
    nodes have, as the procedure writes them; none without hugepages
    (EDPM would mount 1G and 2M pages the nodes may not have)."""
    where = '%s/deploy_steps_tasks_step0.yaml' % role.name
    sizes = hugepage_sizes(role)
    value = [{'path': '/dev/hugepages%s' % _label(kb),
              'opts': 'pagesize=%s' % _label(kb), 'fstype': 'hugetlbfs',
              'group': 'hugetlbfs'} for kb in sizes]
    why = ('the page sizes of Hugepages and KernelArgs (%s), mounted as %s'
           % (where, _cite('edpm_default_mounts', services.COMPUTE_KIND))
           if sizes else 'no hugepages in Hugepages or KernelArgs (%s): no '
           'hugetlbfs mounts (EDPM\'s default mounts 1G and 2M pages)'
           % where)
    return [Var('edpm_default_mounts', value, why)]


def selinux(mode):
    """The SELinux mode TripleO set (``SELinuxMode``), for bootstrap and
    as the networker procedure spells it; the procedure's ``enforcing``
    when config-download does not say."""
    cite = _cite('edpm_selinux_mode', services.NETWORKER_KIND)
    if mode:
        why = ('SELinuxMode (config-download '
               'deploy_steps_selinux_playbook.yaml)')
    else:
        mode, why = 'enforcing', 'not in config-download: %s' % cite
    return [Var('edpm_bootstrap_selinux_mode', mode, why),
            Var('edpm_selinux_mode', mode, '%s; as set by %s' % (why, cite)
                if why != cite else why)]


def role_vars(role, kind, choices, selinux_mode=None):
    """Every procedure :class:`Var` of ``role``'s hosts adopted as
    ``kind`` nodes."""
    result = [Var(name, value, _cite(name, kind))
              for name, value, kinds in FIXED if kind in kinds]
    if kind == services.COMPUTE_KIND:
        result.append(Var('edpm_bootstrap_command', BOOTSTRAP_COMMAND,
                          _cite('edpm_bootstrap_command', kind)))
        result += mounts(role)
    result.append(Var('edpm_ovs_packages', list(choices.ovs_packages),
                      '--ovs-package; %s' % _cite('edpm_ovs_packages',
                                                  kind)))
    result += selinux(selinux_mode)
    if choices.redhat is not None:
        result += redhat_vars(choices.redhat, kind)
    return result


def redhat_vars(redhat, kind):
    why = '--rhc-release/--rhc-repository; %s'
    return [Var('rhc_release', redhat.release,
                why % _cite('rhc_release', kind)),
            Var('rhc_repositories', [{'name': '*', 'state': 'disabled'}] + [
                {'name': name, 'state': 'enabled'}
                for name in redhat.repositories],
                why % _cite('rhc_repositories', kind))]


def vars_from(redhat):
    """The node template's ``ansibleVarsFrom`` downstream."""
    if redhat is None:
        return []
    return [{'secretRef': {'name': redhat.subscription_secret}},
            {'secretRef': {'name': redhat.registry_secret}}]
