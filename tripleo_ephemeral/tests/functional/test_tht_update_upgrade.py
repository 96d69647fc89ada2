"""Minor update and major upgrade of tripleo-heat-templates 18.0.0's 1+1.

Opt-in (10 minutes; TripleO's Ansible must be installed, which
``TRIPLEO_EPHEMERAL_THT=1 python3 tools/dev.py test ...`` does)::

    TRIPLEO_EPHEMERAL_THT=1 python3 tools/dev.py test -s \\
        tripleo_ephemeral/tests/functional/test_tht_update_upgrade.py

What a new user types from day2.rst, on two test hosts (Controller with
Pacemaker, Compute): the deploy (which stops at the first task that needs
RHEL, as test_tht_ansible.py's), ``update prepare``, ``update run --limit
Compute``, ``--limit Controller``, both, ``external-update run``, then
``upgrade prepare``, ``upgrade run`` for the same limits and
``external-upgrade run``. The Controller runs a one-node Pacemaker cluster
(pacemaker_host.py: what the deploy's step 1 would have made on RHEL), so
ansible-pacemaker's tasks meet a real cluster, through the product's own
modules (said in each run's first line). Each run must start Ansible (no
refusal before it) and end where the measured one ended: the tasks ok per
host and the task it stopped at are printed in a table and checked against
:data:`MEASURED`.
"""

import re
import time

import pytest
import yaml

from tripleo_ephemeral.ansible import install
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests.functional import pacemaker_host
from tripleo_ephemeral.tests.functional import testhosts

pytestmark = helpers.THT_OPT_IN + [
    pytest.mark.skipif(not install.AnsibleInstall().installed(),
                       reason='TripleO\'s Ansible is not installed: "%s"' %
                       install.INSTALL_COMMAND),
]

UPDATE_RUNS = (('update', 'run', '--limit', 'Compute'),
               ('update', 'run', '--limit', 'Controller'),
               ('update', 'run', '--limit', 'Controller,Compute'),
               ('external-update', 'run'))
UPGRADE_RUNS = (('upgrade', 'run', '--limit', 'Compute'),
                ('upgrade', 'run', '--limit', 'Controller'),
                ('upgrade', 'run', '--limit', 'Controller,Compute'),
                ('external-upgrade', 'run'))
OWN_MODULES = "Using tripleo-ephemeral's own pacemaker_"
#: Where an undercloud's image registry is (tripleoclient's default).
UNDERCLOUD_REGISTRY = '192.168.24.1:8787'
#: Each run: the task it stops at (None: it succeeds), measured on the
#: Debian test hosts with THT 18.0.0 and tripleo-ansible 6.0.0: the update
#: at its first SELinux task (policycoreutils-python, SELinux enforcing), the
#: external steps where they exec into the overcloud's containers, the
#: Compute's upgrade at tripleo-ansible 6.0.0's missing task file (warned of
#: first), the Controller's where pcs stops the cluster through systemd.
MEASURED = {
    'update run --limit Compute':
        'Create fcontext entry for container-config-scripts',
    'update run --limit Controller':
        'Create fcontext entry for container-config-scripts',
    'update run --limit Controller,Compute':
        'Create fcontext entry for container-config-scripts',
    'external-update run': 'Online data migration for Cinder',
    'upgrade run --limit Compute': 'nova migration target tempfile cleanup',
    'upgrade run --limit Controller': 'Stop pacemaker cluster',
    'upgrade run --limit Controller,Compute':
        'nova migration target tempfile cleanup',
    'external-upgrade run': 'Online data migration for Cinder',
}
#: The warning the Compute's upgrade starts with.
MISSING_TASK_FILE = ('WARNING: roles/tripleo_nova_migration_target/tasks/'
                     'upgrade.yaml: "nova migration target tempfile cleanup" '
                     'includes nova_migration_target_update.yaml')


class Run:
    """One run command, read from its stderr."""

    def __init__(self, args, proc, seconds):
        self.args = args
        self.seconds = seconds
        self.returncode = proc.returncode
        self.stderr = proc.stderr
        lines = proc.stderr.splitlines()
        started = [i for i, line in enumerate(lines)
                   if line.startswith('Running ')]
        #: What is said before Ansible starts (whose modules, warnings).
        self.first = lines[:started[0]] if started else lines
        self.playbooks = re.findall(r'^Running (\S+) on ', proc.stderr, re.M)
        #: ok= per host of the last playbook's recap.
        self.ok = dict(re.findall(r'^ {9}(\S+)\s+ok=(\d+) ', proc.stderr,
                                  re.M))
        failed = re.search(r'^Ansible failed on (.+?) at task "([^"]+)": '
                           r'(.*)$', proc.stderr, re.M)
        self.stopped = (failed.group(2), failed.group(1),
                        failed.group(3)[:160]) if failed else None
        self.refused = ' cannot run with the Ansible in ' in proc.stderr

    @property
    def name(self):
        return ' '.join(self.args)

    def row(self):
        ok = ', '.join('%s ok=%s' % (h.replace('overcloud-', ''), n)
                       for h, n in sorted(self.ok.items()))
        where = ('stopped at "%s" on %s: %s' % self.stopped if self.stopped
                 else 'succeeded' if self.returncode == 0 else
                 'failed: %s' % self.stderr.strip().splitlines()[-1])
        return '%-38s %5.0fs  %s | %s' % (self.name, self.seconds, ok, where)


