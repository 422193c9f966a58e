package kmodel.verification.scenarios;

import static kmodel.mm.Page.PAGE_SHIFT;
import static kmodel.mm.Page.PAGE_SIZE;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kmodel.block.BioChecks;
import kmodel.fs.blockdev.Bdev;
import kmodel.fs.blockdev.BlockFile;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Footprinted;
import kmodel.kernel.sched.Sched;
import kmodel.mm.AddressSpace;
import kmodel.mm.File;
import kmodel.mm.Filemap;
import kmodel.mm.FilemapRead;
import kmodel.mm.FilemapWrite;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageFlags;
import kmodel.mm.PageWriteback;
import kmodel.mm.WritebackControl;
import kmodel.sim.world.Texts;

/**
 * The world of the write-path scenarios: a regular file laid out on a block device
 * ({@link BlockFile}: {@code block_write_begin()}/{@code generic_write_end()} writes,
 * {@code block_write_full_page()} writeback, bios completing in interrupt context), written with
 * {@code generic_file_write_iter()}, read with {@code generic_file_read_iter()}, flushed with
 * {@code filemap_write_and_wait_range()} and friends, and truncated under {@code i_rwsem}.
 *
 * <h2>What the data checks allow</h2>
 * Every write fills whole pages with one byte value, so each page's contents are a
 * <em>version</em>: {@code d} (the device's initial bytes), {@code 0} (zeros: a hole or a page
 * past EOF) or {@code vN} (all bytes N); anything else is {@code torn} and a
 * {@code data-corruption}. A reader must get a version some sequential order of the operations
 * allows for that page (the scenario says which); at the end the cache holds the last write's
 * version, and the device holds it too unless the page is still dirty (nobody waited for it).
 * {@link #fsync} checks the data-integrity promise on return: every page that was dirty when it
 * was called is on the device with a version at least as new as the one it saw.
 */
final class WriteWorld {
    final Bdev bdev;
    final BlockFile bf;
    final File file;
    /** The device's initial bytes of each page of the file (set-up, no scheduling point). */
    private final byte[][] initial;
    /** What each task's operations returned, by task, in order (see {@link ReadWorld#results}). */
    final Map<String, List<String>> results = new TreeMap<>();
    /** A page a scenario holds a reference to from its set-up (a pin), or null. */
    Page pinned;
    /**
     * The version of each page's last write that has returned ({@code write(2)} done), or null:
     * what an {@code fsync} called afterwards must find on the device (or a later version).
     * Recorded by the writer after its write returns, so it never claims too much.
     */
    private final String[] committed;
    /**
     * Names {@link #committed} for the partial-order reduction: the writer's record and fsync's
     * reading of it are reported ({@code Kernel.access}, {@code Kernel.accessRead}), so the two
     * orders of "the write returned" and "fsync started" are both explored (the footprint audit
     * found them unreported: the check fsync makes depends on that order).
     */
    private final Footprinted committedRecord = new Footprinted() { };
    /** Tasks whose fsync returned 0 with a page behind on the device after an injected write error ({@link #lostWrite}). */
    private final List<String> staleFsync = new ArrayList<>();

    /** A file of {@code filePages} pages on a device of {@code diskPages}, read-ahead {@code ra}. */
    WriteWorld(int diskPages, int filePages, int ra) {
        this(diskPages, (long) filePages << PAGE_SHIFT, ra);
    }

    /** A file of {@code fileBytes} bytes (it may end inside a page) on a device of {@code diskPages}, read-ahead {@code ra}. */
    WriteWorld(int diskPages, long fileBytes, int ra) {
        bdev = Bdev.create(diskPages, 2, ra);
        bf = BlockFile.create(bdev, "file", fileBytes);
        file = bf.open();
        initial = new byte[diskPages][PAGE_SIZE];
        committed = new String[diskPages];
        for (int i = 0; i < diskPages; i++) {
            bdev.disk.copyOut((long) i << PAGE_SHIFT, initial[i], 0, PAGE_SIZE);
        }
    }

    AddressSpace mapping() {
        return bf.mapping();
    }

    /** Puts page {@code index} in the cache (set-up only): the device's bytes, or all {@code v} and dirty if {@code v >= 0}. */
    WriteWorld cached(long index, int v) {
        Page p = PageCache.pageCacheAlloc(mapping());
        if (v >= 0) {
            Arrays.fill(p.data, (byte) v);
        } else {
            System.arraycopy(initial[(int) index], 0, p.data, 0, PAGE_SIZE);
        }
        PageCache.addToPageCacheLru(p, mapping(), index);
        PageFlags.SetPageUptodate(p);
        if (v >= 0) {
            PageWriteback.setPageDirty(p);
            Kernel.access(committedRecord);
            committed[(int) index] = "v" + v;
        }
        Filemap.unlockPage(p);
        Page.putPage(p);
        return this;
    }

