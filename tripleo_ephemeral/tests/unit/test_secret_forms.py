"""Every form a secret is written in
(:mod:`tripleo_ephemeral.secret_forms`): each one found where the real
writers (json, PyYAML and libyaml, base64) put the text."""

import base64
import json
import os

import pytest
import yaml

from tripleo_ephemeral import secret_forms

TEXTS = ('Rq4vZt8wLp2nXc6b', 'key\U0001F511key-Zz', 'Sx9q<secret:Tw7pLm2',
         'p\u00e9"x\\y\'z \u2028\x85\x7f\tend', '\U0001F511\u00e9' * 3)
DUMPERS = [yaml.SafeDumper] + ([yaml.CSafeDumper] if hasattr(
    yaml, 'CSafeDumper') else [])


def _written(text):
    """What the writers make of ``text`` (in a longer document)."""
    data = {'k': text, 'list': ['x', text]}
    found = [json.dumps(data), json.dumps(data, ensure_ascii=False),
             json.dumps(data, indent=2, sort_keys=True),
             secret_forms.json_for_yaml(data, indent=2)]
    for dumper in DUMPERS:
        for unicode in (False, True):
            found.append(yaml.dump(data, Dumper=dumper,
                                   allow_unicode=unicode))
            found.append(yaml.dump(data, Dumper=dumper, default_style='"',
                                   allow_unicode=unicode, width=1 << 20))
            found.append(yaml.dump(data, Dumper=dumper, default_style="'",
                                   allow_unicode=unicode, width=1 << 20))
    for prefix in (b'', b'a', b'ab', b'x: y\n'):
        found.append(base64.b64encode(prefix + text.encode() + b'\nz: 1\n')
                     .decode())
    found.append(base64.b64encode(text.encode()).decode())
    return found


@pytest.mark.parametrize('text', TEXTS)
def test_every_written_form_holds_one_of_the_forms(text):
    forms = secret_forms.forms(text)
    assert forms[0] == text
    for written in _written(text):
        assert any(form in written for form in forms), written


def test_the_base64_pieces_hold_at_every_offset():
    text = 'Rq4vZt8wLp2nXc6b'
    whole, *pieces = secret_forms.base64_forms(text)
    assert whole == base64.b64encode(text.encode()).decode()
    assert len(pieces) == 3
    for before in range(9):
        for after in range(4):
            encoded = base64.b64encode(os.urandom(before) + text.encode() +
                                       os.urandom(after)).decode()
            assert pieces[before % 3] in encoded
    # Too short to stand alone: only the whole value's base64.
    assert secret_forms.base64_forms('abcd') == ['YWJjZA==']


def test_json_for_yaml_is_read_back_by_both():
    data = {'p': 'key\U0001F511\u00e9\\ud83d', 'q': ['\U0001F511']}
    text = secret_forms.json_for_yaml(data, indent=2, sort_keys=True)
    assert '\\ud83d\\udd11' not in text and '\U0001F511' in text
    assert '\\u00e9' in text  # the rest as json writes it
    assert json.loads(text) == data
    for loader in [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(
            yaml, 'CSafeLoader') else []):
        assert yaml.load(text, Loader=loader) == data
