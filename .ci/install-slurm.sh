#!/bin/sh
# Installs what test/slurm needs on Debian 12: Slurm's controller and node daemons, its client commands,
# munge (Slurm's authentication) and iproute2 (network namespaces for the simulated hosts). Idempotent:
# packages already present are left alone. Run as root (CI) or through sudo.
set -eu
need=""
command -v slurmctld >/dev/null 2>&1 || need="$need slurm-wlm"
command -v sbatch >/dev/null 2>&1 || need="$need slurm-client"
command -v munged >/dev/null 2>&1 || need="$need munge"
command -v ip >/dev/null 2>&1 || need="$need iproute2"
if [ -n "$need" ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $need
fi
slurmctld -V
