"""What a deploy ends with, as the commands show it."""

from osc_lib.cli import format_columns


class Result:
    """What a deploy ends with: the command shows it (``-f json``...)."""

    COLUMNS = ('status', 'stack', 'stack_id', 'stack_status', 'resources',
               'stack_seconds', 'ansible_seconds', 'work_dir',
               'config_download', 'dump', 'archive', 'config_version',
               'undeployed_changes', 'phase_seconds')
    #: Columns whose value is a mapping (a table shows it as key=value).
    DICTS = ('phase_seconds',)

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
        return self.COLUMNS, tuple(
            format_columns.DictColumn(self[c]) if c in self.DICTS and
            self[c] is not None else self[c] for c in self.COLUMNS)
