"""Putting an export on disk: YAML a person reads, written all at once.

Documents are YAML with multi-line strings (the NIC template) as literal
blocks, a header naming where they came from and a comment above every
carried Ansible variable saying its TripleO source. The output directory
is built beside its place and swapped in whole
(:func:`~tripleo_ephemeral.fileutil.replace_dir`), so a failure leaves
nothing half-written; Secrets and scripts with secrets are 0600 in a 0700
``secrets/``.
"""

import os
import re

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
    its ``text`` and ``mode``."""

    def __init__(self, name, text, mode=0o644):
        self.name = name
        self.text = text
        self.mode = mode


def write(dest, files):
    """Write ``files`` as the directory ``dest`` (replacing it whole)."""
    def build(path):
        fileutil.ensure_private_dir(os.path.join(path, SECRETS_DIR))
        for item in files:
            target = os.path.join(path, item.name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with fileutil.atomic_open(target, mode=item.mode,
                                      durable=False) as f:
                f.write(item.text)
        return dest

    return fileutil.replace_dir(dest, build)
