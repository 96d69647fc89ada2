"""Pre-deploy checks against what the last successful deploy saved.

Every deploy creates the stack afresh from the inputs it is given, so an
input that silently changed or went missing changes the overcloud. Before
Heat is launched, the new inputs are compared with the snapshot the last
successful deploy left in the work dir (``<stack>-last-success.yaml``,
read and written by the deployment), by data-driven rules
(``check_rules.yaml``); a summary of the environment-file changes is
printed either way. The environments a deploy writes itself and the
lifecycle ones ``update prepare``/``upgrade prepare`` put first are
transient: dropping them is no violation.
"""

import difflib
import logging
import os

from tripleo_ephemeral.deploy import choices as choices_mod
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import input_paths
from tripleo_ephemeral import workdir
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

RULES_FILE = os.path.join(os.path.dirname(__file__), 'check_rules.yaml')

#: Parameters every deploy sets afresh (the deploy parameters file): a
#: change of theirs is no change of the inputs, so the summary leaves
#: them out.
VOLATILE_PARAMETERS = frozenset(('DeployIdentifier', 'DeployIdentifierUUID'))


def snapshot(environment_files, roles, servers=None, choices=None):
    """What the checks compare: env files, merged parameters, roles; and
    the per-deployment ``choices`` (:mod:`.choices`) the next deploy
    keeps."""
    parameters = {}
    for path in environment_files:
        try:
            env = yamlfile.load(path, strict=False,
                                limits=yamlfile.INPUT) or {}
        except exceptions.TripleoEphemeralError:
            continue  # reading them properly is template processing's job
        if isinstance(env, dict):
            parameters.update(env.get('parameter_defaults') or {})
    return {
        'environment_files': [os.path.abspath(p) for p in environment_files],
        'parameters': parameters,
        'roles': sorted(r['name'] for r in roles),
        'hosts': sorted(h.get('hostname', '') for hosts in
                        (servers or {}).values() for h in hosts),
        'choices': dict(choices or {}),
    }


def load_rules(path=RULES_FILE):
    return (yamlfile.load(path, 'Checks file', strict=False) or {}).get(
        'rules') or []


def check_skip_ids(skip, rules=None):
    """Raise InputError when a ``--skip-check`` id names no rule."""
    known = [rule['id'] for rule in
             (load_rules() if rules is None else rules)]
    for rule_id in skip:
        if rule_id not in known:
            near = difflib.get_close_matches(rule_id, known, n=1)
            raise exceptions.InputError(
                '--skip-check %s names no check (%s): %s' % (
                    rule_id, ', '.join(known),
                    'did you mean %s?' % near[0] if near else
                    'use one of these ids'))


def _env_key(path):
    return os.path.basename(path)


def _violates(rule, previous, current):
    kind = rule['kind']
    if kind == 'parameter_unchanged':
        name = rule['parameter']
        old = previous['parameters'].get(name)
        return old is not None and current['parameters'].get(name) != old
    if kind == 'environment_kept':
        now = {_env_key(p) for p in current['environment_files']}
        gone = [p for p in previous['environment_files']
                if rule.get('pattern', '') in p and _env_key(p) not in now
                and not workdir.is_generated_environment(p)
                and not input_paths.is_prepare_environment(p)]
        return ', '.join(gone) if gone else False
    if kind == 'role_kept':
        gone = set(previous['roles']) - set(current['roles'])
        return ', '.join(sorted(gone)) if gone else False
    if kind == 'host_kept':
        gone = set(previous.get('hosts', ())) - set(current.get('hosts', ()))
        return ', '.join(sorted(gone)) if gone else False
    raise ValueError('unknown check kind %r in %s' % (kind, RULES_FILE))


def compare(previous, current, rules=None, skip=()):
    """Return (summary lines, [(rule id, message)] of violations)."""
    if previous is None:
        return ['No earlier successful deploy in this work dir: nothing to '
                'compare'], []
    before = {_env_key(p): p for p in previous['environment_files']}
    after = {_env_key(p): p for p in current['environment_files']}
    summary = []
    for name in sorted(set(after) - set(before)):
        summary.append('environment added:   %s' % after[name])
    for name in sorted(set(before) - set(after)):
        summary.append('environment removed: %s' % before[name])
    changed = sorted(k for k in set(previous['parameters']) |
                     set(current['parameters'])
                     if k not in VOLATILE_PARAMETERS and
                     previous['parameters'].get(k) !=
                     current['parameters'].get(k))
    if changed:
        summary.append('parameters changed:  %s' % ', '.join(changed))
    for option, old, new in choices_mod.changes(
            choices_mod.saved(previous), current.get('choices') or {}):
        summary.append('option changed:      %s %s -> %s' % (
            option, choices_mod.describe(old), choices_mod.describe(new)))
    if not summary:
        summary.append('Inputs unchanged since the last successful deploy')
    violations = []
    for rule in (load_rules() if rules is None else rules):
        if rule['id'] in skip:
            continue
        found = _violates(rule, previous, current)
        if found:
            detail = ' (%s)' % found if isinstance(found, str) else ''
            violations.append((rule['id'], ' '.join(rule['message'].split())
                               + detail))
    return summary, violations


def enforce(violations):
    if violations:
        raise exceptions.CheckFailedError(
            'Pre-deploy checks failed: %s; override one with --skip-check '
            '<id>, or all with --disable-validations' % '; '.join(
                '%s: %s' % v for v in violations))
