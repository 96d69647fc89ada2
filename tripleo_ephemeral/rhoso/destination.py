"""Where an export may write: never over anything it did not write.

An export writes a directory of its own, whole. :func:`check` refuses, in
one line naming the fix:

* a path inside a work dir (any directory holding the product's claim)
  other than the work dir's own ``rhoso-export``: the work dir, its
  ``config-download`` (whose history commits what it finds there, Secrets
  included) and every other file of it are the deployment's memory;
* a path inside any ``config-download`` directory (tripleoclient's too);
* the work dir's parents, or any directory that holds it;
* a symbolic link, or something that is not a directory;
* an existing directory without the manifest an export writes, or whose
  files are not exactly those its manifest lists with their checksums (a
  file added or edited since is the operator's); with the manifest, only
  with ``--overwrite``.

Siblings of the directory, ``<dir>.old`` among them, are never touched:
the new export is built in a hidden directory beside it and renamed into
place (:mod:`.writing`).
"""

import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.workdir import claim

MANIFEST = 'adoption-export.manifest'
#: What exports wrote before the kit had step directories.
LEGACY_MANIFEST = 'adoption-export.yaml'
#: What a legacy export wrote beside the documents its manifest lists.
LEGACY_FILES = ('adoption-vars.sh', 'report.md', 'secrets/passwords.sh')
BY = 'openstack overcloud adoption export'
CONFIG_DOWNLOAD = 'config-download'


def _fail(message):
    raise exceptions.RhosoExportError(message)


def _inside(path, parent):
    return path == parent or path.startswith(parent.rstrip(os.sep) + os.sep)


def manifest(path):
    """``(name, data)`` of the export manifest in directory ``path``, or
    ``(None, None)`` when it has none of an export's."""
    for name in (MANIFEST, LEGACY_MANIFEST):
        found = os.path.join(path, name)
        if os.path.isfile(found) and not os.path.islink(found):
            data = yamlfile.load(found, 'Export manifest',
                                 exceptions.RhosoExportError)
            if isinstance(data, dict) and data.get('by') == BY:
                return name, data
    return None, None


def _listed(data, name):
    """``{path: sha256 or None}`` of what the manifest says the export
    wrote (a legacy manifest lists documents without checksums)."""
    files = data.get('files')
    if isinstance(files, dict):
        found = {str(k): v for k, v in files.items()}
    else:
        found = {str(f.get('file')): None for f in files or []
                 if isinstance(f, dict)}
        found.update({f: None for f in LEGACY_FILES})
    found[name] = None
    return found


def _foreign(path, data, name):
    """The first file or directory of ``path`` the export did not write
    as it is, with why; None when all are its own."""
    listed = _listed(data, name)
    dirs = {os.path.dirname(p) for p in listed}
    for parent in list(dirs):
        while parent:
            parent = os.path.dirname(parent)
            dirs.add(parent)
    for root, subdirs, files in os.walk(path):
        rel_root = os.path.relpath(root, path)
        rel_root = '' if rel_root == '.' else rel_root
        for entry in sorted(subdirs + files):
            rel = os.path.join(rel_root, entry)
            full = os.path.join(path, rel)
            if os.path.islink(full):
                return rel, 'a symbolic link no export writes'
            if os.path.isdir(full):
                if rel not in dirs:
                    return rel, 'a directory no export wrote'
                continue
            if rel not in listed:
                return rel, 'a file no export wrote'
            if listed[rel] and fileutil.sha256(full) != listed[rel]:
                return rel, 'changed since the export wrote it'
    return None


def check(dest, workdir, overwrite):
    """RhosoExportError when the export may not write directory ``dest``
    for work dir ``workdir``; return whether it replaces an earlier export."""
    real = os.path.realpath(dest)
    work = os.path.realpath(workdir.path)
    default = os.path.realpath(workdir.rhoso_export_dir)
    if _inside(work, real):
        _fail('--output-dir %s is the work dir or holds it: an export never '
              'writes over the deployment\'s memory; choose a directory of '
              'its own (default: %s)' % (dest, workdir.rhoso_export_dir))
    if CONFIG_DOWNLOAD in real.split(os.sep):
        _fail('--output-dir %s is inside a config-download directory, whose '
              'history would commit the Secrets as a hand edit: choose a '
              'directory outside it' % dest)
    if real != default:
        parent = os.path.dirname(real)
        while parent and parent != os.path.dirname(parent):
            if os.path.exists(claim.path(parent)):
                _fail('--output-dir %s is inside the work dir %s, which '
                      'keeps only what the product writes there: use %s '
                      'or a directory outside it' % (
                          dest, parent, os.path.join(parent, 'rhoso-export')))
            parent = os.path.dirname(parent)
    if os.path.islink(dest):
        _fail('--output-dir %s is a symbolic link: give the directory '
              'itself' % dest)
    if not os.path.lexists(dest):
        return False
    if not os.path.isdir(dest):
        _fail('--output-dir %s exists and is not a directory: choose '
              'another' % dest)
    name, data = manifest(dest)
    if data is None:
        _fail('--output-dir %s exists and is no export (it has no %s): '
              'choose a new directory; an export replaces only its own'
              % (dest, MANIFEST))
    if not overwrite:
        _fail('%s exists, not exporting: pass --overwrite to replace it, or '
              'choose another --output-dir' % dest)
    foreign = _foreign(dest, data, name)
    if foreign:
        _fail('--output-dir %s holds %s (%s): move it away to keep it, then '
              'export again' % (dest, foreign[0], foreign[1]))
    return True
