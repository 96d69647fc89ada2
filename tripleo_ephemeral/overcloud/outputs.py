"""Fetching a stack's outputs and deployments, and saving them to disk.

Saved in the work dir they let ``--config-download-only`` re-render the
Ansible project without a running Heat.
"""

import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import heat_merge
from tripleo_ephemeral.overcloud import stored_environment as stored_env
from tripleo_ephemeral.overcloud import deployments as deployments_mod
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)


def fetch_outputs(client, stack_id):
    """Return the outputs of ``stack_id`` as ``{output_key: value}``.

    ``client`` is a heatclient v1 client. An output Heat could not resolve
    raises :class:`StackOutputsError` naming it.
    """
    stack = client.stacks.get(stack_id)
    outputs = {}
    for output in stack.outputs or []:
        key = output['output_key']
        if output.get('output_error'):
            raise exceptions.StackOutputsError(
                'Stack %s output %s failed: %s' % (
                    stack_id, key, output['output_error']))
        outputs[key] = output.get('output_value')
    LOG.debug('Fetched %d outputs of stack %s', len(outputs), stack_id)
    return outputs


def server_ids(outputs):
    """Return the set of server ids listed in the ServerIdData output."""
    ids = set()
    data = (outputs.get('ServerIdData') or {}).get('server_ids') or {}
    for role_ids in data.values():
        ids.update(i for i in role_ids or [] if i)
    return ids


def blacklist_limit(outputs):
    """``!h1:!h2`` for the hosts of the BlacklistedHostnames output (the
    deploy's limit when none is given), or None."""
    hosts = [h for h in (outputs or {}).get('BlacklistedHostnames') or []
             if h]
    return ':'.join('!%s' % h for h in hosts) or None


def fetch_deployments(client, outputs, stack_id=None):
    """Return the software deployments of the stack's servers as dicts,
    oldest first (:func:`tripleo_ephemeral.overcloud.deployments.fetch`).

    Only deployments to a server in ``outputs['ServerIdData']`` count.
    """
    return deployments_mod.fetch(client, stack_id, server_ids(outputs))


def hidden_names(environment):
    """The parameters the environment sets that a template marks
    ``hidden: true``: Heat masks their values in the environment it
    returns."""
    return sorted({name for section in stored_env.SECTIONS
                   for name, value in ((environment or {}).get(section)
                                       or {}).items()
                   if value == heat_merge.MASK})


def fetch_and_save_environment(client, stack_id, path, names, request,
                               hidden_path=None):
    """Save the values of ``names`` the stack took from its merged
    environment to ``path`` (0600: they may be secrets); return them.
    ``hidden_path`` gets the :func:`hidden_names`.

    Heat's API masks a hidden parameter (AdminPassword): its value is
    resolved from ``request`` (the ``stacks.create()`` arguments: its
    ``environment_files``, ``files`` and ``parameters``) as Heat merged
    them, the last file giving it winning; one that cannot be resolved is
    a StackOutputsError, never the mask.
    """
    env = client.stacks.environment(stack_id) or {}
    if hidden_path:
        yamlfile.write(hidden_path, hidden_names(env))
    absent = object()
    values = {name: heat_merge.value_of(env, name, absent)
              for name in names}
    masked = [name for name, value in values.items()
              if value == heat_merge.MASK]
    if masked:
        resolved = heat_merge.resolve(
            masked, request.get('environment_files'), request.get('files'),
            request.get('parameters'))
        for name in masked:
            if name not in resolved or resolved[name] == heat_merge.MASK:
                raise exceptions.StackOutputsError(
                    'Stack %s has the hidden parameter %s, which Heat masks '
                    'and no environment file of the deploy gives: give it '
                    'in an environment file (-e)' % (stack_id, name))
        values.update(resolved)
    values = {name: value for name, value in values.items()
              if value is not absent}
    yamlfile.write(path, values, mode=0o600)
    return values


def load_environment(path):
    """The values :func:`fetch_and_save_environment` saved, or {} (a work
    dir of an older release has none)."""
    if not os.path.exists(path):
        return {}
    values = yamlfile.load(path, 'Saved environment file',
                           exceptions.StackOutputsError, strict=False)
    values = values if isinstance(values, dict) else {}
    masked = sorted(name for name, value in values.items()
                    if value == heat_merge.MASK)
    if masked:  # saved by an older release
        raise exceptions.StackOutputsError(
            'Saved environment file %s holds Heat\'s mask (******) for %s, '
            'not its value: deploy again (without --config-download-only) '
            'to save it' % (path, ', '.join(masked)))
    return values


def save(outputs_path, deployments_path, outputs, deployments=()):
    """Save outputs and deployments (mode 0600: they hold secrets), both
    or neither (a full disk keeps the previous pair).

    Returns the path of the outputs file.
    """
    yamlfile.write_texts({
        outputs_path: yamlfile.dump(outputs, fast=True),
        deployments_path: yamlfile.dump(list(deployments), fast=True)},
        mode=0o600)
    LOG.info('Saved the stack outputs to %s', outputs_path)
    return outputs_path


def load(outputs_path, deployments_path):
    """Return ``(outputs, deployments)`` saved by :func:`save`."""
    if not os.path.exists(outputs_path):
        raise exceptions.StackOutputsError(
            'No saved outputs %s: deploy once without '
            '--config-download-only' % outputs_path)
    outputs = yamlfile.load(outputs_path, 'Saved outputs file',
                            exceptions.StackOutputsError, strict=False)
    if not isinstance(outputs, dict):
        raise exceptions.StackOutputsError(
            'Saved outputs file %s must be a mapping: deploy again to '
            'rewrite it' % outputs_path)
    deployments = []
    if os.path.exists(deployments_path):
        deployments = yamlfile.load(deployments_path,
                                    'Saved deployments file',
                                    exceptions.StackOutputsError,
                                    strict=False) or []
    return outputs, deployments


def fetch_and_save(client, stack_id, outputs_path, deployments_path):
    """Fetch outputs and deployments, save them; return both."""
    outputs = fetch_outputs(client, stack_id)
    deployments = fetch_deployments(client, outputs, stack_id)
    save(outputs_path, deployments_path, outputs, deployments)
    return outputs, deployments
