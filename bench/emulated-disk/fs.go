package main

import (
	"context"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// node is a pass-through node whose open files are charged to the disk model.
type node struct {
	fs.LoopbackNode
	disk *Disk
	wb   *WriteBack // nil: every write is write-through
}

var _ = (fs.NodeOpener)((*node)(nil))
var _ = (fs.NodeCreater)((*node)(nil))

// rootFor builds the loopback root with every node (the root's too) of type node.
func rootFor(backing string, disk *Disk, wb *WriteBack) (fs.InodeEmbedder, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(backing, &st); err != nil {
		return nil, err
	}
	r := &fs.LoopbackRoot{Path: backing, Dev: uint64(st.Dev)}
	r.NewNode = func(rd *fs.LoopbackRoot, _ *fs.Inode, _ string, _ *syscall.Stat_t) fs.InodeEmbedder {
		return &node{LoopbackNode: fs.LoopbackNode{RootData: rd}, disk: disk, wb: wb}
	}
	rootNode := r.NewNode(r, nil, "", &st)
	r.RootNode = rootNode
	return rootNode, nil
}

// backingFlags drops what would make the backing file's I/O wait for the real disk: the model
// already makes such writes wait for the emulated one (see synchronous), so a real fsync or
// O_DIRECT on the fast disk underneath would only add its latency to the emulated figure. The
// kernel still applies the caller's O_DIRECT to the FUSE file itself (no page cache there).
func backingFlags(flags uint32) uint32 {
	return flags &^ uint32(syscall.O_SYNC|syscall.O_DSYNC|syscall.O_DIRECT)
}

// synchronous tells the writes that must reach the disk before they return (O_SYNC, O_DSYNC,
// O_DIRECT) from those the write-back cache may hold.
func synchronous(flags uint32) bool {
	return flags&uint32(syscall.O_SYNC|syscall.O_DSYNC|syscall.O_DIRECT) != 0
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	fh, fl, errno := n.LoopbackNode.Open(ctx, backingFlags(flags))
	if errno != 0 {
		return nil, 0, errno
	}
	return n.charged(fh, n.StableAttr().Ino, flags), fl, 0
}

func (n *node) Create(ctx context.Context, name string, flags uint32, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	in, fh, fl, errno := n.LoopbackNode.Create(ctx, name, backingFlags(flags), mode, out)
	if errno != 0 {
		return nil, nil, 0, errno
	}
	return in, n.charged(fh, out.Ino, flags), fl, 0
}

func (n *node) charged(fh fs.FileHandle, ino uint64, flags uint32) fs.FileHandle {
	return &file{
		LoopbackFile: fh.(*fs.LoopbackFile),
		disk:         n.disk,
		wb:           n.wb,
		through:      n.wb == nil || synchronous(flags),
		ino:          ino,
	}
}

// file forwards everything to the backing file; reads wait for their disk slot, and writes for
// theirs unless the write-back cache takes them.
type file struct {
	*fs.LoopbackFile
	disk *Disk
	wb   *WriteBack // the mount's cache; nil when it has none
	// through: every write waits for its own slot (no cache, or a synchronous open).
	through bool
	ino     uint64
}

func (f *file) Read(ctx context.Context, buf []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	res, errno := f.LoopbackFile.Read(ctx, buf, off)
	if errno != 0 {
		return res, errno
	}
	// Charged by what the request returned: a read at the end of a file moves no bytes.
	if n := res.Size(); n > 0 {
		waitUntil(f.disk.Reserve(f.ino, off, n, false))
	}
	return res, 0
}

// Write-through writes book their slot first and wait after the real write, so the emulator's own
// work overlaps the emulated transfer instead of adding to it; cached ones wait only for room.
func (f *file) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	if !f.through {
		n, errno := f.LoopbackFile.Write(ctx, data, off)
		f.wb.Add(f.ino, off, int(n))
		return n, errno
	}
	slot := f.disk.Reserve(f.ino, off, len(data), true)
	n, errno := f.LoopbackFile.Write(ctx, data, off)
	waitUntil(slot)
	return n, errno
}

func (f *file) Writev(ctx context.Context, data [][]byte, off int64) (uint32, syscall.Errno) {
	n := 0
	for _, d := range data {
		n += len(d)
	}
	if !f.through {
		written, errno := f.LoopbackFile.Writev(ctx, data, off)
		f.wb.Add(f.ino, off, int(written))
		return written, errno
	}
	slot := f.disk.Reserve(f.ino, off, n, true)
	written, errno := f.LoopbackFile.Writev(ctx, data, off)
	waitUntil(slot)
	return written, errno
}

// Fsync waits until the write-back cache holds none of the file's bytes, and is not passed to the
// backing file: a write is on the emulated disk once its slot is over (see backingFlags), and a
// real fsync would add the real disk's latency.
func (f *file) Fsync(ctx context.Context, flags uint32) syscall.Errno {
	if f.wb != nil {
		f.wb.Sync(f.ino)
	}
	return 0
}

// PassthroughFd is refused: a kernel passthrough would let I/O reach the backing file unseen.
func (f *file) PassthroughFd() (int, bool) { return 0, false }
