#!/usr/bin/env bash
# Runs a command in a cgroup-v1 memory cgroup with a limit, so that data a benchmark writes and
# reads back comes from the disk instead of a page cache larger than the data:
#
#   bench/memory-cgroup.sh 5g ./levee bench themis --workloads sort ...
#
# The cgroup is a child of the one this script starts in. Every process the command starts
# inherits it (the mini cluster's NodeManagers start task JVMs as children), and the page cache of
# files written inside is charged to it, so once the processes and the cache reach the limit the
# kernel evicts cached pages (or the OOM killer ends a process: leave room for the JVMs).
# Before the command, a probe checks that this works here: a 128 MB file written in a 32 MB cgroup
# and read back must be read from the disk (/proc/diskstats), and the same file written outside
# must not. Needs root and /sys/fs/cgroup/memory (cgroup v1). The ThemisSuite records the limit.
set -euo pipefail

usage() {
  echo "usage: bench/memory-cgroup.sh LIMIT COMMAND [ARG...]   (LIMIT in bytes or with k, m, g)" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
limit=$1
shift
[[ $limit =~ ^[0-9]+[kKmMgG]?$ ]] || {
  echo "memory-cgroup.sh: LIMIT '$limit' is not a byte size (a number with an optional k, m or g)" >&2
  exit 2
}

root=/sys/fs/cgroup/memory
[[ -w $root/cgroup.procs ]] || {
  echo "memory-cgroup.sh: $root is not a writable cgroup-v1 memory hierarchy (needs root)" >&2
  exit 1
}
parent=$root$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
[[ -d $parent ]] || { echo "memory-cgroup.sh: no memory cgroup directory $parent" >&2; exit 1; }

# Sectors read from whole disks (vda, sda, nvme0n1), in bytes.
disk_read_bytes() {
  awk '$3 ~ /^([shv]d[a-z]+|xvd[a-z]+|nvme[0-9]+n[0-9]+)$/ {s += $6} END {printf "%.0f\n", s * 512}' /proc/diskstats
}

# Writes a file and reads it back in a fresh cgroup limited to $1 ("" for no limit); prints the
# bytes the disks read for the read-back.
probe_read_back() {
  local cg=$parent/levee-probe-$$ file=$probe_dir/probe.bin
  mkdir "$cg"
  [[ -n $1 ]] && echo "$1" > "$cg/memory.limit_in_bytes"
  (
    echo $BASHPID > "$cg/cgroup.procs"
    head -c $((128 << 20)) /dev/urandom > "$file"
    sync "$file"
    local before after
    before=$(disk_read_bytes)
    cat "$file" > /dev/null
    after=$(disk_read_bytes)
    echo $((after - before))
  )
  rm -f "$file"
  rmdir "$cg"
}

# On the file system the benchmark writes to (the repository's .levee/), when there is one.
probe_parent=${TMPDIR:-/tmp}
[[ -d .levee ]] && probe_parent=.levee
probe_dir=$(mktemp -d "$probe_parent/cgroup-probe.XXXXXX")
cached=$(probe_read_back "")
limited=$(probe_read_back 32m)
rmdir "$probe_dir"
echo "memory-cgroup.sh: probe: a 128 MB file written and read back: $((cached >> 20)) MB read from disk without a limit, $((limited >> 20)) MB in a 32 MB cgroup" >&2
if ((limited < (96 << 20))); then
  echo "memory-cgroup.sh: the limited cgroup's page cache was not evicted to disk here; a memory limit would not make the benchmark's reads reach the disk" >&2
  exit 1
fi

cg=$parent/levee-bench-$$
mkdir "$cg"
echo "$limit" > "$cg/memory.limit_in_bytes"
echo "memory-cgroup.sh: running in $cg, memory.limit_in_bytes $(cat "$cg/memory.limit_in_bytes")" >&2
status=0
(
  echo $BASHPID > "$cg/cgroup.procs"
  exec "$@"
) || status=$?
echo "memory-cgroup.sh: peak use $(($(cat "$cg/memory.max_usage_in_bytes") >> 20)) MB, limit hit $(cat "$cg/memory.failcnt") times" >&2
# The cgroup can only go once its processes have; its cached pages move to the parent.
rmdir "$cg" 2>/dev/null || echo "memory-cgroup.sh: $cg still has processes; left in place" >&2
exit $status
