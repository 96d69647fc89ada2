"""The product's pacemaker_resource and pacemaker_cluster on a real cluster.

A one-node Pacemaker cluster (corosync, pacemaker and pcs from Debian, run
inside a test host: pacemaker_host.py) gets the tasks
tripleo-heat-templates writes (disable with ``wait_for_resource``, ``until:
output.rc == 0``, enable, restart, delete; the upgrade's ``state=online
check_and_fail=true``), run by the product's own playbook runner over SSH,
which finds the product's modules (no ansible-pacemaker is installed here)
and says so in its first line. Then the cluster is stopped and both modules
must fail saying so (and ``pcs cluster start``, which needs systemd, fails
with pcs's own error). About 30 s.
"""

import os

import pytest
import yaml

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.ansible import search_paths
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.tests.functional import pacemaker_host
from tripleo_ephemeral.tests.functional import testhosts

HOST = 'pcmk-0'


@pytest.fixture
def cluster(tmp_path):
    """A test host running a one-node cluster with a primitive ``d`` and
    a clone ``c`` of ocf:pacemaker:Dummy."""
    for reason in (testhosts.unavailable_reason(),
                   pacemaker_host.unavailable_reason()):
        if reason:
            pytest.skip('No Pacemaker test host: %s' % reason)
    network = testhosts.TestHostNetwork(str(tmp_path / 'testhosts'))
    try:
        network.start()
        host = network.add(HOST)
        pacemaker_host.start(host)
        for argv in (('d', 'ocf:pacemaker:Dummy'),
                     ('c', 'ocf:pacemaker:Dummy', 'clone')):
            proc = host.run('pcs', 'resource', 'create', *argv)
            assert proc.returncode == 0, proc.stderr
        yield network, host
    finally:
        problems = network.stop()
        assert not problems, problems


def _config_dir(tmp_path, network, host, tasks):
    cd = tmp_path / 'config-download'
    cd.mkdir(exist_ok=True)
    (cd / 'tripleo-ansible-inventory.yaml').write_text(yaml.safe_dump(
        {'Controller': {'hosts': {HOST: {
            'ansible_host': host.address, 'ansible_user': 'root'}}}}))
    (cd / 'deploy_steps_playbook.yaml').write_text(yaml.safe_dump([
        {'hosts': 'Controller', 'name': 'Pacemaker', 'gather_facts': False,
         'tasks': tasks}]))
    return cd


def _run(cd, network):
    lines = []
    ansible_run.run_config_download(
        str(cd), ansible_run.AnsibleOptions(ssh_key=network.key),
        lines.append)
    return lines


def _tasks_tht_writes():
    def resource(name, state, **more):
        return dict({'resource': name, 'state': state}, **more)
    expect = []

    def step(name, module, args, check=None, **more):
        register = 'r%d' % len(expect)
        if 'until' in more:
            more['until'] = more['until'].replace('R.', register + '.')
        expect.append(dict({'name': name, module: args, 'register': register},
                           **more))
        if check:
            expect.append({'name': 'Check: %s' % name, 'assert': {
                'that': [c.replace('R.', register + '.') for c in check]}})
    step('Check pacemaker cluster running before upgrade',
         'pacemaker_cluster', 'state=online check_and_fail=true',
         ['not R.changed', 'R.out == "online"'], **{'async': 30, 'poll': 4})
    until = {'retries': 5, 'until': 'R.rc == 0'}
    step('Disable the d cluster resource', 'pacemaker_resource',
         resource('d', 'disable', wait_for_resource=True),
         ['R.changed', 'R.rc == 0'], **until)
    step('Disable it again', 'pacemaker_resource',
         resource('d', 'disable', wait_for_resource=True),
         ['not R.changed', 'R.rc == 0'])
    step('d is stopped', 'pacemaker_resource',
         resource('d', 'stopped', check_mode=True),
         ['R.out.status == "stopped"'])
    step('Enable the d cluster resource', 'pacemaker_resource',
         resource('d', 'enable', wait_for_resource=True),
         ['R.changed', 'R.rc == 0'], **until)
    step('d is started', 'pacemaker_resource',
         resource('d', 'started', check_mode=True, wait_for_resource=True,
                  timeout=60), ['R.rc == 0'])
    step('d is not stopped', 'pacemaker_resource',
         resource('d', 'stopped', check_mode=True),
         ['R.failed', 'R.rc == 1', '"is not stopped" in R.msg'],
         ignore_errors=True)
    step('Restart the c clone', 'pacemaker_resource',
         resource('c', 'restart', wait_for_resource=True),
         ['R.changed', 'R.rc == 0'])
    step('Unmanage d', 'pacemaker_resource', resource('d', 'unmanage'),
         ['R.changed'])
    step('Manage d', 'pacemaker_resource', resource('d', 'manage'),
         ['R.changed'])
    step('Show d', 'pacemaker_resource', resource('d', 'show'),
         ['not R.changed', '"Dummy" in R.out'])
    step('A check needs check_mode', 'pacemaker_resource',
         resource('d', 'started'),
         ['R.failed', '"check_mode" in R.msg'], ignore_errors=True)
    step('Enable what is not there', 'pacemaker_resource',
         resource('nothing', 'enable'),
         ['R.failed', 'R.rc != 0', '"nothing" in R.msg'],
         ignore_errors=True)
    step('Remove the d pcs resource', 'pacemaker_resource',
         resource('d', 'delete'), ['R.changed', 'R.rc == 0'])
    step('Remove it again', 'pacemaker_resource', resource('d', 'delete'),
         ['not R.changed', 'R.out.status == "deleted"'])
    step('The cluster is not offline', 'pacemaker_cluster',
         'state=offline check_and_fail=true',
         ['R.failed', '"not offline" in R.msg'], ignore_errors=True)
    return expect


