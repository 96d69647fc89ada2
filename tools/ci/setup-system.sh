#!/usr/bin/env bash
# System parts the tests use (podman, MariaDB, RabbitMQ, debootstrap),
# installed here so that a clean machine and CI need nothing by hand.
# Safe to run again. Facts behind it: shared/notes/podman.md.
set -euo pipefail

need=()
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
# podman run --init and pod infra images need catatonit.
[ -x /usr/libexec/podman/catatonit ] || command -v catatonit >/dev/null || need+=(catatonit)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v mariadbd >/dev/null || need+=(mariadb-server)
[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || need+=(rabbitmq-server)
command -v ip >/dev/null || need+=(iproute2)
command -v sshd >/dev/null || [ -x /usr/sbin/sshd ] || need+=(openssh-server)
# The deploy tests' hosts (netns + sshd) run become: true through sudo.
command -v sudo >/dev/null || need+=(sudo)
command -v ssh >/dev/null || need+=(openssh-client)
# tripleo-heat-templates' SELinux play (the opt-in real THT run on test
# hosts, which share this machine's /usr) imports the selinux bindings.
/usr/bin/python3 -c 'import selinux' 2>/dev/null || need+=(python3-selinux)
# The pacemaker_resource module's tests run a one-node Pacemaker cluster in
# a test host (its daemons start there). Only where systemd does not run:
# there the packages would enable and start corosync, pacemaker and pcsd on
# this machine itself (those tests then skip, saying so).
if [ -d /run/systemd/system ]; then
  [ -x /usr/sbin/pacemakerd ] || echo "[setup-system] not installing" \
    "pacemaker, corosync, pcs: systemd would start them on this machine"
else
  [ -x /usr/sbin/pacemakerd ] || need+=(pacemaker)
  [ -x /usr/sbin/cibadmin ] || need+=(pacemaker-cli-utils)
  [ -x /usr/sbin/corosync ] || need+=(corosync)
  command -v pcs >/dev/null || need+=(pcs)
fi

if [ "$(id -u)" != 0 ]; then
  [ ${#need[@]} -eq 0 ] || echo "[setup-system] not root; missing: ${need[*]}"
  exit 0
fi

if [ ${#need[@]} -gt 0 ]; then
  echo "[setup-system] installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi

# This sandbox: crun refuses the hybrid cgroup layout and root lacks
# CAP_SYS_RESOURCE for podman's default ulimits. A CI-only drop-in; the
# product itself does not depend on it.
conf=/etc/containers/containers.conf
if [ ! -e "$conf" ] || ! grep -q tripleo-ephemeral "$conf"; then
  hard=$(ulimit -Hn)
  mkdir -p /etc/containers
  cat > "$conf" <<CONF
# written by tripleo-ephemeral tools/ci/setup-system.sh
[containers]
default_ulimits = ["nofile=${hard}:${hard}", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
fi
echo "[setup-system] podman $(podman --version 2>/dev/null | awk '{print $3}'), ready"
