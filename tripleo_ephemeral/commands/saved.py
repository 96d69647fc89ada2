"""openstack tripleo saved {stack list, resource list, output show,
dump list}

Inspect a deployment between deploys, without starting Heat: stacks and
resources come from the newest database dump (or the one ``--dump``
names), outputs from what the last deploy saved in the work dir; the dumps
kept, with what made each, from the heat dir.
"""

import os

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.overcloud import outputs as stack_outputs
from tripleo_ephemeral.heat_db import dump_reader
from tripleo_ephemeral import workdir


def _add_source_options(parser, stack=True, dump=True):
    group = options.add_work_dir_options(
        parser, stack=stack, group=parser.add_argument_group(
            _('Saved deployment')),
        work_dir_help=_('Work dir of the deployment'))
    if not dump:
        return
    group.add_argument(
        '--dump', metavar='<file-or-id>',
        help=_('Read this dump instead of the newest one in '
               '<work-dir>/%s: a file, or an id of "tripleo saved dump '
               'list" ("last-success": the last successful deploy\'s)')
        % workdir.HEAT_DIR)


def _open(parsed_args):
    heat_dir = options.work_dir(parsed_args).heat_dir
    with errors.user_errors('--work-dir'):
        path = dumps.DumpStore(heat_dir).resolve(parsed_args.dump) \
            if parsed_args.dump and not os.path.exists(parsed_args.dump) \
            else os.path.abspath(parsed_args.dump or
                                 os.path.join(heat_dir, dumps.DUMP_NAME))
        return dump_reader.SavedDatabase.from_dump(path)


class ListSavedStack(command.Lister):
    """List the stacks of a saved deployment, without Heat"""

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        _add_source_options(parser)
        parser.add_argument('--nested', action='store_true',
                            help=_('Include nested stacks'))
        return parser

    def take_action(self, parsed_args):
        columns = ('id', 'stack_name', 'stack_status', 'creation_time',
                   'updated_time')
        headings = ('ID', 'Stack Name', 'Stack Status', 'Creation Time',
                    'Updated Time')
        if parsed_args.nested:
            columns += ('parent',)
            headings += ('Parent',)
        rows = _open(parsed_args).stacks(nested=parsed_args.nested)
        return headings, [tuple(r[c] for c in columns) for r in rows]


class ListSavedResource(command.Lister):
    """List the resources of a saved stack, without Heat"""

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('stack', metavar='<stack>',
                            help=_('Name or ID of the stack'))
        parser.add_argument(
            '-n', '--nested-depth', metavar='<depth>', type=int, default=0,
            help=_('Depth of nested stacks to list resources of'))
        _add_source_options(parser, stack=False)
        return parser

    def take_action(self, parsed_args):
        columns = ('resource_name', 'physical_resource_id', 'resource_type',
                   'resource_status', 'stack_name')
        with errors.user_errors('--work-dir'):
            rows = _open(parsed_args).resources(
                parsed_args.stack, nested_depth=parsed_args.nested_depth)
        if not parsed_args.nested_depth:
            columns = columns[:-1]
        return columns, [tuple(r[c] for c in columns) for r in rows]


class ShowSavedOutput(command.ShowOne):
    """Show the outputs the last deploy saved, without Heat"""

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('output', metavar='<output>', nargs='?',
                            help=_('Show only this output'))
        _add_source_options(parser, dump=False)
        return parser

    def take_action(self, parsed_args):
        work_dir = options.work_dir(parsed_args)
        with errors.user_errors('--work-dir'):
            outputs, _deployments = stack_outputs.load(
                work_dir.outputs_file, work_dir.deployments_file)
        if parsed_args.output:
            if parsed_args.output not in outputs:
                raise osc_exceptions.CommandError(
                    _('Stack %(stack)s has no output %(name)s; it has: '
                      '%(names)s') % {'stack': parsed_args.stack,
                                      'name': parsed_args.output,
                                      'names': ', '.join(sorted(outputs))})
            return (('output_key', 'output_value'),
                    (parsed_args.output, outputs[parsed_args.output]))
        names = tuple(sorted(outputs))
        return names, tuple(outputs[n] for n in names)


class ListSavedDump(command.Lister):
    """List the database dumps kept for a deployment, and what made each"""

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        _add_source_options(parser, dump=False)
        return parser

    def take_action(self, parsed_args):
        columns = ('id', 'origin', 'time', 'stacks', 'kept', 'path')
        headings = ('ID', 'Origin', 'Time', 'Stacks', 'Kept', 'Path')
        store = dumps.DumpStore(options.work_dir(parsed_args).heat_dir)
        return headings, [tuple(g.get(c) for c in columns)
                          for g in store.generations()]
