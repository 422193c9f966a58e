package kmodel.verification;

import com.google.common.collect.ImmutableList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import kmodel.block.BlockOptions;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.KernelProfile;
import kmodel.mm.FilemapBugs;
import kmodel.mm.MmOptions;
import kmodel.iouring.IoUringBugs;
import kmodel.iouring.IoUringOptions;

/**
 * The kernel versions kmodel can be: {@code --kernel NAME}. Each profile gives every option of
 * {@link KconfigTable#options()} the value that kernel had, and names the catalog bugs that kernel
 * still had (an entry that undoes a later fix is the older kernel's own code).
 *
 * <p>Options that are not kernel code but the size of a world (the wait-table size, the sbitmap
 * wait queues, the io-wq limits, the workload's system call) or a fault injected into it (the
 * btrfs allocation failures) have the same value in every profile. A profile switches only the
 * forms the options cover: all other code is the model's v5.10.13 code in every profile. What a
 * profile cannot make faithful is listed in the README ("Kernel profiles").
 *
 * <p>Version facts, and how each was checked (stored stable-review mails and pull requests):
 * b1b6b5a30dce ("kernel/io_uring: cancel io_uring before task works", v5.11-rc2) is
 * "[PATCH 5.10 21/63]" of the 5.10.5 review; c2407cf7d22d ("mm: make wait_on_page_writeback()
 * wait for multiple pending writebacks") is "[PATCH 5.10 109/145]" of the 5.10.7 review and in
 * 5.10.7-rc2's shortlog; 073861ed77b6 ("mm: fix VM_BUG_ON(PageTail) and BUG_ON(PageWriteback)")
 * is "already in the 5.10 release" (Greg Kroah-Hartman), backported to 5.9.y; 6d816e088c35
 * ("io_uring: hold 'ctx' reference around task_work queue + execute") is dated 11 Aug 2020,
 * after the async buffered reads v2 posting, and was merged for v5.9. v5.10.0's io_uring exit and
 * teardown ({@code v5.10}'s three {@code URING_*} options) were read from the stable patches that
 * replaced them, whose context and removed lines are the code before them: 00c18640c243 ("io_uring:
 * make ctx cancel on exit targeted to actual ctx") and cda286f0715c ("io_uring: cancel reqs shouldnt
 * kill overflow list") are "[PATCH 5.10 521/717]" and "[PATCH 5.10 507/717]" of the 5.10.4-rc1
 * review (Message-Id 20201228125020.963311703@linuxfoundation.org), b1b6b5a30dce "[PATCH 5.10
 * 21/63]" of 5.10.5's; the 5.10.2-rc1 and 5.10.3-rc1 diffstats touch neither fs/io_uring.c nor
 * kernel/exit.c nor fs/file.c. Not checked against a stored v5.10.0 fs/io_uring.c (none was found):
 * whether v5.10.0 flushed the overflow list inside {@code uring_lock} in
 * {@code io_ring_ctx_wait_and_kill()} (the 5.10.4 patches' context, and the model, do).
 */
public final class Profiles {
    private Profiles() {
    }

    /** {@code v5.10}: v5.10.0 exactly. */
    public static final String V5_10 = "v5.10";
    /** {@code v5.10.y}: v5.10 with the stable fixes the model has, up to 5.10.13. The default. */
    public static final String V5_10_Y = "v5.10.y";
    /** {@code v5.9}: v5.9.0, the async buffered reads as merged. */
    public static final String V5_9 = "v5.9";
    /** {@code v5.7}: before the async buffered reads and before the page-wait rewrite. */
    public static final String V5_7 = "v5.7";
    /** {@code seed-000}: btrfs' read-ahead page pool (67c9684f48ea) applied to v3.5. */
    public static final String SEED_000 = "seed-000";
    /** {@code seed-001}: btrfs' bio_clone_fast() direct I/O series, v4.12 to v4.13. */
    public static final String SEED_001 = "seed-001";
    /** {@code seed-002}: the async buffered reads v2 RFC patchset (May 2020) on its v5.7-era base. */
    public static final String SEED_002 = "seed-002";

    /**
     * The default profile: v5.10.y. It is the kernel the model's code follows where it is not
     * switchable: {@code io_async_buf_func()} as in 5.10.13 (io_uring's exit order and ring
     * teardown are switchable: {@link IoUringOptions#URING_CANCEL_AFTER_EXITING} and the two
     * before it, y only in {@code v5.10}); and it is a released kernel with none of the
     * catalog's bugs, so a failure on it is a finding, not a known bug.
     */
    public static final String DEFAULT = V5_10_Y;

