"""Declaring tripleoclient's options once: taken, a no-op, or refused.

An operator's script passes tripleoclient 20.0.0's options; each one this
project has no option of its own for is declared here as a
:class:`CompatOption` of one of three kinds:

* ``VALUE``: tripleoclient's meaning, read into a value by the command's
  option group (:mod:`.overcloud`);
* ``NOOP``: accepted, and its help says why it changes nothing here;
* ``REFUSED``: accepted by the parser so that the user gets one line
  saying why and what to do instead (:func:`check_refused`), not argparse's
  "unrecognized arguments".

Every one of them defaults to ``None``, so "given" is "not ``None``".
"""

import argparse
from collections.abc import Iterable
import logging
from typing import Any

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _

LOG = logging.getLogger(__name__)

VALUE = 'value'
NOOP = 'noop'
REFUSED = 'refused'


class CompatOption:
    """One tripleoclient option: its strings, kind, why (the help of a
    value; the reason of a no-op or a refusal) and argparse keywords
    (without them it is a flag)."""

    def __init__(self, *strings: str, kind: str, why: str,
                 **argparse_kwargs: Any) -> None:
        self.strings = strings
        self.kind = kind
        self.why = why
        self.kwargs = argparse_kwargs or {'action': 'store_true'}
        self.dest: str = argparse_kwargs.get('dest') or (
            strings[0].lstrip('-').replace('-', '_'))

    def help(self) -> str:
        text: str = self.why
        if self.kind == NOOP:
            text = _('tripleoclient\'s; no effect here: %s') % self.why
        elif self.kind == REFUSED:
            text = _('tripleoclient\'s; refused here: %s') % self.why
        return text

    def add_to(self, group: argparse._ActionsContainer) -> None:
        kwargs = dict(self.kwargs, dest=self.dest, help=self.help())
        if kwargs.get('action') == 'store_true':
            kwargs['default'] = None
            kwargs['action'] = 'store_const'
            kwargs['const'] = True
        else:
            kwargs.setdefault('default', None)
        group.add_argument(*self.strings, **kwargs)

    def given(self, parsed_args: argparse.Namespace) -> bool:
        """Whether the command line gave it (an option the command did not
        declare is an error, never "not given")."""
        return vars(parsed_args)[self.dest] is not None


def add_options(parser: argparse.ArgumentParser, title: str,
                declared: Iterable[CompatOption]
                ) -> argparse._ArgumentGroup:
    """Add ``declared`` (CompatOptions) to a group ``title`` of
    ``parser``; return the group."""
    group = parser.add_argument_group(title)
    for option in declared:
        option.add_to(group)
    return group


def check_refused(parsed_args: argparse.Namespace,
                  declared: Iterable[CompatOption]) -> None:
    """Raise the one-line CommandError of the first refused option given."""
    for option in declared:
        if option.kind == REFUSED and option.given(parsed_args):
            raise osc_exceptions.CommandError(
                '%s: %s' % ('/'.join(option.strings), option.why))


def warn_ignored(parsed_args: argparse.Namespace,
                 declared: Iterable[CompatOption]) -> None:
    """Log a warning for each no-op of ``declared`` given (the commands
    whose tripleoclient options were deprecated there)."""
    for option in declared:
        if option.kind == NOOP and option.given(parsed_args):
            LOG.warning(_('%s is deprecated and ignored'), option.strings[0])


def value(parsed_args: argparse.Namespace, option: CompatOption,
          default: Any = None) -> Any:
    """The value of a VALUE option, ``default`` when not given."""
    found = vars(parsed_args)[option.dest]
    return default if found is None else found
