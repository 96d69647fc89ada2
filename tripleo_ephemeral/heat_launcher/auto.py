"""``--heat-type auto``: native, unless the fast create is turned off.

The seeds: "Deploying more than 3 nodes or 2 roles will significantly
impact the deployment time" with a single Heat process, and the pod
(several engines, MariaDB, RabbitMQ) as the answer. That held for Heat's
convergence engine, whose create is thousands of resource checks that
several engine processes can share. It no longer does with the fast
create (``[ephemeral_heat] fast_create``, the default): a fresh create is
one engine thread stepping the whole tree, so the pod's other engines
have nothing to do while its MariaDB and RabbitMQ make every step dearer.

Numbers (2 cores, load 1.5-2.5, ``overcloud deploy --stack-only``,
paired): THT 18.0.0 1 Controller + 1 Compute, native with the fast create
18-30 s to CREATE_COMPLETE and 16-27 s of Heat CPU, against 45 s and 45 s
native on convergence; the pod on convergence had been at best level with
native (61.7 s against 55.8 s in ``bench-20261124T063824Z``; 63.3 s
against 66.2 s when the machine was slow). Native is chosen whatever the
size; with the fast create turned off the seeds' threshold applies again.
"""

MAX_NATIVE_NODES = 3
MAX_NATIVE_ROLES = 2


def choose(nodes, roles, pod_ready, fast_create=True):
    """Return (heat type, reason). ``pod_ready()`` says if the pod can run;
    ``fast_create`` is the ``[ephemeral_heat] fast_create`` setting."""
    size = '%d node%s in %d role%s' % (nodes, '' if nodes == 1 else 's',
                                       roles, '' if roles == 1 else 's')
    if fast_create:
        return 'native', ('the fast create runs the whole stack tree in one '
                          'engine thread: several engines cannot share it '
                          '(%s)' % size)
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


def fast_create_on(overrides, default=True):
    """Whether ``[ephemeral_heat] fast_create`` is on (``default``: on
    unless --heat-tuning stock) under the ``--heat-config-override`` items
    (``section.option=value``; the last one counts, as in heat.conf)."""
    value = 'true' if default else 'false'
    for item in overrides or ():
        key, _sep, text = item.partition('=')
        if key.strip() == 'ephemeral_heat.fast_create':
            value = text
    return value.strip().lower() not in ('false', '0', 'no', 'off')


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
