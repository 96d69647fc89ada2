"""Read a saved Heat database dump without starting Heat.

With an ephemeral Heat there is no stack to look at between deploys; the
dump is the record. This module loads a dump into an in-memory SQLite
database and answers what ``openstack stack list`` and ``openstack stack
resource list`` would, from Heat's own tables.
"""

import json
import logging
import os
import sqlite3

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import dumps

LOG = logging.getLogger(__name__)


class SavedDatabase:
    """Heat's tables from one dump, queried in memory."""

    def __init__(self, conn):
        self._conn = conn
        self._conn.row_factory = sqlite3.Row
        self._templates = {}

    @classmethod
    def from_dump(cls, path):
        if not os.path.exists(path):
            raise exceptions.SavedStateError(
                'No database dump %s; deploy first, or '
                'name one with --dump' % path)
        sql = dumps.DumpStore(os.path.dirname(path)).read_verified(path)
        if _is_mysql(sql):
            sql = _mysql_to_sqlite(sql, path)
        conn = sqlite3.connect(':memory:')
        try:
            conn.executescript(sql)
        except sqlite3.Error as exc:
            raise exceptions.SavedStateError(
                'Dump %s could not be loaded: %s' %
                (path, exc))
        return cls(conn)

    @classmethod
    def from_sqlite(cls, path):
        """A SQLite database file, opened read-only."""
        try:
            return cls(sqlite3.connect('file:%s?mode=ro' % path, uri=True))
        except sqlite3.Error as exc:
            raise exceptions.SavedStateError(
                'Database %s cannot be opened: %s' % (path, exc))

    def close(self):
        self._conn.close()

    def _live_stacks(self):
        return self._conn.execute(
            'SELECT * FROM stack WHERE deleted_at IS NULL '
            'ORDER BY created_at, name').fetchall()

    def stacks(self, nested=False):
        """Stacks as (id, name, status, parent id, created, updated)."""
        rows = []
        for s in self._live_stacks():
            if s['owner_id'] and not nested:
                continue
            rows.append({'id': s['id'], 'stack_name': s['name'],
                         'stack_status': '%s_%s' % (s['action'], s['status']),
                         'parent': s['owner_id'],
                         'creation_time': _iso(s['created_at']),
                         'updated_time': _iso(s['updated_at'])})
        return rows

    def find_stack(self, name_or_id):
        row = self._conn.execute(
            'SELECT * FROM stack WHERE deleted_at IS NULL AND '
            '(id = ? OR name = ?) ORDER BY owner_id IS NOT NULL',
            (name_or_id, name_or_id)).fetchone()
        if row is None:
            raise exceptions.SavedStateError(
                'No stack %s in the saved database' %
                name_or_id)
        return row

    def root_stack(self, name):
        """The live top-level stack ``name``, or an error listing them."""
        roots = [s for s in self._live_stacks() if not s['owner_id']]
        for row in roots:
            if row['name'] == name:
                return row
        raise exceptions.SavedStateError(
            'No stack %s in the database (stacks: %s): pass its name with '
            '--stack' % (name, ', '.join(s['name'] for s in roots) or
                         'none'))

    def stored(self, stack):
        """``(template, environment, files)`` of the stack row ``stack``,
        as Heat stored them (values unmasked, files keyed by URL)."""
        row = self._conn.execute(
            'SELECT * FROM raw_template WHERE id = ?',
            (stack['raw_template_id'],)).fetchone()
        if row is None:
            raise exceptions.SavedStateError(
                'Stack %s has no stored template (raw_template %s)' %
                (stack['name'], stack['raw_template_id']))
        files = None
        if row['files_id'] is not None:
            files = self._conn.execute(
                'SELECT files FROM raw_template_files WHERE id = ?',
                (row['files_id'],)).fetchone()
            files = files['files'] if files else None
        else:
            files = row['files']
        return (_json(row['template']), _json(row['environment']),
                _json(files))

    def resources(self, name_or_id, nested_depth=0):
        """Resources of a stack and, to ``nested_depth``, of its children."""
        top = self.find_stack(name_or_id)
        result = []
        frontier = [(top, 0)]
        while frontier:
            stack, depth = frontier.pop(0)
            types = self._resource_types(stack['raw_template_id'])
            rows = self._conn.execute(
                'SELECT * FROM resource WHERE stack_id = ? ORDER BY name',
                (stack['id'],)).fetchall()
            for r in rows:
                result.append({
                    'resource_name': r['name'],
                    'physical_resource_id': r['nova_instance'] or '',
                    'resource_type': types.get(r['name'], ''),
                    'resource_status': '%s_%s' % (r['action'], r['status']),
                    'stack_name': stack['name'],
                    'status_reason': r['status_reason'] or '',
                })
            if depth < nested_depth:
                children = self._conn.execute(
                    'SELECT * FROM stack WHERE owner_id = ? AND deleted_at '
                    'IS NULL ORDER BY name', (stack['id'],)).fetchall()
                frontier.extend((c, depth + 1) for c in children)
        return result

    def _resource_types(self, template_id):
        if template_id not in self._templates:
            row = self._conn.execute(
                'SELECT template FROM raw_template WHERE id = ?',
                (template_id,)).fetchone()
            types = {}
            if row is not None:
                try:
                    tmpl = json.loads(row['template'])
                except (TypeError, ValueError):
                    tmpl = {}
                resources = tmpl.get('resources') or tmpl.get(
                    'Resources') or {}
                types = {name: (d.get('type') or d.get('Type') or '')
                         for name, d in resources.items()
                         if isinstance(d, dict)}
            self._templates[template_id] = types
        return self._templates[template_id]


def _json(text):
    if text is None:
        return {}
    if isinstance(text, bytes):
        text = text.decode('utf-8')
    try:
        return json.loads(text) or {}
    except ValueError as exc:
        raise exceptions.SavedStateError(
            'A stored template of the database is not JSON: %s' % exc)


def _iso(value):
    if value is None:
        return None
    # As Heat's API shows times: ISO 8601 to the second, UTC.
    return str(value).replace(' ', 'T').split('.')[0] + 'Z'


def _is_mysql(sql):
    head = sql[:2000]
    return 'MariaDB dump' in head or 'MySQL dump' in head


def _mysql_to_sqlite(sql, path):
    """A MariaDB dump, through the cross-database loader if present."""
    try:
        from tripleo_ephemeral.heat_db import crossdb
        convert = getattr(crossdb, 'mysql_dump_to_sqlite_sql')
    except (ImportError, AttributeError):
        raise exceptions.SavedStateError(
            'Dump %s is a MariaDB dump; inspect it with "openstack tripleo '
            'launch heat --heat-type pod --restore-db"' % path)
    return convert(sql)
