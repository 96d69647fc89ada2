import configparser
import datetime
import json

import pytest

from tripleo_ephemeral.heat_launcher import config


def _conf(**kw):
    values = dict(heat_type='native', api_url='http://127.0.0.1:8006',
                  bind_host='127.0.0.1', api_port=8006,
                  database_url='sqlite:////d/heat.sqlite',
                  transport_url='fake://', log_dir='/d/log',
                  token_file='/d/token_file.json',
                  paste_file='/d/api-paste.ini',
                  policy_file='/d/policy.yaml',
                  auth_encryption_key='k' * 32)
    values.update(kw)
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(config.heat_conf(**values))
    return parser


def test_heat_conf_binds_loopback_and_uses_noauth():
    conf = _conf()
    assert conf['ephemeral_heat']['bind_host'] == '127.0.0.1'
    assert conf['ephemeral_heat']['bind_port'] == '8006'
    assert conf['paste_deploy']['flavor'] == 'noauth'
    assert conf['oslo_policy']['enforce_new_defaults'] == 'false'
    assert conf['database']['connection'] == 'sqlite:////d/heat.sqlite'
    assert conf['DEFAULT']['transport_url'] == 'fake://'


def test_heat_conf_tuning_and_overrides():
    from tripleo_ephemeral.heat_launcher import tuning
    conf = _conf(runner_options=tuning.Tuning(
                     leaf_trigger_delay=0.05,
                     resource_chain_concurrency=4).runner_options(),
                 executor_thread_pool_size=128,
                 overrides={'yaql': {'limit_iterators': '1'},
                            'extra': {'a': 'b'}})
    assert conf['ephemeral_heat']['leaf_trigger_delay'] == '0.05'
    assert conf['ephemeral_heat']['resource_chain_concurrency'] == '4'
    assert conf['ephemeral_heat']['lazy_resource_definitions'] == 'true'
    assert conf['ephemeral_heat']['atomic_sync_points'] == 'true'
    assert conf['ephemeral_heat']['checkin_yield'] == 'false'
    assert conf['DEFAULT']['executor_thread_pool_size'] == '128'
    assert conf['extra']['a'] == 'b'
    # The override comes last, so oslo.config takes it.
    text = config.heat_conf(**{k: v for k, v in dict(
        heat_type='native', api_url='u', bind_host='h', api_port=1,
        database_url='d', transport_url='t', log_dir='l', token_file='t',
        paste_file='p', policy_file='p', auth_encryption_key='k',
        overrides={'yaql': {'limit_iterators': '1'}}).items()})
    assert text.rindex('limit_iterators = 1') > text.index(
        'limit_iterators = 9000')


def test_token_file_expires_later_and_points_at_the_api():
    now = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
    token = json.loads(config.token_file('http://127.0.0.1:9/s/v1/admin',
                                         now=now))
    assert token['token']['expires_at'].startswith('2030-01-03')
    urls = {e['url'] for e in token['token']['catalog'][0]['endpoints']}
    assert urls == {'http://127.0.0.1:9/s/v1/admin'}


def test_clouds_yaml_and_heatrc_carry_the_endpoint_with_its_secret():
    endpoint = 'http://x:1/s3cret/v1/admin'
    assert 'endpoint: %s\n' % endpoint in config.clouds_yaml(endpoint)
    assert 'OS_ENDPOINT=%s\n' % endpoint in config.heatrc(endpoint, '/d')


def test_api_paste_puts_the_owner_check_first():
    text = config.api_paste_ini('/d/api_secret')
    assert 'pipeline = owner faultwrap' in text
    assert 'secret_file = /d/api_secret' in text


@pytest.mark.parametrize('item', ['novalue', 'nosection=1', '.x=1', 'a.=1'])
def test_parse_overrides_rejects(item):
    with pytest.raises(ValueError):
        config.parse_overrides([item])


def test_parse_overrides():
    assert config.parse_overrides(['DEFAULT.debug=true', 'a.b.c=x=y']) == {
        'DEFAULT': {'debug': 'true'}, 'a.b': {'c': 'x=y'}}


def test_stock_tuning_turns_every_shim_off():
    from tripleo_ephemeral.heat_launcher import tuning
    overrides = tuning.Tuning.stock().as_overrides()
    assert 'ephemeral_heat.leaf_trigger_delay=1.0' in overrides
    assert 'ephemeral_heat.resource_chain_concurrency=0' in overrides
    assert 'ephemeral_heat.lazy_resource_definitions=false' in overrides
    assert 'ephemeral_heat.fast_template_parse=false' in overrides
    assert 'ephemeral_heat.atomic_sync_points=false' in overrides
    assert 'ephemeral_heat.checkin_yield=true' in overrides
    assert 'DEFAULT.executor_thread_pool_size=64' in overrides


def test_every_tuning_is_a_runner_option_whose_default_is_heats():
    """The launcher writes each tuning into [ephemeral_heat]; the runner
    must know it (oslo.config would refuse it at start), and the runner's
    own default must be the stock behaviour the baseline relies on."""
    from tripleo_ephemeral.heat_launcher import tuning
    from tripleo_ephemeral.runner import options as runner_options
    runner = {opt.name: opt for opt in runner_options.OPTS}
    for name, (_tuned, stock) in tuning.RUNNER_TUNINGS.items():
        assert name in runner, name
        default = runner[name].default
        if isinstance(default, list):
            stock = [v for v in str(stock).split(',') if v]
        assert default == stock, name


@pytest.mark.parametrize('path', ['/w/a b/heat', '/w/50%/heat', '/w/#1/heat',
                                  '/w/$HOME/heat', "/w/it's/heat",
                                  '/w/ "q" /heat'])
def test_paths_read_back_as_written(tmp_path, path):
    """Issue 36: what oslo.config and paste read is the path given."""
    from oslo_config import cfg
    conf_file = tmp_path / 'heat.conf'
    conf_file.write_text(config.heat_conf(
        heat_type='native', api_url='http://127.0.0.1:8006',
        bind_host='127.0.0.1', api_port=8006,
        database_url='sqlite:///%s/heat.sqlite' % path,
        transport_url='fake://',
        log_dir=path + '/log', token_file=path + '/t.json',
        paste_file=path + '/api-paste.ini', policy_file=path + '/p.yaml',
        auth_encryption_key='k' * 32,
        overrides={'DEFAULT': {'host': ' %s ' % path}}))
    conf = cfg.ConfigOpts()
    conf.register_opts([cfg.StrOpt('log_dir'), cfg.StrOpt('host')])
    conf.register_opts([cfg.StrOpt('connection')], group='database')
    conf.register_opts([cfg.StrOpt('api_paste_config')], group='paste_deploy')
    conf(args=[], default_config_files=[str(conf_file)])
    assert conf.log_dir == path + '/log'
    assert conf.host == ' %s ' % path
    assert conf.database.connection == 'sqlite:///%s/heat.sqlite' % path
    assert conf.paste_deploy.api_paste_config == path + '/api-paste.ini'
    paste = configparser.ConfigParser()  # paste's interpolation
    paste.read_string(config.api_paste_ini(path + '/secret'))
    assert paste['filter:owner']['secret_file'] == path + '/secret'


def test_a_line_break_is_never_written():
    with pytest.raises(ValueError, match='line break'):
        config.oslo_value('a\n[database]')
