"""Where Ansible looks for modules, plugins, roles and collections.

Every run of config-download (the product's, and
``ansible-playbook-command.sh``'s) looks, for each kind, in this order:

1. the product's: tripleo-ansible's directories in TripleO's Ansible venv
   (its collections: that venv's, ansible 7.7.0's), as tripleoclient put
   ``/usr/share/ansible/tripleo-plugins`` first;
2. the operator's: the ``ANSIBLE_*`` variable (``ANSIBLE_LIBRARY``...) set
   when the command runs, then the ``[defaults]`` of an ansible.cfg: the
   deploy's ``--override-ansible-cfg`` (kept in config-download's
   ``ansible.cfg``) and the operator's own, the first of
   ``$ANSIBLE_CONFIG``, ``~/.ansible.cfg`` and ``/etc/ansible/ansible.cfg``
   that exists (Ansible's own search, without the current directory);
3. Ansible's defaults (``~/.ansible/plugins/modules``,
   ``/usr/share/ansible/plugins/modules``, ``/usr/share/ansible/roles``,
   ``/usr/share/ansible/collections``...: where an undercloud's RPMs put
   ansible-pacemaker and linux-system-roles);
4. for modules, the product's own fallbacks (``modules/`` beside this file:
   ``pacemaker_resource`` and ``pacemaker_cluster``, ansible-pacemaker's
   interface), found only when nothing before has one (before ansible-core
   sends a name it found nowhere to a collection: community.general's
   ``pacemaker_cluster`` takes other options).

The deploy writes the same order into config-download's ``ansible.cfg``
(without the variables, which Ansible reads before any ansible.cfg) and
into the script, which puts the variables as set when it runs in their
place. Nothing is expanded here that Ansible expands itself (``~``).
"""

import collections
import configparser
import glob
import os
import shlex

#: One search path: the variables Ansible reads (the first is the one
#: set), the ansible.cfg keys (the first is the one written), the
#: directory of tripleo-ansible's under ``share/ansible``, and Ansible's
#: defaults (``{home}``: ``$ANSIBLE_HOME``, else ``~/.ansible``), as
#: ansible-core 2.14's ``config/base.yml`` has them.
Setting = collections.namedtuple('Setting', 'env keys share defaults')


def _plugin(env, key, sub, share=None):
    return Setting((env,), (key,), share or 'plugins/' + sub,
                   ('{home}/plugins/' + sub,
                    '/usr/share/ansible/plugins/' + sub))


SETTINGS = (
    _plugin('ANSIBLE_LIBRARY', 'library', 'modules'),
    _plugin('ANSIBLE_ACTION_PLUGINS', 'action_plugins', 'action'),
    _plugin('ANSIBLE_CALLBACK_PLUGINS', 'callback_plugins', 'callback'),
    _plugin('ANSIBLE_FILTER_PLUGINS', 'filter_plugins', 'filter'),
    _plugin('ANSIBLE_LOOKUP_PLUGINS', 'lookup_plugins', 'lookup'),
    _plugin('ANSIBLE_STRATEGY_PLUGINS', 'strategy_plugins', 'strategy'),
    # tripleo-ansible's Jinja tests are in plugins/tests.
    _plugin('ANSIBLE_TEST_PLUGINS', 'test_plugins', 'test',
            share='plugins/tests'),
    _plugin('ANSIBLE_MODULE_UTILS', 'module_utils', 'module_utils'),
    Setting(('ANSIBLE_ROLES_PATH',), ('roles_path',), 'roles',
            ('{home}/roles', '/usr/share/ansible/roles',
             '/etc/ansible/roles')),
    # Ansible reads both names; the singular wins when both are set.
    Setting(('ANSIBLE_COLLECTIONS_PATH', 'ANSIBLE_COLLECTIONS_PATHS'),
            ('collections_path', 'collections_paths'), None,
            ('{home}/collections', '/usr/share/ansible/collections')),
)
LIBRARY = SETTINGS[0]
#: The product's own modules, used only where no other is found.
FALLBACK_MODULES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'modules')
#: Where an operator's ansible.cfg is looked for after $ANSIBLE_CONFIG.
OPERATOR_CFGS = ('~/.ansible.cfg', '/etc/ansible/ansible.cfg')


