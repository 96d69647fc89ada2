"""A one-node Pacemaker cluster on a test host (testhosts.py).

Debian's corosync, pacemaker and pcs (tools/ci/setup-system.sh installs
them where systemd does not run) are this machine's programs; their daemons
run inside the test host (its network, its /etc, /var, /run and /dev/shm),
so they end with it (:meth:`~.testhosts.TestHost.stop` kills every process
of its namespace). Without systemd there, ``pcs cluster start``/``stop``
cannot work: the daemons are started directly, as their units would.
"""

import os
import shutil
import time

#: What a cluster here needs of this machine.
PROGRAMS = ('/usr/sbin/corosync', '/usr/sbin/pacemakerd',
            '/usr/sbin/cibadmin', '/usr/sbin/crm_mon')
COROSYNC_CONF = """\
totem {{
    version: 2
    cluster_name: {name}
    transport: knet
    crypto_cipher: none
    crypto_hash: none
}}
nodelist {{
    node {{
        ring0_addr: {address}
        name: {host}
        nodeid: 1
    }}
}}
quorum {{
    provider: corosync_votequorum
}}
logging {{
    to_logfile: yes
    logfile: /var/log/corosync/corosync.log
    to_syslog: no
    to_stderr: no
}}
"""
#: Where the pid of the host's pacemakerd is kept (in its own /run).
PACEMAKERD_PID = '/run/te-pacemakerd.pid'


class ClusterError(Exception):
    """The cluster did not come up."""


def unavailable_reason():
    """Why no cluster can run on a test host here, or None."""
    for program in PROGRAMS:
        if not os.access(program, os.X_OK):
            return '%s is not installed (tools/ci/setup-system.sh)' % program
    if not shutil.which('pcs'):
        return 'pcs is not installed (tools/ci/setup-system.sh)'
    return None


def _run(host, script):
    proc = host.run('sh', '-c', script)
    if proc.returncode != 0:
        raise ClusterError('%s on %s failed (%d): %s' % (
            script, host.name, proc.returncode,
            (proc.stderr or proc.stdout).strip()[-1000:]))
    return proc.stdout


def start(host, name='te-cluster', timeout=60):
    """Start corosync and pacemakerd on ``host`` as a one-node cluster
    without fencing; return when the node is online."""
    conf = COROSYNC_CONF.format(name=name, address=host.address,
                                host=host.name)
    _run(host, 'mkdir -p /etc/corosync /var/log/corosync /var/log/pacemaker'
         ' && cat > /etc/corosync/corosync.conf <<"EOF"\n%sEOF\n' % conf)
    # corosync forks into the background; pacemakerd does not: its pid is
    # kept to stop it (by pid) and make the cluster offline.
    _run(host, 'corosync && (setsid pacemakerd >/var/log/pacemaker/'
         'pacemakerd.out 2>&1 & echo $! > %s)' % PACEMAKERD_PID)
    deadline = time.monotonic() + timeout
    while 'Online:' not in (host.run('crm_mon', '-1').stdout or ''):
        if time.monotonic() > deadline:
            raise ClusterError('%s not online after %ds: %s' % (
                host.name, timeout, host.read('/var/log/corosync/'
                                              'corosync.log')))
        time.sleep(0.5)
    _run(host, 'pcs property set stonith-enabled=false')


def stop_pacemaker(host, timeout=60):
    """Stop the host's pacemakerd (by its pid) and wait until ``pcs
    cluster status`` says the cluster is not running."""
    _run(host, 'kill $(cat %s)' % PACEMAKERD_PID)
    deadline = time.monotonic() + timeout
    while host.run('pcs', 'cluster', 'status').returncode == 0:
        if time.monotonic() > deadline:
            raise ClusterError('pacemakerd of %s still up after %ds' % (
                host.name, timeout))
        time.sleep(0.5)
