"""The files an adoption leaves in the work dir, the deploy's and its own.

Given what was read of the stack (:class:`Source`), this writes everything
but the heat dir's database dump: the passwords, the adopted environment
and the templates it needs from outside the template set, the servers
file, the roles and networks data, the stored environment, files and
template as they were, the outputs and deployments, config-download, the
status, the inputs and checks snapshot the next deploy reads, and the
adoption record.
"""

import datetime
import json
import os
import shutil

import yaml

from tripleo_ephemeral.deploy import checks
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.history import hooks as history
from tripleo_ephemeral.tripleoclient_adoption import servers as adopted_servers
from tripleo_ephemeral.overcloud import stored_environment as stored_env
from tripleo_ephemeral.overcloud import config_download
from tripleo_ephemeral.overcloud import inventory
from tripleo_ephemeral.overcloud import outputs as stack_outputs
from tripleo_ephemeral.overcloud import passwords as passwords_mod
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral import workdir as workdir_mod

_HEADER = ('# Written by "openstack overcloud adopt" from stack %s (%s), %s.\n'
           '# %s\n')


class Source:
    """A stack as the adoption read it (values unmasked)."""

    def __init__(self, stack, stack_id, status, template, environment,
                 files, outputs, deployments, timeout_mins=None):
        self.stack = stack
        self.stack_id = stack_id
        self.status = status
        self.template = template
        self.environment = environment
        self.files = files
        self.outputs = outputs
        self.deployments = deployments
        self.timeout_mins = timeout_mins

    def parameters(self):
        merged = {}
        for section in reversed(stored_env.SECTIONS):
            merged.update(self.environment.get(section) or {})
        return merged


def existing(workdir):
    """The files showing ``workdir`` already holds a deployment of its
    stack."""
    return [p for p in (workdir.passwords_file, workdir.outputs_file,
                        workdir.heat_dump,
                        workdir.adoption_file) if os.path.exists(p)]


def next_deploy(workdir, roles_written):
    """The command the README tells the operator to type next."""
    argv = ['openstack', 'overcloud', 'deploy', '--stack', workdir.stack,
            '--work-dir', workdir.path, '--templates', '<the same templates>']
    if roles_written:
        argv += ['-r', workdir.roles_data_file,
                 '-n', workdir.network_data_file]
    argv += ['--deployed-servers', workdir.adopted_servers_file,
             '-e', workdir.adopted_environment_file]
    return ' '.join(argv)


def write(workdir, source, record):
    """Write the work dir; return the result values (counts and paths).

    ``record`` (the adoption record so far) is completed and saved.
    """
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    header = _HEADER % (source.stack, record['source']['kind'],
                        now.isoformat(), '%s')

    pw, pw_counts = stored_env.passwords(source.environment, source.files,
                                         passwords_mod.PASSWORD_NAMES)
    yamlfile.write_text(workdir.passwords_file,
                        header % 'The stack\'s passwords.' +
                        yamlfile.dump({'parameter_defaults': pw}))

    root = stored_env.templates_root(source.files, source.stack)
    env, custom = stored_env.adopted_environment(
        source.environment, source.files, root, password_names=pw,
        templates_dir=workdir_mod.TEMPLATES_DIR,
        custom_dir=os.path.join(workdir_mod.ADOPTED_DIR, 'files'))
    yamlfile.write_text(workdir.adopted_environment_file, header % (
        'Its merged environment; pass it last with -e.') +
        yamlfile.dump(env))
    if os.path.isdir(os.path.join(workdir.adopted_dir, 'files')):
        shutil.rmtree(os.path.join(workdir.adopted_dir, 'files'))
    for rel, text in sorted(custom.items()):
        yamlfile.write_text(workdir.join(rel), text, mode=0o644)

    servers = adopted_servers.servers(source.outputs, source.parameters(),
                                      source.stack)
    yamlfile.write_text(workdir.adopted_servers_file, header % (
        'Its servers; pass it with --deployed-servers.') +
        yamlfile.dump(servers))

    roles, networks = stored_env.roles_and_networks(source.outputs)
    if roles is not None:
        yamlfile.write(workdir.roles_data_file, roles, mode=0o644)
        yamlfile.write(workdir.network_data_file, networks, mode=0o644)
    for name, data in (('environment', source.environment),
                       ('files', source.files),
                       ('template', source.template)):
        fileutil.ensure_private_dir(workdir.adopted_dir)
        fileutil.write_atomic(
            os.path.join(workdir.adopted_dir, '%s-%s.json' %
                         (source.stack, name)),
            json.dumps(data, indent=1, sort_keys=True) + '\n')

    stack_outputs.save(workdir.outputs_file, workdir.deployments_file,
                       source.outputs, source.deployments)
    defaults = source.environment.get('parameter_defaults') or {}
    stack_environment = {name: defaults[name] for name in
                         inventory.STACK_ENVIRONMENT_PARAMETERS
                         if name in defaults}
    yamlfile.write(workdir.stack_environment_file, stack_environment)
    # The hidden parameters (secrets) a read through the API unmasked.
    yamlfile.write(workdir.hidden_parameters_file, sorted(
        record.get('hidden_parameters_recovered_from_files') or []))
    history.keep_hand_edits(workdir)
    fileutil.replace_dir(workdir.config_download_dir, lambda path:
                         config_download.render(
                             source.outputs, path, source.stack,
                             deployments=source.deployments,
                             host_ssh_users={},
                             stack_environment=stack_environment),
                         keep=history.KEEP)

    complete = str(source.status).endswith('_COMPLETE')
    workdir.set_status(workdir_mod.DEPLOY_SUCCESS if complete
                       else workdir_mod.DEPLOY_FAILED)
    env_files = [workdir.adopted_environment_file]
    role_list = roles or [{'name': role} for role in sorted(servers)]
    workdir.save(workdir.deploy_inputs_file, {
        'stack': source.stack, 'templates': None,
        'roles_file': workdir.roles_data_file if roles is not None else None,
        'networks_file': (workdir.network_data_file if roles is not None
                          else None),
        'deployed_servers': workdir.adopted_servers_file,
        'deployed_servers_data': servers,
        'environment_files': env_files, 'roles': role_list,
        'networks': networks or [], 'saved_at': now.isoformat(),
        'adopted': True})
    history.commit_render(workdir, adopted=complete)
    if complete:
        workdir.save(workdir.last_success_file, checks.snapshot(
            [workdir.passwords_file] + env_files, role_list, servers))

    command = next_deploy(workdir, roles is not None)
    record.update({
        'stack': source.stack, 'adopted_at': now.isoformat(),
        'stack_id': source.stack_id, 'stack_status': source.status,
        'templates_root_url': root,
        'passwords': dict(pw_counts, total=len(pw)),
        'templates_copied': sorted(custom),
        'next_deploy': command})
    yamlfile.write_text(workdir.adoption_file, '# The adoption record of %s.\n'
                        % source.stack + yaml.safe_dump(
                            record, default_flow_style=False))
    return {
        'passwords': len(pw), 'parameters': sum(
            len(env[s]) for s in stored_env.SECTIONS),
        'servers': sum(len(h) for h in servers.values()),
        'outputs': len(source.outputs),
        'deployments': len(source.deployments),
        'config_download': workdir.config_download_dir,
        'next_deploy': command}
