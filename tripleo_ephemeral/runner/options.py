"""The ``[ephemeral_heat]`` options of the ``tripleo-heat-all`` runner.

Declared in :mod:`tripleo_ephemeral.engine_tuning.registry`: the runner's
own settings and every shim's options. Their defaults are Heat's own
behaviour; the launcher writes the tuned values
(``heat_launcher.tuning.Tuning``) into heat.conf. A module of its own so
the options can be read without starting the runner's backend.
"""

from oslo_config import cfg

from tripleo_ephemeral.engine_tuning import registry

_TYPES = {
    'bool': cfg.BoolOpt, 'int': cfg.IntOpt, 'float': cfg.FloatOpt,
    'str': cfg.StrOpt, 'list': cfg.ListOpt, 'host': cfg.HostAddressOpt,
    'port': cfg.PortOpt,
}


def _opt(option):
    kwargs = {'default': option.value(option.stock), 'help': option.help}
    if option.min is not None:
        kwargs['min'] = option.min
    return _TYPES[option.type](option.name, **kwargs)


OPTS = [_opt(option)
        for option in registry.RUNNER_SETTINGS + registry.tunings()]
