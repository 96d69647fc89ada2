"""openstack overcloud config diff

The versions of config-download (a git repository, one commit per render)
and what changed between two of them, read without Heat.
"""

from osc_lib.cli import format_columns
from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.history import changes
from tripleo_ephemeral.history import edits
from tripleo_ephemeral.history import secrets


#: The columns a table summarises without --long, and to how wide.
#: (Hosts: the one host, or how many.)
SUMMARISED = {'Detail': 30}
DIFF_COLUMNS = ('Kind', 'Change', 'Name', 'Role', 'Hosts', 'Added',
                'Removed', 'Detail')
HAND_EDIT = 'hand edit'


def _resolve(history, name, option):
    sha = history.resolve(name)
    if sha is None:
        raise osc_exceptions.CommandError(
            _('%(option)s %(name)s: no such version in %(dir)s; see '
              '"openstack overcloud config history"') % {
                  'option': option, 'name': name,
                  'dir': history.config_dir})
    return sha


def _value(name, value):
    if value is None:
        return '(unset)'
    text = str(value)
    if secrets.is_secret_name(name) or '<secret:' in text:
        return '(secret)'
    return text if len(text) <= 60 else text[:57] + '...'


def _file_row(kind, change, with_diff):
    return (kind, change.change if change.real else 'noise', change.path,
            change.role, format_columns.ListColumn(change.hosts),
            change.added, change.removed,
            '%d noise line(s)' % change.noise if change.noise else '') + (
                (change.diff,) if with_diff else ())


def diff_rows(diff, show_noise=False, with_diff=False, hand_edits=()):
    """The rows of a :class:`~tripleo_ephemeral.history.changes.Diff`,
    then of the ``hand_edits`` (:func:`~.changes.hand_edits`)."""
    rows = [_file_row('file', change, with_diff) for change in
            diff.files + (diff.noise_files if show_noise else [])]
    for name, old, new in diff.parameters + (
            diff.noise_parameters if show_noise else []):
        change = (changes.ADDED if old is None else changes.REMOVED
                  if new is None else changes.MODIFIED)
        rows.append(('parameter', change, name, '',
                     format_columns.ListColumn([]), None, None,
                     '%s -> %s' % (_value(name, old), _value(name, new))) +
                    (('',) if with_diff else ()))
    for change, hosts in ((changes.ADDED, diff.hosts_added),
                          (changes.REMOVED, diff.hosts_removed)):
        for host in hosts:
            rows.append(('host', change, host, '',
                         format_columns.ListColumn([host]), None, None, '') +
                        (('',) if with_diff else ()))
    rows += [_file_row(HAND_EDIT, change, with_diff)
             for change in hand_edits]
    return rows


class DiffConfig(base.DeploymentCommand, command.Lister):
    """Show what changed between two versions of config-download.

    By default between the version the last successful Ansible run
    applied and the last render: what the next run would change. Files
    are listed with the role and hosts they reach, then the parameters
    (of the saved environments) and the hosts added or removed. Lines
    that differ only by generated values (UUIDs, timestamps, the deploy
    identifier) are noise: hidden and counted unless --show-noise.
    Files changed by hand since the last render are listed too ("hand
    edit"). Secret values are masked in every format, the unified diff
    included.
    """

    work_dir_options = options.WorkDirOptions(positional_stack=True)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--from', dest='old', metavar='<version>', default='applied',
            help=_('Version to compare from: a commit, a tag, HEAD~N or '
                   '"applied" (default: applied; everything is new if no '
                   'run applied one)'))
        parser.add_argument(
            '--to', dest='new', metavar='<version>', default='HEAD',
            help=_('Version to compare to (default: HEAD, the last '
                   'render)'))
        parser.add_argument(
            '--unified', action='store_true',
            help=_('Show the unified diff of each file (a "diff" column '
                   'with -f json/yaml)'))
        parser.add_argument(
            '--show-noise', action='store_true',
            help=_('Also show the changes that are only generated values'))
        parser.add_argument(
            '--context', metavar='<lines>', type=int, default=3,
            help=_('Lines of context of the unified diff (default: 3)'))
        output.add_long_option(parser, _('the Hosts and Detail'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        workdir = self.workdir(parsed_args, existing=True)
        unified = parsed_args.unified
        show_noise = parsed_args.show_noise
        with errors.user_errors('--work-dir'):
            history = options.config_history(workdir)
            new = _resolve(history, parsed_args.new, '--to')
            old = None
            if parsed_args.old != 'applied' or history.resolve('applied'):
                old = _resolve(history, parsed_args.old, '--from')
            diff = changes.compare(history, old, new,
                                   context=parsed_args.context,
                                   with_noise=show_noise)
            hand = changes.hand_edits(history, parsed_args.context) if (
                new == history.head()) else []
        self.app.stderr.write('%s..%s: %s\n' % (
            old[:12] if old else 'nothing applied', new[:12],
            diff.summary() if diff else 'no changes (%s)' % (
                diff.noise_text())) +
            ('' if show_noise or not diff.noise_lines else
             '(--show-noise shows the noise)\n'))
        if hand:
            self.app.stderr.write(
                'Hand edits since %s, in no version yet: %s; the next '
                'render keeps them as a version of their own, then '
                'replaces them\n' % (new[:12], edits.describe(
                    [(c.change, c.path) for c in hand])))
        rows = diff_rows(diff, show_noise, with_diff=unified,
                         hand_edits=hand)
        if unified and parsed_args.formatter == 'table':
            self.app.stdout.write(''.join(row[-1] for row in rows))
            return DIFF_COLUMNS, []
        columns = DIFF_COLUMNS + (('Diff',) if unified else ())
        long = output.whole(parsed_args)
        hosts = columns.index('Hosts')
        rows = [row[:hosts] + (output.HostsColumn(
            row[hosts].machine_readable(), long=long),) + row[hosts + 1:]
            for row in rows]
        return columns, output.summarised_rows(columns, rows, SUMMARISED,
                                               long)
