"""The control plane's steps of `overcloud adoption export` as a user runs
it, on a small THT-shaped work dir with a control plane
(tests/rhoso_controlplane_workdir.py; the THT deploys are in
test_rhoso_tht.py, opt-in): the layout `oc apply -f` and `oc patch` read,
the variables file as bash sources it, `validate` at both versions, and
the impossible inputs refused in one line with nothing written."""

import os
import subprocess

import yaml

from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests import rhoso_controlplane_workdir
from tripleo_ephemeral.tests import rhoso_workdir

ROLES = ('--networker', 'Networker', '--skip-role', 'Controller')
WORKERS = ('--ocp-worker', 'worker-0=enp6s0', '--ocp-worker',
           'worker-1=enp6s0')


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def test_export_validate_and_source(cli, tmp_path):
    wd = rhoso_controlplane_workdir.write(str(tmp_path / 'wd'))
    out = str(tmp_path / 'out')
    result = cli.json('overcloud', 'adoption', 'export', '--work-dir', wd,
                      '--output-dir', out, *ROLES, *WORKERS,
                      '--storage-class', 'lvms-vg1', '--replicas', '1')
    assert result['control_plane'] == ('19 steps (12 patches): valid for '
                                       'RHOSO 18.0-fr2, 18.0-fr6')
    steps = sorted(n for n in os.listdir(out)
                   if n[:2].isdigit() and int(n[:2]) < 50)
    assert steps == ['10-nncp', '11-networks', '12-metallb',
                     '20-controlplane-secrets', '21-backend-services',
                     '22-ceph-backend', '31-ovn-databases', '32-ovn-northd',
                     '40-keystone', '41-neutron', '42-glance',
                     '43-placement', '44-nova', '45-cinder-api', '46-cinder',
                     '47-horizon', '48-heat']
    assert result['steps'][:len(steps) + 2] == steps[:4] + [
        '21-backend-services', '22-ceph-backend', '23-stop-services',
        '30-database-migration'] + steps[6:]
    # Each YAML file of a step is one Kubernetes document; patches are not
    # YAML names, so `oc apply -f NN-name/` never reads them.
    for step in steps:
        for name in os.listdir(os.path.join(out, step)):
            document = load(os.path.join(out, step, name))
            if name.endswith('.yaml'):
                assert document['apiVersion'] and document['kind'], name
            else:
                assert name.endswith('.patch') and list(document) == ['spec']
    backend = load(os.path.join(out, '21-backend-services',
                                'openstackcontrolplane.yaml'))['spec']
    assert backend['storageClass'] == 'lvms-vg1'
    assert backend['galera']['templates']['openstack-cell1'][
        'replicas'] == 1
    nncp = load(os.path.join(out, '10-nncp', 'nncp-enp6s0-worker-1.yaml'))
    assert [(i['name'], i['vlan']['id'], i['ipv4']['address'][0]['ip'])
            for i in nncp['spec']['desiredState']['interfaces']] == [
        ('internalapi', 20, '172.17.0.254'), ('tenant', 50, '172.19.0.254')]
    neutron = load(os.path.join(out, '41-neutron', 'neutron.patch'))
    assert 'network_vlan_ranges = datacentre:1000:1099,tenant:200:299' in \
        neutron['spec']['neutron']['template']['customServiceConfig']
    with open(os.path.join(out, 'report.md')) as f:
        report = f.read()
    assert ('| ml2_type_vlan | network_vlan_ranges | datacentre:1000:1099,'
            'tenant:200:299 | NeutronNetworkVLANRanges, from hiera neutron::'
            'plugins::ml2::network_vlan_ranges (group_vars/Controller) |'
            ) in report

    for version in ('18.0-fr2', '18.0-fr6'):
        proc = cli.run('overcloud', 'adoption', 'validate', out,
                       '--rhoso-version', version, '-f', 'json')
        assert proc.stdout.strip() == '[]'
        assert 'control plane: 13 states checked' in proc.stderr

    # The passwords are read when sourced, never written.
    with open(os.path.join(out, 'migration-vars.sh')) as f:
        assert rhoso_workdir.PASSWORDS['MysqlRootPassword'] not in f.read()
    shown = subprocess.run(
        ['bash', '-c', '. %s/migration-vars.sh 2>/dev/null; echo "${SOURCE_'
         'DB_ROOT_PASSWORD[default]} ${SOURCE_MARIADB_IP[default]} '
         '${!SOURCE_GALERA_MEMBERS_DEFAULT[@]} $CONTROLLER1_SSH"' % out],
        capture_output=True, text=True, check=True).stdout.split()
    assert shown[:3] == ['root-db', '172.17.0.5',
                         'overcloud-controller-0.localdomain']
    assert shown[-1] == 'tripleo-admin@192.168.24.10'

    # A hand edit that breaks a patch is a row, exit 1.
    path = os.path.join(out, '44-nova', 'nova.patch')
    patch = load(path)
    del patch['spec']['nova']['template']['cellTemplates']['cell0']
    with open(path, 'w') as f:
        yaml.safe_dump(patch, f)
    proc = cli.run('overcloud', 'adoption', 'validate', out, '-f', 'json',
                   check=False)
    assert proc.returncode == 1
    assert yaml.safe_load(proc.stdout) == [{
        'Document': '44-nova/nova.patch',
        'Path': 'spec.nova.template.cellTemplates',
        'Problem': 'cell0 specification is missing, cell0 key is required in '
                   'cellTemplates', 'Fix': 'add cell0', 'Rule': 'webhook'}]


