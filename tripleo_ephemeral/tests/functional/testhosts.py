"""Real servers to deploy onto: network namespaces running sshd.

Each test host is a network namespace with a veth on a private bridge
(``10.254.<n>.0/24``, the host side is ``.1``) and its own sshd, started
in its own mount namespace where every directory a playbook writes
(``/etc``, ``/usr``, ``/var``, ``/opt``, ``/srv``, ``/home``) is an overlay
with a per-host upper directory, ``/run``, ``/root`` and ``/dev/shm`` are
tmpfs, and
``/proc/sys`` and ``/sys`` are read-only (tripleo-heat-templates' tasks set
kernel-wide sysctls: they fail there instead of changing this machine). So
the host shares the machine's programs (python3, sudo, sh, useradd) but
whatever Ansible writes there (``/etc/hosts``, marker files, a pid file, a
new user, packages' files) belongs to that host alone, and the test can
read it back through :meth:`TestHost.read`. A host has no route out: its
only network is the test bridge. sshd accepts the test key for every
user, and each user's own ``~/.ssh/authorized_keys``; it uses PAM, as
distributions' sshd do (a new user's locked password does not then refuse
key logins).

Everything is removed by :meth:`TestHostNetwork.stop` by pid and by name:
the processes in each namespace are killed, the namespaces, veths and the
bridge deleted. Traffic only goes to addresses made here.

This module is for tests only; it is the one place they run ``ip``,
``sshd`` and ``nsenter``.
"""

import ipaddress
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time

SSHD = '/usr/sbin/sshd'
#: Directories each host sees through its own overlay.
OVERLAID = ('/etc', '/usr', '/var', '/opt', '/srv', '/home')
#: Read-only in each host: kernel-wide settings stay this machine's.
READ_ONLY = ('/proc/sys', '/sys')
#: Empty per host: root's home (this machine's dotfiles stay out), and
#: /dev/shm (what a host's daemons leave there, Pacemaker's libqb files,
#: podman's lock, goes with it).
EMPTIED = (('/run', '0755'), ('/root', '0755'), ('/dev/shm', '1777'))
SSHD_CONFIG = """\
ListenAddress {address}
Port 22
HostKey {dir}/ssh_host_ed25519_key
PidFile {dir}/sshd.pid
AuthorizedKeysFile {authorized_keys} .ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM yes
StrictModes no
UseDNS no
MaxStartups 50
MaxSessions 50
Subsystem sftp internal-sftp
LogLevel ERROR
"""


class TestHostError(Exception):
    """A test host could not be made."""


def _run(argv, check=True, **kwargs):
    proc = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if check and proc.returncode != 0:
        raise TestHostError('%s failed (%d): %s' % (
            ' '.join(argv), proc.returncode, proc.stderr.strip()))
    return proc


def unavailable_reason():
    """Return why test hosts cannot work here, or None."""
    if os.geteuid() != 0:
        return 'test hosts need root (network and mount namespaces)'
    for tool in ('ip', 'unshare', 'nsenter', 'ssh-keygen', 'sudo'):
        if not shutil.which(tool):
            return '%s is not installed (tools/ci/setup-system.sh)' % tool
    if not os.access(SSHD, os.X_OK):
        return '%s is not installed (openssh-server)' % SSHD
    probe = 'te7probe-%s' % secrets.token_hex(3)
    proc = _run(['ip', 'netns', 'add', probe], check=False)
    if proc.returncode != 0:
        return 'cannot create network namespaces: %s' % proc.stderr.strip()
    _run(['ip', 'netns', 'del', probe], check=False)
    return None


def subnet_in_use(subnet):
    """Whether this machine routes ``subnet`` already (a fixed subnet for
    test hosts must be free)."""
    used = _run(['ip', '-4', 'route', 'show', 'table', 'all']).stdout
    net = ipaddress.ip_network(subnet)
    for line in used.split('\n'):
        word = line.split(' ', 1)[0]
        if word in ('local', 'broadcast', 'unreachable'):
            word = line.split()[1] if len(line.split()) > 1 else ''
        try:
            if ipaddress.ip_network(word, strict=False).overlaps(net):
                return True
        except ValueError:
            continue
    return False


