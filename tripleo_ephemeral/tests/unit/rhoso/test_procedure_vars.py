"""The procedures' values for adopted nodes where TripleO has none, and
TripleO's where it has them (hugepage sizes, SELinux mode)."""

from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import procedure_vars
from tripleo_ephemeral.rhoso import source


def _role(args='', hugepages=None):
    return source.Role('Compute', {}, {}, {}, [], {'tripleo_kernel': {
        'tripleo_kernel_args': args,
        'tripleo_kernel_hugepages': hugepages or {}}})


def _vars(role, kind='compute', **choices):
    found = procedure_vars.role_vars(role, kind, plan.choices(
        '18.0-fr6', **choices), 'permissive')
    return {v.name: v.value for v in found}


def test_hugepage_mounts_from_kernel_args_and_hugepages():
    role = _role('default_hugepagesz=1GB hugepagesz=1G hugepages=16 '
                 'hugepagesz=2M hugepages=1024', {'1048576': {'count': 16}})
    assert procedure_vars.hugepage_sizes(role) == [2048, 1048576]
    assert _vars(role)['edpm_default_mounts'] == [
        {'path': '/dev/hugepages2M', 'opts': 'pagesize=2M',
         'fstype': 'hugetlbfs', 'group': 'hugetlbfs'},
        {'path': '/dev/hugepages1G', 'opts': 'pagesize=1G',
         'fstype': 'hugetlbfs', 'group': 'hugetlbfs'}]
    assert _vars(_role())['edpm_default_mounts'] == []


def test_compute_and_networker():
    compute, networker = _vars(_role()), _vars(_role(), 'networker')
    assert compute['edpm_bootstrap_command'].splitlines()[1:] == [
        'sudo dnf -y upgrade openstack-selinux',
        'sudo rm -f /run/virtlogd.pid']
    assert 'edpm_bootstrap_command' not in networker
    assert 'edpm_default_mounts' not in networker
    assert networker['enable_debug'] is False and 'enable_debug' not in \
        compute
    for found in (compute, networker):
        assert found['edpm_bootstrap_release_version_package'] == []
        assert found['edpm_selinux_mode'] == 'permissive'
        assert found['edpm_bootstrap_selinux_mode'] == 'permissive'
    assert _vars(_role(), ovs_packages=['rhoso-openvswitch-3.3'])[
        'edpm_ovs_packages'] == ['rhoso-openvswitch-3.3']


def test_downstream():
    redhat = plan.RedHat('sub', 'reg', '9.4', ('repo-a', 'repo-b'))
    found = _vars(_role(), redhat=redhat)
    assert found['rhc_release'] == '9.4'
    assert found['rhc_repositories'] == [
        {'name': '*', 'state': 'disabled'},
        {'name': 'repo-a', 'state': 'enabled'},
        {'name': 'repo-b', 'state': 'enabled'}]
    assert procedure_vars.vars_from(redhat) == [
        {'secretRef': {'name': 'sub'}}, {'secretRef': {'name': 'reg'}}]
    assert procedure_vars.vars_from(None) == []