def test_tht_s_pacemaker_tasks_on_a_real_cluster(cluster, tmp_path):
    network, host = cluster
    cd = _config_dir(tmp_path, network, host, _tasks_tht_writes())
    lines = _run(cd, network)
    print('\n'.join(lines))
    assert lines[0] == (
        "Using tripleo-ephemeral's own pacemaker_cluster, pacemaker_resource"
        " (%s): no other is found where this run looks (ANSIBLE_LIBRARY, "
        "ansible.cfg's library, ~/.ansible/plugins/modules, /usr/share/"
        "ansible/plugins/modules, where ansible-pacemaker's RPM puts them)" %
        search_paths.FALLBACK_MODULES)
    assert lines[1].startswith('Running deploy_steps_playbook.yaml on ')
    recap = [line for line in lines if HOST in line and 'ok=' in line]
    assert 'failed=0' in recap[-1], recap
    # What the cluster says, not what the module said.
    assert host.run('pcs', 'resource', 'config', 'd').returncode != 0
    status = host.run('crm_mon', '-1').stdout
    assert 'Started' in status and ' d\t' not in status, status

    # The cluster stopped: both modules fail, saying why.
    pacemaker_host.stop_pacemaker(host)
    cd = _config_dir(tmp_path, network, host, [
        {'name': 'Enable c', 'pacemaker_resource': {
            'resource': 'c', 'state': 'enable'}, 'register': 'r0',
         'ignore_errors': True},
        {'assert': {'that': ['r0.failed', 'r0.rc != 0',
                             '"not running on this host" in r0.msg']}},
        {'name': 'Check online', 'pacemaker_cluster':
         'state=online check_and_fail=true', 'register': 'r1',
         'ignore_errors': True},
        {'assert': {'that': ['r1.failed',
                             '"offline on this host, not online" in '
                             'r1.msg']}},
        {'name': 'Start it', 'pacemaker_cluster': 'state=online timeout=10',
         'register': 'r2', 'ignore_errors': True},
        # pcs starts the daemons through systemd, which no test host has.
        {'assert': {'that': ['r2.failed', '"cluster start failed" in '
                             'r2.msg', 'r2.rc != 0']}}])
    lines = _run(cd, network)
    assert 'failed=0' in [line for line in lines if HOST in line][-1], lines


def test_an_operator_s_ansible_library_module_is_used(tmp_path, monkeypatch):
    """ANSIBLE_LIBRARY set by the operator: its module is found first (a
    local run: the stub only says where it is)."""
    mine = tmp_path / 'my-modules'
    mine.mkdir()
    (mine / 'pacemaker_resource.py').write_text(STUB % 'operator')
    monkeypatch.setenv('ANSIBLE_LIBRARY', str(mine))
    cd = tmp_path / 'cd'
    cd.mkdir()
    (cd / 'tripleo-ansible-inventory.yaml').write_text(yaml.safe_dump(
        {'Controller': {'hosts': {'node-0': {}}, 'vars': {
            'ansible_connection': 'local',
            'ansible_python_interpreter': '/usr/bin/python3'}}}))
    (cd / 'deploy_steps_playbook.yaml').write_text(yaml.safe_dump([
        {'hosts': 'Controller', 'gather_facts': False, 'tasks': [
            {'pacemaker_resource': {'resource': 'x', 'state': 'enable'},
             'register': 'r'},
            {'assert': {'that': ['r.provider == "operator"']}}]}]))
    lines = []
    ansible_run.run_config_download(str(cd), ansible_run.AnsibleOptions(),
                                    lines.append)
    assert lines[0] == 'Using pacemaker_resource from %s' % (
        mine / 'pacemaker_resource.py')
    cfg = (cd / 'ansible.cfg').read_text()
    # The operator's variable stays the operator's: not written in files.
    assert str(mine) not in cfg
    library = [line for line in cfg.splitlines()
               if line.startswith('library = ')]
    assert library[0].endswith(os.pathsep.join([
        '~/.ansible/plugins/modules', '/usr/share/ansible/plugins/modules',
        search_paths.FALLBACK_MODULES])), library


