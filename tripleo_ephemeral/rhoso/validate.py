"""``overcloud adoption validate``: an export's documents, every check.

Operators validate kits someone else wrote, so nothing of the input runs:
only regular files are read (a FIFO, a device, a symbolic link is a
problem row, never opened), each through the product's one YAML reader
within its limits (:mod:`~tripleo_ephemeral.overcloud.yamlfile`: size,
nesting, aliases), and the NIC templates render in a sandbox
(:mod:`.nic`). The files read are those ``oc apply -f`` reads: the
``.yaml``, ``.yml`` and ``.json`` files at the top of the directory and in
its step directories (``NN-<step>/``); a file may hold several documents.

Each document is checked against its CRD schema of the target version
(:mod:`.schema`); a document that fails it is one or more problem rows and
is left out of the rules that read across documents: the webhook and IPAM
rules (:mod:`.webhooks`), the procedure's order (:mod:`.procedure_rules`)
and, with the work dir, the deployment they describe (:mod:`.crosscheck`),
the NIC template proven node by node. A rule that still cannot read a
document is one problem row, never a Python error.
"""

import collections
import os
import re
import stat

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso import crosscheck
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import destination
from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso import procedure_rules
from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso import steps
from tripleo_ephemeral.rhoso import webhooks

MANIFEST = destination.MANIFEST
STEP_DIR = re.compile(r'^\d\d-[a-z0-9]([-a-z0-9]*[a-z0-9])?$')

#: ``problems``; ``proofs`` (:class:`~.crosscheck.Proof`); ``documents``:
#: how many were checked; ``bundle``: the schemas' version.
Result = collections.namedtuple('Result', 'problems proofs documents bundle')


def manifest(path):
    """The export's manifest in directory ``path``, or {}."""
    return destination.manifest(path)[1] or {}


def _problem(where, message, fix):
    return problems_mod.Problem(where, '', message, fix, 'yaml')


def _entries(path):
    """``(relative path, full path)`` of what ``oc apply -f`` reads of
    ``path`` and of each step directory, in order."""
    found = []
    with os.scandir(path) as top:
        entries = sorted(top, key=lambda e: e.name)
    for entry in entries:
        if entry.name.endswith(steps.APPLIED_SUFFIXES):
            found.append((entry.name, entry.path))
        elif STEP_DIR.match(entry.name) and entry.is_dir(
                follow_symlinks=False):
            with os.scandir(entry.path) as inner:
                for item in sorted(inner, key=lambda e: e.name):
                    if item.name.endswith(steps.APPLIED_SUFFIXES):
                        found.append(('%s/%s' % (entry.name, item.name),
                                      item.path))
    return found


def _read(rel, full):
    """``(documents, problem)`` of one file, read only when it is a
    regular file, within the reader's limits."""
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if os.path.islink(full):
            return [], _problem(rel, 'is a symbolic link, which validate '
                                'does not follow', 'put the file itself '
                                'there')
        return [], _problem(rel, 'cannot be read: %s' % exc.strerror,
                            'fix its permissions')
    with os.fdopen(fd, 'rb') as f:
        mode = os.fstat(f.fileno()).st_mode
        if not stat.S_ISREG(mode):
            return [], _problem(rel, 'is not a regular file (%s): validate '
                                'reads regular files only' % _type(mode),
                                'remove it')
        try:
            yamlfile.check_size(os.fstat(f.fileno()).st_size)
            data = f.read(yamlfile.INPUT.max_bytes + 1)
            documents = yamlfile.loads_all(data, strict=True)
        except yamlfile.LimitError as exc:
            return [], _problem(rel, 'is refused: %s' % exc, 'fix the file')
        except UnicodeDecodeError:
            return [], _problem(rel, 'is not UTF-8', 'save it as UTF-8')
        except yaml.YAMLError as exc:
            return [], _problem(rel, 'cannot be read as YAML: %s' % str(
                exc).replace('\n', ' '), 'fix the file')
    return [d for d in documents if d is not None], None


def _type(mode):
    for test, name in ((stat.S_ISFIFO, 'a FIFO'), (stat.S_ISDIR,
                                                   'a directory'),
                       (stat.S_ISCHR, 'a character device'),
                       (stat.S_ISBLK, 'a block device'),
                       (stat.S_ISSOCK, 'a socket')):
        if test(mode):
            return name
    return 'not a file'


def load_dir(path):
    """``(documents, problems)``: every ``(where, document)`` of the files
    ``oc apply -f`` reads in ``path`` and its step directories, and a
    problem per file that cannot be read."""
    if not os.path.isdir(path):
        raise exceptions.RhosoExportError(
            'Export directory %s does not exist: give the --output-dir of '
            '"openstack overcloud adoption export"' % path)
    documents, found = [], []
    for rel, full in _entries(path):
        loaded, problem = _read(rel, full)
        if problem:
            found.append(problem)
        for index, document in enumerate(loaded):
            where = rel if len(loaded) == 1 else '%s#%d' % (rel, index)
            documents.append((problems_mod.describe(where, document),
                              document))
    if not documents and not found:
        raise exceptions.RhosoExportError(
            'Export directory %s holds no YAML documents: give the '
            '--output-dir of "openstack overcloud adoption export"' % path)
    return documents, found


def _guarded(rule, what, documents, *args):
    """``rule(documents, *args)``, or one problem row when a document's
    shape still surprises it."""
    try:
        return rule(documents, *args)
    except (AttributeError, TypeError, ValueError, KeyError,
            IndexError) as exc:
        return [problems_mod.Problem(
            'the export', '', 'the %s rules could not read a document '
            '(%s: %s)' % (what, type(exc).__name__, exc), 'fix the document '
            'the schema rows name', what)]


def check(documents, version, deployment=None, network_name=None,
          template_dir=None, templates=None, skipped=()):
    """The :class:`Result` of every check of ``documents`` against RHOSO
    ``version``; the work-dir checks only with ``deployment`` (compute
    roles in ``skipped`` were left out on purpose)."""
    bundle = schema.load(version)
    network_name = network_name or (
        lambda lower: plan.DEFAULT_NETWORK_MAP.get(lower, lower))
    found, sound = [], []
    for where, document in documents:
        problems = schema.check(bundle, document, where)
        found += problems
        if not problems:
            sound.append((where, document))
    found += _guarded(webhooks.check, 'webhook', sound, bundle)
    found += _guarded(procedure_rules.check, 'procedure', sound)
    proofs = []
    if deployment is not None:
        found += _guarded(crosscheck.check, 'work dir', sound, deployment,
                          network_name, skipped)
        proofs = crosscheck.nic_proofs(sound, deployment, template_dir,
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
