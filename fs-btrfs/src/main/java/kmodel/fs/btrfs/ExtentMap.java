package kmodel.fs.btrfs;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.lifetime.KObject;

/**
 * fs/btrfs/extent_map.h: {@code struct extent_map} (v5.10): a cached mapping of a file range to
 * disk. A tracked object with a reference count ({@code refs}): the tree holds one while the map is
 * in it, every lookup returns one more, {@code free_extent_map()} drops it; a map alive at the end
 * of a run with other than the tree's reference is a {@code ref-leak}.
 */
public final class ExtentMap extends KObject {
    /** fs/btrfs/extent_map.h: {@code EXTENT_MAP_LAST_BYTE}. */
    public static final long EXTENT_MAP_LAST_BYTE = -4L;
    /** fs/btrfs/extent_map.h: {@code EXTENT_MAP_HOLE}. */
    public static final long EXTENT_MAP_HOLE = -3L;
    /** fs/btrfs/extent_map.h: {@code EXTENT_MAP_INLINE}. */
    public static final long EXTENT_MAP_INLINE = -2L;
    /** fs/btrfs/extent_map.h: {@code EXTENT_FLAG_COMPRESSED} (a bit number). */
    public static final int EXTENT_FLAG_COMPRESSED = 1;
    /** fs/btrfs/extent_map.h: {@code EXTENT_FLAG_PREALLOC}. */
    public static final int EXTENT_FLAG_PREALLOC = 3;

    /** {@code start}: file offset. */
    public long start;
    /** {@code len}. */
    public long len;
    /** {@code orig_start}: file offset of the start of the on-disk extent (offset 0 of its data). */
    public long origStart;
    /** {@code orig_block_len}: {@code disk_num_bytes}. */
    public long origBlockLen;
    /** {@code ram_bytes}. */
    public long ramBytes;
    /** {@code block_start}: logical disk address, or {@code EXTENT_MAP_HOLE}/{@code _INLINE}. */
    public long blockStart;
    /** {@code block_len}. */
    public long blockLen;
    /** {@code flags}: {@code EXTENT_FLAG_*} bits. Set before insertion, read-only after. */
    public int flags;
    /** {@code compress_type}. */
    public int compressType;
    /** {@code refs}. */
    final AtomicT refs;
    /** Whether the map is in its tree ({@code extent_map_in_tree()}: {@code !RB_EMPTY_NODE}). Under the tree's lock. */
    boolean inTree;

    ExtentMap(String name) {
        super("extent_map", name);
        this.refs = new AtomicT(name + ".refs", 1);
    }

    @Override
    public int refs() {
        return refs.peek();
    }

    /** fs/btrfs/extent_map.h: {@code extent_map_end(em)}. */
    public static long extentMapEnd(ExtentMap em) {
        if (em.start + em.len < em.start) {
            return -1L; /* (u64)-1 */
        }
        return em.start + em.len;
    }

    /** fs/btrfs/extent_map.c: {@code extent_map_in_tree(em)}. */
    public static boolean extentMapInTree(ExtentMap em) {
        em.touch();
        return em.inTree;
    }

    /** fs/btrfs/extent_map.c: {@code test_bit(flag, &em->flags)}. */
    public boolean test(int flag) {
        return (flags & (1 << flag)) != 0;
    }

    /** {@code refcount_inc(&em->refs)}. */
    static void get(ExtentMap em) {
        em.touch();
        if (em.refs.incReturn() <= 1) {
            Kernel.fail(ViolationKind.USE_AFTER_FREE, "refcount_inc(" + em.name() + ".refs) on a map with no reference held");
        }
    }

    /**
     * fs/btrfs/extent_map.c: {@code free_extent_map(em)} (v5.10): drop a reference; the last one
     * frees the map ({@code WARN_ON(extent_map_in_tree(em))}). NULL is ignored.
     */
    public static void freeExtentMap(ExtentMap em) {
        if (em == null) {
            return;
        }
        if (em.isFreed()) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "free_extent_map(" + em.name() + ") on a freed map");
        }
        int now = em.refs.decReturn();
        if (now < 0) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "free_extent_map(" + em.name() + "): refs dropped below zero");
        }
        if (now == 0) {
            Kernel.WARN_ON(em.inTree, "free_extent_map(" + em.name() + ") while in the tree");
            em.released();
        }
    }

    @Override
    public String toString() {
        return name() + "[" + start + "+" + len + " -> " + (blockStart == EXTENT_MAP_HOLE ? "hole"
                : blockStart == EXTENT_MAP_INLINE ? "inline" : Long.toString(blockStart)) + (test(EXTENT_FLAG_COMPRESSED)
                        ? " compressed, orig_start " + origStart : "") + "]";
    }
}
