"""Parameters no template declares; --limit naming no host."""

import pytest
import yaml

from tripleo_ephemeral.deploy import input_checks
from tripleo_ephemeral import exceptions

SERVERS = {'Controller': [{'hostname': 'ctrl-0'}],
           'Compute': [{'hostname': 'cmp-0'}, {'hostname': 'cmp-1'}],
           'Storage': []}


def _args(env_path):
    nested = yaml.safe_dump({'heat_template_version': 'wallaby',
                             'parameters': {'Nested': {'type': 'string'}}})
    env = yaml.safe_dump({'parameter_defaults': {'Top': 1, 'Nested': 2,
                                                 'Typo': 3},
                          'parameters': {'Other': 4}})
    return {'template': {'heat_template_version': 'wallaby',
                         'parameters': {'Top': {'type': 'number'}}},
            'files': {'file:///t/nested.yaml': nested,
                      'file://%s' % env_path: env,
                      'file:///t/script.sh': '#!/bin/sh\n'}}


def test_undeclared_parameters():
    found = input_checks.undeclared_parameters(_args('/e/env.yaml'),
                                               ['/e/env.yaml'])
    assert found == {'/e/env.yaml': ['Other', 'Typo']}
    assert input_checks.undeclared_parameters(_args('/e/env.yaml'), []) == {}


@pytest.mark.parametrize('limit', [
    'ctrl-0', 'cmp-*', 'Compute', 'overcloud', 'all', 'ctrl-0:!cmp-0',
    'nova_compute', 'kernel', '~ctrl.*', '@retry', 'nowhere,cmp-1',
    '!ctrl-0'])
def test_limits_that_may_match(limit):
    input_checks.check_limit(limit, 'overcloud', SERVERS)


@pytest.mark.parametrize('limit', ['ctrl-9', 'compute', 'Storage',
                                   'CTRL-0', 'cmp-2:ctrl-5', 'cmp-9:!cmp-0'])
def test_limits_that_match_nothing(limit):
    with pytest.raises(exceptions.InputError, match='fix --limit') as exc:
        input_checks.check_limit(limit, 'overcloud', SERVERS)
    assert 'hosts: cmp-0, cmp-1, ctrl-0; roles: Compute, Controller' in str(
        exc.value)


def test_no_limit_or_no_servers():
    input_checks.check_limit(None, 'overcloud', SERVERS)
    input_checks.check_limit('anything-9', 'overcloud', None)


def test_unset_parameters_of_the_root_template():
    """A password the root template needs (no default) that no
    environment gives; a nested template's parameters come from it."""
    env = yaml.safe_dump({'parameter_defaults': {'Given': 'x'}})
    args = {'template': {'heat_template_version': 'wallaby', 'parameters': {
        'Given': {'type': 'string'}, 'Missing': {'type': 'string'},
        'Defaulted': {'type': 'string', 'default': ''},
        'NotAPassword': {'type': 'string'}}},
        'files': {'file:///e/env.yaml': env},
        'environment_files': ['file:///e/env.yaml']}
    names = ('Given', 'Missing', 'Defaulted', 'Nested')
    assert input_checks.unset_parameters(args, names) == ['Missing']


def _tht_like(tmp_path):
    (tmp_path / 'common').mkdir()
    (tmp_path / 'common' / 'deploy-steps.j2').write_text(
        '- hosts: all\n  strategy: tripleo_free\n')
    return str(tmp_path)


def test_missing_tripleo_ansible_fails_a_run_before_heat(tmp_path,
                                                         monkeypatch):
    monkeypatch.setenv('TRIPLEO_EPHEMERAL_ANSIBLE', str(tmp_path / 'none'))
    said = []
    templates = _tht_like(tmp_path)
    with pytest.raises(exceptions.TripleoAnsibleError,
                       match='install it with "openstack tripleo ansible '
                             'install"$'):
        input_checks.check_tripleo_ansible(templates, True, said.append)
    # --stack-only: a warning; the bundled sample needs nothing.
    input_checks.check_tripleo_ansible(templates, False, said.append)
    assert len(said) == 1 and said[0].startswith('WARNING: TripleO')
    sample = tmp_path / 'sample'
    sample.mkdir()
    input_checks.check_tripleo_ansible(str(sample), True, said.append)
    assert len(said) == 1
