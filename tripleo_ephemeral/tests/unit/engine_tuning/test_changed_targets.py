"""Each create tuning of issue 41 on a Heat (or yaql) whose code differs
from the code it was checked on: the guard leaves it off with one warning
naming the target, and every target is the library's own object after.

One target of each is changed here, the way another release would change
it: a function put in its place (a wrapper of the stock one, whose
fingerprint is not stock's), or, for a module a shim wraps, another
module. That every recorded fingerprint matches the installed libraries,
and that the tuned settings install them all: ``test_guard``.
"""

import functools
import logging

import pytest

from tripleo_ephemeral.engine_tuning import guard
from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral.engine_tuning import targets

#: Each tuning and the target changed under it.
CHANGED = [
    ('template_validate_unhashed', 'heat.engine.template.Template.validate'),
    ('fast_create_final_outputs',
     'heat.engine.service.EngineService.show_stack'),
    ('fast_create_lean_stacks', 'heat.engine.stack.Stack._persist_state'),
    ('fast_create_lean_rows', 'heat.db.api.resource_attr_id_set'),
    ('fast_snippet_walks', 'heat.engine.function.resolve'),
    ('fast_yaql_input', 'yaql.language.utils.convert_input_data'),
    ('fast_create_no_yield', 'heat.engine.stack.time'),
    ('fast_create_lean_resource_data', 'heat.db.api.resource_data_set'),
    ('fast_registry_globs',
     'heat.engine.environment.ResourceRegistry.iterable_by'),
    ('fast_create_child_environment',
     'heat.engine.environment.get_child_environment'),
]


def _another_release(path):
    """What another release might have at ``path``."""
    stock = targets.held(path)
    if path == 'heat.engine.stack.time':
        from eventlet.green import time as green_time
        return green_time  # a Heat that sleeps with eventlet's time

    @functools.wraps(stock)
    def changed(*args, **kwargs):
        return stock(*args, **kwargs)

    return changed


def test_every_create_tuning_of_issue_41_is_here():
    names = {shim.name for shim in registry.SHIMS}
    assert {name for name, _path in CHANGED} <= names
    for name, path in CHANGED:
        assert path in [t.path for t in registry.shim(name).targets], name


@pytest.mark.parametrize('name,path', CHANGED)
def test_a_changed_target_leaves_the_tuning_off(name, path, monkeypatch,
                                                caplog):
    shim = registry.shim(name)
    assert guard.mismatch(shim) is None  # stock: it would install
    owner, attr = targets.owner_and_name(path)
    monkeypatch.setattr(owner, attr, _another_release(path))
    before = {t.path: targets.held(t.path) for t in shim.targets}
    try:
        with caplog.at_level(logging.WARNING):
            assert guard.install_shim(name) is None
    finally:
        guard.uninstall([name])
    assert guard.installed() == []
    assert {t.path: targets.held(t.path) for t in shim.targets} == before
    [line] = [r.getMessage() for r in caplog.records
              if 'Engine tuning' in r.getMessage()]
    assert line.startswith('Engine tuning %s is off: %s differs' % (
        name, path)), line
    assert 'installed: ' in line and '\n' not in line
