"""Putting an export on disk: YAML a person reads, written all at once.

Documents are YAML with multi-line strings (the NIC template) as literal
blocks, a header naming where they came from and a comment above every
carried Ansible variable saying its source. The export is built in a
hidden directory beside its place (``.<name>.new-*``), with the manifest
listing every file and its checksum, and renamed into place; an earlier
export (checked by :mod:`.destination`) is first renamed to a hidden
``.<name>.old-*`` of its own and removed after. A failure leaves the
earlier export as it was; nothing else beside it is touched. Secrets and
files with secrets are 0600 in 0700 directories.
"""

import hashlib
import os
import re
import shutil
import tempfile

import yaml

from tripleo_ephemeral import fileutil

SECRETS_DIR = 'secrets'
_KEY = re.compile(r'^(\s*)([A-Za-z0-9_.-]+):')


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper, value):
    style = '|' if '\n' in value else None
    return dumper.represent_scalar('tag:yaml.org,2002:str', value,
                                   style=style)


_Dumper.add_representer(str, _str)


def dump(document, header=None, comments=None):
    """The YAML text of ``document``; ``comments`` maps an Ansible
    variable to the line written above it in every ``ansibleVars``."""
    text = yaml.dump(document, Dumper=_Dumper, sort_keys=False,
                     default_flow_style=False, allow_unicode=True)
    if comments:
        text = _comment(text, comments)
    if header:
        text = ''.join('# %s\n' % line for line in header.splitlines()) + \
            text
    return text


def _comment(text, comments):
    out = []
    block = None  # indent of the ansibleVars key we are under
    for line in text.splitlines(True):
        match = _KEY.match(line)
        indent = len(line) - len(line.lstrip(' '))
        if block is not None and line.strip() and indent <= block:
            block = None
        if match and block is not None and indent == block + 2 and \
                match.group(2) in comments:
            out.append('%s# %s\n' % (match.group(1),
                                     comments[match.group(2)]))
        if match and match.group(2) == 'ansibleVars':
            block = indent
        out.append(line)
    return ''.join(out)


class File:
    """One file of the export: ``name`` relative to the output directory,
    its ``text`` and ``mode`` (0600 ones go in 0700 directories)."""

    def __init__(self, name, text, mode=0o644):
        self.name = name
        self.text = text
        self.mode = mode

    @property
    def sha256(self):
        return hashlib.sha256(self.text.encode('utf-8')).hexdigest()


def checksums(files):
    """``{name: sha256}`` of ``files``, for the manifest."""
    return {f.name: f.sha256 for f in files}


def _build(path, files, private_dirs):
    for item in files:
        directory = os.path.dirname(item.name)
        if directory:
            full = os.path.join(path, directory)
            if directory in private_dirs or item.mode & 0o077 == 0:
                fileutil.ensure_private_dir(full)
            else:
                os.makedirs(full, mode=0o755, exist_ok=True)
        with fileutil.atomic_open(os.path.join(path, item.name),
                                  mode=item.mode, durable=False) as f:
            f.write(item.text)


def write(dest, files, private_dirs=()):
    """Write ``files`` as the directory ``dest``, whole: built beside it,
    then renamed into place over an earlier export (which
    :func:`~.destination.check` allowed)."""
    dest = os.path.abspath(dest)
    parent, name = os.path.split(dest)
    os.makedirs(parent, mode=0o700, exist_ok=True)
    new = tempfile.mkdtemp(dir=parent, prefix='.%s.new-' % name)
    try:
        os.chmod(new, 0o700)
        _build(new, files, set(private_dirs) | {SECRETS_DIR})
        if not os.path.lexists(dest):
            os.rename(new, dest)
            return dest
        old = tempfile.mkdtemp(dir=parent, prefix='.%s.old-' % name)
        try:
            os.rename(dest, old)
        except BaseException:
            os.rmdir(old)
            raise
        try:
            os.rename(new, dest)
        except BaseException:
            os.rename(old, dest)
            raise
        shutil.rmtree(old, ignore_errors=True)
        return dest
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
