"""A signal while Ansible configures the servers: ansible-playbook and its
ssh connections (ControlPersist masters included) are gone (in seconds; a
master still there after a minute is one left behind)."""

import contextlib
import json
import os
import signal
import time

import psutil
import yaml

from tripleo_ephemeral.tests.functional import helpers


def _servers(tmp_path, network):
    path = tmp_path / 'servers.yaml'
    path.write_text(yaml.safe_dump({
        'Controller': [{'hostname': 'ctrl-0', 'ssh_user': 'root',
                        'ctlplane_ip': network.hosts['ctrl-0'].address}],
        'Compute': [{'hostname': name, 'ssh_user': 'root',
                     'ctlplane_ip': network.hosts[name].address}
                    for name in ('cmp-0', 'cmp-1')]}))
    return path


def _ssh_masters():
    """The ssh ControlPersist masters of our runs ("ssh: <dir>/... [mux]"
    in a te-ssh-* directory)."""
    return [p.pid for p in psutil.process_iter(['cmdline'])
            if '/te-ssh-' in ' '.join(p.info['cmdline'] or ())]


def _playbooks_of(dirs):
    """The processes of the runs whose te-ssh-<dir> are ``dirs`` (by
    their ANSIBLE_SSH_CONTROL_PATH_DIR)."""
    found = []
    for proc in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            path = proc.environ().get('ANSIBLE_SSH_CONTROL_PATH_DIR', '')
            if os.path.basename(path).startswith('te-ssh-') and \
                    os.path.basename(path)[len('te-ssh-'):] in dirs:
                found.append(proc)
    return found


def _control_dirs(pids):
    """The te-ssh-* directories the masters ``pids`` serve (those still
    running)."""
    found = set()
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            for word in psutil.Process(pid).cmdline():
                if '/te-ssh-' in word:
                    found.add(word.split('/te-ssh-')[1].split('/')[0])
    return found


def _cmdline(proc):
    """Its command line, or '' for a process gone or a zombie."""
    try:
        return ' '.join(proc.cmdline())
    except psutil.Error:
        return ''


def test_signal_while_ansible_runs(cli, work_dir, hosts, tmp_path):
    before = set(_ssh_masters())
    run = cli.running('overcloud', 'deploy', '-y', '--work-dir',
                      str(work_dir),
                      '--deployed-servers', str(_servers(tmp_path, hosts)),
                      '--overcloud-ssh-key', hosts.key)
    run.wait_for(r'\] PLAY Host preparation', timeout=400)
    deploy = psutil.Process(run.proc.pid)
    ansible = [p for p in deploy.children(recursive=True)
               if 'ansible-playbook' in _cmdline(p)]
    assert ansible, 'no ansible-playbook under the deploy'
    # The run keeps ssh masters, in a te-ssh-* directory of its own (other
    # tests running meanwhile have theirs).
    dirs = _control_dirs(set(_ssh_masters()) - before)
    assert dirs
    run.send(signal.SIGINT)
    rc, out = run.finish('Ansible')
    assert rc != 0 and 'Traceback' not in run.stderr
    assert 'SIGINT received while running Ansible' in run.stderr
    assert 'Stopping Ansible' in run.stderr
    assert 'Interrupted (SIGINT)' in run.stderr.splitlines()[-1]
    end = time.monotonic() + 5
    while any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE
              for p in ansible) and time.monotonic() < end:
        time.sleep(0.1)
    assert not [p.pid for p in ansible if p.is_running() and
                p.status() != psutil.STATUS_ZOMBIE]
    # A master exits once its socket is closed: seconds, more on a loaded
    # machine; a master that stays is a minute's hang, not a slow stop.
    end = time.monotonic() + 60
    while _control_dirs(_ssh_masters()) & dirs and time.monotonic() < end:
        time.sleep(0.1)
    assert not _control_dirs(_ssh_masters()) & dirs
    wd = helpers.Layout(work_dir)
    assert wd.status() == 'DEPLOY_FAILED'
    helpers.assert_no_heat_left(wd.heat_dir)
    assert helpers.processes_naming(wd.path) == []


def test_a_kill_during_ansible_is_swept_by_the_next_run(cli, work_dir, hosts,
                                                        tmp_path):
    """SIGKILL leaves the run no time to close its ssh masters: the next
    command that runs Ansible closes them and removes their directory."""
    servers = str(_servers(tmp_path, hosts))
    argv = ('overcloud', 'deploy', '-y', '--work-dir', str(work_dir),
            '--deployed-servers', servers, '--overcloud-ssh-key', hosts.key)
    before = set(_ssh_masters())
    run = cli.running(*argv)
    run.wait_for(r'\] PLAY Host preparation', timeout=400)
    dirs = _control_dirs(set(_ssh_masters()) - before)
    assert dirs
    run.proc.kill()
    run.proc.wait(timeout=60)
    time.sleep(1)
    assert _control_dirs(_ssh_masters()) & dirs  # nobody closed them
    orphans = _playbooks_of(dirs)
    again = cli.run(*argv, '-f', 'json', timeout=900)
    assert json.loads(again.stdout)['status'] == 'DEPLOY_SUCCESS'
    assert not _control_dirs(_ssh_masters()) & dirs
    # The ansible-playbook the kill left running was stopped by the next
    # run (or had finished before it).
    assert not [p for p in orphans if p.is_running() and
                p.status() != psutil.STATUS_ZOMBIE]
    assert not [d for d in dirs if os.path.exists('/tmp/te-ssh-' + d)]
