"""ResourceGroup cases on one launched Heat: creates, update, dumps, delete.

Two kinds of member (templates/):

* ``create N``: the light node of the seeds' benchmark, a deployed server
  and a value (``group.yaml``/``node.yaml``);
* ``realistic N``: an overcloud node as a role of the bundled templates
  makes it: a deployed server, three software configs with NO_SIGNAL
  structured deployments and two values (``realistic.yaml``).

Each create records its wall time, the Heat CPU seconds it used (the
process trees of the Heat, a pod's MariaDB and RabbitMQ included) and the
CPU milliseconds per resource of the whole nested tree.
"""

import os
import tempfile
import time

from tripleo_ephemeral.deploy import heat_client

import heats
import heats_dump
import timing

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(HERE, 'templates')
KINDS = {'create': 'group.yaml', 'realistic': 'realistic.yaml'}
#: How deep the resources of a group are counted.
NESTED_DEPTH = 5


def stack_fields(kind, name, count):
    from heatclient.common import template_utils
    files, template = template_utils.get_template_contents(
        os.path.join(TEMPLATES, KINDS[kind]))
    return dict(stack_name=name, template=template, files=files,
                parameters={'count': count}, disable_rollback=True)


def wait_stack(client, stack_id, timeout=1800, interval=0.25):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = client.stacks.get(stack_id,
                                   resolve_outputs=False).stack_status
        if not status.endswith('IN_PROGRESS'):
            return status
        time.sleep(interval)
    raise RuntimeError('stack %s timed out' % stack_id)


def count_resources(client, stack_id):
    return len(client.resources.list(stack_id, nested_depth=NESTED_DEPTH))


def creates(results, client, sampler, kind, sizes):
    """Create a group of each size; return {size: stack id}."""
    ids = {}
    for n in sizes:
        key = '%s %d' % (kind, n)
        cpu_before = sampler.cpu()

        def create(n=n):
            stack = client.stacks.create(**stack_fields(
                kind, '%s-%d' % (kind, n), n))
            ids[n] = stack['stack']['id']
            return wait_stack(client, ids[n])

        status = timing.timed(results, key, create)
        if status != 'CREATE_COMPLETE':
            raise RuntimeError('%s ended %s' % (key, status))
        cpu = sampler.cpu() - cpu_before
        resources = count_resources(client, ids[n])
        timing.record(results, key, cpu=cpu, resources=resources)
    return ids


def update(results, client, stack_id, grow):
    """Grow the group from ``grow[0]`` to ``grow[1]`` members."""
    def do_update():
        client.stacks.update(stack_id, existing=True,
                             parameters={'count': grow[1]})
        time.sleep(0.5)
        return wait_stack(client, stack_id)
    timing.timed(results, 'update %d->%d' % grow, do_update)


def run(results, config, workdir, kinds_sizes, grow=None):
    """Launch ``config``'s Heat, run the creates (and the update) into
    ``results``, stop it; return the launcher."""
    print('== %s' % config, flush=True)
    launcher = heats.make_launcher(config, os.path.join(workdir, config))
    timing.timed(results, 'launch', launcher.start)
    sampler = heats.ProcessSampler(heats.launcher_pids(launcher))
    sampler.start()
    try:
        client = heat_client.make_client(launcher.session(),
                                         launcher.endpoint)
        for kind, sizes in kinds_sizes:
            ids = creates(results, client, sampler, kind, sizes)
            if grow and kind == 'create' and grow[0] in ids:
                update(results, client, ids[grow[0]], grow)
    finally:
        results['peak rss MB'] = round(sampler.stop() / 2 ** 20)
        # A database inside the launcher (the pod's MariaDB) goes with
        # it: dump it while stopping.
        if not hasattr(launcher.database, 'path'):
            timing.timed(results, 'stop+dump', launcher.stop)
        else:
            launcher.stop(dump=False)
    return launcher


def dumps(results, config, launcher, repeat):
    """Dump and restore the database the creates left."""
    db = launcher.database
    if not hasattr(db, 'path'):
        return None  # the pod dumped while stopping
    if config == 'baseline':
        dump_dir = tempfile.mkdtemp(dir=launcher.heat_dir)
        archive = timing.timed(results, 'dump', heats_dump.baseline_dump,
                               db.path, dump_dir, repeat=repeat)
        results['dump MB'] = round(os.path.getsize(archive) / 2 ** 20, 2)
        timing.timed(results, 'restore', heats_dump.baseline_restore,
                     archive, db.path, repeat=repeat)
    else:
        path = timing.timed(results, 'dump', db.dump, launcher.dumps,
                            repeat=repeat)
        results['dump MB'] = round(os.path.getsize(path) / 2 ** 20, 2)
        timing.timed(results, 'restore', db.restore, launcher.dumps,
                     repeat=repeat)
        archive = None
    results['dump+restore'] = round(results['dump'] + results['restore'],
                                    3)
    return archive


def relaunch_and_delete(results, config, launcher, size, archive):
    """Launch again from the dump, then delete the largest group."""
    relaunch = heats.make_launcher(config, launcher.heat_dir)
    if config == 'baseline':
        # TripleO untarred the dump, loaded it, then ran db_sync and heat.
        def start():
            heats_dump.baseline_restore(archive, launcher.database.path)
            relaunch.start()
    else:
        def start():
            relaunch.start(restore_db=True)
    timing.timed(results, 'launch --restore-db', start)
    try:
        client = heat_client.make_client(relaunch.session(),
                                         relaunch.endpoint)
        stack = client.stacks.get('create-%d' % size)

        def delete():
            client.stacks.delete(stack.id)
            end = time.monotonic() + 1800
            while time.monotonic() < end:
                status = client.stacks.get(stack.id).stack_status
                if status != 'DELETE_IN_PROGRESS':
                    return status
                time.sleep(0.25)
        timing.timed(results, 'delete %d' % size, delete)
    finally:
        relaunch.stop(dump=False)
