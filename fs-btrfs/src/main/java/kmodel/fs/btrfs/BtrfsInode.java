package kmodel.fs.btrfs;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import kmodel.kernel.locking.Spinlock;
import kmodel.mm.Inode;
import kmodel.mm.Page;

/**
 * fs/btrfs/btrfs_inode.h: {@code struct btrfs_inode} (v5.10): the VFS inode, its
 * {@code extent_tree} ({@link ExtentMapTree}), the parts of its {@code io_tree} the read path
 * consults (the {@code EXTENT_UPTODATE} ranges {@code btrfs_get_extent()} sets after copying an
 * inline extent), its {@code io_failure_tree}, its flags ({@code BTRFS_INODE_NODATASUM}), and the
 * model's file-extent table ({@link FileExtentItem}) in place of its b-tree items.
 *
 * <p>Not modelled: extent state locking ({@code lock_extent()}/{@code unlock_extent()}, ordered
 * extents): with no writers, the page locks already keep readers of one range apart.
 */
public final class BtrfsInode {
    /** fs/btrfs/btrfs_inode.h: {@code BTRFS_INODE_NODATASUM}. */
    public static final int BTRFS_INODE_NODATASUM = 1 << 0;
    /** fs/btrfs/btrfs_inode.h: {@code BTRFS_INODE_NODATACOW} ({@code chattr +C}; implies {@code NODATASUM}). */
    public static final int BTRFS_INODE_NODATACOW = 1 << 1;

    /** The VFS inode ({@code vfs_inode}). */
    public final Inode vfsInode;
    /** The mount. */
    public final BtrfsFsInfo fsInfo;
    /** {@code extent_tree}. */
    public final ExtentMapTree extentTree;
    /** {@code flags}. */
    public final int flags;
    /** The file-extent items, by file offset (set-up only). */
    final TreeMap<Long, FileExtentItem> items = new TreeMap<>();
    /** {@code io_tree}: byte ranges marked {@code EXTENT_UPTODATE} (sector starts); under {@link #ioTreeLock}. */
    final TreeSet<Long> ioTreeUptodate = new TreeSet<>();
    /** {@code io_tree->lock}. */
    final Spinlock ioTreeLock;
    /** {@code io_failure_tree}: start -> record; under {@link #ioFailureLock}. */
    final TreeMap<Long, IoFailureRecord> ioFailureTree = new TreeMap<>();
    /** {@code io_failure_tree.lock}. */
    final Spinlock ioFailureLock;
    /** The file's bytes as written (the reference for data checks); set-up only. */
    byte[] expected;

    BtrfsInode(BtrfsFsInfo fsInfo, String name, long size, int flags, BtrfsAops aops) {
        this.fsInfo = fsInfo;
        this.flags = flags;
        this.vfsInode = new Inode(name, size, aops, Page.PAGE_SHIFT);
        aops.inode = this;
        this.extentTree = new ExtentMapTree(name + ".extent_tree");
        this.ioTreeLock = new Spinlock(name + ".io_tree.lock");
        this.ioFailureLock = new Spinlock(name + ".io_failure_tree.lock");
    }

    /** fs/btrfs/btrfs_inode.h: {@code BTRFS_I(inode)}: the btrfs inode of a VFS inode of this model. */
    public static BtrfsInode btrfsI(Inode inode) {
        return ((BtrfsAops) inode.iMapping.aOps).inode;
    }

    /** The items, in file order (set-up and checks). */
    public List<FileExtentItem> items() {
        return new ArrayList<>(items.values());
    }

    /** The bytes the file holds (as written at set-up), a copy. */
    public byte[] expectedContents() {
        return expected.clone();
    }

    @Override
    public String toString() {
        return vfsInode.toString();
    }
}
