"""What one ``overcloud deploy`` was asked to do, read once.

:func:`read` turns the parsed arguments of ``overcloud deploy`` (and of
``update|upgrade prepare``, which take the same options) into a frozen
:class:`DeployRequest`: the deploy's inputs, how to report, what to run,
the Heat (:class:`~.options.LauncherSpec`) and the Ansible options. A
command that reuses the deploy derives a new request with
:meth:`DeployRequest.replace`; nothing writes into ``parsed_args``.
"""

import dataclasses

from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral.commands import deploy_compat
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import tripleoclient_options
from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral import tht
from tripleo_ephemeral import workdir as workdir_mod

#: --templates without a value: the installed tripleo-heat-templates.
INSTALLED = object()


@dataclasses.dataclass(frozen=True)
class DeployRequest:
    """One deploy, as values. ``templates`` None: the bundled sample."""

    workdir: workdir_mod.WorkDir
    templates: str = None
    environment_files: tuple = ()
    environment_directories: tuple = ()
    roles_file: str = None
    networks_file: str = None
    vip_file: str = None
    deployed_servers: str = None
    timeout: int = 240
    disable_validations: bool = False
    skip_checks: tuple = ()
    disable_container_prepare: bool = False
    skip_deploy_identifier: bool = False
    # How the deploy reports and what it writes beside the stack.
    verbose_events: bool = False
    strict: bool = False
    no_proxy: str = ''
    python_interpreter: str = None
    # What to run.
    stack_only: bool = False
    config_download_only: bool = False
    keep_running: bool = False
    launcher: options.LauncherSpec = dataclasses.field(
        default_factory=options.LauncherSpec)
    ansible: ansible_run.AnsibleOptions = dataclasses.field(
        default_factory=ansible_run.AnsibleOptions)
    #: what tripleoclient's options turn into (--ntp-server, --dry-run...)
    tripleoclient: tripleoclient_options.DeployValues = dataclasses.field(
        default_factory=tripleoclient_options.DeployValues)

    @property
    def stack(self):
        return self.workdir.stack

    def replace(self, **changes):
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)

    def inputs_kwargs(self):
        """Keyword arguments of :class:`~.deploy.inputs.Inputs`."""
        return dict(
            stack=self.stack, work_dir=self.workdir,
            templates=self.templates,
            environment_files=list(self.environment_files),
            environment_directories=list(self.environment_directories),
            roles_file=self.roles_file, networks_file=self.networks_file,
            vip_file=self.vip_file, deployed_servers=self.deployed_servers,
            timeout=self.timeout,
            disable_validations=self.disable_validations,
            skip_checks=list(self.skip_checks),
            disable_container_prepare=self.disable_container_prepare,
            skip_deploy_identifier=self.skip_deploy_identifier,
            parameters=dict(self.tripleoclient.parameters),
            generate_passwords=self.tripleoclient.generate_passwords)


def read(parsed_args):
    """The :class:`DeployRequest` of ``overcloud deploy``'s options, with
    ``--answers-file`` merged in and ``--templates`` without a value
    resolved to the installed templates."""
    given = deploy_compat.apply_answers(parsed_args)
    compat = tripleoclient_options.read_deploy(
        parsed_args, parsed_args.config_download_only)
    templates = given['templates']
    if templates is INSTALLED:
        with errors.user_errors('--templates'):
            templates = tht.find()
    return DeployRequest(
        workdir=options.work_dir(parsed_args),
        templates=templates,
        environment_files=tuple(given['environment_files']),
        environment_directories=tuple(parsed_args.environment_directories),
        roles_file=given['roles_file'],
        networks_file=given['networks_file'],
        vip_file=parsed_args.vip_file,
        deployed_servers=parsed_args.deployed_servers,
        timeout=parsed_args.timeout,
        disable_validations=(parsed_args.disable_validations or
                             not compat.checks_fatal),
        skip_checks=tuple(parsed_args.skip_checks),
        disable_container_prepare=parsed_args.disable_container_prepare,
        skip_deploy_identifier=parsed_args.skip_deploy_identifier,
        verbose_events=parsed_args.verbose_events,
        strict=parsed_args.strict or compat.warnings_fatal,
        no_proxy=parsed_args.no_proxy,
        python_interpreter=parsed_args.deployment_python_interpreter,
        stack_only=parsed_args.stack_only,
        config_download_only=parsed_args.config_download_only,
        keep_running=parsed_args.keep_running,
        launcher=options.launcher_spec(parsed_args),
        ansible=ansible_options.read(
            parsed_args,
            skip_tags=ansible_options.skip_tags(
                parsed_args.skip_tags, parsed_args.inflight_validations),
            timeout=parsed_args.config_download_timeout,
            override_cfg=parsed_args.override_ansible_cfg),
        tripleoclient=compat)
