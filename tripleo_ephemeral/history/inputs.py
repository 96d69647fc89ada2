"""What the work dir tells config-download's history: the parameters of a
render and the deployment's secrets."""

import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)


def saved_parameters(workdir):
    """The parameters of the work dir's saved inputs: the
    ``parameter_defaults`` (and ``parameters``) of its environment files,
    later files winning; and the deploy's per-deployment choices under
    their option's name (``--overcloud-ssh-user``), so that a change of
    theirs is named like a parameter's."""
    inputs = workdir.load(workdir.deploy_inputs_file) or {}
    merged = {}
    choices = inputs.get('choices')
    if isinstance(choices, dict):
        merged.update((k, v) for k, v in choices.items()
                      if isinstance(k, str) and k.startswith('--'))
    for path in inputs.get('environment_files') or []:
        try:
            data = yamlfile.load(path)
        except exceptions.TripleoEphemeralError as exc:
            LOG.debug('Parameters of %s not read: %s', path, exc)
            continue
        if isinstance(data, dict):
            for section in ('parameter_defaults', 'parameters'):
                merged.update(data.get(section) or {})
    return merged


def secrets(workdir, parameters=None):
    """``(values, names)``: the deployment's secret values (``[(name,
    value)]``) and the names of its secret parameters.

    Secret are the passwords file's parameters (generated or kept), the
    hidden parameters the stack's environment set (as the deploy found
    Heat masking them), each with the value the passwords file and the
    saved environments (``parameters``, else read) give, and the
    tripleo-admin private key.
    """
    passwords = (workdir.load(workdir.passwords_file) or {})
    passwords = passwords.get('parameter_defaults') if isinstance(
        passwords, dict) else None
    passwords = passwords if isinstance(passwords, dict) else {}
    hidden = workdir.load(workdir.hidden_parameters_file)
    names = set(passwords) | set(
        h for h in (hidden if isinstance(hidden, list) else ())
        if isinstance(h, str))
    if parameters is None:
        parameters = saved_parameters(workdir)
    values = sorted(passwords.items()) + [
        (name, parameters[name]) for name in sorted(names)
        if name in parameters and parameters[name] != passwords.get(name)]
    try:
        with open(workdir.ssh_admin_key) as f:
            values.append((os.path.basename(workdir.ssh_admin_key),
                           f.read()))
    except OSError:
        pass
    return values, names