def _free_subnet():
    used = _run(['ip', '-4', 'route', 'show', 'table', 'all']).stdout
    for _ in range(50):
        net = ipaddress.ip_network('10.254.%d.0/24' % (
            16 + secrets.randbelow(230)))
        if str(net.network_address)[:-1] not in used:
            return net
    raise TestHostError('No free 10.254.x.0/24 subnet for the test hosts')


class TestHost:
    """One server: a netns, a mount namespace and an sshd."""

    def __init__(self, network, name, index, address=None):
        self.network = network
        self.name = name
        self.address = address or str(
            network.subnet.network_address + 10 + index)
        self.netns = '%s-%s' % (network.prefix, index)
        self.veth = '%sh%d' % (network.prefix, index)
        self.dir = os.path.join(network.base_dir, name)
        self.pid = None

    # -- lifecycle -----------------------------------------------------------

    def start(self, timeout=15):
        os.makedirs(self.dir)
        _run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f',
              os.path.join(self.dir, 'ssh_host_ed25519_key')])
        config = os.path.join(self.dir, 'sshd_config')
        with open(config, 'w') as f:
            f.write(SSHD_CONFIG.format(
                address=self.address, dir=self.dir,
                authorized_keys=self.network.authorized_keys))
        self._network()
        mounts = ['mount -t tmpfs -o mode=%s tmpfs %s' % (mode, target)
                  for target, mode in EMPTIED] + ['mkdir -p /run/sshd']
        for target in OVERLAID:
            if not os.path.isdir(target):
                continue
            layer = os.path.join(self.dir, 'fs', target.strip('/'))
            os.makedirs(os.path.join(layer, 'upper'))
            os.makedirs(os.path.join(layer, 'work'))
            mounts.append(
                'mount -t overlay overlay -o lowerdir=%s,upperdir=%s/upper,'
                'workdir=%s/work %s' % (target, layer, layer, target))
        for target in READ_ONLY:
            mounts.append('mount --bind %s %s && mount -o remount,bind,ro '
                          '%s' % (target, target, target))
        script = ' && '.join(mounts + [
            'hostname %s' % self.name,
            'exec %s -D -e -f %s' % (SSHD, config)])
        self._log = open(os.path.join(self.dir, 'sshd.log'), 'w')
        # ip netns exec, unshare and sh all exec: the pid is sshd's.
        proc = subprocess.Popen(
            ['ip', 'netns', 'exec', self.netns, 'unshare', '--mount',
             '--uts', '--propagation', 'private', 'sh', '-c', script],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
            start_new_session=True)
        self.pid = proc.pid
        self._proc = proc
        self._wait_for_ssh(timeout)
        return self

    def _network(self):
        peer = '%sp' % self.veth
        _run(['ip', 'netns', 'add', self.netns])
        _run(['ip', 'link', 'add', self.veth, 'type', 'veth', 'peer', 'name',
              peer])
        _run(['ip', 'link', 'set', peer, 'netns', self.netns])
        _run(['ip', 'link', 'set', self.veth, 'master',
              self.network.bridge, 'up'])
        inside = ['ip', 'netns', 'exec', self.netns, 'ip']
        _run(inside + ['link', 'set', peer, 'name', 'eth0'])
        _run(inside + ['addr', 'add', '%s/%d' % (
            self.address, self.network.subnet.prefixlen), 'dev', 'eth0'])
        _run(inside + ['link', 'set', 'eth0', 'up'])
        _run(inside + ['link', 'set', 'lo', 'up'])

    def _wait_for_ssh(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            if self._proc.poll() is not None:
                raise TestHostError('sshd of %s exited %s: %s' % (
                    self.name, self._proc.returncode, self.sshd_log()))
            try:
                with socket.create_connection((self.address, 22), 1) as s:
                    if s.recv(4).startswith(b'SSH'):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise TestHostError('sshd of %s not answering on %s:22 after '
                                    '%ds: %s' % (self.name, self.address,
                                                 timeout, self.sshd_log()))
            time.sleep(0.1)

    def sshd_log(self):
        try:
            with open(os.path.join(self.dir, 'sshd.log')) as f:
                return f.read().strip()[-2000:]
        except OSError:
            return ''

    def pids(self):
        """Return the pids running in this host's network namespace."""
        proc = _run(['ip', 'netns', 'pids', self.netns], check=False)
        return [int(p) for p in proc.stdout.split() if p.isdigit()]

    def stop(self):
        """Kill everything in the host and delete its namespace."""
        problems = []
        for _ in range(3):
            pids = self.pids()
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)
        if getattr(self, '_proc', None) is not None:
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                problems.append('sshd %d of %s did not exit' % (self.pid,
                                                                self.name))
            self._log.close()
            self._proc = None
        for argv in (['ip', 'link', 'del', self.veth],
                     ['ip', 'netns', 'del', self.netns]):
            proc = _run(argv, check=False)
            if proc.returncode != 0 and 'Cannot find' not in proc.stderr \
                    and 'No such file' not in proc.stderr:
                problems.append('%s: %s' % (' '.join(argv),
                                            proc.stderr.strip()))
        return problems

    # -- looking inside ------------------------------------------------------

    def run(self, *argv):
        """Run ``argv`` inside the host's namespaces; return the process."""
        return _run(['nsenter', '-t', str(self.pid), '-m', '-n', '-u', '--'] +
                    list(argv), check=False)

    def read(self, path):
        """Return the text of ``path`` as the host sees it, or None."""
        proc = self.run('cat', path)
        return proc.stdout if proc.returncode == 0 else None

    def process_alive(self, pid):
        """True when ``pid`` runs inside this host (its netns)."""
        try:
            return (os.readlink('/proc/%d/ns/net' % pid) ==
                    os.readlink('/proc/%d/ns/net' % self.pid))
        except OSError:
            return False

    def cmdline(self, pid):
        try:
            with open('/proc/%d/cmdline' % pid, 'rb') as f:
                return f.read().replace(b'\0', b' ').decode()
        except OSError:
            return ''


