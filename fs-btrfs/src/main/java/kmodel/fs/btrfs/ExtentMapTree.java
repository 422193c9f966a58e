package kmodel.fs.btrfs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kmodel.kernel.Errno;
import kmodel.kernel.lifetime.Lifetimes;
import kmodel.kernel.locking.Spinlock;

/**
 * fs/btrfs/extent_map.c (v5.10): {@code struct extent_map_tree}, the per-inode cache of
 * {@link ExtentMap}s ({@code map}, an rb-tree in the kernel; a sorted map here) and its lookups.
 *
 * <p>Lock rule: {@code map} and each map's {@code inTree} change only under {@link #lock}. The
 * kernel's {@code em_tree->lock} is an {@code rwlock_t} (lookups under {@code read_lock}); the model
 * takes it exclusively, which allows fewer interleavings of lookups with each other but the same
 * with inserts.
 */
public final class ExtentMapTree {
    /** {@code lock}. */
    public final Spinlock lock;
    /** {@code map}: start -> extent map; under {@link #lock}. */
    final TreeMap<Long, ExtentMap> map = new TreeMap<>();
    private int serial;
    private final String name;

    ExtentMapTree(String name) {
        this.name = name;
        this.lock = new Spinlock(name + ".lock");
    }

    /** fs/btrfs/extent_map.c: {@code alloc_extent_map()}: one reference, not in a tree. */
    ExtentMap allocExtentMap() {
        return new ExtentMap(name + ".em" + serial++);
    }

    /**
     * fs/btrfs/extent_map.c: {@code lookup_extent_mapping(tree, start, len)} (v5.10): a map that
     * intersects {@code [start, start + len)}, with a reference, or null. Caller holds {@link #lock}.
     */
    ExtentMap lookupExtentMapping(long start, long len) {
        Spinlock.lockdepAssertHeld(lock);
        long end = start + len;
        Map.Entry<Long, ExtentMap> e = map.floorEntry(start);
        ExtentMap em = null;
        if (e != null && ExtentMap.extentMapEnd(e.getValue()) > start) {
            em = e.getValue();
        } else {
            e = map.ceilingEntry(start);
            if (e != null && e.getKey() < end) {
                em = e.getValue();
            }
        }
        if (em != null) {
            ExtentMap.get(em);
        }
        return em;
    }

    /**
     * fs/btrfs/extent_map.c: {@code add_extent_mapping(tree, em, modified)} (v5.10): insert, taking
     * the tree's reference; {@code -EEXIST} if it overlaps a map already in the tree (merging with
     * neighbours is not modelled). Caller holds {@link #lock}.
     */
    int addExtentMapping(ExtentMap em) {
        Spinlock.lockdepAssertHeld(lock);
        long end = ExtentMap.extentMapEnd(em);
        Map.Entry<Long, ExtentMap> e = map.floorEntry(em.start);
        if (e != null && ExtentMap.extentMapEnd(e.getValue()) > em.start) {
            return -Errno.EEXIST;
        }
        e = map.ceilingEntry(em.start);
        if (e != null && e.getKey() < end) {
            return -Errno.EEXIST;
        }
        ExtentMap.get(em);
        em.inTree = true;
        map.put(em.start, em);
        return 0;
    }

    /**
     * fs/btrfs/extent_map.c: {@code remove_extent_mapping(tree, em)} (v5.10): take {@code em} out of
     * the tree ({@code WARN_ON} if it is pinned: never, the model pins none); the tree's reference
     * is now the caller's to drop. Caller holds {@link #lock}.
     */
    void removeExtentMapping(ExtentMap em) {
        Spinlock.lockdepAssertHeld(lock);
        em.touch();
        map.remove(em.start);
        em.inTree = false;
    }

    /** The maps in the tree, without a scheduling point (checks). */
    public List<ExtentMap> peek() {
        return new ArrayList<>(map.values());
    }

    /** End of run: each map in the tree legitimately holds the tree's reference. */
    public void expectTreeReferences(Lifetimes lifetimes) {
        for (ExtentMap em : map.values()) {
            lifetimes.expect(em, 1, "extent map tree");
        }
    }
}
