"""What ``--heat-config-override`` may set, known without starting Heat.

An override the runner does not know is ignored by oslo.config (a typo
changes nothing, silently); a value of the wrong type makes the runner
crash at its first read of the option, and the launch fails with an oslo
``LocationInfo(...)`` repr. :func:`check` refuses both before anything is
written: the runner's own ``[ephemeral_heat]`` options
(:mod:`tripleo_ephemeral.runner.options`), and every option Heat and the
oslo libraries it runs register, read from their ``oslo.config.opts``
entry points, as ``oslo-config-generator`` reads them for Heat's sample
config. Loading Heat's takes seconds (it imports parts of Heat), so the
runner's and the libraries' (a tenth of a second) are asked first, and
Heat's only for an override they do not know.
"""

import difflib
from importlib import metadata

from tripleo_ephemeral import exceptions

RUNNER_SECTION = 'ephemeral_heat'
#: The ``oslo.config.opts`` namespaces of Heat's config generator
#: (etc/heat/heat-config-generator.conf) besides Heat's own ``heat.*``
#: ones; missing ones are left out.
LIBRARY_NAMESPACES = (
    'keystonemiddleware.auth_token', 'oslo.cache', 'oslo.concurrency',
    'oslo.db', 'oslo.log', 'oslo.messaging', 'oslo.middleware',
    'oslo.policy', 'oslo.reports', 'oslo.service.periodic_task',
    'oslo.service.service', 'oslo.service.sslutils', 'osprofiler',
)


def _add(catalog, group, opts):
    section = getattr(group, 'name', group) or 'DEFAULT'
    names = catalog.setdefault(section, {})
    for opt in opts:
        names[opt.name] = opt
        for deprecated in getattr(opt, 'deprecated_opts', None) or ():
            if deprecated.name and deprecated.group in (None, section):
                names.setdefault(deprecated.name, opt)


def runner_catalog():
    """``{section: {name: Opt}}`` of the runner's own options, and of the
    one other option the launcher's tuning writes
    (``DEFAULT.executor_thread_pool_size``, oslo.messaging's, typed as
    oslo_messaging/server.py types it): the stock tuning's overrides then
    need no import of oslo.messaging (1.2 s measured)."""
    from oslo_config import cfg

    from tripleo_ephemeral.runner import options as runner_options
    catalog = {}
    _add(catalog, RUNNER_SECTION, runner_options.OPTS)
    _add(catalog, 'DEFAULT', [cfg.IntOpt('executor_thread_pool_size')])
    return catalog


def library_catalog():
    """``{section: {name: Opt}}`` of the oslo libraries Heat runs with
    (cheap: a tenth of a second)."""
    return _entry_point_catalog(lambda name: name in LIBRARY_NAMESPACES)


def heat_catalog():
    """``{section: {name: Opt}}`` of Heat's own options (seconds: imports
    parts of Heat)."""
    return _entry_point_catalog(lambda name: name.startswith('heat.'))


def _entry_point_catalog(wanted):
    catalog = {}
    for ep in metadata.entry_points(group='oslo.config.opts'):
        if wanted(ep.name):
            for group, opts in ep.load()():
                _add(catalog, group, opts)
    return catalog


def _merge(catalog, more):
    for section, names in more.items():
        catalog.setdefault(section, {}).update(names)


def _known(catalog, overrides):
    return all(name in catalog.get(section, {})
               for section, values in overrides.items() for name in values)


def full_catalog(overrides=None):
    """The catalog :func:`check` uses: the runner's options, then the
    libraries', then Heat's, each loaded only while an override of
    ``overrides`` is still unknown (all when None)."""
    catalog = runner_catalog()
    for more in (library_catalog, heat_catalog):
        if overrides is not None and _known(catalog, overrides):
            break
        _merge(catalog, more())
    return catalog


def _nearest(word, candidates):
    near = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return ' (did you mean %s?)' % near[0] if near else ''


def check(overrides, catalog=None):
    """Raise InputError unless every ``{section: {option: value}}`` names
    a known option with a value of its type.

    ``catalog`` (``{section: {name: Opt}}``) defaults to the runner's,
    plus Heat's when an override needs it.
    """
    for section, values in sorted(overrides.items()):
        for name, value in sorted(values.items()):
            if any(ord(c) < 32 or ord(c) == 127 for c in value):
                raise exceptions.InputError(
                    '--heat-config-override %s.%s=%r: the value holds a '
                    'line break or another control character, which '
                    'heat.conf cannot hold: give it on one line' % (
                        section, name, value))
    if catalog is None:
        catalog = full_catalog(overrides)
    for section, values in sorted(overrides.items()):
        known = catalog.get(section)
        if known is None:
            raise exceptions.InputError(
                '--heat-config-override %s.%s: heat.conf has no section '
                '[%s] Heat or the runner reads%s: fix the section' % (
                    section, next(iter(values)), section,
                    _nearest(section, catalog)))
        for name, value in sorted(values.items()):
            opt = known.get(name)
            if opt is None:
                hint = _nearest(name, known)
                if not hint and len(known) <= 40:
                    hint = ' (it has: %s)' % ', '.join(sorted(known))
                raise exceptions.InputError(
                    '--heat-config-override %s.%s: [%s] has no option %s%s: '
                    'fix the option' % (section, name, section, name, hint))
            try:
                opt.type(value)
            except (ValueError, TypeError) as exc:
                raise exceptions.InputError(
                    '--heat-config-override %s.%s=%s: the option takes %s '
                    '(%s): fix the value' % (
                        section, name, value, _describe(opt),
                        ' '.join(str(exc).split())))


def _describe(opt):
    kind = type(opt.type).__name__
    return {'Boolean': 'true or false', 'Integer': 'a whole number',
            'Float': 'a number', 'Port': 'a port number',
            }.get(kind, 'a value of type %s' % kind)
