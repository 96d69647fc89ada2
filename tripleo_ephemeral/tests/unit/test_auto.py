from tripleo_ephemeral.heat_launcher import auto


def _ready():
    return True, None


def _not_ready():
    return False, 'podman is not available here'


def test_small_stays_native_without_asking_podman():
    def boom():
        raise AssertionError('podman was asked')
    heat_type, reason = auto.choose(3, 2, boom)
    assert heat_type == 'native' and '3 nodes in 2 roles' in reason


def test_big_goes_to_the_pod():
    assert auto.choose(4, 2, _ready)[0] == 'pod'
    assert auto.choose(2, 3, _ready)[0] == 'pod'


def test_big_without_podman_says_why():
    heat_type, reason = auto.choose(10, 3, _not_ready)
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
