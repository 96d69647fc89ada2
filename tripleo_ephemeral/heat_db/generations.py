"""What made each dump of a heat dir, and when.

Every dump is a *generation*, recorded in ``<heat-dir>/dumps.json`` by the
name of its file: a stable id (its UTC time), what made it (see
:data:`ORIGINS`) and how many stacks it holds. The files rotate
(``heat-db-dump.sql.gz`` is always the newest); their records move with
them.

The dumps of the last :data:`SUCCESS_KEEP` successful deploys are kept
apart, as ``heat-db-dump.success[.N].sql.gz`` (hard links, so no second
copy on disk): only a newer successful deploy pushes one out, never a
failed or interrupted deploy, a launch or a kill.
"""

import datetime
import json
import logging
import os

from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

MANIFEST = 'dumps.json'
#: How many successful deploys' dumps are kept apart from the rotation.
SUCCESS_KEEP = 3

DEPLOY_SUCCESS = 'deploy-success'
DEPLOY_FAILED = 'deploy-failed'
DEPLOY_INTERRUPTED = 'deploy-interrupted'
#: A deploy whose stack is created; its end decides success or failure.
DEPLOY = 'deploy'
#: ``launch heat`` then ``--kill`` (or a Heat found still running).
LAUNCH = 'launch'
#: The database of a Heat that did not stop cleanly, kept at the next start.
RECOVERED = 'recovered'
#: ``overcloud adopt``: the deployment's state as it was taken over.
ADOPT = 'adopt'
#: A dump older than the records.
UNKNOWN = 'unknown'
ORIGINS = (DEPLOY_SUCCESS, DEPLOY_FAILED, DEPLOY_INTERRUPTED, DEPLOY, LAUNCH,
           RECOVERED, ADOPT, UNKNOWN)
#: Origins whose dump is kept apart from the rotation.
GOOD = (DEPLOY_SUCCESS, ADOPT)

#: ``--restore-db`` names, besides a generation's id or file name.
NEWEST = 'newest'
LAST_SUCCESS = 'last-success'


def now_id():
    """A generation id: the UTC time, to the second."""
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y%m%dT%H%M%SZ')


class Manifest:
    """``dumps.json``: the record of each dump file, by its base name."""

    def __init__(self, heat_dir):
        self.path = os.path.join(heat_dir, MANIFEST)

    def load(self):
        try:
            with open(self.path) as f:
                data = json.load(f)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            LOG.warning('Ignoring %s, which cannot be read (%s): dumps are '
                        'listed without their origin', self.path, exc)
            return {}
        records = data.get('dumps') if isinstance(data, dict) else None
        return records if isinstance(records, dict) else {}

    def save(self, records):
        fileutil.write_atomic(self.path, json.dumps(
            {'dumps': records}, indent=2, sort_keys=True) + '\n')

    def record(self, name):
        """The record of the dump file ``name`` (a fallback if none)."""
        return self.load().get(name) or {'origin': UNKNOWN}

    def new_record(self, origin, stacks):
        """A record for a dump made now, with an id no other one has."""
        taken = {r.get('id') for r in self.load().values()}
        base = ident = now_id()
        n = 1
        while ident in taken:
            n += 1
            ident = '%s-%d' % (base, n)
        return {'id': ident, 'origin': origin, 'stacks': stacks,
                'time': datetime.datetime.now(
                    datetime.timezone.utc).isoformat(timespec='seconds')}

    def move(self, moves, set_records=None):
        """Apply file renames ``[(old name, new name or None)]`` to the
        records, in order, then set ``set_records`` ({name: record})."""
        records = self.load()
        for old, new in moves:
            record = records.pop(old, None)
            if new is not None:
                if record is None:
                    records.pop(new, None)
                else:
                    records[new] = record
        records.update(set_records or {})
        self.save(records)

    def update(self, name, **values):
        records = self.load()
        record = records.get(name)
        if record is None:
            return None
        record.update(values)
        self.save(records)
        return record
