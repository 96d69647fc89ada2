"""``--heat-type auto``: the pod for big deployments, native otherwise.

The seeds: "Deploying more than 3 nodes or 2 roles will significantly
impact the deployment time" with a single Heat process. Above that
threshold the pod (several engines, MariaDB, RabbitMQ) is chosen when
podman and its image are there; otherwise native, saying why.
"""

MAX_NATIVE_NODES = 3
MAX_NATIVE_ROLES = 2


def choose(nodes, roles, pod_ready):
    """Return (heat type, reason). ``pod_ready()`` says if the pod can run."""
    size = '%d node%s in %d role%s' % (nodes, '' if nodes == 1 else 's',
                                       roles, '' if roles == 1 else 's')
    if nodes <= MAX_NATIVE_NODES and roles <= MAX_NATIVE_ROLES:
        return 'native', ('%s is within one Heat process\'s reach (at most '
                          '%d nodes and %d roles)' % (
                              size, MAX_NATIVE_NODES, MAX_NATIVE_ROLES))
    ready, why_not = pod_ready()
    if ready:
        return 'pod', ('%s is beyond one Heat process (more than %d nodes '
                       'or %d roles): several engines scale better' % (
                           size, MAX_NATIVE_NODES, MAX_NATIVE_ROLES))
    return 'native', '%s would suit the pod, but %s' % (size, why_not)


def pod_ready(podman=None, image=None):
    """Whether podman runs here and the Heat image is built."""
    from tripleo_ephemeral.heat_launcher import podman as podman_mod
    from tripleo_ephemeral import images

    podman = podman or podman_mod.Podman()
    if not podman.available():
        return False, 'podman is not available here'
    image = image or images.default_image()
    if not podman.image_exists(image):
        return False, ('the image %s is not built (openstack tripleo heat '
                       'image build)' % image)
    return True, None
