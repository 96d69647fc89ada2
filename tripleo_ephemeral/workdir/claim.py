"""The claim: the file that makes a directory this product's work dir.

``tripleo-ephemeral-workdir.yaml`` is written before anything else the
first time a command writes into a directory, and names the stacks whose
work dir it is. Without it a directory is not the product's to change
(:mod:`.ownership` decides what then): another tool's work dir, or the
operator's own directory. What the product owns inside a claimed directory
is its fixed layout (:mod:`.ownership`), never the rest.
"""

import datetime
import os

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import yamlfile

NAME = 'tripleo-ephemeral-workdir.yaml'
PRODUCT = 'tripleo-ephemeral'
_HEADER = ('# This directory is a work dir of tripleo-ephemeral, for the '
           'stacks below.\n# "openstack overcloud delete" removes what '
           'tripleo-ephemeral wrote here\n# (README: "What the work dir '
           'keeps") and leaves everything else.\n')


def path(work_dir):
    return os.path.join(work_dir, NAME)


def read(work_dir):
    """The claim of ``work_dir`` (a dict), or None when it has none.

    A claim file that is not this product's is an error naming it."""
    try:
        data = yamlfile.loads(yamlfile.read(path(work_dir)),
                              json_first=False)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeError, yaml.YAMLError) as exc:
        raise exceptions.ForeignWorkDirError(
            '%s cannot be read (%s): fix or remove it' % (
                path(work_dir), getattr(exc, 'strerror', None) or exc))
    if not isinstance(data, dict) or data.get('product') != PRODUCT or \
            not isinstance(data.get('stacks'), list):
        raise exceptions.ForeignWorkDirError(
            '%s is not a claim of %s (product and stacks): fix or remove it'
            % (path(work_dir), PRODUCT))
    return data


def stacks(work_dir):
    """The stacks the claim of ``work_dir`` names ([] without a claim)."""
    return [str(s) for s in (read(work_dir) or {}).get('stacks', [])]


def _write(work_dir, data):
    fileutil.write_atomic(path(work_dir), _HEADER + yaml.safe_dump(
        data, default_flow_style=False, sort_keys=False))


def add(work_dir, stack):
    """Claim ``work_dir`` (which must exist) for ``stack``."""
    data = read(work_dir) or {
        'product': PRODUCT, 'stacks': [],
        'created': datetime.datetime.now(
            datetime.timezone.utc).isoformat(timespec='seconds')}
    if stack not in data['stacks']:
        data['stacks'].append(stack)
        _write(work_dir, data)


def remove(work_dir, stack):
    """Take ``stack`` out of the claim; return the stacks left. The file
    itself goes with the last one."""
    data = read(work_dir)
    if data is None:
        return []
    left = [s for s in data['stacks'] if s != stack]
    if left:
        _write(work_dir, dict(data, stacks=left))
    else:
        fileutil.remove(path(work_dir))
    return left
