"""Adopt a stack that lives on an installed Heat, or in a dump of its
database, into a work dir that ephemeral deploys continue from.

From an installed Heat only GETs are sent: the stack, its outputs and
software deployments, its stored environment, files and template. Hidden
parameters come back masked and are recovered from the stored environment
files. The stack is then created once more, from exactly that, on an
ephemeral Heat in the work dir's heat dir: its database dump is the heat
dir's (a re-creation, not a copy of the installed database, which the API
cannot give), and its outputs are checked against the installed stack's.

From a dump, the file is only read: the heat database is cut out of it,
brought to this Heat's schema by Heat's own migrations, its projects are
made the ephemeral Heat's, and the copy becomes the heat dir's dump. An
ephemeral Heat restored from it gives the outputs and deployments.

Either way :mod:`adopt_files` then writes the work dir.
"""

import dataclasses
import logging
import os
import shutil
import tempfile
import time

from heatclient import exc as heat_exc

from tripleo_ephemeral.tripleoclient_adoption import files as adopt_files
from tripleo_ephemeral.tripleoclient_adoption import equivalence
from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral.deploy import stack_progress
from tripleo_ephemeral.deploy import stack_operation
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.tripleoclient_adoption import dump_import
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral import locking
from tripleo_ephemeral.overcloud import stored_environment as stored_env
from tripleo_ephemeral.overcloud import outputs as stack_outputs
from tripleo_ephemeral import progress as progress_channel
from tripleo_ephemeral.heat_db import dump_reader
from tripleo_ephemeral import workdir as workdir_mod

LOG = logging.getLogger(__name__)

KEY_FILE = 'auth_encryption_key'


@dataclasses.dataclass(frozen=True)
class Adopted:
    """What an adoption wrote: the stack and where it came from, how many
    of each thing were adopted, the files and the command to run next."""

    stack: str
    stack_id: str | None = None
    stack_status: str | None = None
    #: the installed Heat's endpoint, or the dump (its schema version)
    source: str | None = None
    work_dir: str | None = None
    passwords: int | None = None
    parameters: int | None = None
    servers: int | None = None
    outputs: int | None = None
    deployments: int | None = None
    #: the hidden parameters recovered from the stack's files
    hidden_recovered: str | None = None
    #: how the re-created stack's outputs compare with the source's
    outputs_check: str | None = None
    config_download: str | None = None
    dump: str | None = None
    seconds: float | None = None
    #: the deploy command to run next
    next_deploy: str | None = None


