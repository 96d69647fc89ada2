from tripleo_ephemeral.heat_launcher import auto


def _ready():
    return True, None


def _not_ready():
    return False, 'podman is not available here'


def _boom():
    raise AssertionError('podman was asked')


def test_with_the_fast_create_always_native_without_asking_podman():
    heat_type, reason = auto.choose(13, 6, _boom)
    assert heat_type == 'native' and 'one engine thread' in reason
    assert '13 nodes in 6 roles' in reason


def test_fast_create_switch_from_the_overrides():
    assert auto.fast_create_on(None)
    assert auto.fast_create_on(['DEFAULT.debug=true'])
    assert not auto.fast_create_on(['ephemeral_heat.fast_create=false'])
    assert not auto.fast_create_on(['ephemeral_heat.fast_create=False'])
    assert auto.fast_create_on(['ephemeral_heat.fast_create=false',
                                'ephemeral_heat.fast_create=true'])


def test_small_stays_native_without_asking_podman():
    heat_type, reason = auto.choose(3, 2, _boom, fast_create=False)
    assert heat_type == 'native' and '3 nodes in 2 roles' in reason


def test_big_goes_to_the_pod():
    assert auto.choose(4, 2, _ready, fast_create=False)[0] == 'pod'
    assert auto.choose(2, 3, _ready, fast_create=False)[0] == 'pod'


def test_big_without_podman_says_why():
    heat_type, reason = auto.choose(10, 3, _not_ready, fast_create=False)
    assert heat_type == 'native' and 'podman is not available' in reason


class FakePodman:
    def __init__(self, available, images=()):
        self._available = available
        self._images = images

    def available(self):
        return self._available

    def image_exists(self, image):
        return image in self._images


def test_pod_ready():
    assert auto.pod_ready(FakePodman(False), 'img')[0] is False
    ready, why = auto.pod_ready(FakePodman(True), 'img')
    assert not ready and 'image build' in why
    assert auto.pod_ready(FakePodman(True, ['img']), 'img') == (True, None)
