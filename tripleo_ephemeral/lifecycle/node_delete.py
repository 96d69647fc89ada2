"""``overcloud node delete``: scale-down tasks, then out of the deployment.

As tripleoclient, the rendered ``scale_playbook.yaml`` runs limited to the
hosts (a host that cannot be reached is scaled down all the same, without
its tasks). Then, unlike tripleoclient, which left that to the next deploy
with a lowered count, the hosts leave the deployment at once: they are
recorded in ``<stack>-deleted-hosts.yaml`` (the next deploys leave them out
of the servers and say so), dropped from the servers the last deploy
used, and config-download is rendered again without them. Nothing on them
is stopped: the seed's power-off warning says what to do.
"""

import os

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.deploy import deleted_hosts
from tripleo_ephemeral.deploy import rendering
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import locking
from tripleo_ephemeral.overcloud import deployed_servers

SCALE_PLAYBOOK = 'scale_playbook.yaml'


def role_hosts(inventory):
    """``{host: (role, ctlplane ip)}`` of the role groups of ``inventory``
    (the rendered one, as a dict)."""
    found = {}
    for group in inventory.values():
        if not isinstance(group, dict):
            continue
        role = (group.get('vars') or {}).get('tripleo_role_name')
        if not role:
            continue
        for host, host_vars in (group.get('hosts') or {}).items():
            host_vars = host_vars or {}
            found[host] = (role, host_vars.get('ctlplane_ip') or
                           host_vars.get('ansible_host'))
    return found


def check_hosts(inventory, hosts, stack):
    """``[(host, role, ip)]`` for ``hosts``; an unknown one is an error
    naming the deployment's hosts."""
    known = role_hosts(inventory)
    lower = {h.lower(): h for h in known}
    unknown = [h for h in hosts if h.lower() not in lower]
    if unknown:
        raise exceptions.DeployError(
            'Host %s is not in the deployment of %s (hosts: %s): check the '
            'names' % (', '.join(unknown), stack,
                       ', '.join(sorted(known)) or 'none'))
    found = []
    for host in hosts:
        name = lower[host.lower()]
        if name not in [f[0] for f in found]:
            found.append((name,) + known[name])
    return found


def _forget_servers(workdir, names):
    """Drop ``names`` from the servers the last deploy saved, so the next
    deploy does not warn about them a second time."""
    saved = workdir.load(workdir.deploy_inputs_file)
    if not isinstance(saved, dict) or not saved.get('deployed_servers_data'):
        return
    servers = saved['deployed_servers_data']
    saved['deployed_servers_data'] = {
        role: [h for h in hosts or []
               if str(h.get('hostname', '')).lower() not in names]
        for role, hosts in servers.items()}
    workdir.save(workdir.deploy_inputs_file, saved)


def delete(workdir, found, options, say):
    """Scale ``found`` (``check_hosts``'s) down and take them out; returns
    the :class:`~tripleo_ephemeral.ansible.run.PlaybookRun` of the scale
    playbook."""
    config_dir = workdir.config_download_dir
    playbook = os.path.join(config_dir, SCALE_PLAYBOOK)
    if not os.path.isfile(playbook):
        raise exceptions.DeployError(
            'No %s in %s: the templates render no scale-down playbook; '
            'deploy with templates that do' % (SCALE_PLAYBOOK, config_dir))
    names = [f[0] for f in found]
    options = options.replace(limit=':'.join(names))
    with locking.DirLock(workdir.path):
        run = ansible_run.run_playbook(config_dir, playbook, options, say,
                                       tolerate_unreachable=True)
        deleted_hosts.add(workdir, [
            {'hostname': host, 'role': role, 'ctlplane_ip': ip,
             'scale_playbook': ('unreachable' if host in run.unreachable
                                else 'ran')}
            for host, role, ip in found])
        _forget_servers(workdir, {n.lower() for n in names})
        rendering.render_saved(workdir, say)
    for host in run.unreachable:
        say('%s could not be reached: no scale-down tasks ran on it' % host)
    for host, role, ip in found:
        say(deployed_servers.REMOVED_HOST_WARNING % {
            'host': host, 'role': role, 'ip': ip})
    return run
