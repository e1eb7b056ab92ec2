package main

import (
	"sync"
)

// WriteBack is the page cache's dirty data in front of the disk, and the flusher that writes it
// out: a buffered write returns as soon as its bytes fit under the cache's limit, and the flusher
// books the disk for them later, file by file and in offset order, so the small interleaved writes
// of a DataNode (64 KB of block, 512 B of checksums) or a map's spill reach the disk as the long
// runs a kernel's write-back and elevator would make of them. Writers wait only when the dirty
// bytes reach the limit: then the disk's speed bounds them, as it bounds a node whose cache is full.
// The data itself is written to the backing file at once; only its time on the disk is deferred.
type WriteBack struct {
	disk     *Disk
	capacity int64
	maxChunk int64

	mu      sync.Mutex
	changed *sync.Cond
	dirty   int64
	files   map[uint64]*dirtyFile
	order   []uint64 // files with dirty data, oldest first
	current uint64   // the file being flushed, 0 for none
	stats   WriteBackStats
}

// WriteBackStats are the cache's counts: writes it absorbed, and the most it held.
type WriteBackStats struct {
	CachedWrites  int64 `json:"cached_writes"`
	CachedBytes   int64 `json:"cached_bytes"`
	MaxDirtyBytes int64 `json:"max_dirty_bytes"`
	WriterWaits   int64 `json:"writer_waits"`
}

type extent struct{ off, n int64 }

type dirtyFile struct {
	extents []extent // in arrival order, contiguous ones merged
	bytes   int64
}

// NewWriteBack starts the flusher; capacity is the most dirty bytes held, maxChunk the largest
// request it sends the disk.
func NewWriteBack(disk *Disk, capacity, maxChunk int64) *WriteBack {
	w := &WriteBack{disk: disk, capacity: capacity, maxChunk: maxChunk, files: map[uint64]*dirtyFile{}}
	w.changed = sync.NewCond(&w.mu)
	go w.flush()
	return w
}

// Add records n bytes written at off of file, waiting first while the cache is full. A write larger
// than the whole cache waits for an empty cache and then goes in alone.
func (w *WriteBack) Add(file uint64, off int64, n int) {
	if n <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dirty > 0 && w.dirty+int64(n) > w.capacity {
		w.stats.WriterWaits++
		for w.dirty > 0 && w.dirty+int64(n) > w.capacity {
			w.changed.Wait()
		}
	}
	f := w.files[file]
	if f == nil {
		f = &dirtyFile{}
		w.files[file] = f
		w.order = append(w.order, file)
	}
	if last := len(f.extents) - 1; last >= 0 && f.extents[last].off+f.extents[last].n == off {
		f.extents[last].n += int64(n)
	} else {
		f.extents = append(f.extents, extent{off, int64(n)})
	}
	f.bytes += int64(n)
	w.dirty += int64(n)
	w.stats.CachedWrites++
	w.stats.CachedBytes += int64(n)
	if w.dirty > w.stats.MaxDirtyBytes {
		w.stats.MaxDirtyBytes = w.dirty
	}
	w.changed.Broadcast()
}

// Sync waits until none of file's dirty bytes are left (fsync).
func (w *WriteBack) Sync(file uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.files[file] != nil {
		w.changed.Wait()
	}
}

// Snapshot returns the cache's counts so far.
func (w *WriteBack) Snapshot() WriteBackStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

// flush writes dirty data out forever: it stays on one file until that file is clean (a kernel
// writes an inode's pages back together), then takes the file dirty longest.
func (w *WriteBack) flush() {
	for {
		file, off, n := w.next()
		waitUntil(w.disk.Reserve(file, off, int(n), true))
		w.done(file, n)
	}
}

// next waits for dirty data and takes the next request: the current file's first extent, up to
// maxChunk bytes.
func (w *WriteBack) next() (uint64, int64, int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.order) == 0 {
		w.changed.Wait()
	}
	if w.files[w.current] == nil {
		w.current = w.order[0]
	}
	f := w.files[w.current]
	e := &f.extents[0]
	n := e.n
	if n > w.maxChunk {
		n = w.maxChunk
	}
	off := e.off
	e.off += n
	e.n -= n
	if e.n == 0 {
		f.extents = f.extents[1:]
	}
	return w.current, off, n
}

// done accounts n flushed bytes of file and wakes writers waiting for room and fsyncs.
func (w *WriteBack) done(file uint64, n int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f := w.files[file]
	f.bytes -= n
	w.dirty -= n
	if f.bytes == 0 && len(f.extents) == 0 {
		delete(w.files, file)
		for i, id := range w.order {
			if id == file {
				w.order = append(w.order[:i], w.order[i+1:]...)
				break
			}
		}
	}
	w.changed.Broadcast()
}
