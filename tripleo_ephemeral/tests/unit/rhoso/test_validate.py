"""``adoption validate`` on kits someone else wrote: nothing of the input
runs, nothing hangs or blows up, every malformed document is a problem
row, and the procedure's order is checked."""

import os
import time

import pytest
import yaml

from tripleo_ephemeral.rhoso import export
from tripleo_ephemeral.rhoso import export_files
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import validate
from tripleo_ephemeral.rhoso import writing
from tripleo_ephemeral.tests import rhoso_workdir
from tripleo_ephemeral import workdir

NODESET = os.path.join('53-compute-nodesets',
                       '01-nodeset-openstack-cell1.yaml')


@pytest.fixture
def kit(tmp_path):
    wd = workdir.WorkDir(rhoso_workdir.write(str(tmp_path / 'wd')))
    built = export.build(wd, plan.choices(
        '18.0-fr6', networkers=['Networker'], skipped=['Controller']))
    dest = str(tmp_path / 'kit')
    writing.write(dest, export_files.files(built),
                  export_files.private_dirs(built))
    return dest, built.deployment


def _check(dest, deployment=None):
    documents, found = validate.load_dir(dest)
    result = validate.check(documents, '18.0-fr6', deployment,
                            plan.choices('18.0-fr6').rhoso_network,
                            skipped={'Controller'})
    return found + result.problems


def test_a_kit_is_valid(kit):
    assert _check(*kit) == []


def test_a_template_runs_no_code(kit, tmp_path):
    dest, deployment = kit
    marker = tmp_path / 'ran'
    path = os.path.join(dest, NODESET)
    with open(path) as f:
        nodeset = yaml.safe_load(f)
    nodeset['spec']['nodeTemplate']['ansible']['ansibleVars'][
        'edpm_network_config_template'] = (
        "{{ cycler.__init__.__globals__.os.system('touch %s') }}\n"
        "network_config: []\n" % marker)
    with open(path, 'w') as f:
        yaml.safe_dump(nodeset, f)
    found = _check(dest, deployment)
    assert not marker.exists()
    assert [p.rule for p in found] == ['nic', 'nic']
    assert 'SecurityError: access to attribute \'__init__\'' in \
        found[0].message


def test_an_alias_bomb_is_one_row_at_once(kit):
    dest, _ = kit
    bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    prev = 'a'
    for name in 'bcdefghi':
        bomb += '%s: &%s [%s]\n' % (name, name, ','.join(['*' + prev] * 9))
        prev = name
    with open(os.path.join(dest, '52-nova-cells', '03-bomb.yaml'), 'w') as f:
        f.write(bomb)
    started = time.monotonic()
    found = _check(dest)
    assert time.monotonic() - started < 60  # a hang, not a timing
    assert [(p.document, p.rule) for p in found] == [
        ('52-nova-cells/03-bomb.yaml', 'yaml')]
    assert 'its aliases (*name) expand' in found[0].message


def test_what_is_not_a_regular_file_is_never_opened(kit, tmp_path):
    dest, _ = kit
    os.mkfifo(os.path.join(dest, '56-compute-adoption', '02-fifo.yaml'))
    os.symlink('/etc/hostname', os.path.join(dest, '52-nova-cells',
                                             '03-link.yaml'))
    found = {p.document: p.message for p in _check(dest)}
    assert found == {
        '56-compute-adoption/02-fifo.yaml': 'is not a regular file (a '
        'FIFO): validate reads regular files only',
        '52-nova-cells/03-link.yaml': 'is a symbolic link, which validate '
        'does not follow'}


@pytest.mark.parametrize('text, message', [
    ('apiVersion: network.openstack.org/v1beta1\nkind: NetConfig\n'
     'metadata: {name: n}\nspec:\n  networks:\n  - [ctlplane, '
     '192.168.24.0/24]\n', "['ctlplane', '192.168.24.0/24'] is not of type "
     "object"),
    ('- just\n- a list\n', 'is not a mapping'),
    ('title: notes\n', 'is not a Kubernetes document'),
    ('a: 1\na: 2\n', 'cannot be read as YAML'),
    (b'kind: \xff\n', 'is not UTF-8'),
])
def test_a_malformed_document_is_a_problem_row(kit, text, message):
    dest, deployment = kit
    mode = 'wb' if isinstance(text, bytes) else 'w'
    with open(os.path.join(dest, '50-netconfig', '02-other.yaml'), mode) as f:
        f.write(text)
    found = _check(dest, deployment)
    assert [p.document.split(' ')[0] for p in found] == [
        '50-netconfig/02-other.yaml']
    assert message in found[0].message


def test_the_procedures_order(kit):
    dest, _ = kit
    cleanup = os.path.join(dest, '55-tripleo-cleanup',
                           '02-deployment-tripleo-cleanup.yaml')
    with open(cleanup) as f:
        document = yaml.safe_load(f)
    document['spec']['nodeSets'].append('openstack-networker')
    with open(os.path.join(dest, '60-networker-nodesets',
                           '02-cleanup.yaml'), 'w') as f:
        yaml.safe_dump(dict(document, metadata={'name': 'cleanup-2'}), f)
    found = [(p.path, p.rule, p.message.split(':')[0]) for p in _check(dest)]
    assert found == [
        ('spec.nodeSets[1]', 'procedure', 'NodeSet openstack-networker is '
         'applied in the same directory (60-networker-nodesets)'),
        ('spec.nodeSets[1]', 'procedure', 'the TripleO cleanup would run on '
         'networker NodeSet openstack-networker')]


def test_the_flat_kit_of_before_is_refused(kit, tmp_path):
    """All the documents in one directory, as exports wrote them before
    the steps: one apply would start every Deployment at once."""
    dest, _ = kit
    flat = tmp_path / 'flat'
    flat.mkdir()
    for step in sorted(os.listdir(dest)):
        if step[:2].isdigit():
            for name in os.listdir(os.path.join(dest, step)):
                os.link(os.path.join(dest, step, name),
                        str(flat / ('%s-%s' % (step, name))))
    found = _check(str(flat))
    assert {p.rule for p in found} == {'procedure'}
    assert sum('one oc apply would run both at once' in p.message
               for p in found) == 4
