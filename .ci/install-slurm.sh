#!/bin/sh
# Installs what test/slurm needs on Debian 12: Slurm's controller and node daemons and client commands
# (slurm-wlm), munge (Slurm's authentication) and iproute2 (network namespaces for the simulated hosts;
# nsenter and unshare come with util-linux). Idempotent: nothing is installed when everything is present.
# The tests start and stop their own daemons; this script starts none. Needs root (or sudo).
set -eu
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
need=""
for pair in slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-client salloc:slurm-client munged:munge ip:iproute2; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need="$need ${pair#*:}"
done
if [ -n "$need" ]; then
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $(echo $need | tr ' ' '\n' | sort -u)
fi
slurmctld -V