def _run(cli, work_dir, args):
    started = time.monotonic()
    proc = cli.run(*(('overcloud',) + args + ('-y', '--work-dir',
                                              str(work_dir))),
                   check=False, timeout=3600)
    run = Run(args, proc, time.monotonic() - started)
    print('%s (exit %d)\n%s%s' % (run.name, proc.returncode,
                                  proc.stdout[-2000:], proc.stderr[-4000:]))
    return run


def _images(cli, tmp_path):
    """deploy.rst's step 3: tripleo-common's default image settings, with
    the namespace an undercloud's registry serves (plain HTTP: it lands in
    DockerInsecureRegistryAddress, which THT's podman upgrade tasks need
    set)."""
    path = tmp_path / 'containers-prepare-parameter.yaml'
    cli.run('tripleo', 'container', 'image', 'prepare', 'default',
            '--output-env-file', str(path))
    data = yaml.safe_load(path.read_text())
    entry = data['parameter_defaults']['ContainerImagePrepare'][0]['set']
    entry['namespace'] = UNDERCLOUD_REGISTRY + '/' + entry[
        'namespace'].rsplit('/', 1)[-1]
    path.write_text(yaml.safe_dump(data))
    return str(path)


def _prepare(cli, work_dir, port, kind, inputs):
    result = cli.json('overcloud', kind, 'prepare', '-y', '--work-dir',
                      str(work_dir), '--heat-api-port', str(port), *inputs,
                      timeout=3600)
    assert result['stack_status'] == 'CREATE_COMPLETE'


def test_update_and_upgrade_run_on_test_hosts(cli, tmp_path, work_dir, port):
    for reason in (testhosts.unavailable_reason(),
                   pacemaker_host.unavailable_reason()):
        if reason:
            pytest.skip('No test hosts with Pacemaker: %s' % reason)
    tool = helpers.tht_tool()
    network = testhosts.TestHostNetwork(str(tmp_path / 'testhosts'))
    controller, compute = tool.CONTROLLER % 0, tool.COMPUTE % 0
    runs = []
    try:
        network.start()
        for name in (controller, compute):
            proc = network.add(name).run('sh', '-c', helpers.RHEL_HOST_FILES)
            assert proc.returncode == 0, proc.stderr
        pacemaker_host.start(network.hosts[controller])
        servers = helpers.host_servers_file(
            tmp_path, 'servers.yaml', network, [controller], [compute])
        inputs = ('--templates', tool.tht_dir(), '--deployed-servers',
                  str(servers), '-e', _images(cli, tmp_path),
                  '--overcloud-ssh-key', network.key,
                  '--overcloud-ssh-user', 'root')
        done = cli.deploy(work_dir, *inputs, '--limit', 'overcloud',
                          port=port, stack_only=False, check=False,
                          timeout=3600)
        assert 'os-net-config: not found' in done.progress, \
            done.progress[-3000:]

        _prepare(cli, work_dir, port, 'update', inputs)
        runs += [_run(cli, work_dir, args) for args in UPDATE_RUNS]
        _prepare(cli, work_dir, port, 'upgrade', inputs)
        runs += [_run(cli, work_dir, args) for args in UPGRADE_RUNS]
    finally:
        problems = network.stop()
        if runs:
            print('\n'.join(['', 'THT 1+1 update and upgrade on test hosts:']
                            + [run.row() for run in runs]))
    assert not problems, problems
    for run in runs:
        assert not run.refused, run.stderr[-2000:]
        assert run.playbooks, run.stderr[-2000:]
        assert run.returncode == 0 or run.stopped, run.stderr[-2000:]
        # The Controller's tasks use ansible-pacemaker's modules: the
        # product's are used, and the run says so first.
        own = [line for line in run.first if line.startswith(OWN_MODULES)]
        assert bool(own) == ('Controller' in run.name), run.first
        warned = [line for line in run.first
                  if line.startswith(MISSING_TASK_FILE)]
        assert bool(warned) == (run.args[0] == 'upgrade' and
                                'Compute' in run.name), run.first
    measured = {run.name: run.stopped and run.stopped[0] for run in runs}
    assert measured == MEASURED
    assert helpers.processes_naming(str(work_dir)) == []
