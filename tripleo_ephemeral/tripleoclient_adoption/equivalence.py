"""Is a redeployed stack the adopted one? Compare what two deploys left.

Every stack create makes new ids (servers, deployments, configs, nested
stacks and their random name suffixes), new times and a new deploy
identifier; nothing else may differ. :func:`compare` checks, between an
adopted work dir (a :class:`Side` captured before the next deploy) and the
same work dir after it:

* parameters: every value of the stored (merged) environments, less the
  deploy's own (``DeployIdentifier``...), and the passwords;
* the resource registry, with each side's templates directory as one name;
* every stack output;
* the software deployments, as a set (independent ones are created in any
  order);
* every file of config-download but the runner's own, with the deployment
  lists of ``host_vars`` compared as sets for the same reason.

Before comparing, a document's UUIDs become ``<uuid-1>``, ``<uuid-2>``...
in order of appearance (so a swapped id still shows), times become
``<time>``, the random suffixes of nested stack names ``<id>``, and the
deploy identifiers of both sides ``<DeployIdentifier>``...; UUIDs that
are parameter values (a Ceph fsid) are kept. The :class:`Report` counts
what was compared and what each rule replaced.
"""

import collections
import difflib
import json
import os
import re
import shutil

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import stored_environment as stored_env
from tripleo_ephemeral.overcloud import config_download
from tripleo_ephemeral.overcloud import passwords as passwords_mod
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.heat_db import dump_reader
from tripleo_ephemeral import workdir as workdir_mod

_UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-'
                   r'[0-9a-f]{12}')
_TIME = re.compile(r'\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?Z?')
#: A stack identifier ``<name>/<uuid>``: Heat ends nested stack names
#: with a random 12 character id.
_STACK_ID = re.compile(r'([A-Za-z0-9_.-]+)/(' + _UUID.pattern + ')')
_SHORT_ID = re.compile(r'-[a-z2-7]{12}(?=-|$)')
#: What ansible-runner and Ansible write there, not the rendering.
_SKIPPED = (set(config_download.RUNNER_DIRS) - {'inventory'}) | {
    'ansible.cfg', 'ansible-playbook-command.sh', 'ansible.log',
    'ssh_known_hosts', '.git'}
_DEPLOYMENT_LISTS = re.compile(r'^(pre_network|pre_deployments|'
                               r'post_deployments)_')


class Side:
    """What one deploy left in a work dir, kept in memory (and the
    config-download copied) so the next deploy may overwrite it."""

    def __init__(self, work_dir, outputs, deployments, config_download,
                 environment, files, passwords):
        self.work_dir = work_dir
        self.outputs = outputs
        self.deployments = deployments
        self.config_download = config_download
        self.environment = environment
        self.files = files
        self.passwords = passwords

    @classmethod
    def capture(cls, work_dir, stack, copy_to=None):
        """Read the work dir; copy its config-download to ``copy_to``."""
        workdir = workdir_mod.WorkDir(work_dir, stack)
        outputs, deployments = workdir.saved_outputs_and_deployments()
        saved = dump_reader.SavedDatabase.from_dump(workdir.heat_dump)
        _template, environment, files = saved.stored(saved.root_stack(stack))
        config = workdir.config_download_dir
        if copy_to:
            config = os.path.join(copy_to, 'config-download')
            shutil.copytree(workdir.config_download_dir, config, symlinks=True)
        return cls(workdir.path, outputs, deployments, config, environment,
                   files, passwords_mod.load(workdir.passwords_file))

    def parameters(self):
        merged = {}
        for section in reversed(stored_env.SECTIONS):
            merged.update(self.environment.get(section) or {})
        return merged

    def volatile(self):
        params = self.parameters()
        return {name: params[name] for name in
                stored_env.VOLATILE_PARAMETERS if params.get(name) is not None}

    def roots(self):
        """(URL prefix, name) pairs that make both sides' paths alike."""
        # Templates from outside the set were copied under adopted/files/.
        pairs = [('file://%s/' % os.path.join(
            self.work_dir, workdir_mod.ADOPTED_DIR, 'files'), 'file:///')]
        try:
            pairs.append((stored_env.templates_root(self.files, '') + '/',
                          '<templates>/'))
        except exceptions.AdoptionError:  # no registry: nothing to map
            pass
        return pairs


class Report:
    """The outcome: ``differences`` (empty when equivalent), ``compared``
    (how many of each were compared) and ``normalised`` (what each rule
    replaced)."""

    def __init__(self):
        self.differences = []
        self.compared = collections.Counter()
        self.normalised = collections.Counter()

    @property
    def equivalent(self):
        return not self.differences

    def summary(self):
        return {'equivalent': self.equivalent,
                'compared': dict(self.compared),
                'normalised': dict(self.normalised),
                'differences': list(self.differences)}


