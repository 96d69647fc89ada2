"""What the equivalence check forgives, and what it does not."""

import copy

import yaml

from tripleo_ephemeral.tripleoclient_adoption import equivalence

FSID = '4b5c8c0a-ff60-454b-a1b4-9747aa737d19'
U1, U2, U3, U4 = ('%08d-0000-4000-8000-%012d' % (i, i) for i in range(1, 5))


def side(tmp_path, name, ids, deploy_id, order=('A', 'B'), fsid=FSID,
         extra_file=False):
    root = tmp_path / name
    host_vars = root / 'host_vars'
    host_vars.mkdir(parents=True)
    (host_vars / 'ctrl-0').write_text(yaml.safe_dump({
        'deploy_server_id': ids[0], 'pre_deployments_Controller':
        list(order)}))
    (root / 'artifacts').mkdir()
    (root / 'artifacts' / 'noise').write_text(ids[1])
    if extra_file:
        (root / 'extra.yaml').write_text('x: 1\n')
    work_dir = '/work/%s' % name
    files = {'file://%s/tripleo-heat-templates/overcloud-resource-registry'
             '.yaml' % work_dir: '{}'}
    environment = {
        'parameter_defaults': {'DeployIdentifier': deploy_id,
                               'CephClusterFSID': fsid, 'Count': 1},
        'resource_registry': {
            'OS::X': 'file://%s/tripleo-heat-templates/x.yaml' % work_dir,
            'OS::Custom': 'file://%s/adopted/files/home/c.yaml' % work_dir
            if name == 'new' else 'file:///home/c.yaml'}}
    outputs = {
        'ServerIdData': {'server_ids': {'Controller': [ids[0]]}},
        'Pair': [ids[0], ids[1]],
        'Stack': 'overcloud-Controller-abcdefgh2345-0-%s/%s' % (
            'zzzzzzzzzzzz' if name == 'new' else 'yyyyyyyyyyyy', ids[1]),
        'Global': {'deploy_identifier': deploy_id, 'fsid': fsid,
                   'created': '2026-11-24T22:45:25Z'},
    }
    deployments = [{'id': ids[2], 'server_id': ids[0], 'name': n}
                   for n in order]
    return equivalence.Side(work_dir, outputs, deployments, str(root),
                            environment, files, {'AdminPassword': 'pw'})


def test_what_changes_on_every_create_is_forgiven(tmp_path):
    old = side(tmp_path, 'old', (U1, U2, U3), 1700000000)
    new = side(tmp_path, 'new', (U4, U3, U2), 1800000000, order=('B', 'A'))
    report = equivalence.compare(old, new)
    assert report.differences == []
    assert report.compared['config-download files'] == 1   # runner dirs out
    assert report.compared['registry entries'] == 2
    assert report.normalised['<DeployIdentifier>'] == 2
    assert report.normalised['<stack name id>'] == 4


def test_swapped_ids_a_changed_fsid_and_files_show(tmp_path):
    old = side(tmp_path, 'old', (U1, U2, U3), 1)
    new = side(tmp_path, 'new', (U4, U4, U2), 2, extra_file=True,
               fsid='00000000-1111-4222-8333-444444444444')
    report = equivalence.compare(old, new)
    text = '\n'.join(report.differences)
    assert 'parameter CephClusterFSID differs' in text
    assert 'output Global differs' in text        # the fsid is kept as is
    assert 'output Pair differs' in text          # one id where two were
    assert 'config-download/extra.yaml only in the redeployed one' in text


def test_outputs_of_a_re_creation(tmp_path):
    outputs = side(tmp_path, 'old', (U1, U2, U3), 1).outputs
    again = copy.deepcopy(outputs)
    assert equivalence.compare_outputs(outputs, again).equivalent
    again['Global']['fsid'] = 'x'
    assert not equivalence.compare_outputs(outputs, again).equivalent