    /**
     * Starts writeback of the cached dirty page {@code index} (set-up only): as
     * {@code write_cache_pages()} would, lock it, {@code clear_page_dirty_for_io()},
     * {@code ->writepage} (which submits the bio and unlocks); its completion is left to the run.
     */
    WriteWorld writingBack(long index) {
        Page p = PageCache.findLockPage(mapping(), index);
        PageWriteback.clearPageDirtyForIo(p);
        mapping().aOps.writepage(p, new WritebackControl(WritebackControl.WB_SYNC_NONE, 0, WritebackControl.LLONG_MAX));
        Page.putPage(p);
        return this;
    }

    /**
     * Puts page {@code index} in the cache not uptodate and unlocked (set-up only): the state a
     * failed read leaves it in ({@code end_buffer_async_read()} sets {@code PG_error} and unlocks
     * it without {@code PG_uptodate}); the device error is gone, so a retry reads it.
     */
    WriteWorld cachedNotUptodate(long index) {
        Page p = PageCache.pageCacheAlloc(mapping());
        PageCache.addToPageCacheLru(p, mapping(), index);
        PageFlags.SetPageError(p);
        Filemap.unlockPage(p);
        Page.putPage(p);
        return this;
    }

    /**
     * {@code write(2)} of {@code len} bytes of value {@code v} at byte {@code pos}: a write that
     * may cover part of a page only, and may extend the file. Returns the count.
     */
    long writeBytes(long pos, int len, int v) {
        byte[] b = new byte[len];
        Arrays.fill(b, (byte) v);
        long ret = bf.write(file, pos, b);
        Kernel.event("write(%s, %s) = %s", pos, len + " bytes v" + v, Errno.name(ret));
        result("w" + pos + "+" + len + "=" + Errno.name(ret));
        return ret;
    }

    /** The version of a page's bytes: {@code d}, {@code 0}, {@code vN} or {@code torn}. */
    String version(long index, byte[] buf, int off) {
        byte[] d = index < initial.length ? initial[(int) index] : null;
        if (d != null && Arrays.equals(buf, off, off + PAGE_SIZE, d, 0, PAGE_SIZE)) {
            return "d";
        }
        byte b = buf[off];
        for (int i = 1; i < PAGE_SIZE; i++) {
            if (buf[off + i] != b) {
                return "torn";
            }
        }
        return b == 0 ? "0" : "v" + b;
    }

    /** The version page {@code index} has on the device now (no scheduling point). */
    String diskVersion(long index) {
        byte[] buf = new byte[PAGE_SIZE];
        bdev.disk.copyOut(index << PAGE_SHIFT, buf, 0, PAGE_SIZE);
        return version(index, buf, 0);
    }

    /** The cached page's version, or {@code -} if it is not cached (no scheduling point). */
    String cacheVersion(long index) {
        Page p = mapping().peekPage(index);
        return p == null ? "-" : version(index, p.data, 0);
    }

    /** Whether the cached page at {@code index} is dirty now (no scheduling point). */
    boolean dirty(long index) {
        Page p = mapping().peekPage(index);
        return p != null && (p.flags.peek() & (1L << PageFlags.PG_dirty)) != 0;
    }

    /** {@code write(2)} of page {@code index}, every byte {@code v}. */
    long write(long index, int v) {
        byte[] b = new byte[PAGE_SIZE];
        Arrays.fill(b, (byte) v);
        long ret = bf.write(file, index << PAGE_SHIFT, b);
        Kernel.event("write(page %s, v%s) = %s", index, v, Errno.name(ret));
        if (ret == PAGE_SIZE) {
            Kernel.access(committedRecord);
            committed[(int) index] = "v" + v;
        }
        result("w" + v + "=" + Errno.name(ret));
        return ret;
    }

