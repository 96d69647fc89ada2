"""A small deployment with secrets, as the history code sees one: a work
dir (passwords file, saved inputs) and a config-download whose files hold
the secrets the way THT renders put them (YAML, JSON, a URL, a private key
quoted and folded, a long line folded at a space)."""

import json
import pathlib
import subprocess

import yaml

from tripleo_ephemeral.history import hooks
from tripleo_ephemeral.overcloud import passwords as passwords_mod
from tripleo_ephemeral import workdir as workdir_mod

ADMIN = 'Adm1nPassw0rdGeneratedXYZ'
SPACED = 'correct horse battery staple'
INVENTORY = {
    'Controller': {'hosts': {'ctrl-0': {'ansible_host': '192.0.2.10'}},
                   'vars': {'tripleo_role_name': 'Controller'}},
    'Compute': {'hosts': {'cmp-0': {'ansible_host': '192.0.2.20'}},
                'vars': {'tripleo_role_name': 'Compute'}},
}
#: One key for every test (2048-bit keys take a while to make).
KEY = passwords_mod.ssh_keypair()


def git(cd, *args, check=True, input=None):
    return subprocess.run(['git', '-C', str(cd)] + list(args), check=check,
                          capture_output=True, text=True, input=input)


def make(root, admin=ADMIN, spaced=SPACED, hidden=('OperatorSecret',)):
    """A work dir under ``root`` with its passwords, a saved environment
    giving the hidden ``OperatorSecret`` (the spaced one), and a render
    of them; returns the WorkDir."""
    wd = workdir_mod.WorkDir(str(root), 'overcloud')
    wd.create()
    wd.set_status(workdir_mod.DEPLOY_SUCCESS)
    wd.save(wd.passwords_file, {'parameter_defaults': {
        'AdminPassword': admin, 'MigrationSshKey': KEY,
        'NovaPassword': 'N0vaPasswordGeneratedABC'}})
    env = root / 'operator.yaml'
    env.write_text(yaml.safe_dump({'parameter_defaults': {
        'OperatorSecret': spaced, 'NtpServer': 'pool.ntp.org'}}))
    wd.save(wd.deploy_inputs_file, {'environment_files': [
        wd.passwords_file, str(env)]})
    (root / 'outputs').mkdir(exist_ok=True)
    wd.save(wd.hidden_parameters_file, list(hidden))
    render(wd, admin, spaced)
    return wd


def set_admin(wd, admin):
    """Rotate AdminPassword in the passwords file."""
    data = wd.load(wd.passwords_file)
    data['parameter_defaults']['AdminPassword'] = admin
    wd.save(wd.passwords_file, data)


def render(wd, admin=ADMIN, spaced=SPACED, identifier='100'):
    """Write config-download as a render with these secrets would."""
    cd = wd.config_download_dir
    inventory = yaml.safe_load(yaml.safe_dump(INVENTORY))
    inventory['Controller']['vars']['overcloud_admin_password'] = admin
    files = {
        'global_vars.yaml': 'deploy_identifier: %s\n' % identifier,
        'tripleo-ansible-inventory.yaml': yaml.safe_dump(inventory),
        'deploy_steps_playbook.yaml': '- hosts: all\n',
        'group_vars/Controller': yaml.safe_dump({'service_configs': {
            'keystone::admin_password': admin,
            'nova::migration::ssh_private_key': KEY['private_key'],
            'nova::db::database_connection':
                'mysql+pymysql://nova:N0vaPasswordGeneratedABC@192.0.2.2/'
                'nova?read_default_file=/etc/my.cnf.d/tripleo.cnf'}}),
        'group_vars/Compute': yaml.safe_dump({'service_configs': {
            'nova::compute::libvirt::migration_ssh_key': KEY['private_key'],
        }}),
        'Controller/ctrl-0/ControllerDeployment': json.dumps({
            'inputs': [{'name': 'admin_password', 'value': admin}],
            'config': {'ssh_key': KEY['private_key']}}, indent=1),
        'Controller/config_settings.yaml': yaml.safe_dump({
            'tripleo::operator::a_long_key_that_pushes_its_value_far_right':
                'prefix word ' + spaced,   # folded inside the secret
            'tripleo::profile::base::heartbeat_interval': 5}),
        'Compute/config_settings.yaml': 'role: Compute\n',
    }
    for rel, text in files.items():
        target = pathlib.Path(cd) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return cd


def commit(wd, say=None):
    """What a deploy does after it rendered: keep the hand edits, then
    commit the render."""
    return hooks.commit_render(wd, say)


def secret_texts():
    """The secret texts of :func:`make`'s defaults, as a search finds
    them (the key line by line)."""
    lines = [line for line in KEY['private_key'].splitlines()
             if not line.startswith('-----')]
    return [ADMIN, 'N0vaPasswordGeneratedABC', SPACED] + lines


def found_in(text, texts=None):
    return [t for t in (texts or secret_texts()) if t in text]


def everything(cd):
    """What the repository holds: every object, the log with patches of
    every ref, and the notes."""
    objects = subprocess.run(
        ['git', '-C', str(cd), 'cat-file', '--batch-all-objects', '--batch'],
        capture_output=True).stdout.decode('utf-8', 'replace')
    log = git(cd, 'log', '-p', '--all').stdout
    notes = git(cd, 'log', '-p', 'refs/notes/tripleo-parameters',
                check=False).stdout
    return objects + log + notes
