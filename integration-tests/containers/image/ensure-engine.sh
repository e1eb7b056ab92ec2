#!/usr/bin/env bash
# Makes sure a Docker engine answers. As root on a Debian machine without one, installs Debian's docker.io and
# starts dockerd in the background (its log: ${LEVEE_DOCKERD_LOG:-/var/log/levee-dockerd.log}). Exit 0 when an
# engine answers, 1 when none does and none could be started (with the reason on stderr).
set -euo pipefail
log() { echo "ensure-engine: $*" >&2; }

if docker info > /dev/null 2>&1; then exit 0; fi
if [[ -n "${LEVEE_DOCKER_NO_INSTALL:-}" ]]; then log "no Docker engine answers (LEVEE_DOCKER_NO_INSTALL set)"; exit 1; fi
if [[ $(id -u) != 0 ]]; then log "no Docker engine answers, and starting one needs root"; exit 1; fi
if ! command -v dockerd > /dev/null; then
  command -v apt-get > /dev/null || { log "no Docker engine and no apt-get to install one"; exit 1; }
  log "installing Debian's docker.io"
  { apt-get update -q && apt-get install -y -q docker.io; } >&2 || { log "apt-get install docker.io failed"; exit 1; }
fi
dockerd_log=${LEVEE_DOCKERD_LOG:-/var/log/levee-dockerd.log}
log "starting dockerd (log: $dockerd_log)"
setsid nohup dockerd > "$dockerd_log" 2>&1 < /dev/null &
for _ in $(seq 1 60); do
  if docker info > /dev/null 2>&1; then log "engine up"; exit 0; fi
  sleep 1
done
log "dockerd did not answer within 60 s; see $dockerd_log"
exit 1
