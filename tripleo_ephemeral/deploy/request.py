"""What one deploy is asked to do, as values: the library's request.

A command reads its arguments once into a frozen :class:`DeployRequest`
(``overcloud deploy`` and ``update|upgrade prepare``:
:mod:`tripleo_ephemeral.commands.deploy_request`; ``tripleo deploy``:
:mod:`tripleo_ephemeral.commands.tripleo_deploy`) and hands it to
:func:`tripleo_ephemeral.deploy.pipeline.run`. The library reads it and never
changes it: :meth:`DeployRequest.replace` derives another.
"""

import dataclasses
import typing
from typing import Any

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.heat_launcher import spec as launcher_spec
from tripleo_ephemeral.overcloud import input_paths
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral import workdir as workdir_mod

if typing.TYPE_CHECKING:  # the deploy's inputs are not imported with it
    from tripleo_ephemeral.deploy import standalone as standalone_mod


@dataclasses.dataclass(frozen=True)
class DeployRequest:
    """One deploy, as values. ``templates`` None: the bundled sample."""

    workdir: workdir_mod.WorkDir
    # What to deploy.
    templates: str | None = None
    environment_files: tuple[str, ...] = ()
    environment_directories: tuple[str, ...] = ()
    roles_file: str | None = None
    networks_file: str | None = None
    vip_file: str | None = None
    deployed_servers: str | None = None
    #: ``tripleo deploy``'s one host, or None
    standalone: 'standalone_mod.StandaloneHost | None' = None
    timeout: int = template_processing.DEFAULT_TIMEOUT_MINS
    disable_validations: bool = False
    skip_checks: tuple[str, ...] = ()
    disable_container_prepare: bool = False
    skip_deploy_identifier: bool = False
    #: parameter_defaults from options (--ntp-server...), ``(name, value)``
    #: pairs: generated, so the user's environments win
    parameters: tuple[tuple[str, Any], ...] = ()
    generate_passwords: bool = True
    # How the deploy reports and what it writes beside the stack.
    verbose_events: bool = False
    strict: bool = False
    no_proxy: str = ''
    python_interpreter: str | None = None
    #: directories the rendered Ansible project is also copied into
    config_copies: tuple[str, ...] = ()
    # What to run.
    stack_only: bool = False
    config_download_only: bool = False
    keep_running: bool = False
    #: None, or where to stop before Heat: 'dry-run' or 'setup-only'
    stop: str | None = None
    launcher: launcher_spec.LauncherSpec = dataclasses.field(
        default_factory=launcher_spec.LauncherSpec)
    ansible: ansible_run.AnsibleOptions = dataclasses.field(
        default_factory=ansible_run.AnsibleOptions)
    #: ``(option, value)`` of the per-deployment choices this request took
    #: from the last successful deploy (:mod:`.choices`)
    kept_choices: tuple[tuple[str, Any], ...] = ()

    @property
    def stack(self) -> str:
        stack: str = self.workdir.stack
        return stack

    def replace(self, **changes: Any) -> 'DeployRequest':
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)

    def to_prepare(self, kind: str) -> 'DeployRequest':
        """``update|upgrade prepare`` (``kind``): this deploy with the
        template set's lifecycle environment first, creating the stack
        only. A set without that environment is an
        :class:`~tripleo_ephemeral.exceptions.EnvironmentFileError`."""
        environment: str = input_paths.prepare_environment(
            self.templates or template_processing.bundled_templates_dir(),
            kind)
        return self.replace(
            environment_files=(environment,) + tuple(self.environment_files),
            stack_only=True)
