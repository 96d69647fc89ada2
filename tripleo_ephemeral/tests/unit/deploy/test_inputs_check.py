"""Inputs.check: every input read and checked, nothing written."""

import os

import pytest
import yaml

from tripleo_ephemeral.deploy import inputs
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral.tests.unit import fakes


def _say():
    lines = []
    return lines, lines.append


def _write(path, data):
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_tht_defaults(tht_dir, tmp_path):
    given = fakes.deploy_inputs('oc', str(tmp_path / 'w'), templates=tht_dir)
    assert given.roles_file == os.path.join(tht_dir, 'roles_data.yaml')
    assert given.networks_file == os.path.join(
        tht_dir, 'network_data_default.yaml')
    assert given.vip_file == os.path.join(tht_dir, 'vip_data_default.yaml')
    assert given.deployed_servers is None
    bundled = fakes.deploy_inputs('oc', str(tmp_path / 'w'))
    src = template_processing.bundled_templates_dir()
    assert bundled.networks_file == os.path.join(src, 'network_data.yaml')
    assert bundled.vip_file is None
    assert bundled.deployed_servers == os.path.join(src,
                                                    inputs.SAMPLE_SERVERS)


def test_network_isolation_checked_without_writing(tht_dir, tmp_path):
    servers = _write(tmp_path / 's.yaml', {
        'Controller': [{'hostname': 'overcloud-controller-0',
                        'ctlplane_ip': '192.0.2.10'}],
        'Compute': [{'hostname': 'overcloud-novacompute-0',
                     'ctlplane_ip': '192.0.2.20',
                     'networks': {'tenant': '172.16.0.20'}}]})
    work = tmp_path / 'work'
    env = os.path.join(tht_dir, 'environments',
                       'deployed-network-environment.yaml')
    given = fakes.deploy_inputs(
        'overcloud', str(work), templates=tht_dir,
        networks_file=os.path.join(tht_dir, 'network-data-samples',
                                   'default-network-isolation.yaml'),
        environment_files=[env], deployed_servers=servers)
    lines, say = _say()
    checked = given.check(say)
    assert not work.exists()
    assert lines == ['VIPs added for storage, storage_mgmt, internal_api, '
                     'external: %s lists none for them (dns_name overcloud)'
                     % given.vip_file]
    # THT's environment, which exists only as a .j2.yaml: the rendered
    # copy in the work dir.
    assert checked.environment_files == [os.path.join(
        given.workdir.templates_dir, 'environments',
        'deployed-network-environment.yaml')]
    nets = checked.addresses.hosts['overcloud-novacompute-0']
    assert str(nets['tenant'].ip) == '172.16.0.20'
    assert sorted(nets) == ['internal_api', 'storage', 'tenant']
    assert given.check(say) is checked


def test_role_networks_checked_only_for_roles_with_hosts(tht_dir, tmp_path):
    # THT's Standalone role uses StorageNFS, which the sample lacks.
    roles = os.path.join(tht_dir, 'roles_data_standalone.yaml')
    nets = _write(tmp_path / 'n.yaml', fakes.NETWORK_ISOLATION)
    standalone = _write(tmp_path / 's.yaml', {'Standalone': [
        {'hostname': 's0', 'ctlplane_ip': '192.0.2.30'}]})
    given = fakes.deploy_inputs('oc', str(tmp_path / 'w'), templates=tht_dir,
                                roles_file=roles, networks_file=nets,
                                deployed_servers=standalone)
    with pytest.raises(exceptions.RolesDataError,
                       match='role Standalone uses network StorageNFS'):
        given.check(_say()[1])
    # THT's roles_data.yaml with hosts only for Controller and Compute:
    # CephStorage and the others have none and are not checked.
    only = _write(tmp_path / 'o.yaml', {'Controller': [
        {'hostname': 'c0', 'ctlplane_ip': '192.0.2.10'}]})
    roles_file = _write(tmp_path / 'r.yaml', fakes.THT_ROLES + [
        {'name': 'Odd', 'networks': ['Nowhere']}])
    fakes.deploy_inputs('oc', str(tmp_path / 'w'), templates=tht_dir,
                        roles_file=roles_file, networks_file=nets,
                        deployed_servers=only).check(_say()[1])


def test_deploy_writes_the_record_and_keeps_it(tmp_path):
    servers = _write(tmp_path / 's.yaml', {'Controller': [
        {'hostname': 'c0', 'ctlplane_ip': '192.0.2.10'}]})
    work = tmp_path / 'work'
    request = fakes.deploy_inputs('oc', str(work), deployed_servers=servers,
                                  ).prepare(_say()[1])
    wd = fakes.deploy_inputs('oc', str(work)).workdir
    record = wd.load(wd.ip_allocations_file)
    assert record == {'vips': {'ctlplane': '192.0.2.2'}, 'hosts': {}}
    env = wd.load(wd.deployed_servers_file)['parameter_defaults']
    assert env['ControlPlaneVipData']['fixed_ips'] == [
        {'ip_address': '192.0.2.2'}]
    assert request.servers['Controller'][0]['hostname'] == 'c0'
