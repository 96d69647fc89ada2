"""Helpers for functional tests that look at podman directly."""

import subprocess


def podman(*args):
    return subprocess.run(['podman'] + list(args), capture_output=True,
                          text=True, timeout=120)


def unavailable_reason():
    """Why podman cannot run containers here, or None when it can."""
    try:
        info = podman('info', '--format', '{{.Host.OCIRuntime.Name}}')
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 'podman cannot run here: %s' % exc
    if info.returncode != 0:
        return 'podman cannot run here: %s' % info.stderr.strip()
    return None


def leftovers(name):
    """Containers and pods whose name contains ``name``."""
    ctrs = podman('ps', '-a', '--filter', 'name=%s' % name, '--format',
                  '{{.Names}}').stdout.split()
    pods = podman('pod', 'ps', '--filter', 'name=%s' % name, '--format',
                  '{{.Name}}').stdout.split()
    return ctrs + pods


def leftovers_of(heat_dir):
    """Everything the launchers named after ``heat_dir`` (pod, containers,
    scratch MariaDB): they share its hash suffix."""
    from tripleo_ephemeral.heat_launcher import podman

    return leftovers(podman.podman_name('', str(heat_dir)).lstrip('-'))


def container_pids(name):
    """The pids of a running container's processes (host namespace)."""
    import psutil

    result = podman('inspect', '--format', '{{.State.Pid}}', name)
    top = psutil.Process(int(result.stdout.strip()))
    return {top.pid} | {p.pid for p in top.children(recursive=True)}
