"""What two creates of the same request are compared by (the fast create's
functional test): resources, outputs and config-download files, with
what changes on every create masked (ids, times, the work dir)."""

import difflib
import importlib.util
import json
import os
import re

import yaml

UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-'
                  r'[0-9a-f]{12}')
#: A nested stack's name ends with a random suffix.
SUFFIX = re.compile(r'-[a-z0-9]{12}\b')
TIME = re.compile(r'\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?')
#: overcloud deploy's DeployIdentifier: the time in seconds.
EPOCH = re.compile(r'\b1[0-9]{9}\b')
SERVERS = {
    'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': '192.0.2.10'}],
    'Compute': [{'hostname': 'cmp-0', 'ctlplane_ip': '192.0.2.20'}],
}
REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))


def mask(text, *paths):
    for path in paths:
        text = text.replace(str(path), '<dir>')
    text = UUID.sub('<uuid>', text)
    text = SUFFIX.sub('-<suffix>', text)
    text = TIME.sub('<time>', text)
    return EPOCH.sub('<epoch>', text)


def servers_file(tmp_path):
    path = tmp_path / 'servers.yaml'
    path.write_text(yaml.safe_dump(SERVERS))
    return path


def tht_deploy_args(tmp_path):
    """tools/tht_deploy.py's THT 1 Controller + 1 Compute request."""
    spec = importlib.util.spec_from_file_location(
        'tht_deploy', os.path.join(REPO, 'tools', 'tht_deploy.py'))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tuple(tool.write_inputs(tool.tht_dir(), str(tmp_path / 'inputs'),
                                   'ctlplane'))


def stack_state(cli, stack, env, work_dir):
    """Sorted (stack, name, type, status) of every resource of the tree,
    and the outputs, of ``stack`` in the running Heat (masked, the work
    dir too: template paths are in resource types)."""
    rows = cli.json('stack', 'resource', 'list', '-n', '50', '-c',
                    'resource_name', '-c', 'resource_type', '-c',
                    'resource_status', '-c', 'stack_name', stack, env=env,
                    timeout=900)
    resources = sorted(
        (SUFFIX.sub('', r['stack_name']), r['resource_name'],
         mask(r['resource_type'], work_dir), r['resource_status'])
        for r in rows)
    outputs = cli.json('stack', 'output', 'show', '--all', stack, env=env,
                       timeout=900)
    return {'resources': resources,
            'outputs': json.loads(mask(json.dumps(outputs, sort_keys=True),
                                       work_dir))}


def _files(root):
    found = {}
    for base, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != '.git']
        for name in names:
            path = os.path.join(base, name)
            found[os.path.relpath(path, root)] = path
    return found


def config_download_diff(ours, theirs):
    """Lines that differ between two config-download trees (masked; each
    tree's own path masked too); [] when equal."""
    a, b = _files(ours), _files(theirs)
    lines = ['only in %s: %s' % (side, name) for side, names in (
        ('fast', sorted(set(a) - set(b))), ('stock', sorted(set(b) - set(a))))
        for name in names]
    for name in sorted(set(a) & set(b)):
        with open(a[name], errors='replace') as fa, \
                open(b[name], errors='replace') as fb:
            left = mask(fa.read(), ours, os.path.dirname(ours))
            right = mask(fb.read(), theirs, os.path.dirname(theirs))
        left, right = left.splitlines(), right.splitlines()
        if left != right:
            lines += ['%s: %s' % (name, line) for line in difflib.unified_diff(
                left, right, lineterm='', n=0)][2:]
    return lines