    /**
     * {@code write(2)} of {@code n} pages from page {@code index}, every byte {@code v}: one
     * {@code generic_perform_write()} over several pages (a failed {@code ->write_begin} after the
     * first page makes it short). Pages it wrote whole are recorded as committed.
     */
    long writePages(long index, int n, int v) {
        byte[] b = new byte[n * PAGE_SIZE];
        Arrays.fill(b, (byte) v);
        long ret = bf.write(file, index << PAGE_SHIFT, b);
        Kernel.event("write(page %s, %s pages) = %s", index, n, Errno.name(ret));
        if (ret > 0) {
            Kernel.access(committedRecord);
            for (long i = 0; i < ret / PAGE_SIZE; i++) {
                committed[(int) (index + i)] = "v" + v;
            }
        }
        result("w" + v + "=" + Errno.name(ret));
        return ret;
    }

    /**
     * Whether fault injection ({@code FAIL_MAKE_REQUEST}, {@code FAIL_PAGE_ALLOC}) has failed a
     * bio or a page allocation in this execution (a read may then fail or be short).
     */
    boolean faultInjected() {
        return bdev.layer.failMakeRequest.injected() > 0 || mapping().allocator.failPageAlloc.injected() > 0;
    }

    /** {@code read(2)} of {@code n} pages from page {@code index}: the versions it got, e.g. {@code r=d,v1}. */
    long read(long index, int n) {
        IovIter iter = new IovIter(n * PAGE_SIZE);
        kmodel.kernel.Kernel.accessRead(file.fInode.iSize); // a read of i_size, reported (footprint audit)
        long size = file.fInode.iSize.plain();
        long ret = FilemapRead.genericFileReadIter(new Kiocb(file, index << PAGE_SHIFT, 0), iter);
        Kernel.event("read(page %s, %s pages) = %s", index, n, Errno.name(ret));
        kmodel.sim.world.Contracts.readCount("read", file, index << PAGE_SHIFT, n * PAGE_SIZE, 0, ret, size, p -> faultInjected());
        if (ret < 0) {
            result("r=" + Errno.name(ret));
            return ret;
        }
        Kernel.BUG_ON(ret % PAGE_SIZE != 0, "read returned " + ret + " bytes of a whole-page file");
        List<String> got = new ArrayList<>();
        for (int i = 0; i < ret / PAGE_SIZE; i++) {
            String v = version(index + i, iter.buf, i * PAGE_SIZE);
            if (v.equals("torn")) {
                Kernel.fail(ViolationKind.DATA_CORRUPTION, "read of page " + (index + i) + " returned torn bytes");
            }
            got.add(v);
        }
        result("r=" + (got.isEmpty() ? "-" : Texts.join(",", got)));
        return ret;
    }

    /**
     * {@code read(2)} of {@code len} bytes at byte {@code pos}, for a file that may end inside a
     * page: the read-count contract, and each byte returned is the device's. Returns the count.
     */
    long readBytes(long pos, int len) {
        IovIter iter = new IovIter(len);
        kmodel.kernel.Kernel.accessRead(file.fInode.iSize); // a read of i_size, reported (footprint audit)
        long size = file.fInode.iSize.plain();
        long ret = FilemapRead.genericFileReadIter(new Kiocb(file, pos, 0), iter);
        Kernel.event("read(%s, %s) = %s", pos, len, Errno.name(ret));
        kmodel.sim.world.Contracts.readCount("read", file, pos, len, 0, ret, size, p -> faultInjected());
        if (ret > 0) {
            bdev.expectBytes(pos, iter.buf, 0, (int) ret);
        }
        result("r" + pos + "=" + Errno.name(ret));
        return ret;
    }

    /** {@code filemap_flush()}: WB_SYNC_NONE writeback of the file, no waiting. */
    int flush() {
        int ret = FilemapWrite.filemapFlush(mapping());
        result("flush=" + Errno.name(ret));
        return ret;
    }

    /** {@code filemap_fdatawrite()}: WB_SYNC_ALL writeback started, not waited for. */
    int fdatawrite() {
        int ret = FilemapWrite.filemapFdatawrite(mapping());
        result("fdatawrite=" + Errno.name(ret));
        return ret;
    }

    /** {@code filemap_fdatawait_range()} of the whole file: wait for the writeback under way. */
    int fdatawait() {
        int ret = FilemapWrite.filemapFdatawaitRange(mapping(), 0, WritebackControl.LLONG_MAX);
        result("fdatawait=" + Errno.name(ret));
        return ret;
    }

