"""Render the files an ephemeral Heat reads: values in, text out.

A value reaches each file as that file's reader reads it back: in
heat.conf (:func:`oslo_value`) a ``$`` is doubled (oslo.config substitutes
``$name``) and a value with spaces at either end or in matching quotes is
quoted (its ini parser strips both); in api-paste.ini (:func:`paste_value`,
read by configparser) a ``%`` is doubled; in the pod's YAML a path is a
quoted string. A line break cannot be written in any of them: the values
are checked before (:mod:`.config_options`, the work dir's path).
"""

import datetime
import math
import uuid

import jinja2

from tripleo_ephemeral.engine_tuning import registry


def oslo_value(value):
    """``value`` as heat.conf must say it for oslo.config to read it back
    (ValueError for one with a line break)."""
    text = str(value)
    if any(c in text for c in '\r\n\0'):
        raise ValueError('%r holds a line break' % text)
    text = text.replace('$', '$$')
    if text != text.strip() or (len(text) > 1 and text[0] == text[-1] and
                                text[0] in '"\''):
        text = '"%s"' % text
    return text


def paste_value(value):
    """``value`` as an api-paste.ini (configparser) value."""
    return str(value).replace('%', '%%')


_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader('tripleo_ephemeral.heat_launcher',
                                'templates'),
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENV.filters.update(oslo=oslo_value, paste=paste_value)

#: How long the fake Keystone token stays valid (a deploy must fit in it).
TOKEN_LIFETIME = datetime.timedelta(days=2)


def render(name, **values):
    """Render ``templates/<name>.j2`` with ``values``."""
    return _ENV.get_template(name + '.j2').render(**values)


def heat_conf(*, heat_type, api_url, bind_host, api_port, database_url,
              transport_url, log_dir, token_file, paste_file, policy_file,
              auth_encryption_key, engine_workers=1,
              executor_thread_pool_size=256, runner_options=None,
              debug=False, overrides=None,
              stop_grace=registry.STOP_GRACE):
    return render('heat.conf', heat_type=heat_type, api_url=api_url,
                  bind_host=bind_host, api_port=api_port,
                  database_url=database_url, transport_url=transport_url,
                  log_dir=log_dir, token_file=token_file,
                  paste_file=paste_file, policy_file=policy_file,
                  auth_encryption_key=auth_encryption_key,
                  engine_workers=engine_workers,
                  executor_thread_pool_size=executor_thread_pool_size,
                  runner_options=runner_options or {}, debug=debug,
                  overrides=overrides or {}, stop_grace=stop_grace,
                  graceful_shutdown_timeout=max(1, math.ceil(stop_grace)))


def token_file(endpoint, now=None):
    now = now or datetime.datetime.now(datetime.timezone.utc)
    fmt = '%Y-%m-%dT%H:%M:%S.000000Z'
    return render('token_file.json', endpoint=endpoint,
                  issued_at=now.strftime(fmt),
                  expires_at=(now + TOKEN_LIFETIME).strftime(fmt),
                  role_id=uuid.uuid4().hex, user_id=uuid.uuid4().hex,
                  audit_id=uuid.uuid4().hex[:22],
                  service_id=uuid.uuid4().hex, endpoint_id=uuid.uuid4().hex)


def api_paste_ini(secret_file):
    return render('api-paste.ini', secret_file=secret_file)


def policy_yaml():
    return render('policy.yaml')


def clouds_yaml(endpoint, cloud_name='heat'):
    return render('clouds.yaml', endpoint=endpoint, cloud_name=cloud_name)


def heatrc(endpoint, heat_dir):
    return render('heatrc', endpoint=endpoint, heat_dir=heat_dir)


def parse_overrides(items):
    """Turn ``SECTION.KEY=VALUE`` strings into ``{section: {key: value}}``."""
    result = {}
    for item in items or ():
        key, sep, value = item.partition('=')
        section, dot, option = key.rpartition('.')
        if not sep or not dot or not section or not option:
            raise ValueError(item)
        result.setdefault(section, {})[option] = value
    return result
