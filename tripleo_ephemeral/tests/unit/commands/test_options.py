"""The shared options refuse issue 29's inputs before any command acts."""

import argparse

from osc_lib import exceptions as osc_exceptions
import pytest

from tripleo_ephemeral.commands import options


def test_every_command_refuses_a_stack_name_heat_would():
    """--stack of every command goes through options.WorkDirOptions: a name out
    of the work dir (``../../evil``) is refused before any path is made."""
    with pytest.raises(osc_exceptions.CommandError,
                       match="--stack '../../evil' is not a valid stack"):
        options.WorkDirOptions().read(argparse.Namespace(
            stack='../../evil', work_dir=None))
    assert options.WorkDirOptions().read(argparse.Namespace(
        stack='site-1', work_dir='/w')).path == '/w'


def _launcher_args(*overrides, argv=()):
    parser = argparse.ArgumentParser()
    options.add_heat_launcher_options(parser)
    options.add_container_options(parser)
    argv = list(argv)
    for item in overrides:
        argv += ['--heat-config-override', item]
    return options.launcher_spec(parser.parse_args(argv))


def test_build_launcher_refuses_an_override_heat_would_crash_on(tmp_path):
    with pytest.raises(osc_exceptions.CommandError, match='fast_create=maybe'
                       ': the option takes true or false'):
        options.build_launcher(
            _launcher_args('ephemeral_heat.fast_create=maybe'),
            str(tmp_path / 'heat'))
    assert not (tmp_path / 'heat').exists()
    launcher = options.build_launcher(
        _launcher_args('ephemeral_heat.fast_create=false'),
        str(tmp_path / 'heat'))
    assert launcher.heat_type == 'native'


def test_heat_tuning_stock_runs_every_tuning_off(tmp_path):
    """--heat-tuning stock: Heat as TripleO's launcher ran it; an override
    still applies over it."""
    from tripleo_ephemeral.heat_launcher import auto

    tuned = options.build_launcher(_launcher_args(), str(tmp_path / 'a'))
    assert tuned.tuning.fast_create is True
    spec = _launcher_args('ephemeral_heat.gc_freeze=true',
                          argv=['--heat-tuning', 'stock'])
    assert spec.tuning == 'stock'
    stock = options.build_launcher(spec, str(tmp_path / 'b'))
    assert stock.tuning.fast_create is False
    assert stock.tuning.executor_thread_pool_size == 64
    assert stock.tuning.overrides == {'ephemeral_heat': {'gc_freeze': 'true'}}
    # --heat-type auto knows the fast create is off.
    assert auto.fast_create_on(list(spec.overrides), default=False) is False
    assert auto.fast_create_on(['ephemeral_heat.fast_create=true'],
                               default=False) is True


def test_work_dir_options_read_what_they_declared():
    """A name the options did not declare is an error, never None."""
    declared = options.WorkDirOptions(positional_stack=True)
    parser = argparse.ArgumentParser()
    declared.add(parser)
    parsed = parser.parse_args(['oc', '--work-dir', '/w'])
    assert declared.read(parsed).stack == 'oc'
    with pytest.raises(KeyError):
        declared.read(argparse.Namespace(stack='oc', work_dir='/w'))


@pytest.mark.parametrize('value', ['', '   ', 'a\nb', 'x\r', 'tab\there'])
def test_a_name_or_a_path_is_not_empty_and_on_one_line(value):
    """Issue 36: ``--stack ""`` deployed "overcloud", ``--work-dir ""``
    was the current directory."""
    for kind in (options.name, options.abs_path):
        with pytest.raises(argparse.ArgumentTypeError):
            kind(value)
    parser = argparse.ArgumentParser()
    options.WorkDirOptions().add(parser)
    for option in ('--stack', '--work-dir'):
        with pytest.raises(SystemExit):
            parser.parse_args([option, value])
    assert options.name('overcloud-1') == 'overcloud-1'


def test_an_empty_positional_stack_is_not_the_default():
    with pytest.raises(osc_exceptions.CommandError, match="--stack '' is "
                       'not a valid stack name'):
        options.WorkDirOptions(positional_stack=True).read(
            argparse.Namespace(stack_name='', stack='x', work_dir='/w'))


@pytest.mark.parametrize('path, char', [
    ('/w/deploy #1', '#'), ('/w/50%', '%'), ('/w/$HOME', '$'),
    ('/w/why?', '?')])
def test_a_heat_dir_heat_would_misread_is_refused(path, char):
    with pytest.raises(osc_exceptions.CommandError, match=(
            r'The heat dir %s holds a "\%s", which .*: choose a --work-dir '
            r'\(or --heat-dir\) without one' % (path.replace('$', r'\$')
                                                .replace('?', r'\?'),
                                                char))):
        options.check_heat_dir(path)
    options.check_heat_dir("/w/my deploys/it's \"x\"")
