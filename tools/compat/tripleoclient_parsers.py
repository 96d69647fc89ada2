#!/usr/bin/env python3
"""tripleoclient 20.0.0's own parsers, for the commands this project has.

    python tools/compat/tripleoclient_parsers.py      # what is not covered

Downloads python-tripleoclient's sdist once (``pip download --no-deps
--no-binary :all:``) into ``~/.cache/tripleo-ephemeral`` (or
``$TRIPLEO_EPHEMERAL_CACHE``), imports its command classes from there and
builds their parsers; the two packages it needs that this project does not
install (validations-libs, ironic-inspector-client) are stubbed, as only
module-level names are taken from them. Compared with this project's
parsers (the installed entry points), it prints every option of theirs
ours does not take, or takes with another arity (a value against a flag;
an optional value takes either).
"""

import argparse
import collections
import importlib
import importlib.machinery
import os
import subprocess
import sys
import tarfile
import types

VERSION = '20.0.0'
SDIST = 'python-tripleoclient-%s' % VERSION
CACHE = os.environ.get('TRIPLEO_EPHEMERAL_CACHE') or os.path.join(
    os.path.expanduser('~'), '.cache', 'tripleo-ephemeral')
#: Imported by tripleoclient at module level, not installed here.
STUBBED = ('validations_libs', 'ironic_inspector_client')

#: Our command -> tripleoclient's class (its setup.cfg entry points).
COMMANDS = {
    'overcloud deploy': 'v1.overcloud_deploy:DeployOvercloud',
    'overcloud status': 'v1.overcloud_deploy:GetDeploymentStatus',
    'overcloud update prepare': 'v1.overcloud_update:UpdatePrepare',
    'overcloud update run': 'v1.overcloud_update:UpdateRun',
    'overcloud upgrade prepare': 'v1.overcloud_upgrade:UpgradePrepare',
    'overcloud upgrade run': 'v1.overcloud_upgrade:UpgradeRun',
    'overcloud external-update run':
        'v1.overcloud_external_update:ExternalUpdateRun',
    'overcloud external-upgrade run':
        'v1.overcloud_external_upgrade:ExternalUpgradeRun',
    'overcloud node delete': 'v1.overcloud_node:DeleteNode',
    'overcloud export': 'v1.overcloud_export:ExportOvercloud',
    'overcloud credentials': 'v1.overcloud_credentials:OvercloudCredentials',
    'overcloud delete': 'v2.overcloud_delete:DeleteOvercloud',
    'overcloud admin authorize': 'v1.overcloud_admin:Authorize',
    'overcloud roles generate': 'v1.overcloud_roles:RolesGenerate',
    'tripleo deploy': 'v1.tripleo_deploy:Deploy',
    'tripleo launch heat': 'v1.tripleo_launch_heat:LaunchHeat',
    'tripleo container image prepare default':
        'v1.container_image:TripleOImagePrepareDefault',
}

#: One option: its strings (empty for a positional), what it takes
#: (:func:`arity`) and its dest.
Option = collections.namedtuple('Option', 'strings arity dest')


def source(cache=CACHE):
    """The extracted sdist's directory, downloaded once into ``cache``."""
    dest = os.path.join(cache, SDIST)
    if os.path.isdir(os.path.join(dest, 'tripleoclient')):
        return dest
    os.makedirs(cache, exist_ok=True)
    archive = os.path.join(cache, SDIST + '.tar.gz')
    if not os.path.exists(archive):
        subprocess.run([sys.executable, '-m', 'pip', 'download', '-q',
                        '--disable-pip-version-check', '--no-deps',
                        '--no-binary', ':all:', '-d', cache,
                        'python-tripleoclient==%s' % VERSION],
                       check=True, stdout=sys.stderr)
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, 'data_filter'):  # Python 3.10.12+, 3.11.4+
            tar.extractall(cache, filter='data')
        else:
            tar.extractall(cache)
    return dest


class _Stubs:
    """Empty modules for STUBBED: any attribute is a new empty class."""

    class Module(types.ModuleType):
        def __getattr__(self, name):
            if name.startswith('__'):
                raise AttributeError(name)
            return type(name, (), {})

    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in STUBBED:
            return importlib.machinery.ModuleSpec(name, self,
                                                  is_package=True)
        return None

    def create_module(self, spec):
        module = self.Module(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


class _App:
    stdout = sys.stdout
    stderr = sys.stderr
    options = None


def arity(action):
    """'flag', 'value' or 'optional' (a value or none: nargs='?')."""
    if action.nargs == '?':
        return 'optional'
    return 'flag' if action.nargs == 0 else 'value'


def options_of(parser):
    """[Option] of an argparse parser, help left out."""
    return [Option(tuple(a.option_strings), arity(a), a.dest)
            for a in parser._actions
            if not isinstance(a, argparse._HelpAction)]


def tripleoclient_options(src=None):
    """command -> [Option] of tripleoclient's parser for it."""
    src = src or source()
    if src not in sys.path:
        sys.path.insert(0, src)
    if not any(isinstance(f, _Stubs) for f in sys.meta_path):
        sys.meta_path.insert(0, _Stubs())
    result = {}
    for name, ref in COMMANDS.items():
        module, cls = ref.split(':')
        command = getattr(importlib.import_module('tripleoclient.' + module),
                          cls)(_App(), None)
        result[name] = options_of(command.get_parser('openstack ' + name))
    return result


def our_parsers():
    """command -> our parser, from the installed entry points."""
    from importlib import metadata
    result = {}
    for ep in metadata.entry_points(group='openstack.tripleo_ephemeral.v1'):
        name = ep.name.replace('_', ' ')
        result[name] = ep.load()(_App(), None).get_parser('openstack ' + name)
    return result


def uncovered(theirs=None, ours=None):
    """[(command, option string, why)] of tripleoclient's options that our
    parser of the same command does not take as they do."""
    theirs = theirs or tripleoclient_options()
    ours = ours or our_parsers()
    missing = []
    for command, options in sorted(theirs.items()):
        parser = ours.get(command)
        if parser is None:
            missing.append((command, '', 'no such command'))
            continue
        known = parser._option_string_actions
        positionals = [a for a in parser._actions if not a.option_strings]
        for option in options:
            if not option.strings:
                if not positionals:
                    missing.append((command, '<%s>' % option.dest,
                                    'positional argument not taken'))
                continue
            for string in option.strings:
                action = known.get(string)
                if action is None:
                    missing.append((command, string, 'not accepted'))
                elif arity(action) not in ('optional', option.arity):
                    missing.append((command, string, 'a %s here, a %s in '
                                    'tripleoclient' % (arity(action),
                                                       option.arity)))
    return missing


def main():
    missing = uncovered()
    for command, option, why in missing:
        print('%-40s %-40s %s' % (command, option, why))
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