class TestHostNetwork:
    """A bridge, an SSH key and the test hosts on it."""

    def __init__(self, base_dir, subnet=None):
        self.base_dir = base_dir
        #: a subnet of the caller's (e.g. the docs' 192.168.24.0/24),
        #: else a free 10.254.x.0/24
        self.fixed_subnet = subnet
        self.prefix = 'te7%s' % secrets.token_hex(2)
        self.bridge = '%sbr' % self.prefix
        self.subnet = None
        self.hosts = {}
        self._count = 0
        self.key = os.path.join(base_dir, 'id_ed25519')
        self.authorized_keys = os.path.join(base_dir, 'authorized_keys')

    def start(self):
        os.makedirs(self.base_dir, exist_ok=True)
        _run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C',
              'tripleo-ephemeral-tests', '-f', self.key])
        shutil.copy(self.key + '.pub', self.authorized_keys)
        self.subnet = (ipaddress.ip_network(self.fixed_subnet)
                       if self.fixed_subnet else _free_subnet())
        _run(['ip', 'link', 'add', self.bridge, 'type', 'bridge'])
        _run(['ip', 'addr', 'add', '%s/%d' % (self.subnet.network_address + 1,
                                              self.subnet.prefixlen),
              'dev', self.bridge])
        _run(['ip', 'link', 'set', self.bridge, 'up'])
        return self

    def add(self, name, address=None):
        """Start and return a new host called ``name`` (at ``address``,
        else the next one of the subnet from .10)."""
        host = TestHost(self, name, self._count, address)
        self._count += 1
        self.hosts[name] = host
        try:
            host.start()
        except Exception:
            host.stop()
            raise
        return host

    def stop(self):
        problems = []
        for host in list(self.hosts.values()):
            problems.extend(host.stop())
        self.hosts.clear()
        proc = _run(['ip', 'link', 'del', self.bridge], check=False)
        if proc.returncode != 0 and 'Cannot find' not in proc.stderr:
            problems.append('ip link del %s: %s' % (self.bridge,
                                                    proc.stderr.strip()))
        return problems

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
