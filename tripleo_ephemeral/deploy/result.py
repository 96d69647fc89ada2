"""What a deploy ends with, as values.

:func:`~tripleo_ephemeral.deploy.pipeline.run` returns a :class:`Result`;
the command that ran the deploy shows it
(:func:`tripleo_ephemeral.commands.deploy_request.show`: its columns, the
long values summarised in a table).
"""

import dataclasses

from tripleo_ephemeral.engine_tuning import report


@dataclasses.dataclass(frozen=True)
class Result:
    """What a deploy ended with: ``status`` (``DEPLOY_SUCCESS``,
    ``DEPLOY_FAILED``; ``CHECKED`` or ``PREPARED`` when it stopped before
    Heat), the stack and what the deploy made (None: not made)."""

    stack: str
    status: str
    stack_id: str | None = None
    stack_status: str | None = None
    #: how many resources the stack has
    resources: int | None = None
    stack_seconds: float | None = None
    ansible_seconds: float | None = None
    work_dir: str | None = None
    #: the rendered Ansible project
    config_download: str | None = None
    #: the Heat database's dump
    dump: str | None = None
    #: the install archive
    archive: str | None = None
    #: the version of the Ansible project rendered, and what it changes
    #: against the applied one
    config_version: str | None = None
    undeployed_changes: str | None = None
    #: seconds per phase, in the order they ran
    #: (:class:`~tripleo_ephemeral.lap_clock.Phases`)
    phase_seconds: dict[str, float] | None = None
    #: what the Heat's runner installed, refused and did not need
    engine_tunings: report.Tunings | None = None
