"""What a deploy ends with, as the commands show it.

A table shows each long value summarised, so that the result reads in an
80-100 column terminal (``phase_seconds``: the total and the longest
phases; ``engine_tunings``: how many are in force, the others by name;
``undeployed_changes``: shortened); ``-f json``/``-f yaml`` give every value
whole, and so does a table with ``--long``.
"""

import textwrap

from cliff import columns
from osc_lib.cli import format_columns

#: A summarised value is at most this wide in a table.
SUMMARY_WIDTH = 72
#: The phases a table names besides the total: the longest ones.
PHASES_SHOWN = 3


class _Summarised(columns.FormattableColumn):
    """A value a table shows summarised (:meth:`summary`), whole with
    ``long`` (``--long``) and in ``-f json``/``-f yaml``."""

    long = False

    def human_readable(self):
        return self.whole() if self.long else self.summary()

    def machine_readable(self):
        return self._value

    def whole(self):
        return str(self._value)

    def summary(self):
        return shorten(self.whole())


def shorten(text, width=SUMMARY_WIDTH):
    """``text`` cut at a word to ``width``, saying where the rest is."""
    return textwrap.shorten(' '.join(str(text).split()), width,
                            placeholder=' ... (--long)')


class TuningsColumn(_Summarised):
    """The engine tunings of the Heat that ran: ``{'installed': [...],
    'refused': {name: why}, 'not_needed': {name: why}}`` for ``-f json``;
    a table counts those in force and names the others."""

    def whole(self):
        found = self._value or {}
        parts = ['in force: %s' % (', '.join(found.get('installed') or ())
                                   or 'none')]
        for key, label in (('refused', 'refused'),
                           ('not_needed', 'not needed')):
            if found.get(key):
                parts.append('%s: %s' % (label, '; '.join(
                    '%s (%s)' % item for item in sorted(found[key].items()))))
        return '\n'.join(parts)

    def summary(self):
        found = self._value or {}
        parts = ['%d in force' % len(found.get('installed') or ())]
        for key, label in (('refused', 'refused'),
                           ('not_needed', 'not needed')):
            if found.get(key):
                parts.append('%s: %s' % (label, ', '.join(sorted(found[key]))))
        return shorten('; '.join(parts))


class PhasesColumn(_Summarised):
    """Seconds per phase (``{phase: seconds}``, in the order they ran): a
    table gives the total and the longest phases (``venv`` always, when
    tools/dev.py built one)."""

    def whole(self):
        return format_columns.DictColumn(self._value).human_readable()

    def summary(self):
        phases = self._value or {}
        longest = sorted(phases, key=phases.get, reverse=True)
        shown = [p for p in phases if p in longest[:PHASES_SHOWN] or
                 p == 'venv']
        text = 'total %.1f: %s' % (sum(phases.values()), ', '.join(
            '%s %.1f' % (p, phases[p]) for p in shown))
        if len(phases) > len(shown):
            text += ', %d more' % (len(phases) - len(shown))
        return shorten(text)


class ChangesColumn(_Summarised):
    """What the render changes against the applied version."""


class Result:
    """What a deploy ends with: the command shows it (``-f json``...)."""

    COLUMNS = ('status', 'stack', 'stack_id', 'stack_status', 'resources',
               'stack_seconds', 'ansible_seconds', 'work_dir',
               'config_download', 'dump', 'archive', 'config_version',
               'undeployed_changes', 'phase_seconds', 'engine_tunings')
    #: Columns shown by a column type of their own (summarised in a table).
    FORMATS = {'engine_tunings': TuningsColumn,
               'phase_seconds': PhasesColumn,
               'undeployed_changes': ChangesColumn}

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

    def row(self, long=False):
        """(columns, values), as a cliff ShowOne returns them; ``long``
        (``--long``): a table shows every value whole."""
        return self.COLUMNS, tuple(self._formatted(c, long)
                                   for c in self.COLUMNS)

    def _formatted(self, column, long=False):
        value = self[column]
        if value is None:
            return None
        if column in self.FORMATS:
            shown = self.FORMATS[column](value)
            shown.long = long
            return shown
        return value
