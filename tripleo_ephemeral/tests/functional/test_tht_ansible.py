"""tripleo-heat-templates 18.0.0's playbooks under TripleO's Ansible.

Opt-in (minutes; TripleO's Ansible must be installed, which
``TRIPLEO_EPHEMERAL_THT=1 python3 tools/dev.py test ...`` does)::

    TRIPLEO_EPHEMERAL_THT=1 pytest -ra -s \\
        tripleo_ephemeral/tests/functional/test_tht_ansible.py

For each THT overcloud the tests deploy (``--stack-only``), every
playbook the lifecycle commands run passes ``--syntax-check`` through the
deploy's own ``ansible-playbook-command.sh``, and every task file and role
task file they include loads with ansible-core's loader; nothing is
missing: ansible-pacemaker's ``pacemaker_resource`` and
``pacemaker_cluster``, which the Controller's (the Standalone's) update,
upgrade and post-upgrade tasks use, are the product's own (and the script
finds them too). Then a real deploy
of THT 1+1 onto two test hosts runs as far as a Debian host goes and stops
there cleanly.
"""

import importlib.util
import os
import re
import subprocess
import time

import pytest

from tripleo_ephemeral.ansible import project as ansible_project
from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests.functional import testhosts
from tripleo_ephemeral.ansible import install
from tripleo_ephemeral.ansible import missing
from tripleo_ephemeral.ansible import search_paths

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
TOOL = os.path.join(REPO, 'tools', 'tht_deploy.py')
#: What the lifecycle commands run (deploy, update, upgrade, post-upgrade,
#: external update/upgrade, scale).
LIFECYCLE = ('deploy_steps_playbook.yaml', 'update_steps_playbook.yaml',
             'upgrade_steps_playbook.yaml', 'post_upgrade_steps_playbook.yaml',
             'pre_upgrade_rolling_steps_playbook.yaml',
             'external_update_steps_playbook.yaml',
             'external_upgrade_steps_playbook.yaml', 'scale_playbook.yaml')
#: The playbooks that use ansible-pacemaker's modules (not on PyPI), and
#: which.
PACEMAKER = {
    'update_steps_playbook.yaml': ['pacemaker_cluster', 'pacemaker_resource'],
    'upgrade_steps_playbook.yaml': ['pacemaker_cluster',
                                    'pacemaker_resource'],
    'post_upgrade_steps_playbook.yaml': ['pacemaker_resource']}

pytestmark = [
    pytest.mark.skipif(os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
                       reason='set TRIPLEO_EPHEMERAL_THT=1 to run the real '
                              'tripleo-heat-templates playbooks (minutes)'),
    pytest.mark.skipif(not os.path.isfile(TOOL),
                       reason='needs a source checkout (tools/)'),
    pytest.mark.skipif(not install.AnsibleInstall().installed(),
                       reason='TripleO\'s Ansible is not installed: "%s"' %
                       install.INSTALL_COMMAND),
]


