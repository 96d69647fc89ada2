"""Heat's ``stack preview`` against ``stack create`` of one THT request.

The preview builds and validates the whole nested tree in memory and
writes nothing: the floor of what a create can cost. After the ``THT
1+1`` case has deployed, its saved database is restored into a Heat of
the same configuration (``openstack tripleo launch heat --restore-db``),
the request the stack was created with is read back from Heat (its
template, environment and files), and that request is previewed and then
created again as a new stack, each measured in the Heat process's CPU
seconds. This project's native heat type and its variants only (one
process to measure).
"""

import json
import os
import subprocess
import sys

import psutil
import yaml

from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral import workdir as workdir_mod

import group_cases
import heats
import tht_cases

CASE = 'THT 1+1'
PREVIEWS = 3


def _openstack(*args):
    argv = [os.path.join(os.path.dirname(sys.executable), 'openstack')]
    proc = subprocess.run(argv + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError('openstack %s: %s' % (' '.join(args[:3]),
                                                 proc.stderr[-2000:]))
    return proc.stdout


def _client(api_url):
    from keystoneauth1 import noauth
    from keystoneauth1 import session
    return heat_client.make_client(session.Session(auth=noauth.NoAuth()),
                                   api_url)


def _owner_url(launched):
    """The launched Heat's endpoint as its owner reaches it: the command
    shows the API secret's place (``<api_secret>``), never the secret,
    which is in the heat dir's ``api_secret`` file."""
    with open(os.path.join(launched['heat_dir'], 'api_secret')) as f:
        return launched['api_url'].replace('<api_secret>', f.read().strip())


def _cpu(proc):
    times = proc.cpu_times()
    return times.user + times.system


def _unmasked(environment, work_dir):
    """The environment Heat shows, its hidden parameters (shown as
    ``******``) taken from the work dir's passwords file."""
    with open(workdir_mod.WorkDir(work_dir).passwords_file) as f:
        passwords = yaml.safe_load(f)['parameter_defaults']
    defaults = environment.get('parameter_defaults', {})
    for name, value in defaults.items():
        if value == '******':
            defaults[name] = passwords[name]
    return environment


def run(config, workdir):
    """{'preview cpu s', 'create cpu s', 'create/preview'} of ``CASE``
    deployed with ``config`` (run after that case)."""
    if heats.heat_type_of(config) != 'native' or config == 'baseline':
        return {}  # the baseline's create again would take 4 minutes
    work_dir = os.path.join(tht_cases.case_dir(workdir, config, CASE),
                            'overcloud')
    args = ['tripleo', 'launch', 'heat', '--work-dir', work_dir,
            '--restore-db', '--heat-api-port', str(readiness.free_port()),
            '-f', 'json']
    for override in heats.overrides_of(config):
        args += ['--heat-config-override', override]
    print('== %s: %s preview and create' % (config, CASE), flush=True)
    launched = json.loads(_openstack(*args))
    try:
        client = _client(_owner_url(launched))
        heat = psutil.Process(launched['pid'])
        stack = client.stacks.get('overcloud')
        ref = 'overcloud/%s' % stack.id
        request = dict(template=client.stacks.template(ref),
                       environment=_unmasked(client.stacks.environment(ref),
                                             work_dir),
                       files=client.stacks.files(ref),
                       disable_rollback=True)
        previews = []
        for index in range(PREVIEWS):
            before = _cpu(heat)
            client.stacks.preview(stack_name='preview-%d' % index,
                                  **request)
            previews.append(_cpu(heat) - before)
        before = _cpu(heat)
        created = client.stacks.create(stack_name='again', **request)
        # Each poll is a stack show, ~9 ms of Heat's CPU counted in the
        # create's: once a second, not the wall-time cases' 4 times.
        status = group_cases.wait_stack(
            client, 'again/%s' % created['stack']['id'], interval=1.0)
        create = _cpu(heat) - before
        if status != 'CREATE_COMPLETE':
            raise RuntimeError('the create again ended %s' % status)
    finally:
        _openstack('tripleo', 'launch', 'heat', '--work-dir', work_dir,
                   '--kill', '-f', 'json')
    preview = sorted(previews)[len(previews) // 2]
    out = {'%s preview cpu s' % CASE: round(preview, 2),
           '%s create cpu s' % CASE: round(create, 1),
           '%s create/preview' % CASE: round(create / preview, 1)}
    print('    %s' % ', '.join('%s %s' % (k, v) for k, v in out.items()),
          flush=True)
    return out
