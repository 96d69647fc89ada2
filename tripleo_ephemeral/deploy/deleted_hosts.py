"""The hosts ``overcloud node delete`` took out of a deployment.

``<work-dir>/<stack>-deleted-hosts.yaml`` (0600) lists them; the next
deploys leave them out of the servers they use and say so, and every
render of config-download leaves them out of the inventory. Removing an
entry from the file (by hand) brings the host back on the next deploy.
"""

import datetime


def load(workdir):
    """The records: ``[{hostname, role, ctlplane_ip, deleted_at,
    scale_playbook}]``."""
    data = workdir.load(workdir.deleted_hosts_file) or {}
    records = data.get('deleted_hosts') if isinstance(data, dict) else None
    return [r for r in records or [] if isinstance(r, dict) and
            r.get('hostname')]


def names(workdir):
    """Lower-case hostnames of the deleted hosts."""
    return {r['hostname'].lower() for r in load(workdir)}


def add(workdir, hosts, now=None):
    """Record ``hosts`` (dicts with hostname, role, ctlplane_ip,
    scale_playbook); returns the file."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    new = {h['hostname'].lower() for h in hosts}
    records = [r for r in load(workdir)
               if r['hostname'].lower() not in new]
    records += [dict(h, deleted_at=now.isoformat(timespec='seconds'))
                for h in hosts]
    return workdir.save(workdir.deleted_hosts_file,
                        {'deleted_hosts': records})


def leave_out(workdir, servers, say):
    """``servers`` (role -> hosts, as the servers file gives them) without
    the deleted hosts, each left out with a line through ``say``."""
    records = {r['hostname'].lower(): r for r in load(workdir)}
    if not records or not servers:
        return servers
    kept = {}
    for role, hosts in servers.items():
        kept[role] = []
        for host in hosts or []:
            record = records.get(str(host.get('hostname', '')).lower())
            if record is None:
                kept[role].append(host)
                continue
            say('%s left out: deleted by "openstack overcloud node delete" '
                'on %s; remove it from %s to deploy it again' % (
                    host['hostname'], record.get('deleted_at', '?'),
                    workdir.deleted_hosts_file))
    return kept
