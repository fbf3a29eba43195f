#!/usr/bin/env bash
# Installs Mesa's software Vulkan driver (lavapipe) from Debian 12 backports: Dawn needs Mesa >= 23.
set -euo pipefail
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
src=/etc/apt/sources.list.d/debian.sources
dst=/etc/apt/sources.list.d/backports.sources
if [ ! -f "$dst" ]; then
  if [ -f "$src" ]; then
    # Same mirror as the first stanza of the system's sources, suite switched to backports.
    awk 'BEGIN{RS="";ORS="\n\n"} NR==1' "$src" | sed 's/^Suites:.*/Suites: bookworm-backports/' | $SUDO tee "$dst" >/dev/null
  else
    # Installs that still use /etc/apt/sources.list (no deb822 file): the standard backports stanza.
    printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm-backports' 'Components: main' \
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' | $SUDO tee "$dst" >/dev/null
  fi
fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive ${SUDO:+$SUDO -E} apt-get install -y -q -t bookworm-backports mesa-vulkan-drivers libvulkan1
