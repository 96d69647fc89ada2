"""What a deploy ends with, as the commands show it."""


class Result:
    """What a deploy ends with: the command shows it (``-f json``...)."""

    COLUMNS = ('status', 'stack', 'stack_id', 'stack_status', 'resources',
               'stack_seconds', 'ansible_seconds', 'work_dir',
               'config_download', 'dump', 'archive', 'config_version',
               'undeployed_changes')

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
        return self.COLUMNS, tuple(self[c] for c in self.COLUMNS)
