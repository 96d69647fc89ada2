"""Fetching a stack's outputs and deployments, and saving them to disk.

Saved in the work dir they let ``--config-download-only`` re-render the
Ansible project without a running Heat.
"""

import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import adoption
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
    return sorted({name for section in adoption.SECTIONS
                   for name, value in ((environment or {}).get(section)
                                       or {}).items()
                   if value == adoption.MASK})


def fetch_and_save_environment(client, stack_id, path, names, files=None,
                               hidden_path=None):
    """Save the values of ``names`` in the stack's merged environment
    (``parameter_defaults``, as Heat merged the environment files) to
    ``path`` (0600: they may be secrets); return them. ``files`` are the
    files the stack was created with, if known (else Heat's copy);
    ``hidden_path`` gets the :func:`hidden_names`."""
    merged = client.stacks.environment(stack_id) or {}
    if hidden_path:
        yamlfile.write(hidden_path, hidden_names(merged))
    if any((merged.get('parameter_defaults') or {}).get(name) ==
           adoption.MASK for name in names):
        # Heat masks hidden parameters (AdminPassword): the stored
        # environment files have them.
        if files is None:
            files = client.stacks.files(stack_id)
        merged, _ = adoption.unmask(merged, files, stack_id, strict=False,
                                    only=names)
    defaults = merged.get('parameter_defaults') or {}
    values = {name: defaults[name] for name in names if name in defaults}
    yamlfile.write(path, values, mode=0o600)
    return values


def load_environment(path):
    """The values :func:`fetch_and_save_environment` saved, or {} (a work
    dir of an older release has none)."""
    if not os.path.exists(path):
        return {}
    values = yamlfile.load(path, 'Saved environment file',
                           exceptions.StackOutputsError, strict=False)
    return values if isinstance(values, dict) else {}


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
