"""The ephemeral Heat API answers only its owner.

Heat runs without Keystone (its ``noauth`` middleware makes every request
an admin's), so anyone who can reach 127.0.0.1 could read the stack's
outputs (the overcloud's passwords) or delete it. This middleware, first in
the api-paste pipeline, requires a secret made at each launch (a 0600 file
in the heat dir) as the first segment of every request's path:
``http://127.0.0.1:8006/<secret>/v1/admin/stacks``. Anything else gets 401.

The secret is part of the endpoint URL, so every client that is given the
endpoint passes it with no change: ``OS_AUTH_TYPE=none`` with
``OS_ENDPOINT`` (heatrc), ``OS_CLOUD=heat`` (clouds.yaml), heatclient and
keystoneauth's ``noauth`` plugin. The segment moves into ``SCRIPT_NAME``,
as a WSGI mount point does, so the URLs Heat makes itself (redirects, links)
carry it too, and the project stays ``admin``: dumps made before and after
are alike.
"""

import hmac
import json

from tripleo_ephemeral import redaction

UNAUTHORIZED = json.dumps({'error': {
    'code': 401, 'title': 'Unauthorized',
    'message': 'This Heat answers only the user who launched it: use the '
               'endpoint in its heatrc or clouds.yaml'}}).encode()


class OwnerOnly:
    """WSGI middleware: pass requests whose path starts with ``/<secret>``."""

    def __init__(self, app, secret):
        if not secret:
            raise ValueError('no API secret: refusing to serve Heat openly')
        self.app = app
        self.prefix = ('/' + secret).encode()

    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '')
        head, sep, rest = path[1:].partition('/')
        if hmac.compare_digest(('/' + head).encode(), self.prefix):
            environ['SCRIPT_NAME'] = (environ.get('SCRIPT_NAME', '') + '/' +
                                      head)
            environ['PATH_INFO'] = sep + rest
            return self.app(environ, start_response)
        start_response('401 Unauthorized', [
            ('Content-Type', 'application/json'),
            ('Content-Length', str(len(UNAUTHORIZED)))])
        return [UNAUTHORIZED]


def shown(url):
    """``url`` as a user may be shown it: a segment before ``/v1/`` (an
    ephemeral Heat's secret, however the URL was found) named, not
    given."""
    import urllib.parse

    parts = urllib.parse.urlsplit(url)
    segments = parts.path.split('/')
    if 'v1' in segments and segments.index('v1') == 2 and segments[1]:
        segments[1] = '<api_secret>'
        return urllib.parse.urlunsplit(parts._replace(
            path='/'.join(segments)))
    return url


def read_secret(path):
    with open(path) as f:
        return f.read().strip()


def filter_factory(global_conf, **local_conf):
    """The paste filter: ``secret_file`` names the 0600 file. The secret is
    masked in the runner's logs (heat.log names every request's path)."""
    secret = read_secret(local_conf['secret_file'])
    redaction.hide(secret)

    def owner_filter(app):
        return OwnerOnly(app, secret)
    return owner_filter
