"""Secrets never reach a log: the values given to :func:`hide` are masked.

The API secret of an ephemeral Heat (:mod:`tripleo_ephemeral.runner.
api_owner`) is part of every URL its clients use, and a deploy sends the
passwords in its request; with ``--debug`` keystoneauth logs both (the
request line, the bodies), and Heat's own log names every request path.
The product says the endpoint without the secret and prints no password;
this is the net under that: once a process knows a secret it calls
:func:`hide`, and every record its log handlers emit from then on shows
:data:`MASK` in its place (the message, its arguments and a traceback),
in each form a secret is written in (:mod:`tripleo_ephemeral.
secret_forms`: JSON- and YAML-escaped, base64).
Where the secrets are is the README's "The Heat API answers only its
owner" and "What the work dir keeps".
"""

import logging

from tripleo_ephemeral import secret_forms

MASK = '***'
#: Shorter values are not masked: they would mask ordinary words.
MIN_LENGTH = 8

_secrets = set()
#: ``_secrets``, longest first (a secret inside a longer one never splits
#: it): sorted once per :func:`hide`, not per record.
_ordered = []


def _strings(value):
    if isinstance(value, str):
        yield value
        # A key's lines: however its text is quoted (JSON, YAML), they stay.
        if '\n' in value:
            yield from value.splitlines()
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple, set)):
        for item in value:
            yield from _strings(item)


def mask(text):
    """``text`` with every hidden value replaced by :data:`MASK`."""
    if len(_ordered) != len(_secrets):
        _ordered[:] = sorted(_secrets, key=len, reverse=True)
    for secret in _ordered:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


class _Filter(logging.Filter):
    """A handler filter: the record as emitted, secrets masked."""

    def filter(self, record):
        if not _secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: logging reports it
            return True
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(
                record.exc_info)
        if record.exc_text:
            record.exc_text = mask(record.exc_text)
        return True


_FILTER = _Filter()


def hide(*values):
    """Mask these values (strings, or the strings in dicts and lists) in
    every log record of this process from now on."""
    _secrets.update(form for v in values for s in _strings(v)
                    if len(s) >= MIN_LENGTH
                    for form in secret_forms.forms(s)
                    if len(form) >= MIN_LENGTH)
    _ordered[:] = sorted(_secrets, key=len, reverse=True)
    if _secrets:
        install()


def install(logger=None):
    """Put the filter on the handlers of ``logger`` (default: the root
    logger, where the commands' and the runner's handlers are)."""
    for handler in (logger or logging.getLogger()).handlers:
        if _FILTER not in handler.filters:
            handler.addFilter(_FILTER)
