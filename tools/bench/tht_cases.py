"""Real tripleo-heat-templates 18.0.0 overclouds, deployed as a user does.

Each case is ``openstack overcloud deploy --templates <THT> --stack-only
--deployed-servers <servers> -f json`` in a child process (TEST-NET
addresses: nothing is contacted), with THT's own roles data, or a roles
file of six of THT's ``roles/`` for the many-roles case. The baselines add
``Tuning.stock()``'s ``--heat-config-override`` options (and
``baseline-pod`` TripleO's pod settings: ``heats.command_options``).
Recorded: the whole command's wall time, the stack's create time and
resource count (the command's JSON result), the Heat CPU seconds and CPU
ms per resource, the Heat's peak RSS (its process trees: a pod's MariaDB
and RabbitMQ included; for a deploy stopped after the timeout, its CPU and
peak RSS until then), and the deploy's seconds per phase (its
``phase_seconds``; the wall time but the create is ``<case> outside s``).

The big cases (``THT 3+50``, ``THT 3+150``, ``THT 3+500``) run only when
``--tht-cases`` names them: on 2 cores native takes about 50 s, 70 s and
6 minutes; the baseline hangs on 3+50 and 3+150 (its 64 engine threads
all wait on nested stacks: stopped after ``--tht-timeout``, recorded as
the case's error; bench.py runs it only up to ``--baseline-max-nodes``).
Their hosts are on one /22 (``ctlplane_cidr`` given on the first host),
past a /24.
"""

import json
import os
import subprocess
import time

import yaml

from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral import tht

import heats

#: The six-role case: the roles of THT's roles_data.yaml and the Networker.
SIX_ROLES = ('Controller', 'Compute', 'Networker', 'CephStorage',
             'BlockStorage', 'ObjectStorage')
#: name -> (roles of THT's roles/ for a roles file, or None: THT's
#: roles_data.yaml; nodes per role).
CASES = {
    'THT 1+1': (None, {'Controller': 1, 'Compute': 1}),
    'THT 3+3': (None, {'Controller': 3, 'Compute': 3}),
    'THT 3+10': (None, {'Controller': 3, 'Compute': 10}),
    'THT 6 roles': (SIX_ROLES, {role: 1 for role in SIX_ROLES}),
}
#: Opt-in by name (long): Controllers 3 and this many Computes.
BIG_CASES = {'THT 3+%d' % n: (None, {'Controller': 3, 'Compute': n})
             for n in (50, 150, 500)}
ALL_CASES = dict(CASES, **BIG_CASES)
#: The x axis of the scale curve: nodes of each case.
NODES = {name: sum(counts.values())
         for name, (_, counts) in ALL_CASES.items()}


#: Hosts that fit the default control plane (a /24 from .10 on); more go
#: on the /22 of 198.18.0.0/15 (RFC 2544's benchmarking range).
SMALL_PLANE = 240


def servers(counts):
    """A deployed-servers file's data for ``counts`` (role -> nodes)."""
    big = sum(counts.values()) > SMALL_PLANE
    data, address = {}, 10
    for role, count in counts.items():
        data[role] = []
        for index in range(count):
            host = {'hostname': 'overcloud-%s-%d' % (role.lower(), index)}
            if big:
                host['ctlplane_ip'] = '198.18.%d.%d' % divmod(address, 256)
            else:
                host['ctlplane_ip'] = '192.0.2.%d' % address
            if big and address == 10:
                host['ctlplane_cidr'] = 22
            data[role].append(host)
            address += 1
    return data


def roles_file(templates, roles, path):
    """Write THT's ``roles/<Role>.yaml`` of ``roles`` as one roles file."""
    combined = []
    for role in roles:
        with open(os.path.join(templates, 'roles', role + '.yaml')) as f:
            combined.extend(yaml.safe_load(f))
    with open(path, 'w') as f:
        yaml.safe_dump(combined, f, default_flow_style=False)
    return path


def case_dir(workdir, config, case):
    """The directory of ``case`` deployed with ``config``."""
    return os.path.join(workdir, '%s-%s' % (config, case.replace(' ', '-')
                                            .replace('+', 'p')))


def phase_figures(case, wall, phases):
    """The deploy's own seconds per phase (its result's ``phase_seconds``),
    ``<case> outside s``: the wall time but the stack create, and
    ``<case> phase exit s``: the wall time no phase holds (printing the
    result, the interpreter's exit, the child's start not seen from
    inside)."""
    if not phases:
        return {}
    out = {'%s outside s' % case: round(wall - phases.get('create', 0), 1)}
    for name, seconds in phases.items():
        out['%s phase %s s' % (case, name)] = seconds
    out['%s phase exit s' % case] = round(wall - sum(phases.values()), 2)
    return out


def run(config, case, workdir, timeout=None):
    """Deploy THT case ``case`` with configuration ``config``; a deploy
    still running after ``timeout`` seconds is stopped and fails."""
    templates = tht.find()
    roles, counts = ALL_CASES[case]
    base = case_dir(workdir, config, case)
    os.makedirs(base, exist_ok=True)
    work_dir = os.path.join(base, 'overcloud')
    servers_path = os.path.join(base, 'servers.yaml')
    with open(servers_path, 'w') as f:
        yaml.safe_dump(servers(counts), f, default_flow_style=False)
    argv = [heats.openstack_of(config),
            'overcloud', 'deploy', '--templates', templates,
            '--deployed-servers', servers_path, '--stack-only',
            '--work-dir', work_dir,
            '--heat-api-port', str(readiness.free_port()), '-f', 'json']
    argv += heats.command_options(config)
    if roles:
        argv += ['-r', roles_file(templates, roles,
                                  os.path.join(base, 'roles_data.yaml'))]
    print('== %s: %s' % (config, case), flush=True)
    sampler = heats.ProcessSampler(heats.state_file_pids(os.path.join(
        work_dir, 'heat-launcher', 'launcher-state.json')))
    sampler.start()
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.terminate()  # the command stops its Heat and cleans up
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
        peak = sampler.stop()
        error = '%s: %s had not ended after %d s (stopped)' % (
            config, case, timeout)
        print('!! %s' % error, flush=True)
        # The failure is the result: kept with what it cost until then.
        return {'error %s' % case: error,
                '%s cpu s until stopped' % case: round(sampler.cpu(), 1),
                '%s peak rss MB until stopped' % case: round(peak / 2 ** 20)}
    wall = time.monotonic() - started
    peak = sampler.stop()
    if proc.returncode != 0:
        print(stderr[-3000:], flush=True)
        raise RuntimeError('%s: %s failed (exit %d)' % (
            config, case, proc.returncode))
    result = json.loads(stdout)
    cpu = sampler.cpu()
    out = {
        case: round(wall, 1),
        '%s stack s' % case: result.get('stack_seconds'),
        '%s resources' % case: result.get('resources'),
        '%s cpu s' % case: round(cpu, 1),
        '%s peak rss MB' % case: round(peak / 2 ** 20),
    }
    if result.get('resources'):
        out['%s cpu ms/res' % case] = round(1000 * cpu /
                                            result['resources'], 1)
    out.update(phase_figures(case, wall, result.get('phase_seconds')))
    print('    %s' % ', '.join('%s %s' % (k, v) for k, v in out.items()),
          flush=True)
    return out
