"""What a deploy ends with, as the commands show it."""

from cliff import columns
from osc_lib.cli import format_columns


class TuningsColumn(columns.FormattableColumn):
    """The engine tunings of the Heat that ran: ``{'installed': [...],
    'refused': {name: why}, 'not_needed': {name: why}}`` for ``-f json``,
    one line for a table."""

    def human_readable(self):
        found = self._value or {}
        parts = ['in force: %s' % (', '.join(found.get('installed') or ())
                                   or 'none')]
        for key, label in (('refused', 'refused'),
                           ('not_needed', 'not needed')):
            if found.get(key):
                parts.append('%s: %s' % (label, '; '.join(
                    '%s (%s)' % item for item in sorted(found[key].items()))))
        return '\n'.join(parts)

    def machine_readable(self):
        return self._value


class Result:
    """What a deploy ends with: the command shows it (``-f json``...)."""

    COLUMNS = ('status', 'stack', 'stack_id', 'stack_status', 'resources',
               'stack_seconds', 'ansible_seconds', 'work_dir',
               'config_download', 'dump', 'archive', 'config_version',
               'undeployed_changes', 'phase_seconds', 'engine_tunings')
    #: Columns whose value is a mapping (a table shows it as key=value).
    DICTS = ('phase_seconds',)
    #: Columns shown by a column type of their own.
    FORMATS = {'engine_tunings': TuningsColumn}

    def __init__(self, stack, status, **values):
        unknown = set(values) - set(self.COLUMNS)
        if unknown:
            raise TypeError('unknown result field(s): %s' % ', '.join(
                sorted(unknown)))
        self.values = dict(values, stack=stack, status=status)

    @property
    def status(self):
        return self.values['status']

    def __getitem__(self, column):
        return self.values.get(column)

    def row(self):
        """(columns, values), as a cliff ShowOne returns them."""
        return self.COLUMNS, tuple(self._formatted(c) for c in self.COLUMNS)

    def _formatted(self, column):
        value = self[column]
        if value is None:
            return None
        if column in self.FORMATS:
            return self.FORMATS[column](value)
        if column in self.DICTS:
            return format_columns.DictColumn(value)
        return value
