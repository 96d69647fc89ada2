"""What the commands print: the columns of a result, in one place.

The library returns values (dataclasses); a command picks the columns it
shows and their order, and hands them to cliff with :func:`item_row`:
lists and dicts in osc-lib's ``ListColumn``/``DictColumn``
(``osc_lib.cli.format_columns``), whose ``-f json``/``-f yaml`` are the
values themselves, and the long values of a deploy in the formatters
here. A table shows each of those summarised, so that the result reads in
an 80-100 column terminal (``phase_seconds``: the total and the longest
phases; ``engine_tunings``: how many are in force, the others by name;
``undeployed_changes``: shortened); ``-f json``/``-f yaml`` give every
value whole, and so does a table with ``--long``. No module below
``commands/`` imports cliff or osc-lib's output.
"""

import argparse
import textwrap
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from cliff import columns as cliff_columns
from osc_lib.cli import format_columns

from tripleo_ephemeral._i18n import _

#: What makes a value's formatter: a FormattableColumn class, or a
#: function of the value (``functools.partial(TuningsColumn, long=True)``).
Formatter = Callable[[Any], Any]

#: A summarised value is at most this wide in a table.
SUMMARY_WIDTH = 72
#: The phases a table names besides the total: the longest ones.
PHASES_SHOWN = 3


class _Summarised(cliff_columns.FormattableColumn):
    """A value a table shows summarised (:meth:`summary`), whole with
    ``long`` (``--long``) and in ``-f json``/``-f yaml``."""

    def __init__(self, value: Any, long: bool = False) -> None:
        super().__init__(value)
        #: ``--long``: the whole value in a table too
        self.long = long

    def human_readable(self) -> str:
        return self.whole() if self.long else self.summary()

    def machine_readable(self) -> Any:
        return self._value

    def whole(self) -> str:
        return str(self._value)

    def summary(self) -> str:
        return shorten(self.whole())


def add_long_option(group: argparse._ActionsContainer, what: str) -> None:
    """``--long``: the table shows ``what`` (summarised without it) whole,
    and a list its other columns (python-openstackclient's ``--long``)."""
    group.add_argument(
        '--long', action='store_true',
        help=_('Show %s whole in the table, and every column (a table '
               'summarises them to read in 80-100 columns; -f json and '
               '-f yaml give them whole)') % what)


def whole(parsed_args: argparse.Namespace) -> bool:
    """Whether a command shows its values whole and every column:
    ``--long``, or a format other than a table (json, yaml, csv,
    value)."""
    return bool(getattr(parsed_args, 'long', False) or
                getattr(parsed_args, 'formatter', 'table') != 'table')


def summarised(value: Any, long: bool,
               width: int = SUMMARY_WIDTH) -> Any:
    """``value`` as a column: a :class:`Summarised` of it at ``width``
    unless ``long`` (:func:`whole`), when it is the value itself."""
    if value is None or long:
        return value
    return Summarised(value, width=width)


def summarised_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]],
                    widths: Mapping[str, int], long: bool
                    ) -> list[tuple[Any, ...]]:
    """``rows`` of a list with the values of ``widths``' columns
    summarised to their width (a list or dict as its table text), unless
    ``long`` (:func:`whole`)."""
    if long:
        return [tuple(row) for row in rows]
    at = {columns.index(c): w for c, w in widths.items() if c in columns}
    return [tuple(
        Summarised(v, width=at[i]) if i in at and v is not None
        else v for i, v in enumerate(row)) for row in rows]


def _text(value: Any) -> Any:
    """A FormattableColumn's table text; any other value as it is."""
    if isinstance(value, cliff_columns.FormattableColumn):
        return value.human_readable()
    return value


def shorten(text: object, width: int = SUMMARY_WIDTH) -> str:
    """``text`` cut at a word to ``width``, saying where the rest is."""
    return textwrap.shorten(' '.join(str(text).split()), width,
                            placeholder=' ... (--long)')


class TuningsColumn(_Summarised):
    """The engine tunings of the Heat that ran: ``{'installed': [...],
    'refused': {name: why}, 'not_needed': {name: why}}`` for ``-f json``;
    a table counts those in force and names the others."""

    def whole(self) -> str:
        found = self._value or {}
        parts = ['in force: %s' % (', '.join(found.get('installed') or ())
                                   or 'none')]
        for key, label in (('refused', 'refused'),
                           ('not_needed', 'not needed')):
            if found.get(key):
                parts.append('%s: %s' % (label, '; '.join(
                    '%s (%s)' % item for item in sorted(found[key].items()))))
        return '\n'.join(parts)

    def summary(self) -> str:
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

    def whole(self) -> str:
        text: str = format_columns.DictColumn(self._value).human_readable()
        return text

    def summary(self) -> str:
        phases: dict[str, float] = self._value or {}
        longest = sorted(phases, key=lambda p: phases[p], reverse=True)
        shown = [p for p in phases if p in longest[:PHASES_SHOWN] or
                 p == 'venv']
        text = 'total %.1f: %s' % (sum(phases.values()), ', '.join(
            '%s %.1f' % (p, phases[p]) for p in shown))
        if len(phases) > len(shown):
            text += ', %d more' % (len(phases) - len(shown))
        return shorten(text)


class ChangesColumn(_Summarised):
    """What the render changes against the applied version."""


class CountColumn(_Summarised):
    """A list a table shows as its one item, or as how many there are
    (``3 hosts``); the list itself in ``-f json``/``-f yaml``."""

    noun = 'items'

    def whole(self) -> str:
        return ', '.join(str(v) for v in self._value or ())

    def summary(self) -> str:
        items = list(self._value or ())
        if len(items) == 1:
            return shorten(items[0])
        return '%d %s' % (len(items), self.noun) if items else ''


class HostsColumn(CountColumn):
    noun = 'hosts'


class Summarised(_Summarised):
    """Any text, cut at a word to ``width`` in a table."""

    def __init__(self, value: Any, long: bool = False,
                 width: int = SUMMARY_WIDTH) -> None:
        super().__init__(value, long=long)
        self.width = width

    def whole(self) -> str:
        return str(_text(self._value))

    def machine_readable(self) -> Any:
        if isinstance(self._value, cliff_columns.FormattableColumn):
            return self._value.machine_readable()
        return self._value

    def summary(self) -> str:
        return shorten(self.whole(), self.width)


def item_row(item: object, columns: Sequence[str],
             formatters: Mapping[str, Formatter] | None = None
             ) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """``(columns, values)`` of ``item`` (a library result, a dataclass)
    as a cliff ShowOne returns them: each column is the field of that
    name; ``formatters`` (column -> a FormattableColumn class, or a
    function of the value making one) wraps a list or dict. None stays
    None (``null`` in ``-f json``)."""
    formatters = formatters or {}
    values = []
    for column in columns:
        value = getattr(item, column)
        if value is not None and column in formatters:
            value = formatters[column](value)
        values.append(value)
    return tuple(columns), tuple(values)