    /** Every profile, the default first. */
    public static List<KernelProfile> all() {
        ImmutableList.Builder<KernelProfile> b = ImmutableList.builder();
        // The model's own form: v5.10 as 5.10.13 has it.
        Map<String, Long> v510y = base();
        set(v510y, BlockOptions.REQ_RAHEAD_NOWAIT, 0);
        b.add(new KernelProfile(V5_10_Y, "v5.10.13",
                "v5.10 with the stable fixes the model has, up to 5.10.13 (b1b6b5a30dce in 5.10.5, c2407cf7d22d in 5.10.7)",
                v510y, Set.of()));
        // v5.10.0's io_uring exit and teardown: the three forms 5.10.4 and 5.10.5 replaced.
        Map<String, Long> v510 = new TreeMap<>(v510y);
        set(v510, IoUringOptions.URING_CLOSE_CANCEL_ALL, 1);
        set(v510, IoUringOptions.URING_FORCE_FLUSH_DROPS, 1);
        set(v510, IoUringOptions.URING_CANCEL_AFTER_EXITING, 1);
        b.add(new KernelProfile(V5_10, "v5.10",
                "v5.10.0: wait_on_page_writeback() waits once (c2407cf7d22d came in 5.10.7); io_uring's exit cancels "
                        + "after PF_EXITING (b1b6b5a30dce: 5.10.5), ring close sets io-wq's cancel bit for good "
                        + "(00c18640c243: 5.10.4), the exit's forced overflow flush drops CQEs from then on (cda286f0715c: 5.10.4)",
                v510, Set.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE)));
        Map<String, Long> v59 = new TreeMap<>(v510y);
        set(v59, MmOptions.READ_PATH_V59, 1);
        b.add(new KernelProfile(V5_9, "v5.9",
                "v5.9.0: async buffered reads as merged; no 324bcf54c449; end_page_writeback() without a page reference",
                v59, Set.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE, FilemapBugs.END_WRITEBACK_NO_PAGE_REF)));
        Map<String, Long> v57 = new TreeMap<>(v59);
        set(v57, MmOptions.ASYNC_BUFFERED_READS, 0);
        set(v57, MmOptions.READAHEAD_NOWAIT, 0);
        set(v57, MmOptions.PAGE_WAIT_V57, 1);
        // btrfs' ->readahead came in v5.8 ("btrfs: Convert from readpages to readahead", v11 of
        // the series posted to akpm on 14 Apr 2020): v5.7 still has the 16-page pool.
        set(v57, BtrfsOptions.BTRFS_READPAGES, BtrfsOptions.READPAGES_PAGEPOOL);
        b.add(new KernelProfile(V5_7, "v5.7",
                "v5.7: no async buffered reads, the page wait before 2a9127fcf229 (the waiter re-tests the bit)",
                v57, Set.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE)));
        Map<String, Long> s2 = new TreeMap<>(v57);
        set(s2, MmOptions.ASYNC_BUFFERED_READS, 1);
        set(s2, MmOptions.READAHEAD_NOWAIT, 1);
        set(s2, BlockOptions.REQ_RAHEAD_NOWAIT, 1);
        b.add(new KernelProfile(SEED_002, "v5.7",
                "seed 002: async buffered reads v2 RFC (May 2020; REQ_RAHEAD implies REQ_NOWAIT) on its v5.7-era base; "
                        + "io_async_buf_func() without 6d816e088c35's ctx reference",
                s2, Set.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE, IoUringBugs.URING_NO_CTX_REF)));
        Map<String, Long> s1 = new TreeMap<>(v57);
        set(s1, BtrfsOptions.BTRFS_DIO_CLONE, BtrfsOptions.DIO_CLONE_FAST);
        b.add(new KernelProfile(SEED_001, "v4.13",
                "seed 001: btrfs bio_clone_fast() + bio_trim() for direct I/O (v4.12 -> v4.13); read-ahead pagepool",
                s1, Set.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE)));
        Map<String, Long> s0 = new TreeMap<>(s1);
        set(s0, BtrfsOptions.BTRFS_DIO_CLONE, BtrfsOptions.DIO_CLONE_BIOSET);
        b.add(new KernelProfile(SEED_000, "v3.5",
                "seed 000: btrfs read-ahead pagepool[16] (67c9684f48ea, v3.6) applied to v3.5",
                s0, Set.of(FilemapBugs.WAIT_ON_PAGE_WRITEBACK_ONCE)));
        return b.build();
    }

    /** The profile named {@code name}, or null. */
    public static KernelProfile find(String name) {
        for (KernelProfile p : all()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    /**
     * The profile named {@code name}.
     *
     * @throws IllegalArgumentException with one line naming the known profiles
     */
    public static KernelProfile get(String name) {
        KernelProfile p = find(name);
        if (p == null) {
            throw new IllegalArgumentException("--kernel: unknown profile '" + name + "' (known: " + names() + ")");
        }
        return p;
    }

    /** The default profile ({@link #DEFAULT}). */
    public static KernelProfile defaultProfile() {
        return get(DEFAULT);
    }

    /** The profiles' names, comma-separated, the default first. */
    public static String names() {
        StringBuilder sb = new StringBuilder();
        for (KernelProfile p : all()) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(p.name());
        }
        return sb.toString();
    }

    /**
     * What kind of setting {@code o} is: {@code code} (a kernel version's code: the profiles set
     * it), {@code size} (a kernel constant or limit a check may shrink), {@code fault} (an injected
     * failure), {@code workload} (the system call a scenario makes) or {@code candidate} (a fix in
     * no kernel). Only {@code code} options differ between profiles.
     */
    public static String form(KconfigOption o) {
        switch (o.name()) {
            case "WAITQUEUE_WALK_BREAK_CNT":
            case "PAGE_WAIT_TABLE_SIZE":
            case "PAGE_LOCK_UNFAIRNESS":
            case "SBQ_WAIT_QUEUES":
            case "IO_URING_ONLINE_CPUS":
            case "IO_WQ_RLIMIT_NPROC":
                return "size";
            case "BTRFS_PAGEPOOL_NOMEM":
            case "BTRFS_BIO_ALLOC_FAIL":
            case "FAIL_PAGE_ALLOC":
            case "FAIL_MAKE_REQUEST":
                return "fault";
            case "URING_READS":
                return "workload";
            case "PAGE_LOCK_WOKEN_KILLED_TRYLOCK":
                return "candidate";
            default:
                return "code";
        }
    }

    /** Every option at its declared default: the start of each profile. */
    private static Map<String, Long> base() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (KconfigOption o : KconfigTable.options()) {
            m.put(o.name(), o.defaultValue());
        }
        return new TreeMap<>(m);
    }

    private static void set(Map<String, Long> m, KconfigOption o, long v) {
        m.put(o.name(), v);
    }
}
