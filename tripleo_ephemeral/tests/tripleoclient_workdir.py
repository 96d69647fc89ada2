"""A work dir laid out as python-tripleoclient 17.x leaves it after a deploy.

``~/overcloud-deploy/<stack>`` on an undercloud, as tripleoclient 20.0.0's
``overcloud deploy`` (ephemeral Heat, the pod launcher) writes it: its
``utils.py`` (status file, outputs, saved environment, archives),
``heat_launcher.py`` (the heat dir, its tarred database dumps and logs) and
``v1/overcloud_deploy.py`` (passwords, the copies of the roles, networks,
VIPs and baremetal files, the rc file, the export). The contents are small
stand-ins; the names, places and formats are tripleoclient's.
"""

import io
import os
import tarfile

import yaml

#: tripleoclient's timestamp of a heat launcher run (``time.time()``).
LAUNCH_TIME = '1700000000.5123455'
#: ``utils.archive_deploy_artifacts``' (``%Y%m%d%H%M%S``).
ARCHIVE_TIME = '20231114221320'


def _write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, mode)
    return path


def _bzip2_tar(path, member, data):
    """tripleoclient's ``tar_file``: one member, tar.bz2."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tarfile.open(path, 'w:bz2') as tar:
        info = tarfile.TarInfo(member)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return path


def make(work_dir, stack='overcloud', status='DEPLOY_SUCCESS',
         heat_type='pod'):
    """Lay out ``work_dir`` as tripleoclient leaves it; return the path of
    its newest heat database (``heat_type`` pod: a tarred mysqldump;
    native: the SQLite file in its scratch dir). ``status`` is written as
    tripleoclient writes it (a string), or verbatim when it is not one of
    its statuses (a bare string, other YAML)."""
    w = lambda *p: os.path.join(work_dir, *p)  # noqa: E731
    heat = w('heat-launcher')
    _write(os.path.join(heat, 'heat.conf'),
           '[DEFAULT]\nlog_file = heat-%s.log\n' % LAUNCH_TIME)
    _write(os.path.join(heat, 'heat-pod.yaml'),
           'apiVersion: v1\nkind: Pod\nmetadata:\n  name: ephemeral-heat\n')
    _write(os.path.join(heat, 'api-paste.ini'), '[pipeline:heat-api]\n')
    _write(os.path.join(heat, 'token_file.json'), '{"token": {}}\n')
    if heat_type == 'pod':
        dump = _bzip2_tar(
            os.path.join(heat, 'heat-db.sql-%s.tar.bzip2' % LAUNCH_TIME),
            'heat-db.sql',
            b'-- MySQL dump 10.19\nCREATE TABLE `stack` (\n);\n')
    else:
        dump = _write(os.path.join(heat, 'tripleo_deploy-x1y2z3',
                                   'heat.sqlite.db'), 'SQLite format 3')
    _bzip2_tar(os.path.join(heat, 'log', 'heat-%s.log-%s.tar.bzip2' % (
        LAUNCH_TIME, LAUNCH_TIME)), 'heat-%s.log' % LAUNCH_TIME, b'INFO\n')
    if status in ('DEPLOY_SUCCESS', 'DEPLOY_FAILED', 'DEPLOYING'):
        text = yaml.safe_dump({'deployment_status': status},
                              default_flow_style=False)
    else:
        text = status
    _write(w('%s-deployment_status.yaml' % stack), text)
    passwords = {'parameter_defaults': {'AdminPassword': 'tc-admin-secret',
                                        'KeystoneFernetKey0': 'abc='}}
    _write(w('%s-passwords.yaml' % stack), yaml.safe_dump(passwords), 0o600)
    _write(w('tripleo-%s-passwords.yaml' % stack),
           yaml.safe_dump(passwords), 0o600)
    cd = w('config-download', stack)
    _write(os.path.join(cd, 'deploy_steps_playbook.yaml'), '- hosts: all\n')
    _write(os.path.join(cd, 'tripleo-ansible-inventory.yaml'),
           'Controller:\n  hosts:\n    overcloud-controller-0: {}\n')
    _write(os.path.join(cd, 'ansible.cfg'),
           '[defaults]\ninternal_poll_interval = 0.05\n')
    for name, value in (('KeystoneURL', 'http://192.0.2.5:5000'),
                        ('AdminPassword', 'tc-admin-secret'),
                        ('KeystoneRegion', 'regionOne')):
        _write(w('outputs', name), yaml.safe_dump(value))
    _write(w('environment', 'tripleo-%s-environment.yaml' % stack),
           yaml.safe_dump({'parameter_defaults': {'NtpServer': 'pool'}}))
    _write(w('tripleo-heat-templates', 'overcloud.yaml'),
           'heat_template_version: wallaby\n')
    for kind in ('roles-data', 'network-data', 'virtual-ips',
                 'baremetal-deployment'):
        _write(w('tripleo-%s-%s.yaml' % (stack, kind)), '[]\n')
    _write(w('%src' % stack), 'export OS_CLOUD=%s\n' % stack, 0o600)
    _write(w('%s-export.yaml' % stack), 'parameter_defaults: {}\n', 0o600)
    _write(w('tempest-deployer-input.conf'), '[auth]\n')
    _bzip2_tar(w('%s-install-%s.tar.bzip2' % (stack, ARCHIVE_TIME)),
               '%s-passwords.yaml' % stack, yaml.safe_dump(
                   passwords).encode())
    return dump


def snapshot(work_dir):
    """``{relative path: (mode, bytes)}`` of every file: to show that
    nothing in it changed."""
    found = {}
    for top, _dirs, files in os.walk(work_dir):
        for name in files:
            path = os.path.join(top, name)
            with open(path, 'rb') as f:
                found[os.path.relpath(path, work_dir)] = (
                    os.stat(path).st_mode, f.read())
    return found
