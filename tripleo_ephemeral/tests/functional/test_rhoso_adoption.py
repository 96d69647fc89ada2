"""`overcloud adoption export` and `validate` as a user runs them, on a
small THT-shaped work dir (tests/rhoso_workdir.py; the THT deploys are in
test_rhoso_tht.py, opt-in)."""

import os

import yaml

from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests import rhoso_workdir

ROLES = ('--networker', 'Networker', '--skip-role', 'Controller')


def test_export_then_validate(cli, tmp_path):
    wd = rhoso_workdir.write(str(tmp_path / 'wd'))
    out = str(tmp_path / 'out')
    result = cli.json('overcloud', 'adoption', 'export', '--work-dir', wd,
                      '--output-dir', out, *ROLES)
    assert result['nodesets'] == {
        'openstack-cell1': ['overcloud-novacompute-0',
                            'overcloud-novacompute-1'],
        'openstack-networker': ['overcloud-networker-0']}
    assert result['nic_templates'] == ('same network_config as TripleO on '
                                       '3 of 3 nodes')

    # A second export does not replace the first unasked.
    again = cli.run('overcloud', 'adoption', 'export', '--work-dir', wd,
                    '--output-dir', out, *ROLES, check=False)
    assert helpers.one_line_error(again) == (
        '%s exists, not exporting: pass --overwrite to replace it, or '
        'choose another --output-dir' % out)

    proc = cli.run('overcloud', 'adoption', 'validate', out,
                   '--rhoso-version', '18.0-fr2', '-f', 'json')
    assert proc.stdout.strip() == '[]'
    assert ('15 documents of %s against RHOSO 18.0-fr2 and the work dir %s: '
            'valid; NIC template: same network_config on 3 of 3 nodes'
            % (out, wd)) in proc.stderr

    # The quiet mistake: a short hostName (Nova would see a new host).
    path = os.path.join(out, '53-compute-nodesets',
                        '01-nodeset-openstack-cell1.yaml')
    with open(path) as f:
        nodeset = yaml.safe_load(f)
    nodeset['spec']['nodes']['overcloud-novacompute-0']['hostName'] = \
        'overcloud-novacompute-0'
    with open(path, 'w') as f:
        yaml.safe_dump(nodeset, f)
    proc = cli.run('overcloud', 'adoption', 'validate', out, '-f', 'json',
                   check=False)
    assert proc.returncode == 1
    assert yaml.safe_load(proc.stdout) == [{
        'Document': '53-compute-nodesets/01-nodeset-openstack-cell1.yaml '
                    '(OpenStackDataPlaneNodeSet openstack-cell1)',
        'Path': 'spec.nodes.overcloud-novacompute-0.hostName',
        'Problem': 'hostName \'overcloud-novacompute-0\' is not TripleO\'s '
                   'canonical FQDN overcloud-novacompute-0.localdomain (Nova '
                   'and OVN would see a new host)',
        'Fix': 'set hostName: overcloud-novacompute-0.localdomain',
        'Rule': 'work dir'}]
