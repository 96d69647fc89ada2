"""``.. tuning-table::``: the runner's [ephemeral_heat] options, read from
the engine tuning registry, so the list cannot miss one."""

from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from docutils import nodes


def _value(value):
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, (list, tuple)):
        return ','.join(str(v) for v in value) or '(empty)'
    return str(value)


class TuningTable(Directive):
    """A definition list of the options; ``:settings:`` lists the runner's
    own settings instead of the tunings."""

    option_spec = {'settings': lambda arg: True}

    def run(self):
        from tripleo_ephemeral.engine_tuning import registry
        settings = 'settings' in self.options
        lines = []
        for opt in (registry.RUNNER_SETTINGS if settings
                    else registry.tunings()):
            if settings:
                values = 'default %s' % _value(opt.stock)
            else:
                values = 'tuned: %s; stock Heat: %s' % (
                    _value(opt.tuned), _value(opt.stock))
            lines.append('``%s`` (%s; %s)' % (opt.name, opt.type, values))
            for line in (opt.help or '').splitlines() or ['']:
                lines.append('    ' + line)
        node = nodes.section()
        self.state.nested_parse(StringList(lines, source='registry'),
                                self.content_offset, node)
        return node.children


def setup(app):
    app.add_directive('tuning-table', TuningTable)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
