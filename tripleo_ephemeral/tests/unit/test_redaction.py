"""Secrets are masked in every log record once hidden."""

import io
import logging

import pytest

from tripleo_ephemeral import redaction


@pytest.fixture
def log():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger('redaction-test')
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger, stream
    logger.removeHandler(handler)
    redaction._secrets.clear()


def test_hidden_values_are_masked_in_messages_arguments_and_tracebacks(log):
    logger, stream = log
    key = ('-----BEGIN KEY-----\nAAAABBBBCCCCDDDD\nEEEEFFFFGGGG\n'
           '-----END KEY-----')
    redaction.hide('s3cr3t-api-token', {'private_key': key}, 'short')
    redaction.install(logger)
    logger.debug('GET http://127.0.0.1:8006/%s/v1/admin', 's3cr3t-api-token')
    logger.debug('body %s', {'MigrationSshKey': {'private_key': key}})
    try:
        raise ValueError('bad s3cr3t-api-token')
    except ValueError:
        logger.exception('failed')
    text = stream.getvalue()
    assert 's3cr3t-api-token' not in text
    assert 'AAAABBBBCCCCDDDD' not in text and 'EEEEFFFFGGGG' not in text
    assert 'GET http://127.0.0.1:8006/***/v1/admin' in text
    assert 'ValueError: bad ***' in text
    # Short values would mask ordinary words.
    assert redaction.mask('a short word') == 'a short word'


def test_a_secret_is_masked_in_every_form_it_is_written(log):
    import base64
    import json

    logger, stream = log
    password = 'key\U0001F511key-Zz"quoted'
    redaction.hide({'AdminPassword': password})
    redaction.install(logger)
    logger.debug('request body %s', json.dumps({'p': password}))
    logger.debug('a Secret: %s', base64.b64encode(password.encode()).decode())
    text = stream.getvalue()
    assert 'key-Zz' not in text
    assert 'request body {"p": "***"}' in text
