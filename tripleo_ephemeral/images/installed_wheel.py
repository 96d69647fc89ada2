"""A wheel of the installed tripleo-ephemeral, made of its installed files.

An install from a wheel (``pip install .`` or the wheel itself) has no
checkout to build the image's copy from; the files pip installed, listed
in the distribution's RECORD, are that wheel's contents: they are packed
again, with the wheel's own metadata (METADATA, WHEEL, entry points) and a
new RECORD. Compiled files and what the installer added (INSTALLER,
REQUESTED, direct_url.json, the console scripts it generated) are left out.
"""

import base64
import hashlib
import importlib.metadata
import os
import zipfile

from tripleo_ephemeral import exceptions

#: What pip writes into an installed dist-info that a wheel does not hold.
_INSTALLER_FILES = ('RECORD', 'INSTALLER', 'REQUESTED', 'direct_url.json')


def build(dest, distribution):
    """Write the wheel of the installed ``distribution`` into ``dest``;
    return its path."""
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        raise exceptions.LauncherError(
            '%s is not installed: pass --source-dir' % distribution) from None
    members = _members(dist)
    if not any(arc.endswith('/WHEEL') for arc, _path in members):
        raise exceptions.LauncherError(
            '%s %s was not installed from a wheel (no WHEEL in its '
            'metadata): pass --source-dir' % (distribution, dist.version))
    name = dist.metadata['Name'].replace('-', '_')
    path = os.path.join(dest, '%s-%s-py3-none-any.whl' % (name,
                                                          dist.version))
    os.makedirs(dest, exist_ok=True)
    record = []
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as wheel:
        for arcname, source in members:
            with open(source, 'rb') as f:
                data = f.read()
            wheel.writestr(arcname, data)
            digest = base64.urlsafe_b64encode(
                hashlib.sha256(data).digest()).rstrip(b'=').decode()
            record.append('%s,sha256=%s,%d' % (arcname, digest, len(data)))
        info = [arc for arc, _path in members if '.dist-info/' in arc]
        record_name = info[0].split('/', 1)[0] + '/RECORD'
        record.append('%s,,' % record_name)
        wheel.writestr(record_name, '\n'.join(record) + '\n')
    return path


def _members(dist):
    """(name in the wheel, installed path) of every file to pack."""
    if not dist.files:
        raise exceptions.LauncherError(
            '%s %s lists no installed files (no RECORD): pass --source-dir'
            % (dist.metadata['Name'], dist.version))
    members = []
    for file in dist.files:
        parts = file.parts
        if (parts[0] == '..' or '__pycache__' in parts or
                file.suffix == '.pyc'):
            continue  # scripts outside site-packages, compiled files
        if parts[0].endswith('.dist-info') and parts[-1] in _INSTALLER_FILES:
            continue
        if parts[0].startswith('__editable__'):
            raise exceptions.LauncherError(
                '%s is an editable install whose source was not found: pass '
                '--source-dir' % dist.metadata['Name'])
        source = str(dist.locate_file(file))
        if not os.path.isfile(source):
            raise exceptions.LauncherError(
                '%s is missing from the install of %s: reinstall it, or '
                'pass --source-dir' % (source, dist.metadata['Name']))
        members.append(('/'.join(parts), source))
    return members
