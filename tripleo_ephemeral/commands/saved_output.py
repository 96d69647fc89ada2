"""openstack tripleo saved output show"""

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.commands import saved_source


#: How wide a table shows each output without --long (beside names of up
#: to 46 characters: THT's TripleoHeatTemplatesJinja2RenderingDataSources).
VALUE_WIDTH = 48


class ShowSavedOutput(saved_source.SavedCommand, command.ShowOne):
    """Show the outputs the last deploy saved, without Heat"""

    source = saved_source.SavedSource(dump=False)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('output', metavar='<output>', nargs='?',
                            help=_('Show only this output (whole)'))
        output.add_long_option(parser, _('every output'))
        return parser

    def take_action(self, parsed_args):
        workdir = self.workdir(parsed_args)
        with errors.user_errors('--work-dir'):
            outputs = workdir.saved_outputs()
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
        long = output.whole(parsed_args)
        return names, tuple(output.summarised(outputs[n], long, VALUE_WIDTH)
                            for n in names)