class _Normaliser:
    def __init__(self, volatile, protected, report):
        self.report = report
        self.protected = protected
        self.tokens = [(re.compile(r'(?<![0-9A-Za-z])%s(?![0-9A-Za-z])' %
                                   re.escape(str(value))), '<%s>' % name)
                       for name, value in volatile.items()]

    def text(self, value):
        """Canonical JSON of ``value`` with the volatile parts named."""
        text = json.dumps(value, sort_keys=True, indent=1, default=str)
        for pattern, token in self.tokens:
            text, n = pattern.subn(token, text)
            self.report.normalised[token] += n
        text = _STACK_ID.sub(self._stack_id, text)
        seen = {}

        def _uuid(match):
            if match.group(0) in self.protected:
                return match.group(0)
            self.report.normalised['<uuid>'] += 1
            return seen.setdefault(match.group(0), '<uuid-%d>' % (
                len(seen) + 1))
        text = _UUID.sub(_uuid, text)
        text, n = _TIME.subn('<time>', text)
        self.report.normalised['<time>'] += n
        return text

    def _stack_id(self, match):
        name, n = _SHORT_ID.subn('-<id>', match.group(1))
        self.report.normalised['<stack name id>'] += n
        return '%s/%s' % (name, match.group(2))


def _relative(value, roots):
    if isinstance(value, dict):
        return {k: _relative(v, roots) for k, v in value.items()}
    if isinstance(value, str):
        for prefix, name in roots:
            if value.startswith(prefix):
                return name + value[len(prefix):]
    return value


def _diff(what, a, b, report):
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(),
                                      'adopted', 'redeployed', n=0,
                                      lineterm=''))[2:8]
    report.differences.append('%s differs: %s' % (what, ' | '.join(
        line.strip() for line in lines)))


def _compare_parameters(a, b, report):
    skip = set(stored_env.VOLATILE_PARAMETERS)
    pa, pb = a.parameters(), b.parameters()
    for name in sorted(set(pa) | set(pb)):
        if name in skip:
            continue
        report.compared['parameters'] += 1
        if name not in pa or name not in pb:
            report.differences.append('parameter %s only in the %s stack' % (
                name, 'adopted' if name in pa else 'redeployed'))
        elif stored_env.canonical(pa[name]) != stored_env.canonical(pb[name]):
            report.differences.append('parameter %s differs' % name)
    for name in sorted(set(a.passwords) | set(pb)):
        if name not in a.passwords or name not in pb:
            continue
        report.compared['passwords'] += 1
        if a.passwords[name] != pb[name]:
            report.differences.append('password %s changed' % name)
    ra = _relative(a.environment.get('resource_registry') or {}, a.roots())
    rb = _relative(b.environment.get('resource_registry') or {}, b.roots())
    for key in sorted(set(ra) | set(rb)):
        report.compared['registry entries'] += 1
        if ra.get(key) != rb.get(key):
            report.differences.append('registry %s: %r != %r' % (
                key, ra.get(key), rb.get(key)))


def _sorted_lists(doc):
    if isinstance(doc, dict):
        return {k: sorted(v) if _DEPLOYMENT_LISTS.match(str(k)) and
                isinstance(v, list) else v for k, v in doc.items()}
    return doc


def _config_files(root):
    found = {}
    for directory, dirs, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root)
        if rel_dir == '.':
            dirs[:] = [d for d in dirs if d not in _SKIPPED]
        for name in files:
            if rel_dir == '.' and name in _SKIPPED:
                continue
            rel = os.path.normpath(os.path.join(rel_dir, name))
            found[rel] = os.path.join(directory, name)
    return found


def _load(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    try:
        return _sorted_lists(yamlfile.loads(text, limits=yamlfile.OWN,
                                            json_first=False))
    except yaml.YAMLError:
        return text


def _compare_outputs(a, b, na, nb, report):
    for key in sorted(set(a) | set(b)):
        report.compared['outputs'] += 1
        if key not in a or key not in b:
            report.differences.append('output %s only in the %s stack' % (
                key, 'adopted' if key in a else 'redeployed'))
            continue
        ta, tb = na.text(a[key]), nb.text(b[key])
        if ta != tb:
            _diff('output %s' % key, ta, tb, report)


def compare_outputs(adopted, redeployed):
    """Compare two stacks' outputs made from the same environment (the
    installed stack and its re-creation); return a :class:`Report`."""
    report = Report()
    _compare_outputs(adopted, redeployed, _Normaliser({}, set(), report),
                     _Normaliser({}, set(), report), report)
    return report


def compare(adopted, redeployed):
    """Compare two :class:`Side` objects; return a :class:`Report`."""
    report = Report()
    protected = {m.group(0) for value in (
        list(adopted.parameters().values()) +
        list(adopted.passwords.values()))
        for m in _UUID.finditer(json.dumps(value, default=str))}
    na = _Normaliser(adopted.volatile(), protected, report)
    nb = _Normaliser(redeployed.volatile(), protected, report)
    _compare_parameters(adopted, redeployed, report)

    _compare_outputs(adopted.outputs, redeployed.outputs, na, nb, report)

    da = sorted(na.text(d) for d in adopted.deployments)
    db = sorted(nb.text(d) for d in redeployed.deployments)
    report.compared['deployments'] += len(da)
    if da != db:
        _diff('software deployments', '\n'.join(da), '\n'.join(db), report)

    fa = _config_files(adopted.config_download)
    fb = _config_files(redeployed.config_download)
    for rel in sorted(set(fa) ^ set(fb)):
        report.differences.append('config-download/%s only in the %s one' % (
            rel, 'adopted' if rel in fa else 'redeployed'))
    for rel in sorted(set(fa) & set(fb)):
        report.compared['config-download files'] += 1
        ta, tb = na.text(_load(fa[rel])), nb.text(_load(fb[rel]))
        if ta != tb:
            _diff('config-download/%s' % rel, ta, tb, report)
    return report