@pytest.fixture(scope='module')
def tool():
    spec = importlib.util.spec_from_file_location('tht_deploy', TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _syntax_check(config_dir, playbook):
    """``--syntax-check`` of ``playbook`` through the deploy's command
    script; returns (passed, output)."""
    started = time.monotonic()
    proc = subprocess.run(
        ['bash', 'ansible-playbook-command.sh', '--syntax-check'],
        env=dict(os.environ, TRIPLEO_PLAYBOOK=playbook),
        cwd=str(config_dir), capture_output=True, text=True, timeout=600)
    print('  --syntax-check %s: rc %d, %.1fs' % (
        playbook, proc.returncode, time.monotonic() - started))
    return proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize('scenario', ['ctlplane', 'isolation',
                                      'isolation-ha', 'standalone'])
def test_lifecycle_playbooks_load(cli, tool, tmp_path, work_dir, port,
                                  scenario):
    args = tool.write_inputs(tool.tht_dir(), str(tmp_path), scenario)
    done = cli.deploy(work_dir, *args, port=port, timeout=3600)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    cd = helpers.Layout(work_dir).config_download_dir
    assert (cd / 'ansible.cfg').is_file()
    env = ansible_project.environment(str(cd), ansible_run.AnsibleOptions())
    report = missing.walk(env, [str(cd / p) for p in LIFECYCLE])
    assert report.errors == []
    print('%s: %s in all; %d uses behind a false "when" not counted' % (
        scenario, report.totals(), report.skipped))
    assert report.missing == []
    using = {}
    for playbook in LIFECYCLE:
        single = missing.walk(env, [str(cd / playbook)])
        counts = single.playbooks[str(cd / playbook)]
        print('%s %s: %s, the product\'s own %s' % (
            scenario, playbook, counts, sorted(single.which)))
        assert counts['tasks'] > 0
        if single.which:
            using[playbook] = sorted(single.which)
            assert {os.path.dirname(p) for p in single.which.values()} == {
                search_paths.FALLBACK_MODULES}
        # The script looks where the product's runs do.
        passed, output = _syntax_check(cd, playbook)
        assert passed, (playbook, output[-3000:])
    assert using == PACEMAKER


#: How far THT 1+1's deploy_steps_playbook gets on the Debian test hosts
#: (measured: 115-137 s of Ansible, ok=55-59 changed=27 per host): the plays
#: that run, the last one failing at the first task that needs RHEL (the
#: os-net-config package), on both hosts.
COMPLETED_PLAYS = [
    'External deployment step 0', 'Check if required variables are defined',
    'Clear cached facts', 'Gather facts', 'Load global variables',
    'Include extra variables from files',
    'Render all_nodes data as group_vars for overcloud',
    'Set all_nodes data as group_vars for overcloud', 'Manage SELinux',
    'Generate /etc/hosts', 'Common roles for TripleO servers',
    'Deploy step tasks for step 0', 'Server pre network steps',
    'Server network deployments']
FIRST_RHEL_TASK = 'Run tripleo_os_net_config_module with network_config'


def test_real_deploy_stops_at_the_first_rhel_task(cli, tool, tmp_path,
                                                  work_dir, port):
    reason = testhosts.unavailable_reason()
    if reason:
        pytest.skip('No test hosts: %s' % reason)
    network = testhosts.TestHostNetwork(str(tmp_path / 'testhosts'))
    controller, compute = tool.CONTROLLER % 0, tool.COMPUTE % 0
    try:
        network.start()
        for name in (controller, compute):
            host = network.add(name)
            proc = host.run('sh', '-c', helpers.RHEL_HOST_FILES)
            assert proc.returncode == 0, proc.stderr
        servers = helpers.host_servers_file(
            tmp_path, 'servers.yaml', network, [controller], [compute])
        started = time.monotonic()
        done = cli.deploy(
            work_dir, '--templates', tool.tht_dir(), '--deployed-servers',
            str(servers), '--overcloud-ssh-key', network.key,
            '--overcloud-ssh-user', 'root',
            # The Undercloud plays write this machine's /etc/openstack and
            # call the overcloud's Keystone: keep them out.
            '--limit', 'overcloud', port=port, stack_only=False,
            check=False, timeout=3600)
        seconds = time.monotonic() - started
        print('deploy took %.1fs:\n%s' % (seconds, done.progress[-6000:]))
        wd = helpers.Layout(work_dir)
        assert done.returncode != 0
        assert wd.status() == 'DEPLOY_FAILED'
        error = done.progress.strip().splitlines()[-1]
        match = re.search(r'Ansible failed on (.+?) at task "([^"]+)": (.*)',
                          error)
        assert match, error
        plays = re.findall(r'PLAY (.+?): ok=', done.progress)
        print('completed plays: %s\nfirst failure: %s' % (plays, error))
        assert plays == COMPLETED_PLAYS
        assert match.group(1) == '%s, %s' % (controller, compute)
        assert match.group(2) == FIRST_RHEL_TASK
        assert 'os-net-config: not found' in match.group(3)
        helpers.assert_no_heat_left(wd.heat_dir, port)
        assert helpers.processes_naming(str(work_dir)) == []
    finally:
        problems = network.stop()
        assert not problems, problems


def test_install_command_reports_the_installed_ansible(cli):
    """Installed already (the module's condition): a no-op with versions."""
    shown = cli.json('tripleo', 'ansible', 'install')
    assert shown['installed'] is False
    assert shown['path'] == install.AnsibleInstall().path
    assert (shown['ansible_core'], shown['tripleo_ansible']) == (
        '2.14.18', '6.0.0')
    assert shown['versions']['ansible'] == '7.7.0'
    proc = subprocess.run([shown['ansible_playbook'], '--version'],
                          capture_output=True, text=True, check=True)
    assert 'core 2.14.18' in proc.stdout
