#!/usr/bin/env python3
"""Compare our config-download with tripleo-common 18.0.0's for one stack.

Deploy with ``--keep-running`` (``--stack-only`` is enough), then::

    tools/parity/config_download.py <work-dir> [--stack overcloud]

It runs what tripleoclient 20.0.0's ``overcloud deploy`` ran through
tripleo-ansible's ``cli-config-download.yaml`` against the Heat still
running for the work dir (the endpoint of ``<work-dir>/heat-launcher/
clouds.yaml``, or ``--endpoint``):

* ``tripleo_common.utils.config.get_overcloud_config`` into a reference
  directory (a git repository, as it made one);
* ``tripleo_common.inventory.TripleoInventory(cloud_name=None, ...)
  .write_static_inventory`` (no Neutron) and its copy ``inventory/tripleo``.

Then both trees are compared by path and parsed content (YAML, which reads
JSON too; text otherwise), ``.git/`` aside. The differences listed in
:data:`DELIBERATE` are ours on purpose and reported with their reason; any
other difference makes the exit status 1. Stop Heat afterwards with
``openstack tripleo launch heat --heat-dir <work-dir>/heat-launcher
--kill``. Needs the project's venv (tripleo-common is a dependency).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import warnings

import yaml

#: path (relative to the tree) -> (key path or None for the whole file,
#: reason). A key path is a tuple of mapping keys; '*' matches any key.
DELIBERATE = {
    'deployments.yaml': [
        (None, 'our own tasks: deployments are applied without heat-agents '
               '(tripleo-common\'s file runs them through heat-config '
               'hooks on the servers)')],
    'tripleo-ansible-inventory.yaml': [
        (('Undercloud', 'vars', 'ansible_python_interpreter'),
         'the Python that rendered the tree (tripleo-common\'s module '
         'always used its own, the ansible_python_interpretor typo)'),
        (('*', 'hosts', '*', 'ansible_ssh_user'),
         'the ssh_user a host has in --deployed-servers (tripleoclient had '
         'no servers file)'),
        (('*', 'vars', 'overcloud_admin_password'),
         'the real AdminPassword: Heat masks hidden parameters as ****** in '
         'the environment its API returns, which tripleo-common wrote into '
         'the inventory as it came; ours recovers it from the stored '
         'environment files')],
}
DELIBERATE['inventory/tripleo'] = DELIBERATE['tripleo-ansible-inventory.yaml']
IGNORED_DIRS = ('.git',)
#: Written by every deploy for running the tree (tripleoclient wrote its
#: ansible.cfg and ansible-playbook-command.sh when it ran Ansible, into its
#: working dir): not rendered, so not compared.
IGNORED_FILES = ('ansible.cfg', 'ansible-playbook-command.sh')


def heat_endpoint(work_dir):
    path = os.path.join(work_dir, 'heat-launcher', 'clouds.yaml')
    try:
        with open(path) as f:
            clouds = yaml.safe_load(f) or {}
        return clouds['clouds']['heat']['auth']['endpoint']
    except (OSError, KeyError, TypeError, yaml.YAMLError) as exc:
        sys.exit('No Heat endpoint in %s (%s): deploy with --keep-running '
                 'or give --endpoint' % (path, exc))


def reference_config(endpoint, stack, dest, ssh_user, ssh_network):
    """tripleo-common's config download and inventory into ``dest``."""
    from heatclient import client as heat_client
    from tripleo_common import inventory
    from tripleo_common.utils import config as ooo_config

    heat = heat_client.Client('1', endpoint=endpoint, token='fake',
                              username='admin', password='fake')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ooo_config.get_overcloud_config(
            swift=None, heat=heat, container=stack, config_dir=dest,
            config_type=None, preserve_config=True)
        inv = inventory.TripleoInventory(
            cloud_name=None, session=None, hclient=heat, plan_name=stack,
            ansible_ssh_user=ssh_user, ansible_python_interpreter=None,
            host_network=ssh_network, work_dir=dest)
        path = os.path.join(dest, 'tripleo-ansible-inventory.yaml')
        inv.write_static_inventory(path)
    os.makedirs(os.path.join(dest, 'inventory'), mode=0o700, exist_ok=True)
    shutil.copyfile(path, os.path.join(dest, 'inventory', 'tripleo'))


