"""--heat-config-override: known options only, values of their type."""

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral.heat_launcher import config_options


def _check(*items, catalog=None):
    config_options.check(config.parse_overrides(items), catalog=catalog)


@pytest.mark.parametrize('item, message', [
    # Issue 29 case 1: Heat crashed with an oslo LocationInfo(...) repr.
    ('ephemeral_heat.fast_create=maybe',
     '--heat-config-override ephemeral_heat.fast_create=maybe: the option '
     'takes true or false (Unexpected boolean value \'maybe\'): fix the '
     'value'),
    ('ephemeral_heat.fast_creat=true',
     '--heat-config-override ephemeral_heat.fast_creat: [ephemeral_heat] '
     'has no option fast_creat (did you mean fast_create?): fix the option'),
    ('ephemeral_heat.leaf_trigger_delay=-1',
     'the option takes a number (Should be greater than or equal to 0)'),
])
def test_runner_options_without_heat(item, message):
    with pytest.raises(exceptions.InputError) as err:
        _check(item)
    assert message in str(err.value)


def test_runner_options_do_not_load_heat(monkeypatch):
    monkeypatch.setattr(config_options, 'heat_catalog', lambda: 1 / 0)
    _check('ephemeral_heat.fast_create=false',
           'ephemeral_heat.leaf_trigger_delay=0.1')


def test_heat_and_oslo_options_are_known():
    catalog = config_options.full_catalog()
    _check('DEFAULT.executor_thread_pool_size=128',
           'DEFAULT.max_resources_per_stack=-1', 'DEFAULT.debug=true',
           'database.connection=sqlite://', 'yaql.limit_iterators=1000',
           'oslo_policy.enforce_new_defaults=false', catalog=catalog)
    for item, message in (
            ('DEFALT.debug=true', 'heat.conf has no section [DEFALT] Heat or '
             'the runner reads (did you mean DEFAULT?)'),
            ('DEFAULT.max_resources_per_stak=3', 'did you mean '
             'max_resources_per_stack?'),
            ('DEFAULT.executor_thread_pool_size=x',
             'the option takes a whole number')):
        with pytest.raises(exceptions.InputError) as err:
            _check(item, catalog=catalog)
        assert message in str(err.value)


def test_the_tunings_own_overrides_load_neither_heat_nor_libraries(
        monkeypatch):
    """What the launcher's Tuning writes (stock and tuned, as the bench and
    the equality tests pass them) is checked without importing Heat or
    oslo.messaging."""
    from tripleo_ephemeral.heat_launcher import tuning
    monkeypatch.setattr(config_options, 'heat_catalog', lambda: 1 / 0)
    monkeypatch.setattr(config_options, 'library_catalog', lambda: 1 / 0)
    for settings in (tuning.Tuning(), tuning.Tuning.stock()):
        _check(*settings.as_overrides())