#: A module that only says whose it is.
STUB = '''#!/usr/bin/python
from ansible.module_utils.basic import AnsibleModule
module = AnsibleModule(argument_spec=dict(
    resource=dict(), state=dict(), wait_for_resource=dict(type='bool')))
module.exit_json(changed=False, rc=0, provider=%r)
'''


def test_the_rpm_s_module_is_used_where_an_undercloud_has_it(tmp_path):
    """ansible-pacemaker's RPM puts it in /usr/share/ansible/plugins/
    modules, linux-system-roles' RPM its roles in /usr/share/ansible/roles:
    the run, in a mount namespace of its own where those exist (an overlay
    of /usr/share; nothing changes on this machine), uses them and says
    which module."""
    if os.geteuid() != 0:
        pytest.skip('a private /usr/share needs root (mount namespaces)')
    import subprocess
    import sys

    upper, work = tmp_path / 'upper', tmp_path / 'work'
    modules = upper / 'ansible' / 'plugins' / 'modules'
    modules.mkdir(parents=True)
    work.mkdir()
    (modules / 'pacemaker_resource.py').write_text(STUB % 'rpm')
    role = upper / 'ansible' / 'roles' / 'linux-system-roles.certificate'
    (role / 'tasks').mkdir(parents=True)
    (role / 'tasks' / 'main.yml').write_text(yaml.safe_dump([
        {'set_fact': {'certificate_role': 'rpm'}}]))
    cd = tmp_path / 'cd'
    cd.mkdir()
    (cd / 'tripleo-ansible-inventory.yaml').write_text(yaml.safe_dump(
        {'Controller': {'hosts': {'node-0': {}}, 'vars': {
            'ansible_connection': 'local',
            'ansible_python_interpreter': '/usr/bin/python3'}}}))
    (cd / 'deploy_steps_playbook.yaml').write_text(yaml.safe_dump([
        {'hosts': 'Controller', 'gather_facts': False, 'tasks': [
            {'pacemaker_resource': {'resource': 'x', 'state': 'enable'},
             'register': 'r'},
            {'include_role': {'name': 'linux-system-roles.certificate'}},
            {'assert': {'that': ['r.provider == "rpm"',
                                 'certificate_role == "rpm"']}}]}]))
    code = ('import sys; from tripleo_ephemeral.ansible import run; '
            'run.run_config_download(sys.argv[1], run.AnsibleOptions(), '
            'print)')
    proc = subprocess.run(
        ['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
         'mount -t overlay overlay -o lowerdir=/usr/share,upperdir=%s,'
         'workdir=%s /usr/share && exec "$0" "$@"' % (upper, work),
         sys.executable, '-c', code, str(cd)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    lines = proc.stdout.splitlines()
    assert lines[0] == ('Using pacemaker_resource from /usr/share/ansible/'
                        'plugins/modules/pacemaker_resource.py'), lines
    assert not os.path.exists('/usr/share/ansible/plugins/modules/'
                              'pacemaker_resource.py')


def test_a_module_found_nowhere_still_refuses(tmp_path):
    """With the fallbacks, only what nobody has stops a run."""
    cd = tmp_path / 'cd'
    cd.mkdir()
    (cd / 'tripleo-ansible-inventory.yaml').write_text(yaml.safe_dump(
        {'Controller': {'hosts': {'node-0': {}}}}))
    (cd / 'deploy_steps_playbook.yaml').write_text(yaml.safe_dump([
        {'hosts': 'Controller', 'gather_facts': False, 'tasks': [
            {'name': 'Nobody has it', 'nowhere_module': {}},
            {'name': 'TLS', 'include_role': {
                'name': 'linux-system-roles.certificate'}}]}]))
    with pytest.raises(exceptions.TripleoAnsibleError) as exc:
        ansible_run.run_config_download(
            str(cd), ansible_run.AnsibleOptions(), lambda line: None)
    assert str(exc.value).splitlines()[1:] == [
        'module nowhere_module (from no package known here) is not '
        'installed; used by deploy_steps_playbook.yaml: "Nobody has it"',
        'role linux-system-roles.certificate (from linux-system-roles (a '
        'RHEL/Fedora RPM, not on PyPI, which installs it into '
        '/usr/share/ansible/roles; used with TLS everywhere)) is not '
        'installed; used by deploy_steps_playbook.yaml: "TLS"']