def operator_cfg(environ, own=None):
    """The ansible.cfg Ansible would read for the operator: the first of
    ``$ANSIBLE_CONFIG`` (unless it is ``own``, config-download's),
    ``~/.ansible.cfg`` and ``/etc/ansible/ansible.cfg`` that exists; or
    None."""
    named = environ.get('ANSIBLE_CONFIG')
    candidates = []
    if named and (own is None or os.path.abspath(named) !=
                  os.path.abspath(own)):
        candidates.append(os.path.join(named, 'ansible.cfg')
                          if os.path.isdir(named) else named)
    candidates += [os.path.expanduser(p) for p in OPERATOR_CFGS]
    for path in candidates:
        if os.path.isfile(path):
            return path
    return None


def cfg_dirs(path):
    """``{key: [dirs]}`` of the search path keys in ``path``'s
    ``[defaults]`` (as Ansible reads them: "%%" is "%", a relative
    directory is relative to the file), or {} when it cannot be read."""
    parser = configparser.ConfigParser(inline_comment_prefixes=(';',))
    try:
        with open(path) as f:
            parser.read_file(f)
    except (OSError, UnicodeDecodeError, configparser.Error):
        return {}
    found = {}
    base = os.path.dirname(os.path.abspath(path))
    for setting in SETTINGS:
        for key in setting.keys:
            try:
                value = parser.get('defaults', key, fallback=None)
            except configparser.Error:
                continue
            if value:
                found[key] = [_absolute(d, base) for d in _split(value)]
    return found


def _split(value):
    return [d.strip() for d in str(value).split(os.pathsep) if d.strip()]


def _absolute(path, base):
    if path.startswith(('~', '$')) or os.path.isabs(path):
        return path
    return os.path.normpath(os.path.join(base, path))


def _unique(dirs):
    seen, out = set(), []
    for d in dirs:
        key = os.path.normpath(os.path.expandvars(os.path.expanduser(d)))
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


class SearchPaths:
    """The search paths of one run. ``ansible``: TripleO's Ansible
    (:class:`~.install.AnsibleInstall`), or None for the product's own
    ansible-core (no tripleo-ansible then); ``cfg_files``: the ansible.cfg
    files whose ``[defaults]`` are the operator's, in order; ``environ``:
    the variables the command runs with."""

    def __init__(self, ansible=None, cfg_files=(), environ=None):
        self.ansible = ansible
        self.environ = dict(os.environ if environ is None else environ)
        self._cfg = [cfg_dirs(p) for p in cfg_files if p]

    def product(self, setting):
        if self.ansible is None:
            return []
        if setting.share:
            return [os.path.join(self.ansible.share_dir, setting.share)]
        return sorted(glob.glob(os.path.join(
            self.ansible.path, 'lib', 'python3*', 'site-packages')))

    def operator_env(self, setting):
        """What the operator's variables name (relative to where the
        command runs, as Ansible would have it)."""
        dirs = []
        for name in setting.env:
            dirs += [_absolute(d, os.getcwd())
                     for d in _split(self.environ.get(name, ''))]
        return dirs

    def operator_cfg(self, setting):
        dirs = []
        for found in self._cfg:
            for key in setting.keys:
                dirs += found.get(key, [])
        return dirs

    def defaults(self, setting):
        home = self.environ.get('ANSIBLE_HOME') or '~/.ansible'
        return [d.format(home=home.rstrip('/')) for d in setting.defaults]

    def fallbacks(self, setting):
        return [FALLBACK_MODULES] if setting is LIBRARY else []

    def dirs(self, setting, with_env=True):
        """The directories of ``setting``, in order, each once."""
        return _unique(self.product(setting) +
                       (self.operator_env(setting) if with_env else []) +
                       self.operator_cfg(setting) + self.defaults(setting) +
                       self.fallbacks(setting))

    def variables(self):
        """``{variable: 'dir:dir...'}`` for the run's environment."""
        return {s.env[0]: os.pathsep.join(self.dirs(s)) for s in SETTINGS}

    def cfg_values(self):
        """``{ansible.cfg key: 'dir:dir...'}``: the same without the
        operator's variables (Ansible reads those over any ansible.cfg)."""
        return {s.keys[0]: os.pathsep.join(self.dirs(s, with_env=False))
                for s in SETTINGS}

    def script_lines(self):
        """``export`` lines for the command script: the operator's
        variables, as set when the script runs, after the product's."""
        lines = []
        for setting in SETTINGS:
            product = self.product(setting)
            rest = [d for d in self.dirs(setting, with_env=False)
                    if d not in product]
            value = shlex.quote(os.pathsep.join(product + [''])) \
                if product else ''
            for name in setting.env:  # "${X:+$X:}": nothing when unset
                value += '${%s:+$%s%s}' % (name, name, os.pathsep)
            value += shlex.quote(os.pathsep.join(rest))
            lines.append('export %s=%s' % (setting.env[0], value))
        return lines
