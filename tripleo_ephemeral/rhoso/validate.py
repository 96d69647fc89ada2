"""``overcloud adoption validate``: an export's documents, every check.

Each document against its CRD schema of the target version
(:mod:`.schema`), all of them against the webhook and IPAM rules
(:mod:`.webhooks`), and, with the work dir, against the deployment they
describe (:mod:`.crosscheck`), the NIC template proven node by node. A
YAML file of the directory may hold several documents; the export's
manifest and report are not documents.
"""

import collections
import glob
import os

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso import crosscheck
from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso import webhooks

MANIFEST = 'adoption-export.yaml'
SECRETS_DIR = 'secrets'

#: ``problems``; ``proofs`` (:class:`~.crosscheck.Proof`); ``documents``:
#: how many were checked; ``bundle``: the schemas' version.
Result = collections.namedtuple('Result', 'problems proofs documents bundle')


def manifest(path):
    """The export's manifest in directory ``path``, or {}."""
    found = os.path.join(path, MANIFEST)
    if not os.path.exists(found):
        return {}
    data = yamlfile.load(found, 'Export manifest',
                         exceptions.RhosoExportError)
    return data if isinstance(data, dict) else {}


def load_dir(path):
    """``(documents, problems)``: every ``(where, document)`` of the YAML
    files in ``path`` and ``path/secrets``, and a problem per file that is
    not YAML."""
    if not os.path.isdir(path):
        raise exceptions.RhosoExportError(
            'Export directory %s does not exist: give the --output-dir of '
            '"openstack overcloud adoption export"' % path)
    files = sorted(glob.glob(os.path.join(path, '*.yaml')) +
                   glob.glob(os.path.join(path, SECRETS_DIR, '*.yaml')))
    documents, found = [], []
    for name in files:
        rel = os.path.relpath(name, path)
        if rel == MANIFEST:
            continue
        try:
            with open(name, encoding='utf-8') as f:
                loaded = [d for d in yaml.load_all(
                    f, Loader=yamlfile.StrictLoader) if d is not None]
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            found.append(problems_mod.Problem(
                rel, '', 'cannot be read as YAML: %s' % str(exc).replace(
                    '\n', ' '), 'fix the file', 'yaml'))
            continue
        for index, document in enumerate(loaded):
            where = rel if len(loaded) == 1 else '%s#%d' % (rel, index)
            documents.append((problems_mod.describe(where, document),
                              document))
    if not documents and not found:
        raise exceptions.RhosoExportError(
            'Export directory %s holds no YAML documents: give the '
            '--output-dir of "openstack overcloud adoption export"' % path)
    return documents, found


def check(documents, version, deployment=None, network_name=None,
          template_dir=None, templates=None):
    """The :class:`Result` of every check of ``documents`` against RHOSO
    ``version``; the work-dir checks only with ``deployment``."""
    bundle = schema.load(version)
    found = []
    for where, document in documents:
        found += schema.check(bundle, document, where)
    found += webhooks.check(documents, bundle)
    proofs = []
    if deployment is not None:
        found += crosscheck.check(documents, deployment, network_name)
        proofs = crosscheck.nic_proofs(documents, deployment, template_dir,
                                       templates)
        for proof in proofs:
            if proof.result and not proof.result.startswith('not proven'):
                found.append(problems_mod.Problem(
                    proof.where, 'spec.nodeTemplate.ansible.ansibleVars.'
                    'edpm_network_config_template', 'on node %s the NIC '
                    'template does not render the network_config TripleO\'s '
                    '%s does: %s' % (proof.host, proof.template,
                                     proof.result),
                    'export again, or correct the template', 'nic'))
    return Result(found, proofs, len(documents), bundle)