    /**
     * {@code filemap_write_and_wait()} of the whole file, then the data-integrity check: for each
     * of the first {@code pages} pages, the last write that had returned when this was called
     * is on the device, or a later one ({@code newer} lists the versions in the order the
     * scenario writes them). A write still in progress when fsync is called promises nothing.
     */
    int fsync(int pages, String... newer) {
        String[] before = new String[pages];
        Kernel.accessRead(committedRecord);
        for (int i = 0; i < pages; i++) {
            before[i] = committed[i];
        }
        int ret = FilemapWrite.filemapWriteAndWait(mapping());
        result("fsync=" + Errno.name(ret));
        if (ret == -Errno.EIO && bdev.layer.failMakeRequest.injected() > 0) {
            /* A write failed (fail_make_request) and fsync said so: it promises nothing more. */
            return ret;
        }
        for (int i = 0; i < pages; i++) {
            if (before[i] == null) {
                continue;
            }
            String disk = diskVersion(i);
            if (!disk.equals(before[i]) && !laterThan(disk, before[i], newer) && !lostWrite(i)) {
                Kernel.fail(ViolationKind.DATA_CORRUPTION, "fsync returned " + Errno.name(ret) + " but page " + i
                        + " is " + disk + " on the device, older than the " + before[i] + " it had to write");
            }
        }
        return ret;
    }

    /**
     * Whether page {@code index}, found behind on the device by an fsync that returned 0, may be
     * a lost async page write: {@code fail_make_request} failed a bio in this execution. Its
     * error went to {@code mapping_set_error()}, and {@code filemap_check_errors()} reports an
     * {@code AS_EIO} once, to whichever caller tests it first (the model's fsync is
     * {@code filemap_write_and_wait()}, without errseq); so the fsync is let pass here and
     * {@link #expectWriteErrorsNotLost} requires at the end that another caller got the
     * {@code -EIO} ({@code staleFsync} records the case).
     */
    private boolean lostWrite(long index) {
        if (bdev.layer.failMakeRequest.injected() == 0) {
            return false;
        }
        Kernel.event("fsync: page %s behind on the device after an injected write error (reported elsewhere?)", index);
        staleFsync.add(Sched.current().name());
        return true;
    }

    private static boolean laterThan(String v, String than, String[] order) {
        int a = -1;
        int b = -1;
        for (int i = 0; i < order.length; i++) {
            if (order[i].equals(v)) {
                a = i;
            }
            if (order[i].equals(than)) {
                b = i;
            }
        }
        return a >= 0 && b >= 0 && a > b;
    }

    /** {@code truncate(2)} to {@code pages} pages. */
    void truncate(int pages) {
        bf.truncate((long) pages << PAGE_SHIFT);
        result("truncate=" + pages);
    }

    /** {@code truncate(2)} to {@code bytes} bytes, which may end inside a page (a partial page). */
    void truncateBytes(long bytes) {
        bf.truncate(bytes);
        result("truncate=" + bytes + "B");
    }

    /**
     * End-of-run checks: the page cache's invariants and references, no page locked, dirty
     * without its mark, or still under writeback; every request tag free; the wait table sane;
     * pages past {@code i_size} hold zeros; and every clean cached page is on the device as it
     * is in the cache.
     */
    void check() {
        bdev.checkAtEnd();
        PageCache.checkInvariants(mapping());
        PageCache.expectCacheReferences(mapping(), Kernel.lifetimes());
        BioChecks.checkQueueQuiescent(bdev.queue());
        mapping().allocator.waitTable().checkInvariants();
        kmodel.kernel.Kernel.accessRead(bf.inode.iSize); // a read of i_size, reported (footprint audit)
        long size = bf.inode.iSize.plain();
        for (Page p : mapping().peekPages()) {
            long f = p.flags.peek();
            if ((f & (1L << PageFlags.PG_writeback)) != 0 || mapping().peekTaggedWriteback(p.index)) {
                Kernel.fail(ViolationKind.BUG_ON, p.describe() + " is still under writeback at the end ("
                        + PageWriteback.describeTags(mapping(), p.index) + ")");
            }
            boolean dirty = (f & (1L << PageFlags.PG_dirty)) != 0;
            if (dirty && !mapping().peekTaggedDirty(p.index)) {
                Kernel.fail(ViolationKind.BUG_ON, p.describe() + " is dirty without PAGECACHE_TAG_DIRTY");
            }
            if ((f & (1L << PageFlags.PG_uptodate)) == 0) {
                continue;
            }
            long pos = p.index << PAGE_SHIFT;
            if (pos < size && size < pos + PAGE_SIZE) {
                /* i_size ends inside this page: only its bytes before i_size are the file's */
                int n = (int) (size - pos);
                byte[] disk = new byte[PAGE_SIZE];
                bdev.disk.copyOut(pos, disk, 0, PAGE_SIZE);
                if (!dirty && !Arrays.equals(p.data, 0, n, disk, 0, n)) {
                    Kernel.fail(ViolationKind.DATA_CORRUPTION, "clean " + p.describe() + " differs from the device before i_size " + size);
                }
                continue;
            }
            String v = version(p.index, p.data, 0);
            if ((p.index << PAGE_SHIFT) >= size && !v.equals("0")) {
                Kernel.fail(ViolationKind.DATA_CORRUPTION, p.describe() + " lies past i_size " + size + " but holds " + v);
            }
            /*
             * A lost async page write (end_buffer_async_write(), a bio failed by
             * fail_make_request) leaves the page clean and uptodate, the device behind it: the
             * kernel's behaviour; the error goes to mapping_set_error() (its PG_error is
             * cleared again by __filemap_fdatawait_range(), so it does not say which page).
             */
            boolean lostWrite = bdev.layer.failMakeRequest.injected() > 0;
            if ((p.index << PAGE_SHIFT) < size && !dirty && !lostWrite && !v.equals(diskVersion(p.index))) {
                Kernel.fail(ViolationKind.DATA_CORRUPTION, "clean " + p.describe() + " holds " + v + " but the device "
                        + diskVersion(p.index));
            }
        }
    }