def test_impossible_inputs_one_line_nothing_written(cli, tmp_path):
    wd = rhoso_controlplane_workdir.write(str(tmp_path / 'wd'))
    unknown = rhoso_controlplane_workdir.write(
        str(tmp_path / 'unknown'), extra_services=['frobnicator'])
    out = str(tmp_path / 'out')
    for work_dir, args, line in (
            (wd, WORKERS + ('--ocp-worker-range',
                            'internalapi=172.17.0.245-172.17.0.246',
                            '--pods-range',
                            'internalapi=172.17.0.200-172.17.0.250'),
             'network internalapi subnet subnet1 (172.17.0.0/24): the pods '
             'range 172.17.0.200-172.17.0.250 (--pods-range) overlaps '
             '172.17.0.245-172.17.0.246 (reserved: OpenShift workers '
             '(--ocp-worker-range)); give other addresses with --pods-range '
             'internalapi=<first>-<last>'),
            (wd, ('--loadbalancer-range',
                  'internalapi=172.17.0.251-172.17.0.252'),
             'The load balancers\' range 172.17.0.251-172.17.0.252 of '
             'internalapi holds 2 addresses; the control plane needs 3 '
             'there (internal, rabbitmq, rabbitmq-cell1): give a larger '
             '--loadbalancer-range internalapi=FIRST-LAST'),
            (unknown, (), 'Role Controller runs frobnicator, a service the '
             'export does not know: leave it out knowingly with '
             '--skip-service frobnicator, and adopt it by hand'),
            (wd, ('--ocp-worker', 'Worker_0=enp6s0'),
             '--ocp-worker Worker_0=enp6s0: \'Worker_0\' is not an OpenShift '
             'node name (lower-case letters, digits, "-", ".")')):
        proc = cli.run('overcloud', 'adoption', 'export', '--work-dir',
                       work_dir, '--output-dir', out, *ROLES, *args,
                       check=False)
        assert helpers.one_line_error(proc) == line
        assert not os.path.exists(out)
    result = cli.json('overcloud', 'adoption', 'export', '--work-dir',
                      unknown, '--output-dir', out, *ROLES,
                      '--skip-service', 'frobnicator')
    assert result['control_plane'].startswith('18 steps')
