"""The ``ansible.cfg`` a deploy writes into its config-download directory.

It holds the inventory, the known hosts of the work dir and the SSH
settings, so ``ansible-playbook`` can be run again by hand from that
directory; ``--override-ansible-cfg`` is merged over it.
"""

import configparser
import io
import os
import shlex

from tripleo_ephemeral.ansible import search_paths
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import inventory as inventory_mod

ANSIBLE_CFG = 'ansible.cfg'
ANSIBLE_LOG = 'ansible.log'
KNOWN_HOSTS = 'ssh_known_hosts'


def merge_cfg(text, override_path, kept=None):
    """``text`` (an ansible.cfg) with the sections and options of the file
    ``override_path`` set over it (--override-ansible-cfg), except the
    ``[defaults]`` keys of ``kept`` (``{key: (value, aliases)}``: the search
    paths, which hold the override's directories already), whose aliases
    are dropped."""
    merged = configparser.ConfigParser(interpolation=None)
    merged.read_string(text)
    override = configparser.ConfigParser(interpolation=None)
    try:
        with open(override_path) as f:
            override.read_file(f)
    except (OSError, configparser.Error) as exc:
        raise exceptions.AnsibleError(
            'Cannot read the Ansible configuration %s: %s; check '
            '--override-ansible-cfg' % (override_path, exc))
    for section in override.sections():
        if not merged.has_section(section):
            merged.add_section(section)
        for key, value in override.items(section, raw=True):
            merged.set(section, key, value)
    for key, (value, aliases) in (kept or {}).items():
        for alias in aliases:
            merged.remove_option('defaults', alias)
        merged.set('defaults', key, value)
    out = io.StringIO()
    out.write('# Written by openstack overcloud deploy, with %s merged '
              'over it; rewritten on every deploy.\n' % override_path)
    merged.write(out)
    return out.getvalue()


def saved_ssh_key(config_dir):
    """The ``private_key_file`` of the ansible.cfg the last deploy wrote
    in ``config_dir``, or None."""
    parser = configparser.ConfigParser()  # as Ansible reads it ("%%")
    try:
        parser.read(os.path.join(config_dir, ANSIBLE_CFG))
        return parser.get('defaults', 'private_key_file', fallback=None)
    except configparser.Error:
        return None


def _value(text):
    """``text`` as Ansible's configparser reads it back: "%" doubled."""
    return text.replace('%', '%%')


def _ssh_option(name, path):
    """``-o name=path`` as ssh_args (split like a shell line by Ansible,
    then by ssh: a path with a space is quoted for both)."""
    if shlex.quote(path) == path:
        return '-o %s=%s' % (name, path)
    quoted = path.replace('\\', '\\\\').replace('"', '\\"')
    return '-o %s' % shlex.quote('%s="%s"' % (name, quoted))


def text(config_dir, options, tripleo=False, search=None):
    """Return the text of ``ansible.cfg`` for ``config_dir`` (``tripleo``:
    for TripleO's Ansible). What tripleoclient set in the environment
    (forks, timeouts, plugin paths...) is in the environment here too:
    :class:`~tripleo_ephemeral.ansible.environment.
    PlaybookEnvironment`. ``search``: the
    :class:`~tripleo_ephemeral.ansible.search_paths.SearchPaths` written
    into ``[defaults]`` (as the runs' variables have them)."""
    ssh_args = ' '.join([
        '-o ControlMaster=auto', '-o ControlPersist=60s',
        # Trust on first use: a host's key is recorded in the work dir and a
        # changed key (a reprovisioned or impostor host) fails the run.
        '-o StrictHostKeyChecking=accept-new',
        _ssh_option('UserKnownHostsFile',
                    os.path.join(config_dir, KNOWN_HOSTS)),
        '-o ServerAliveInterval=5', '-o ConnectTimeout=10'])
    lines = [
        '# Written by openstack overcloud deploy; rewritten on every run.',
        '[defaults]',
        'inventory = %s' % _value(os.path.join(
            config_dir, inventory_mod.INVENTORY_FILE)),
        'log_path = %s' % _value(os.path.join(config_dir, ANSIBLE_LOG)),
        'local_tmp = %s' % _value(os.path.join(config_dir, '.ansible',
                                               'tmp')),
        'retry_files_enabled = False',
        'interpreter_python = auto_silent',
        'host_key_checking = True',
    ]
    if tripleo:
        # tripleo-common's config-download ansible.cfg held only this.
        lines.append('internal_poll_interval = 0.01')
    if options.ssh_key:
        lines.append('private_key_file = %s' % _value(os.path.abspath(
            options.ssh_key)))
    kept = {}
    if search is not None:
        lines.append('# Where modules, plugins, roles and collections are '
                     'found: the product\'s,')
        lines.append('# then yours, then Ansible\'s defaults (the runs put '
                     'your ANSIBLE_* variables')
        lines.append('# after the product\'s).')
        for setting in search_paths.SETTINGS:
            key, aliases = setting.keys[0], setting.keys[1:]
            value = _value(search.cfg_values()[key])
            kept[key] = (value, aliases)
            lines.append('%s = %s' % (key, value))
    lines += [
        '',
        '[ssh_connection]',
        'ssh_args = %s' % _value(ssh_args),
        'pipelining = True',
        'retries = 3',
        '',
    ]
    text = '\n'.join(lines)
    if options.override_cfg:
        text = merge_cfg(text, options.override_cfg, kept)
    return text
