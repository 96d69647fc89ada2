import pytest

from tripleo_ephemeral.runner import api_owner


def _app(environ, start_response):
    start_response('200 OK', [])
    return [('%s|%s' % (environ['SCRIPT_NAME'], environ['PATH_INFO'])
             ).encode()]


def _call(path, secret='s3cret'):
    seen = {}

    def start_response(status, headers):
        seen['status'] = status
    body = api_owner.OwnerOnly(_app, secret)(
        {'PATH_INFO': path, 'SCRIPT_NAME': ''}, start_response)
    return seen['status'], b''.join(body).decode()


def test_the_secret_moves_into_script_name():
    # Heat builds its redirects and links from SCRIPT_NAME: they keep it.
    assert _call('/s3cret/v1/admin/stacks') == (
        '200 OK', '/s3cret|/v1/admin/stacks')
    assert _call('/s3cret') == ('200 OK', '/s3cret|')


@pytest.mark.parametrize('path', [
    '/', '/v1/admin/stacks', '/s3cre/v1', '/s3cretx/v1', '/S3CRET/v1', ''])
def test_anything_else_is_401(path):
    status, body = _call(path)
    assert status.startswith('401') and 'launched it' in body


def test_no_secret_refuses_to_serve():
    with pytest.raises(ValueError):
        api_owner.OwnerOnly(_app, '')


def test_filter_factory_reads_the_file(tmp_path):
    (tmp_path / 'api_secret').write_text('abc\n')
    wrapped = api_owner.filter_factory(
        {}, secret_file=str(tmp_path / 'api_secret'))(_app)
    assert wrapped.prefix == b'/abc'
