package main

import (
	"sync"
	"time"
)

// Disk is the time model of one spindle shared by every user of the mount. Each data request
// reserves the next free slot on the disk's timeline: a seek when the request does not start where
// the previous one on the disk ended (another file, or another place in the same file), then the
// transfer at the sequential bandwidth. The caller sleeps until its slot ends, so concurrent streams
// queue behind each other and pay a seek at every switch, as on a real disk without a cache.
type Disk struct {
	bytesPerSecond float64
	seek           time.Duration
	now            func() time.Time

	mu        sync.Mutex
	busyUntil time.Time
	lastFile  uint64
	lastEnd   int64
	stats     Stats
}

// Stats are the counts a run reports; busy is the time the emulated disk was transferring or seeking.
type Stats struct {
	ReadRequests  int64 `json:"read_requests"`
	WriteRequests int64 `json:"write_requests"`
	ReadBytes     int64 `json:"read_bytes"`
	WriteBytes    int64 `json:"write_bytes"`
	Seeks         int64 `json:"seeks"`
	BusyNanos     int64 `json:"busy_nanos"`
}

func NewDisk(bytesPerSecond float64, seek time.Duration) *Disk {
	return &Disk{bytesPerSecond: bytesPerSecond, seek: seek, now: time.Now}
}

// Reserve books a request of n bytes at offset off of file (an inode number) and returns when the
// disk will have served it. The real I/O is done by the caller, against the backing directory.
func (d *Disk) Reserve(file uint64, off int64, n int, write bool) time.Time {
	cost := time.Duration(float64(n) / d.bytesPerSecond * float64(time.Second))
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lastFile != file || d.lastEnd != off || d.stats.ReadRequests+d.stats.WriteRequests == 0 {
		cost += d.seek
		d.stats.Seeks++
	}
	d.lastFile, d.lastEnd = file, off+int64(n)
	start := d.now()
	if d.busyUntil.After(start) {
		start = d.busyUntil
	}
	d.busyUntil = start.Add(cost)
	d.stats.BusyNanos += int64(cost)
	if write {
		d.stats.WriteRequests++
		d.stats.WriteBytes += int64(n)
	} else {
		d.stats.ReadRequests++
		d.stats.ReadBytes += int64(n)
	}
	return d.busyUntil
}

// Snapshot returns the counts so far.
func (d *Disk) Snapshot() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stats
}

// waitUntil sleeps until t; a request whose slot is already over returns at once.
func waitUntil(t time.Time) {
	if d := time.Until(t); d > 0 {
		time.Sleep(d)
	}
}
