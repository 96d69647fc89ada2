import os

import pytest
import yaml

from tripleo_ephemeral.deploy import checks
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import workdir


def _env(tmp_path, name, params):
    path = tmp_path / name
    path.write_text(yaml.safe_dump({'parameter_defaults': params}))
    return str(path)


ROLES = [{'name': 'Controller'}, {'name': 'Compute'}]


def test_first_deploy_has_nothing_to_compare(tmp_path):
    snap = checks.snapshot([_env(tmp_path, 'a.yaml', {'X': 1})], ROLES)
    summary, violations = checks.compare(None, snap)
    assert violations == [] and 'nothing to compare' in summary[0]


def test_ceph_fsid_change_is_refused(tmp_path):
    (tmp_path / 'new').mkdir()
    old = checks.snapshot([_env(tmp_path, 'ceph.yaml',
                                {'CephClusterFSID': 'a'})], ROLES)
    new = checks.snapshot([_env(tmp_path / 'new', 'ceph.yaml',
                                {'CephClusterFSID': 'b'})], ROLES)
    summary, violations = checks.compare(old, new)
    assert [v[0] for v in violations] == ['ceph-fsid-unchanged']
    assert 'parameters changed:  CephClusterFSID' in summary
    with pytest.raises(exceptions.CheckFailedError,
                       match='ceph-fsid-unchanged: CephClusterFSID changed'):
        checks.enforce(violations)
    assert checks.compare(old, new, skip={'ceph-fsid-unchanged'})[1] == []


def test_dropped_network_isolation_environment(tmp_path):
    iso = _env(tmp_path, 'network-isolation.yaml', {})
    other = _env(tmp_path, 'other.yaml', {})
    old = checks.snapshot([iso, other], ROLES)
    new = checks.snapshot([other], ROLES)
    summary, violations = checks.compare(old, new)
    assert [v[0] for v in violations] == ['network-isolation-kept',
                                          'environments-kept']
    assert any('environment removed: ' + iso in line for line in summary)


def test_generated_environments_do_not_count(tmp_path):
    wd = workdir.WorkDir(str(tmp_path))
    pw = _env(tmp_path, os.path.basename(wd.passwords_file), {})
    old = checks.snapshot([pw], ROLES)
    new = checks.snapshot([], ROLES)
    assert checks.compare(old, new)[1] == []


def test_removed_role(tmp_path):
    old = checks.snapshot([], ROLES)
    new = checks.snapshot([], ROLES[:1])
    assert [v[0] for v in checks.compare(old, new)[1]] == ['roles-kept']


def test_unchanged(tmp_path):
    env = _env(tmp_path, 'a.yaml', {'CephClusterFSID': 'a'})
    snap = checks.snapshot([env], ROLES)
    summary, violations = checks.compare(snap, snap)
    assert violations == []
    assert summary == ['Inputs unchanged since the last successful deploy']


def test_rules_file_loads_and_each_kind_is_known():
    for rule in checks.load_rules():
        assert rule['id'] and rule['message']
        checks._violates(rule, checks.snapshot([], ROLES),
                         checks.snapshot([], ROLES))


def test_lifecycle_environments_are_transient(tmp_path):
    lifecycle_dir = tmp_path / 'environments' / 'lifecycle'
    lifecycle_dir.mkdir(parents=True)
    user = _env(tmp_path, 'mine.yaml', {'X': 1})
    prepare = _env(lifecycle_dir, 'update-prepare.yaml',
                   {'LifecycleStage': 'update'})
    prepared = checks.snapshot([prepare, user], ROLES)
    plain = checks.snapshot([user], ROLES)
    # The deploy after a prepare drops it: a summary line, no violation.
    summary, violations = checks.compare(prepared, plain)
    assert violations == []
    assert 'environment removed: %s' % prepare in summary
    # A file of that name elsewhere is the user's own: it must be kept.
    own = _env(tmp_path, 'update-prepare.yaml', {'Y': 2})
    summary, violations = checks.compare(
        checks.snapshot([own, user], ROLES), plain)
    assert [v[0] for v in violations] == ['environments-kept']


def test_deploy_identifiers_are_no_change(tmp_path):
    """Every deploy writes new identifiers: no "parameters changed"."""
    (tmp_path / 'new').mkdir()
    ids = {'DeployIdentifier': 1, 'DeployIdentifierUUID': 'a'}
    old = checks.snapshot([_env(tmp_path, 'p.yaml', ids)], ROLES)
    new = checks.snapshot([_env(tmp_path / 'new', 'p.yaml', dict(
        ids, DeployIdentifier=2, DeployIdentifierUUID='b'))], ROLES)
    summary, violations = checks.compare(old, new)
    assert summary == ['Inputs unchanged since the last successful deploy']
    assert violations == []


def test_skip_check_ids_are_known():
    """Issue 29 case 10: an unknown --skip-check id was accepted silently."""
    checks.check_skip_ids(['roles-kept', 'ceph-fsid-unchanged'])
    with pytest.raises(exceptions.InputError) as err:
        checks.check_skip_ids(['role-kept'])
    message = str(err.value)
    assert message.startswith('--skip-check role-kept names no check (')
    assert 'ceph-fsid-unchanged' in message and 'environments-kept' in message
    assert message.endswith('did you mean roles-kept?')
