"""The files every ephemeral Heat reads, written into its heat dir."""

import os
import secrets

from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral import redaction

KEY_FILE = 'auth_encryption_key'
#: The secret every request to the API carries
#: (:mod:`tripleo_ephemeral.runner.api_owner`).
API_SECRET_FILE = 'api_secret'


class HeatDir:
    """The files of a heat dir (``root``), where a launcher keeps its
    config, logs, secret and client files: a launcher's ``files``."""

    def __init__(self, root):
        self.root = root

    def path(self, *names):
        return os.path.join(self.root, *names)

    @property
    def config_file(self):
        return self.path('heat.conf')

    @property
    def log_dir(self):
        return self.path('log')

    @property
    def clouds_file(self):
        return self.path('clouds.yaml')

    @property
    def secret_file(self):
        return self.path(API_SECRET_FILE)

    @property
    def api_secret(self):
        """The secret the API of this heat dir's Heat requires, or None
        before the first launch (:mod:`tripleo_ephemeral.runner.api_owner`)."""
        try:
            with open(self.secret_file) as f:
                secret = f.read().strip() or None
        except FileNotFoundError:
            return None
        redaction.hide(secret or '')  # never in this process's logs
        return secret


def write(launcher):
    """heat.conf, the token, paste and policy files, clouds.yaml and
    heatrc of ``launcher`` (a HeatLauncher), each written atomically."""
    files = launcher.files
    path = files.path
    write_atomic = fileutil.write_atomic
    token_file = path('token_file.json')
    paste_file = path('api-paste.ini')
    policy_file = path('policy.yaml')
    tuning = launcher.tuning
    write_atomic(files.config_file, config.heat_conf(
        heat_type=launcher.heat_type, api_url=launcher.api_url,
        bind_host=launcher.bind_host, api_port=launcher.api_port,
        database_url=launcher.database.url,
        transport_url=launcher.transport_url,
        log_dir=files.log_dir, token_file=token_file,
        paste_file=paste_file, policy_file=policy_file,
        auth_encryption_key=auth_encryption_key(path(KEY_FILE)),
        engine_workers=tuning.engine_workers,
        executor_thread_pool_size=tuning.executor_thread_pool_size,
        runner_options=tuning.runner_options(), debug=launcher.debug,
        overrides=tuning.overrides, stop_grace=launcher.stop_grace))
    if files.api_secret is None:
        new_api_secret(launcher)
    endpoint = launcher.endpoint
    write_atomic(token_file, config.token_file(endpoint))
    write_atomic(paste_file, config.api_paste_ini(files.secret_file),
                 mode=0o644)
    write_atomic(policy_file, config.policy_yaml(), mode=0o644)
    write_atomic(files.clouds_file, config.clouds_yaml(endpoint))
    write_atomic(path('heatrc'), config.heatrc(endpoint, launcher.heat_dir))


def new_api_secret(launcher):
    """Make the secret the next launch's API requires (0600): a new one
    every launch, so an endpoint seen once opens no later Heat."""
    fileutil.ensure_private_dir(launcher.heat_dir)
    fileutil.write_atomic(launcher.files.secret_file,
                          secrets.token_urlsafe(24) + '\n')


def auth_encryption_key(key_file):
    """The key Heat encrypts stored secrets with.

    It must stay the same across a dump and a restore, so it is made once
    per heat dir and kept there (0600).
    """
    try:
        with open(key_file) as f:
            key = f.read().strip()
        if len(key) == 32:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_hex(16)
    fileutil.write_atomic(key_file, key + '\n')
    return key