    /**
     * A check of the fault scenarios: a write error is not lost. When {@code fail_make_request}
     * failed a bio (the scenario's bios are all writes), some {@code fsync}
     * ({@code filemap_write_and_wait()}) or {@code filemap_fdatawait_range()} returned
     * {@code -EIO}, or {@code AS_EIO} is still set for the next one
     * ({@code mapping_set_error()} / {@code filemap_check_errors()}, v5.10); else
     * {@code wrong-result}.
     */
    void expectWriteErrorsNotLost() {
        if (bdev.layer.failMakeRequest.injected() == 0) {
            return;
        }
        List<String> told = new ArrayList<>();
        results.forEach((task, rs) -> {
            if (rs.contains("fsync=-EIO") || rs.contains("fdatawait=-EIO")) {
                told.add(task);
            }
        });
        for (String task : staleFsync) {
            if (told.isEmpty() || told.equals(List.of(task))) {
                Kernel.fail(ViolationKind.DATA_CORRUPTION, task + "'s fsync returned 0 with a page behind on the device, and "
                        + "no other task was told of the write error");
            }
        }
        if (told.isEmpty() && (mapping().flags.peek() & (1L << AddressSpace.AS_EIO)) == 0) {
            Kernel.fail(ViolationKind.WRONG_RESULT, "write error lost: fail_make_request failed a write bio, but no fsync or "
                    + "fdatawait returned -EIO and AS_EIO is clear");
        }
    }

    /** A check of the scenario's own: page {@code index} must be {@code want} in the cache. */
    void expectCache(long index, String want) {
        String v = cacheVersion(index);
        if (!v.equals(want)) {
            Kernel.fail(ViolationKind.DATA_CORRUPTION, "page " + index + " is " + v + " in the cache, expected " + want);
        }
    }

    /** A check of the scenario's own: page {@code index} must be {@code want} on the device. */
    void expectDisk(long index, String want) {
        String v = diskVersion(index);
        if (!v.equals(want)) {
            Kernel.fail(ViolationKind.DATA_CORRUPTION, "page " + index + " is " + v + " on the device, expected " + want);
        }
    }

    private void result(String r) {
        results.computeIfAbsent(Sched.current().name(), k -> new ArrayList<>()).add(r);
    }

    /** Each task's results, then the end state: {@code reader=r=d writer=w1=4096 | cache=v1 disk=v1}. */
    String outcome() {
        StringBuilder sb = new StringBuilder();
        results.forEach((task, rs) -> sb.append(sb.length() == 0 ? "" : " ").append(task).append('=')
                .append(Texts.join(",", rs)));
        sb.append(" |");
        kmodel.kernel.Kernel.accessRead(bf.inode.iSize); // a read of i_size, reported (footprint audit)
        long pages = Math.max(bf.inode.iSize.plain() >> PAGE_SHIFT, mapping().peekPages().isEmpty() ? 0
                : mapping().peekPages().get(mapping().peekPages().size() - 1).index + 1);
        for (long i = 0; i < pages; i++) {
            sb.append(" p").append(i).append('=').append(cacheVersion(i)).append(dirty(i) ? "*" : "").append('/')
                    .append(diskVersion(i));
        }
        return sb.toString();
    }
}
