"""Real changes told from generated noise, line by line."""

from tripleo_ephemeral.history import noise


def lines(text):
    return text.splitlines(keepends=True)


def test_ids_timestamps_and_identifiers_are_noise():
    normalize = noise.Normalizer(['1795721650', '1795721672'])
    old = lines('id: 2e9c16fc-e0fe-4d32-8fd4-909f28b71c2d\n'
                'creation_time: "2026-11-26T19:34:17Z"\n'
                'stack: oc-Compute-jojsu5irhtmg-0/'
                '085c0f15-7514-4d0c-8fea-0c6092760ba3\n'
                'value: 1795721650\n'
                'interval: 5\n')
    new = lines('id: 01cac137-dfb0-43c2-b986-3fbecaf39cbc\n'
                'creation_time: "2026-11-26T19:34:38Z"\n'
                'stack: oc-Compute-vhzthzc7ne4n-0/'
                '921f3a5f-3479-466b-b91f-9181adc299b7\n'
                'value: 1795721672\n'
                'interval: 2\n')
    found = noise.compare(old, new, normalize)
    assert (found.added, found.removed, found.noise) == (1, 1, 4)
    assert found.real
    # The denoised text keeps the old noise: only the real line differs.
    assert found.denoised == old[:4] + new[4:]


def test_a_file_of_noise_only_is_not_real():
    normalize = noise.Normalizer(['11', '12'])
    found = noise.compare(['a: 11\n', 'b\n'], ['a: 12\n', 'b\n'], normalize)
    assert not found.real and found.noise == 1


def test_an_identifier_inside_a_longer_number_is_not_replaced():
    normalize = noise.Normalizer(['12'])
    assert normalize('port: 1234 id: 12\n') == \
        'port: 1234 id: <deploy-identifier>\n'


def test_added_and_removed_lines_count():
    found = noise.compare(['a\n', 'b\n'], ['a\n', 'c\n', 'd\n'],
                          noise.Normalizer())
    assert (found.added, found.removed, found.noise) == (2, 1, 0)


def test_parameters_every_deploy_sets_are_noise():
    real, hidden = noise.parameters(
        {'DeployIdentifier': 1, 'NtpServer': 'a', 'Gone': 1},
        {'DeployIdentifier': 2, 'NtpServer': 'b', 'New': 1})
    assert real == [('Gone', 1, None), ('New', None, 1),
                    ('NtpServer', 'a', 'b')]
    assert hidden == [('DeployIdentifier', 1, 2)]
