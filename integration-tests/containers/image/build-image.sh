#!/usr/bin/env bash
# Builds the container tier's base image from what is on this machine, once: no registry is reachable, so nothing
# can be pulled. A Debian root file system from debootstrap (Debian's own packages: the JRE, bash and coreutils that
# YARN's container launch scripts need, procps, iproute2 for tc), loaded with `docker import`.
#
# The tag is a hash of this script, so an unchanged script finds its image and returns at once; a changed package
# list builds a new one. Prints the image name (levee-base:<hash>) on stdout, progress on stderr.
#
# As root it also installs (apt-get install docker.io) and starts (dockerd in the background) the engine when no
# engine answers. Set LEVEE_DOCKER_NO_INSTALL=1 to only check.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
log() { echo "build-image: $*" >&2; }

SUITE=bookworm
MIRROR=${LEVEE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
PACKAGES=openjdk-17-jre-headless,procps,iproute2,iputils-ping,netcat-openbsd,less
tag=$(sha256sum "$0" | cut -c1-12)
image=levee-base:$tag

# Source for the engine helper lives beside this script so .ci/run and ./levee can call it alone.
"$here/ensure-engine.sh"

if docker image inspect "$image" > /dev/null 2>&1; then
  log "$image is present (built earlier from this script)"
  echo "$image"
  exit 0
fi

[[ $(id -u) == 0 ]] || { log "building $image needs root (debootstrap); run this script as root once"; exit 3; }
command -v debootstrap > /dev/null || { log "installing debootstrap"; apt-get install -y -q debootstrap >&2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/levee-rootfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
log "debootstrap $SUITE ($PACKAGES) into $work/root"
debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$work/root" "$MIRROR" >&2
# The package caches and docs are dead weight in every container.
rm -rf "$work/root/var/cache/apt/archives"/*.deb "$work/root/var/lib/apt/lists"/* "$work/root/usr/share/doc" \
       "$work/root/usr/share/man" "$work/root/usr/share/locale"
java_home=$(dirname "$(dirname "$(readlink -f "$work/root/usr/bin/java" | sed "s#^$work/root##")")")
log "importing (JAVA_HOME=$java_home)"
tar -C "$work/root" -c . | docker import \
  --change "ENV JAVA_HOME=$java_home" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  - "$image" > /dev/null
log "built $image in $(( $(date +%s) - started )) s ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%d MB", $1/1e6}'))"
echo "$image"
