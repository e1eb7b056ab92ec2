// Command emulated-disk mounts a directory through FUSE and charges every read and write the time a
// spinning disk would take (see Disk), so that Levee's bench can measure the plugins in the regime
// their papers won in: a disk, not memory, as the bottleneck. It is an emulation and every result
// taken on it says so.
//
//	emulated-disk --backing DIR --mount DIR [--bandwidth-mb 120] [--seek-ms 8] [--write-cache-mb 128] [--stats FILE]
//
// It serves until SIGINT or SIGTERM, then unmounts and writes its final counts; SIGUSR1 writes the
// counts at once.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// report is what --stats holds: the model's counts and the emulator's own CPU, so a run can state
// what the emulation cost next to what it emulated.
type report struct {
	BandwidthMB  float64 `json:"bandwidth_mb_per_s"`
	SeekMillis   float64 `json:"seek_ms"`
	WriteCacheMB int64   `json:"write_cache_mb"`
	Stats
	WriteBackStats
	ElapsedNanos int64 `json:"elapsed_nanos"`
	CPUNanos     int64 `json:"cpu_nanos"`
	// Sequence grows with every write of the file, so a reader that asked for fresh counts (SIGUSR1)
	// knows when they are there.
	Sequence int64 `json:"sequence"`
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "emulated-disk:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	flags := flag.NewFlagSet("emulated-disk", flag.ContinueOnError)
	backing := flags.String("backing", "", "the real directory the files live in (must exist)")
	mount := flags.String("mount", "", "the empty directory to mount the emulated disk on (must exist)")
	bandwidth := flags.Float64("bandwidth-mb", 120, "sequential transfer rate, MB/s (1 MB = 10^6 bytes), 1 to 100000")
	seekMs := flags.Float64("seek-ms", 8, "time of one seek (head move and rotation), ms, 0 to 1000")
	statsFile := flags.String("stats", "", "a file rewritten every second and at exit with the counts, as JSON")
	cacheMB := flags.Int64("write-cache-mb", 128, "dirty data a buffered write may leave in the page cache before it waits for the disk, MB, 0 (write-through) to 65536; O_SYNC, O_DSYNC and O_DIRECT writes always wait")
	maxWriteKB := flags.Int("max-write-kb", 1024, "largest request the kernel may send, KB, 4 to 1024 (a disk takes up to 1280 KB)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if err := validate(*backing, *mount, *bandwidth, *seekMs, *maxWriteKB); err != nil {
		return err
	}
	if *cacheMB < 0 || *cacheMB > 65536 {
		return fmt.Errorf("--write-cache-mb %d is outside 0 to 65536", *cacheMB)
	}
	disk := NewDisk(*bandwidth*1e6, time.Duration(*seekMs*float64(time.Millisecond)))
	var wb *WriteBack
	if *cacheMB > 0 {
		wb = NewWriteBack(disk, *cacheMB<<20, int64(*maxWriteKB)<<10)
	}
	root, err := rootFor(*backing, disk, wb)
	if err != nil {
		return fmt.Errorf("--backing %s: %v", *backing, err)
	}
	server, err := fs.Mount(*mount, root, &fs.Options{
		MountOptions: fuse.MountOptions{
			// As root no fusermount helper is needed; the bench runs this as root, as CI does.
			DirectMount:  true,
			AllowOther:   true,
			FsName:       "levee-emulated-disk",
			Name:         "leveedisk",
			MaxWrite:     *maxWriteKB * 1024,
			MaxReadAhead: *maxWriteKB * 1024,
		},
	})
	if err != nil {
		return fmt.Errorf("cannot mount on %s (needs root and /dev/fuse): %v", *mount, err)
	}
	started := time.Now()
	var sequence int64
	write := func() {
		if *statsFile != "" {
			sequence++
			r := report{BandwidthMB: *bandwidth, SeekMillis: *seekMs, WriteCacheMB: *cacheMB, Stats: disk.Snapshot(),
				ElapsedNanos: int64(time.Since(started)), Sequence: sequence}
			if wb != nil {
				r.WriteBackStats = wb.Snapshot()
			}
			writeStats(*statsFile, r)
		}
	}
	write()
	fmt.Printf("emulated-disk: %s on %s, %.0f MB/s, %.1f ms per seek, %d MB write-back cache\n", *backing, *mount, *bandwidth, *seekMs, *cacheMB)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	refresh := make(chan os.Signal, 1)
	signal.Notify(refresh, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() { server.Wait(); close(done) }()
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			write()
		case <-refresh:
			write()
		case <-signals:
			if err := server.Unmount(); err != nil {
				// Busy: a process still has a file open. Detach so the mount goes when it closes.
				syscall.Unmount(*mount, syscall.MNT_DETACH)
			}
			<-done
			write()
			return nil
		case <-done:
			write()
			return nil
		}
	}
}

func validate(backing, mount string, bandwidth, seekMs float64, maxWriteKB int) error {
	for _, d := range []struct{ flag, path string }{{"--backing", backing}, {"--mount", mount}} {
		if d.path == "" {
			return fmt.Errorf("%s is required: an existing directory", d.flag)
		}
		st, err := os.Stat(d.path)
		if err != nil || !st.IsDir() {
			return fmt.Errorf("%s %s is not an existing directory", d.flag, d.path)
		}
	}
	if bandwidth < 1 || bandwidth > 100000 {
		return fmt.Errorf("--bandwidth-mb %v is outside 1 to 100000", bandwidth)
	}
	if seekMs < 0 || seekMs > 1000 {
		return fmt.Errorf("--seek-ms %v is outside 0 to 1000", seekMs)
	}
	if maxWriteKB < 4 || maxWriteKB > 1024 {
		return fmt.Errorf("--max-write-kb %d is outside 4 to 1024", maxWriteKB)
	}
	return nil
}

func writeStats(path string, r report) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	r.CPUNanos = ru.Utime.Nano() + ru.Stime.Nano()
	b, _ := json.MarshalIndent(r, "", "  ")
	// Written whole and renamed, so a reader never sees half a file.
	tmp := path + ".tmp"
	if os.WriteFile(tmp, append(b, '\n'), 0o644) == nil {
		os.Rename(tmp, path)
	}
}
