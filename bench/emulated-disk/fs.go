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
}

var _ = (fs.NodeOpener)((*node)(nil))
var _ = (fs.NodeCreater)((*node)(nil))

// rootFor builds the loopback root with every node (the root's too) of type node.
func rootFor(backing string, disk *Disk) (fs.InodeEmbedder, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(backing, &st); err != nil {
		return nil, err
	}
	r := &fs.LoopbackRoot{Path: backing, Dev: uint64(st.Dev)}
	r.NewNode = func(rd *fs.LoopbackRoot, _ *fs.Inode, _ string, _ *syscall.Stat_t) fs.InodeEmbedder {
		return &node{LoopbackNode: fs.LoopbackNode{RootData: rd}, disk: disk}
	}
	rootNode := r.NewNode(r, nil, "", &st)
	r.RootNode = rootNode
	return rootNode, nil
}

// backingFlags drops what would make the backing file's I/O wait for the real disk: the model
// already makes every write wait for the emulated one (write-through, no cache), so a real fsync or
// O_DIRECT on the fast disk underneath would only add its latency to the emulated figure. The
// kernel still applies the caller's O_DIRECT to the FUSE file itself (no page cache there).
func backingFlags(flags uint32) uint32 {
	return flags &^ uint32(syscall.O_SYNC|syscall.O_DSYNC|syscall.O_DIRECT)
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	fh, fl, errno := n.LoopbackNode.Open(ctx, backingFlags(flags))
	if errno != 0 {
		return nil, 0, errno
	}
	return n.charged(fh), fl, 0
}

func (n *node) Create(ctx context.Context, name string, flags uint32, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	in, fh, fl, errno := n.LoopbackNode.Create(ctx, name, backingFlags(flags), mode, out)
	if errno != 0 {
		return nil, nil, 0, errno
	}
	return in, &file{LoopbackFile: fh.(*fs.LoopbackFile), disk: n.disk, ino: out.Ino}, fl, 0
}

func (n *node) charged(fh fs.FileHandle) fs.FileHandle {
	return &file{LoopbackFile: fh.(*fs.LoopbackFile), disk: n.disk, ino: n.StableAttr().Ino}
}

// file forwards everything to the backing file; reads and writes first wait for their disk slot.
type file struct {
	*fs.LoopbackFile
	disk *Disk
	ino  uint64
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

// Writes book their slot first and wait after the real write, so the emulator's own work overlaps
// the emulated transfer instead of adding to it.
func (f *file) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
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
	slot := f.disk.Reserve(f.ino, off, n, true)
	written, errno := f.LoopbackFile.Writev(ctx, data, off)
	waitUntil(slot)
	return written, errno
}

// Fsync is a no-op on the backing file: a write is on the emulated disk once its slot is over (see
// backingFlags), and a real fsync would add the real disk's latency.
func (f *file) Fsync(ctx context.Context, flags uint32) syscall.Errno { return 0 }

// PassthroughFd is refused: a kernel passthrough would let I/O reach the backing file unseen.
func (f *file) PassthroughFd() (int, bool) { return 0, false }
