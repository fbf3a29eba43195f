#!/usr/bin/env bash
# Installs Mesa's software Vulkan driver (lavapipe) from Debian 12 backports: Dawn needs Mesa >= 23.
set -euo pipefail
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
src=/etc/apt/sources.list.d/debian.sources
dst=/etc/apt/sources.list.d/backports.sources
if [ ! -f "$dst" ]; then
  awk 'BEGIN{RS="";ORS="\n\n"} NR==1' "$src" | sed 's/^Suites:.*/Suites: bookworm-backports/' | $SUDO tee "$dst" >/dev/null
fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive ${SUDO:+$SUDO -E} apt-get install -y -q -t bookworm-backports mesa-vulkan-drivers libvulkan1
