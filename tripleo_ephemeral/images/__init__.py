"""The container image the container and pod launchers run.

One image serves every container of a pod (heat-api, heat-engine, MariaDB,
RabbitMQ). It is built here, never pulled: see :mod:`.builder`. Its tag is a
fingerprint of what goes into it, so a build is skipped while the image for
the installed code already exists.
"""

import hashlib
import importlib.metadata
import importlib.resources


NAME = 'localhost/tripleo-ephemeral-heat'
DISTRIBUTION = 'tripleo-ephemeral'
CONTAINERFILE = 'Containerfile'
#: Where the image's virtualenv lives (its bin/ is on the image's PATH).
VENV = '/opt/tripleo-ephemeral'
#: Debian packages the image needs besides what the Containerfile adds.
PACKAGES = ('python3', 'python3-venv', 'ca-certificates', 'mariadb-server',
            'mariadb-client', 'rabbitmq-server')


def package_file(*parts):
    """A file of the installed package (``images/Containerfile``...)."""
    return importlib.resources.files('tripleo_ephemeral').joinpath(*parts)


def fingerprint():
    """A short hash of the code, dependencies and recipe of the image.

    The containers run only the ``tripleo-heat-all`` runner, so its package
    (``runner/``: options, stop, API owner) and the engine tuning it
    applies, the project's version and requirements and the Containerfile
    decide what the image holds.
    """
    h = hashlib.sha256()
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
        h.update(dist.version.encode())
        for req in sorted(dist.requires or ()):
            h.update(req.encode())
    except importlib.metadata.PackageNotFoundError:
        pass
    h.update(' '.join(PACKAGES).encode())
    sources = [parts for package in ('runner', 'engine_tuning')
               for parts in _python_files(package_file(package), (package,))]
    for parts in sources + [('images', CONTAINERFILE)]:
        h.update(package_file(*parts).read_bytes())
    return h.hexdigest()[:12]


def _python_files(folder, parts):
    """The path (``parts`` and on) of each Python file in ``folder`` and
    its sub-packages (the engine tunings' ``tunings/``), sorted."""
    for f in sorted(folder.iterdir(), key=lambda f: f.name):
        if f.is_dir() and f.name != '__pycache__':
            yield from _python_files(f, parts + (f.name,))
        elif f.name.endswith('.py'):
            yield parts + (f.name,)


def default_image():
    """``localhost/tripleo-ephemeral-heat:<fingerprint>``."""
    return '%s:%s' % (NAME, fingerprint())


def cache_dir():
    """Where builds keep their root filesystems and wheels: the user's
    cache (:mod:`tripleo_ephemeral.usercache`; nothing there is sealed,
    so only where no other user can swap it), else (said once) a private
    scratch directory of this build."""
    import tempfile

    from tripleo_ephemeral import usercache

    return usercache.cache().directory('images', strict=True) or \
        tempfile.mkdtemp(prefix='tripleo-ephemeral-images-')