def tree_files(root):
    found = set()
    for directory, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in IGNORED_DIRS]
        for name in names:
            rel = os.path.relpath(os.path.join(directory, name), root)
            if rel not in IGNORED_FILES:
                found.add(rel)
    return found


def parsed(path):
    with open(path, errors='replace') as f:
        text = f.read()
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _drop(data, keys):
    """Remove the key path ``keys`` (with '*' wildcards) from ``data``."""
    if not isinstance(data, dict) or not keys:
        return
    head, rest = keys[0], keys[1:]
    for key in list(data) if head == '*' else [head]:
        if key not in data:
            continue
        if rest:
            _drop(data[key], rest)
        else:
            del data[key]


def compare(ours, ref):
    """Return the comparison as a dict of path lists."""
    a, b = tree_files(ours), tree_files(ref)
    result = {'ours': len(a), 'theirs': len(b), 'equal': [],
              'deliberate': [], 'different': [],
              'only_ours': sorted(a - b), 'only_theirs': sorted(b - a)}
    for rel in sorted(a & b):
        mine, theirs = parsed(os.path.join(ours, rel)), parsed(
            os.path.join(ref, rel))
        if mine == theirs:
            result['equal'].append(rel)
            continue
        rules = DELIBERATE.get(rel, [])
        if any(keys is None for keys, _ in rules):
            result['deliberate'].append(rel)
            continue
        for keys, _ in rules:
            _drop(mine, keys)
            _drop(theirs, keys)
        if rules and mine == theirs:
            result['deliberate'].append(rel)
        else:
            result['different'].append(rel)
    return result


def report(result, ours, ref, out=sys.stdout):
    out.write('ours %s: %d files; tripleo-common %s: %d files\n' % (
        ours, result['ours'], ref, result['theirs']))
    out.write('common %d: equal %d, deliberately different %d, different '
              '%d; only in ours %d, only in tripleo-common %d\n' % (
                  len(result['equal']) + len(result['deliberate']) +
                  len(result['different']), len(result['equal']),
                  len(result['deliberate']), len(result['different']),
                  len(result['only_ours']), len(result['only_theirs'])))
    for rel in result['deliberate']:
        reasons = '; '.join(reason for _, reason in DELIBERATE[rel])
        out.write('  deliberate %s: %s\n' % (rel, reasons))
    for label in ('different', 'only_ours', 'only_theirs'):
        for rel in result[label]:
            out.write('  %s %s\n' % (label.upper(), rel))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('work_dir', help='the deploy\'s work dir')
    parser.add_argument('--stack', default='overcloud')
    parser.add_argument('--endpoint',
                        help='Heat endpoint (default: the work dir\'s '
                             'heat-launcher/clouds.yaml)')
    parser.add_argument('--reference-dir',
                        help='where tripleo-common writes (default: a '
                             'temporary dir, removed after)')
    parser.add_argument('--ssh-user', default='tripleo-admin')
    parser.add_argument('--ssh-network', default='ctlplane')
    parser.add_argument('--json', action='store_true',
                        help='print the comparison as JSON')
    args = parser.parse_args(argv)

    work_dir = os.path.abspath(os.path.expanduser(args.work_dir))
    ours = os.path.join(work_dir, 'config-download', args.stack)
    if not os.path.isdir(ours):
        sys.exit('No config-download in %s: deploy first' % ours)
    endpoint = args.endpoint or heat_endpoint(work_dir)
    ref = args.reference_dir or tempfile.mkdtemp(prefix='parity-')
    try:
        reference_config(endpoint, args.stack, ref, args.ssh_user,
                         args.ssh_network)
        result = compare(ours, ref)
    finally:
        if not args.reference_dir:
            shutil.rmtree(ref, ignore_errors=True)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write('\n')
    else:
        report(result, ours, ref)
    unexpected = (result['different'] or result['only_ours'] or
                  result['only_theirs'])
    return 1 if unexpected else 0


if __name__ == '__main__':
    sys.exit(main())