class Adoption:
    """One adoption of ``stack`` into the work dir ``work_dir``."""

    def __init__(self, stack, work_dir=None, overwrite=False, out=None):
        self.workdir = workdir_mod.WorkDir(work_dir, stack)
        self.stack = stack
        self.overwrite = overwrite
        self._say = progress_channel.channel(out)

    def say(self, text):
        self._say(text)

    def _refuse_existing(self):
        found = adopt_files.existing(self.workdir)
        if found and not self.overwrite:
            raise exceptions.DeploymentExistsError(
                'Work dir %s already holds a deployment of %s (%s)' % (
                    self.workdir.path, self.stack,
                    os.path.basename(found[0])))

    def _run(self, launcher, read):
        """Lock the work dir, ``read`` the source; write; return what was
        :class:`Adopted`."""
        started = time.monotonic()
        self._refuse_existing()
        workdir = self.workdir.create()
        with locking.DirLock(workdir.path), locking.DirLock(launcher.heat_dir):
            self._refuse_existing()
            source, record, values = read(workdir)
            values.update(adopt_files.write(workdir, source, record))
        self.say('Adopted stack %s (%s) into %s' % (
            self.stack, source.status, workdir.path))
        values.update(stack=self.stack, stack_id=source.stack_id,
                      stack_status=source.status, work_dir=workdir.path,
                      seconds=round(time.monotonic() - started, 1))
        return Adopted(**values)

    # -- from an installed Heat ------------------------------------------

    def from_installed(self, installed, launcher):
        """``installed``: the installed Heat's launcher; ``launcher``: the
        ephemeral one the stack is re-created on for the heat dir's dump."""
        def read(workdir):
            installed.start()
            source, recovered = read_installed(
                heat_client.make_client(installed.session()), self.stack)
            self.say('Read stack %s (%s) from the installed Heat at %s: %d '
                     'outputs, %d deployments' % (
                         self.stack, source.status, installed.shown_endpoint,
                         len(source.outputs), len(source.deployments)))
            dump, check = self._recreate(source, launcher)
            record = {'source': {'kind': 'installed',
                                 'endpoint': installed.shown_endpoint},
                      'hidden_parameters_recovered_from_files': recovered,
                      'heat_db_dump': {'path': dump, 'recreated': True,
                                       'outputs_check': check}}
            return source, record, {
                'source': 'installed Heat %s' % installed.shown_endpoint,
                'hidden_recovered': ', '.join(recovered),
                'outputs_check': check, 'dump': dump}
        return self._run(launcher, read)

    def _recreate(self, source, launcher):
        """Create the stack on ``launcher`` from what was read; dump it."""
        self.say('Re-creating stack %s on %s Heat for the heat dir\'s '
                 'database dump' % (self.stack, launcher.heat_type))
        environment = {k: v for k, v in source.environment.items()
                       if k in stored_env.SECTIONS + ('resource_registry',)}
        launcher.start()
        try:
            client = heat_client.make_client(launcher.session(),
                                             launcher.endpoint)
            try:
                stack_id = client.stacks.create(
                    stack_name=self.stack, template=source.template,
                    files=source.files, environment=environment,
                    timeout_mins=source.timeout_mins or 240,
                    disable_rollback=True)['stack']['id']
            except heat_exc.HTTPException as exc:
                raise exceptions.AdoptionError(
                    'The ephemeral Heat refused to re-create stack %s from '
                    'its stored template: %s' % (
                        self.stack, stack_operation.heat_message(
                            exc, launcher.heat_dir)))
            status = stack_progress.StackWatcher(
                client, stack_id, out=self.say).wait()
            if status != 'CREATE_COMPLETE':
                raise exceptions.AdoptionError(
                    'Re-creating stack %s for its database dump ended %s '
                    '(Heat\'s log: %s); adopt from a dump of its database '
                    'instead (--heat-db-dump)' % (
                        self.stack, status, launcher.files.log_dir))
            recreated = stack_outputs.fetch_outputs(client, stack_id)
        finally:
            dump = launcher.stop(dump=True, origin=generations.ADOPT)
        report = equivalence.compare_outputs(source.outputs, recreated)
        check = 'equal' if report.equivalent else '; '.join(
            report.differences)
        if not report.equivalent:
            self.say('WARNING: the re-created stack\'s outputs differ from '
                     'the installed one\'s: %s' % check)
        return dump, check

    # -- from a database dump -----------------------------------------------

    def from_dump(self, path, launcher, runner, mysql_reader=None,
                  key_file=None):
        """``launcher``: the ephemeral Heat that reads the adopted copy."""
        path = os.path.abspath(path)

        def read(workdir):
            scratch = tempfile.mkdtemp(prefix='.adopt.', suffix='.tmp',
                                       dir=workdir.path)
            try:
                copy = os.path.join(scratch, 'heat.sqlite')
                imported = dump_import.import_dump(path, copy, scratch,
                                                   runner, mysql_reader)
                projects = dump_import.adopt_rows(copy)
                self.say('Read %s: %s version %s (%s), brought to %s' % (
                    path, imported.schema.system, imported.schema.value,
                    imported.schema.release, imported.upgraded_to))
                saved = dump_reader.SavedDatabase.from_sqlite(copy)
                try:
                    row = dict(saved.root_stack(self.stack))
                    template, environment, files = saved.stored(row)
                finally:
                    saved.close()
                key = self._install_key(path, key_file, launcher.heat_dir)
                launcher.dumps.record_origin(
                    database.SqliteDatabase(copy).dump(launcher.dumps),
                    generations.ADOPT)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            outputs, deployments, dump = self._read_outputs(launcher)
            status = '%s_%s' % (row['action'], row['status'])
            source = adopt_files.Source(
                self.stack, row['id'], status, template, environment, files,
                outputs, deployments)
            record = {'source': dict(imported.describe(), kind='heat-db-dump',
                                     path=path,
                                     sha256=fileutil.sha256(path)),
                      'original_projects': projects,
                      'auth_encryption_key': key,
                      'heat_db_dump': {'path': dump, 'recreated': False}}
            return source, record, {
                'source': '%s (%s %s, %s)' % (
                    path, imported.schema.system, imported.schema.value,
                    imported.schema.release), 'dump': dump}
        return self._run(launcher, read)

    def _install_key(self, path, key_file, heat_dir):
        """The source Heat's key, so what it encrypted stays readable."""
        beside = os.path.join(os.path.dirname(path), KEY_FILE)
        chosen = key_file or (beside if os.path.isfile(beside) else None)
        if chosen is None:
            return 'new (values the source Heat encrypted stay unreadable)'
        with open(chosen) as f:
            key = f.read().strip()
        if len(key) != 32:
            raise exceptions.AdoptionError(
                'Auth encryption key %s is not 32 characters: pass the '
                'auth_encryption_key of the source Heat\'s heat.conf' %
                chosen)
        fileutil.ensure_private_dir(heat_dir)
        fileutil.write_atomic(os.path.join(heat_dir, KEY_FILE), key + '\n')
        return 'from %s' % chosen

    def _read_outputs(self, launcher):
        """Restore the heat dir's dump into Heat; fetch; stop and dump."""
        self.say('Reading the outputs through %s Heat' % launcher.heat_type)
        launcher.start(restore_db=True)
        try:
            client = heat_client.make_client(launcher.session(),
                                             launcher.endpoint)
            # By name: the rewritten project must let Heat find it.
            stack_id = client.stacks.get(self.stack,
                                         resolve_outputs=False).id
            outputs = stack_outputs.fetch_outputs(client, stack_id)
            deployments = stack_outputs.fetch_deployments(client, outputs,
                                                          stack_id)
        finally:
            dump = launcher.stop(dump=True, origin=generations.ADOPT)
        return outputs, deployments, dump


def read_installed(client, stack):
    """The :class:`adopt_files.Source` of ``stack`` through the API (GETs
    only) and the hidden parameters recovered from its files."""
    try:
        found = client.stacks.get(stack)
        stack_id = found.id
        environment = client.stacks.environment(stack_id)
        files = client.stacks.files(stack_id)
        template = client.stacks.template(stack_id)
    except heat_exc.HTTPNotFound:
        raise exceptions.AdoptionError(
            'No stack %s on the installed Heat: check --stack and OS_CLOUD'
            % stack)
    except heat_exc.HTTPException as exc:
        raise exceptions.AdoptionError(
            'The installed Heat did not give stack %s: %s' % (
                stack, stack_operation.heat_message(exc)))
    environment, recovered = stored_env.unmask(environment, files, stack)
    outputs = stack_outputs.fetch_outputs(client, stack_id)
    deployments = stack_outputs.fetch_deployments(client, outputs, stack_id)
    return adopt_files.Source(
        stack, stack_id, found.stack_status, template, environment, files,
        outputs, deployments,
        timeout_mins=getattr(found, 'timeout_mins', None)), recovered
