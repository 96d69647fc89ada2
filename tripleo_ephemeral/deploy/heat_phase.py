"""The Heat phase of a deploy: launch Heat, create the stack, save its
outputs, stop Heat with its dump.

:class:`~.deployment.Deployment` runs it once every input passed: from the
launch on, Heat is always stopped (killed on a forced stop) and, once it
took the stack, its database dumped; with ``keep_running`` it is left
running instead, unless interrupted.
"""

import os
import time

from tripleo_ephemeral import clouds
from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral.deploy import outcome
from tripleo_ephemeral import lap_clock
from tripleo_ephemeral.deploy import stack_operation
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_launcher import manual
from tripleo_ephemeral import interruption
from tripleo_ephemeral.overcloud import inventory
from tripleo_ephemeral.overcloud import outputs as stack_outputs


#: The user's clouds.yaml entry of a Heat a deploy leaves running (as
#: ``openstack tripleo launch heat``'s default).
CLOUD_NAME = 'heat'


class HeatPhase:
    """Heat's part of one deploy of ``stack`` into ``workdir`` (a
    :class:`~tripleo_ephemeral.workdir.WorkDir`); ``say`` is the deploy's
    progress line. :attr:`stage` tells the deployment whether Heat took
    the stack, so whether its status, dump and archive change."""

    def __init__(self, stack, workdir, say, verbose_events=False,
                 phases=None):
        self.stack = stack
        self.workdir = workdir
        self.say = say
        self.verbose_events = verbose_events
        self.stage = outcome.Stage()
        #: the deploy's :class:`~tripleo_ephemeral.lap_clock.Phases`:
        #: launch, create, outputs, stop, dump
        self.phases = phases or lap_clock.Phases()

    def run(self, launcher, prepared, keep_running, on_outputs=None):
        """Launch Heat, create the stack, save its outputs, stop Heat.

        ``on_outputs(outputs, deployments)`` is called once they are saved,
        before Heat stops (what needs no Heat starts then: the render).
        Returns (:class:`~.stack_operation.Created`, outputs, deployments,
        dump path).
        """
        self.say('Launching Heat (%s) in %s' % (launcher.heat_type,
                                                launcher.heat_dir))
        started = time.monotonic()
        with interruption.on_force('Heat', launcher.kill):
            with interruption.activity('launching Heat'):
                launcher.start(tied=True)
            self.phases.lap('launch')
            self.say('Heat ready in %.1fs at %s' % (
                time.monotonic() - started, launcher.shown_endpoint))
            origin = None
            try:
                client = heat_client.make_client(
                    launcher.session(),
                    launcher.endpoint if launcher.ephemeral else None)
                self.stage.sent = True
                with interruption.activity('creating stack %s' % self.stack):
                    created = stack_operation.run(
                        client, self.stack, prepared.create_args, self.say,
                        heat_dir=self.workdir.heat_dir,
                        may_update=not launcher.ephemeral,
                        expected=self._expected_size(prepared.digest),
                        verbose=self.verbose_events,
                        accepted=self.stage.accept)
                self.phases.lap('create')
                with interruption.activity('saving the stack outputs'):
                    outputs, deployments = stack_outputs.fetch_and_save(
                        client, created.ref, self.workdir.outputs_file,
                        self.workdir.deployments_file)
                    stack_outputs.fetch_and_save_environment(
                        client, created.ref,
                        self.workdir.stack_environment_file,
                        inventory.STACK_ENVIRONMENT_PARAMETERS,
                        prepared.create_args,
                        hidden_path=self.workdir.hidden_parameters_file)
                origin = generations.DEPLOY
                self.phases.lap('outputs')
                if on_outputs is not None:
                    on_outputs(outputs, deployments)
            finally:
                dump = self._stop_heat(
                    launcher, keep_running and self.stage.changed(),
                    self.stage.heat_origin(origin))
                self.phases.lap('stop')
                self.phases.move(launcher.dump_seconds, 'stop',
                                 'dump')
        return created, outputs, deployments, dump

    def _stop_heat(self, launcher, keep_running, origin):
        """Stop Heat with a dump (made by ``origin``; None: no dump); with
        ``keep_running``, unless interrupted, leave it running instead.
        Returns the dump's path or None."""
        if not launcher.ephemeral:
            if interruption.requested():
                self.say('The installed Heat goes on with stack %s: follow '
                         'it with "openstack stack event list %s --follow"'
                         % (self.stack, self.stack))
            return None
        if keep_running and not interruption.requested():
            launcher.release()
            self.say('Heat left running: %s; stop it with "openstack '
                     'tripleo launch heat --heat-dir %s --kill"' % (
                         self._cloud_entry(launcher), launcher.heat_dir))
            return None
        try:
            return launcher.stop(dump=origin is not None, origin=origin)
        finally:
            # An entry of the user's clouds.yaml this Heat (or another,
            # gone since) was left running with points nowhere now.
            removed = manual.forget_stopped()
            if removed:
                self.say('Removed %s from %s: no Heat answers there any '
                         'more' % (', '.join(removed),
                                   clouds.user_clouds_file()))

    def _cloud_entry(self, launcher):
        """The ``heat`` entry of the user's clouds.yaml, for the Heat left
        running: how to reach it."""
        heatrc = os.path.join(launcher.heat_dir, 'heatrc')
        try:
            path = clouds.set_cloud(CLOUD_NAME, launcher.endpoint,
                                    heat_dir=launcher.heat_dir)
        except (OSError, ValueError) as exc:
            return 'source %s (your clouds.yaml: %s)' % (heatrc, exc)
        return 'export OS_CLOUD=%s (in %s) or source %s' % (
            CLOUD_NAME, path, heatrc)

    def _expected_size(self, digest):
        """The resources of the stack, if the last successful deploy of the
        same request recorded them (the progress then knows its total)."""
        size = self.workdir.load(self.workdir.stack_size_file) or {}
        if digest and size.get('request') == digest:
            return size.get('resources')
        return None
