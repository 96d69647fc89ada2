"""``.. tuning-table::``: the engine tunings, read from the registry
(``tripleo_ephemeral/engine_tuning/registry.py``, each declared in its
module of ``engine_tuning/tunings/``), so the list cannot miss one."""

from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from docutils import nodes

#: How a shim's ``when`` reads.
_WHEN = {
    'in_process': 'Only where every engine runs in Heat\'s own process '
                  '(native, container).',
    'message_bus': 'Only where the engines talk over a message bus (a pod).',
}


def _value(value):
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, (list, tuple)):
        return ','.join(str(v) for v in value) or '(empty)'
    return str(value)


def _help(text, indent):
    return [indent + line for line in (text or '').splitlines() or ['']]


def _setting(opt):
    """A runner setting: its name, type, default and help."""
    return ['``%s`` (%s; default %s)' % (opt.name, opt.type,
                                         _value(opt.stock))] + _help(
        opt.help, '    ')


def _first_paragraph(module):
    """The first paragraph of ``module``'s docstring, on one line."""
    import importlib

    doc = importlib.import_module(module).__doc__ or ''
    return ' '.join(doc.strip().split('\n\n')[0].split())


def _tuning(shim):
    """A tuning: its name, then each option (as ``--heat-config-override``
    names it) with its values and help, when it applies and what it
    checks."""
    lines = ['``%s``' % shim.name]
    for opt in shim.options:
        lines.append('    ``ephemeral_heat.%s`` (%s; tuned: %s; stock Heat: '
                     '%s):' % (opt.name, opt.type, _value(opt.tuned),
                               _value(opt.stock)))
        lines += _help(opt.help, '    ')
        lines.append('')
    if shim.always_on:
        if shim.options:
            always = 'Always on, with its options\' values.'
        else:
            always = 'Always on: %s' % _first_paragraph(
                shim.install.__module__)
        if shim.pythons:
            always += ' Installed only on the Pythons that need it: %s.' % (
                shim.unneeded)
        lines += ['    ' + always, '']
    if shim.when:
        lines += ['    ' + _WHEN[shim.when], '']
    if shim.targets:
        what = ('the function or value it replaces or relies on is'
                if len(shim.targets) == 1 else
                'the %d functions or values it replaces or relies on are'
                % len(shim.targets))
        lines.append('    Checks that %s as in %s.' % (
            what, ', '.join(shim.checked_on)))
    else:
        lines.append('    Replaces no code: %s.' % shim.untargeted)
    return lines + ['']


class TuningTable(Directive):
    """A definition list of the tunings, in the order they are
    installed; ``:settings:`` lists the runner's own settings instead."""

    option_spec = {'settings': lambda arg: True}

    def run(self):
        from tripleo_ephemeral.engine_tuning import registry
        lines = []
        if 'settings' in self.options:
            for opt in registry.RUNNER_SETTINGS:
                lines += _setting(opt)
        else:
            for shim in registry.SHIMS:
                lines += _tuning(shim)
        node = nodes.section()
        self.state.nested_parse(StringList(lines, source='registry'),
                                self.content_offset, node)
        return node.children


def setup(app):
    app.add_directive('tuning-table', TuningTable)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
