package main

import (
	"testing"
	"time"
)

// A DataNode's pattern: 64 KB of block, then 512 B of checksums in another file, again and again.
func interleave(w *WriteBack, pairs int) int64 {
	var off, metaOff, total int64
	for i := 0; i < pairs; i++ {
		w.Add(1, off, 64<<10)
		w.Add(2, metaOff, 512)
		off += 64 << 10
		metaOff += 512
		total += 64<<10 + 512
	}
	return total
}

func TestInterleavedSmallWritesReachTheDiskAsLongRuns(t *testing.T) {
	disk := NewDisk(1e9, time.Millisecond)
	w := NewWriteBack(disk, 64<<20, 1<<20)
	total := interleave(w, 200)
	w.Sync(1)
	w.Sync(2)
	s := disk.Snapshot()
	if s.WriteBytes != total {
		t.Fatalf("the disk wrote %d bytes, the writers %d", s.WriteBytes, total)
	}
	// Write-through would seek 400 times; the cache writes each file's run at once. The flusher may
	// start on the first extents before the rest arrive, so allow a few switches.
	if s.Seeks > 8 {
		t.Fatalf("%d seeks for two sequential files written interleaved: the cache did not coalesce", s.Seeks)
	}
	if s.WriteRequests > int64(total>>20)+8 {
		t.Fatalf("%d requests for %d bytes: not coalesced into requests of up to 1 MiB", s.WriteRequests, total)
	}
}

func TestWithoutACacheEverySwitchSeeks(t *testing.T) {
	// The same pattern through the disk directly (write-through): the baseline the test above beats.
	disk := NewDisk(1e12, 0)
	var off, metaOff int64
	for i := 0; i < 50; i++ {
		disk.Reserve(1, off, 64<<10, true)
		disk.Reserve(2, metaOff, 512, true)
		off += 64 << 10
		metaOff += 512
	}
	if s := disk.Snapshot(); s.Seeks != 100 {
		t.Fatalf("write-through of 50 interleaved pairs: %d seeks, want 100", s.Seeks)
	}
}

func TestAFullCacheMakesWritersWaitForTheDisk(t *testing.T) {
	// 10 MB/s: each 1 MiB chunk takes ~100 ms, so 4 MiB into a 1 MiB cache must wait ~300 ms.
	disk := NewDisk(10e6, 0)
	w := NewWriteBack(disk, 1<<20, 1<<20)
	start := time.Now()
	for i := int64(0); i < 4; i++ {
		w.Add(7, i<<20, 1<<20)
	}
	waited := time.Since(start)
	st := w.Snapshot()
	if st.WriterWaits == 0 || waited < 250*time.Millisecond {
		t.Fatalf("4 MiB into a 1 MiB cache at 10 MB/s returned after %v with %d waits", waited, st.WriterWaits)
	}
	if st.MaxDirtyBytes > 1<<20 {
		t.Fatalf("the cache held %d bytes, over its 1 MiB", st.MaxDirtyBytes)
	}
	w.Sync(7)
	if d := disk.Snapshot(); d.WriteBytes != 4<<20 {
		t.Fatalf("the disk wrote %d bytes, want 4 MiB", d.WriteBytes)
	}
}

func TestSyncWaitsForTheFilesBytesOnly(t *testing.T) {
	disk := NewDisk(10e6, 0)
	w := NewWriteBack(disk, 64<<20, 1<<20)
	w.Add(1, 0, 2<<20) // ~200 ms of disk
	start := time.Now()
	w.Sync(3) // nothing of file 3 is dirty: returns without waiting for file 1's bytes
	if w.Snapshot().CachedBytes != 2<<20 || disk.Snapshot().WriteBytes == 2<<20 {
		t.Fatalf("file 1's 2 MiB was flushed before a clean file's fsync returned")
	}
	w.Sync(1)
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Fatalf("fsync of 2 MiB dirty at 10 MB/s returned after %v", d)
	}
}
