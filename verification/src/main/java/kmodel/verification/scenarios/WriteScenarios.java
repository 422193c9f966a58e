package kmodel.verification.scenarios;

import static kmodel.mm.Page.PAGE_SIZE;

import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageWriteback;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Scenarios of the write path (mm/filemap.c, mm/page-writeback.c, mm/truncate.c, fs/buffer.c,
 * v5.10) over a file laid out on a block device ({@link WriteWorld}): writers, readers,
 * writeback and truncation racing on the same pages, with writeback completing in interrupt
 * context in every order the explorer picks. The end checks are {@link WriteWorld#check} and
 * each scenario's own: what the cache and the device may hold.
 */
public final class WriteScenarios {
    private WriteScenarios() {
    }

    /** Registers the write-path scenarios of the default run. */
    public static void registerAll(ScenarioSet r) {
        r.register(writeReadWriteback());
        r.register(fsyncRedirty());
        r.register(truncateRead());
        r.register(truncateWriteback());
        r.register(truncateWritebackPinned());
        r.register(writeTwoWriters());
        r.register(readEofPartial());
    }

    /** Registers the larger write-path scenarios (not run by default). */
    public static void registerLarge(ScenarioSet r) {
        r.register(fsyncRedirtyWait());
        r.register(fsyncRedirty2());
        r.register(writeRedirtyFsync());
        r.register(writeReadWritebackUncached());
        r.register(truncateWriteback2());
        r.register(writeFlush());
        r.register(truncatePartial());
        r.register(writePartialPage());
        r.register(readRetryTruncate());
        r.register(readEmptyAppend());
        r.register(truncateLockedPage());
    }

    /**
     * {@code write-read-writeback}: a writer replaces the one (cached) page of a file and fsyncs
     * it (writeback and the wait for it) while a reader reads the page. The reader gets the old
     * or the new page; the cache and the device end with the new one.
     */
    static Scenario<WriteWorld> writeReadWriteback() {
        return Scenario.<WriteWorld>named("write-read-writeback",
                "a write and its fsync race a read of the same cached page of a file on a block device")
                .setup(() -> new WriteWorld(1, 1, 0).cached(0, -1))
                .task("writer", w -> {
                    w.write(0, 1);
                    w.fsync(1, "d", "v1");
                })
                .task("reader", w -> w.read(0, 1))
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v1");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code write-read-writeback-uncached}: the page is not cached: a writer, a reader (whose
     * read goes to the device) and a flusher (WB_SYNC_NONE) race on it. Large.
     */
    static Scenario<WriteWorld> writeReadWritebackUncached() {
        return Scenario.<WriteWorld>named("write-read-writeback-uncached",
                "a write, a read and background writeback race on one uncached page of a file on a block device")
                .setup(() -> new WriteWorld(1, 1, 0))
                .task("writer", w -> w.write(0, 1))
                .task("reader", w -> w.read(0, 1))
                .task("flusher", WriteWorld::flush)
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v1");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code fsync-redirty}: a page (v1) is under writeback, its bio in flight, when the run
     * starts. A writer redirties it (v2) and fsyncs ({@code filemap_write_and_wait_range()}:
     * WB_SYNC_ALL waits for the writeback under way, writes the page again and waits for that),
     * racing the end of the first writeback in interrupt context. The fsync must find v2 on the
     * device when it returns: a wake-up left over from the first writeback must not end its wait
     * for the second (c2407cf7d22d).
     */
    static Scenario<WriteWorld> fsyncRedirty() {
        return Scenario.<WriteWorld>named("fsync-redirty",
                "a writer redirties a page under writeback and fsyncs while the first writeback ends")
                .setup(() -> new WriteWorld(1, 1, 0).cached(0, 1).writingBack(0))
                .task("writer", w -> {
                    w.write(0, 2);
                    w.fsync(1, "v1", "v2");
                })
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v2");
                    w.expectDisk(0, "v2");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code fsync-redirty-wait}: {@code fsync-redirty} while a second task waits for the file's
     * writeback ({@code filemap_fdatawait_range()}). Large.
     */
    static Scenario<WriteWorld> fsyncRedirtyWait() {
        return Scenario.<WriteWorld>named("fsync-redirty-wait",
                "a writer redirties a page under writeback and fsyncs while another task waits for the file's writeback")
                .setup(() -> new WriteWorld(1, 1, 0).cached(0, 1).writingBack(0))
                .task("writer", w -> {
                    w.write(0, 2);
                    w.fsync(1, "v1", "v2");
                })
                .task("waiter", WriteWorld::fdatawait)
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v2");
                    w.expectDisk(0, "v2");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code fsync-redirty-2}: as {@code fsync-redirty}, the other task calling
     * {@code filemap_write_and_wait_range()} (it may write the page itself). Large.
     */
    static Scenario<WriteWorld> fsyncRedirty2() {
        return Scenario.<WriteWorld>named("fsync-redirty-2",
                "a writer redirties a page under writeback and fsyncs while another task fsyncs the file")
                .setup(() -> new WriteWorld(1, 1, 0).cached(0, 1).writingBack(0))
                .task("writer", w -> {
                    w.write(0, 2);
                    w.fsync(1, "v1", "v2");
                })
                .task("syncer", w -> w.fsync(1, "v1", "v2"))
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v2");
                    w.expectDisk(0, "v2");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code write-redirty-fsync}: as {@code fsync-redirty}, with the first write and the start
     * of its writeback ({@code filemap_fdatawrite()}) in the writer's task too (the page starts
     * clean). Large.
     */
    static Scenario<WriteWorld> writeRedirtyFsync() {
        return Scenario.<WriteWorld>named("write-redirty-fsync",
                "a writer writes, starts writeback, redirties the page and fsyncs while another task fsyncs the file")
                .setup(() -> new WriteWorld(1, 1, 0).cached(0, -1))
                .task("writer", w -> {
                    w.write(0, 1);
                    w.fdatawrite();
                    w.write(0, 2);
                    w.fsync(1, "d", "v1", "v2");
                })
                .task("syncer", w -> w.fsync(1, "d", "v1", "v2"))
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v2");
                    w.expectDisk(0, "v2");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code truncate-read}: a reader reads both cached pages of a two-page file while it is
     * truncated to one page. The reader gets both pages as they were, or only the first; a page
     * it instantiates past the new end holds zeros.
     */
    static Scenario<WriteWorld> truncateRead() {
        return Scenario.<WriteWorld>named("truncate-read",
                "a read of a two-page file races its truncation to one page (pages cached)")
                .setup(() -> new WriteWorld(2, 2, 0).cached(0, -1).cached(1, -1))
                .task("reader", w -> w.read(0, 2))
                .task("truncate", w -> w.truncate(1))
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "d");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code truncate-writeback}: the one page of a file is dirty; {@code fsync} writes it back
     * and waits while the file is truncated to nothing (truncation waits for the writeback of a
     * page it finds under way; fsync's wait holds a reference, so the page outlives it). The page
     * ends gone from the cache, written or not; fsync promises nothing for a truncated page.
     */
    static Scenario<WriteWorld> truncateWriteback() {
        return Scenario.<WriteWorld>named("truncate-writeback",
                "fsync of a file's one dirty page races its truncation to nothing")
                .setup(() -> new WriteWorld(1, 1, 0).cached(0, 1))
                .task("syncer", w -> w.fsync(0))
                .task("truncate", w -> w.truncate(0))
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "-");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code truncate-writeback-2}: as {@code truncate-writeback} with two dirty pages and
     * truncation to one: the first page must end on the device. Large.
     */
    static Scenario<WriteWorld> truncateWriteback2() {
        return Scenario.<WriteWorld>named("truncate-writeback-2",
                "fsync of a file with two dirty pages races its truncation to one page")
                .setup(() -> new WriteWorld(2, 2, 0).cached(0, 1).cached(1, 1))
                .task("syncer", w -> w.fsync(1, "v1"))
                .task("truncate", w -> w.truncate(1))
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v1");
                    w.expectCache(1, "-");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code truncate-writeback-pinned}: the one page of a file is dirty and pinned (a reference
     * taken at set-up, as {@code get_user_pages()} takes it for a direct read into a buffer that
     * maps the page). Writeback is started ({@code filemap_fdatawrite()}) while the file is
     * truncated to nothing, after which the direct read completes: the page is redirtied with
     * {@code set_page_dirty_lock()} and unpinned, as {@code bio_check_pages_dirty()} does. A page
     * redirtied after its truncation is dirty with no mapping: writeback, which may have found it
     * before the truncation, must see {@code page->mapping != mapping} after its lock and skip it.
     */
    static Scenario<WriteWorld> truncateWritebackPinned() {
        return Scenario.<WriteWorld>named("truncate-writeback-pinned",
                "writeback of a dirty pinned page races truncation and the pin's set_page_dirty_lock()")
                .setup(() -> {
                    WriteWorld w = new WriteWorld(1, 1, 0).cached(0, 1);
                    w.pinned = PageCache.findGetPage(w.mapping(), 0);
                    return w;
                })
                .task("syncer", WriteWorld::fdatawrite)
                .task("truncate", w -> {
                    w.truncate(0);
                    /* the direct read into the pinned page completes */
                    PageWriteback.setPageDirtyLock(w.pinned);
                    Page.putPage(w.pinned);
                })
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "-");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code write-flush}: background writeback ({@code filemap_flush()}: {@code WB_SYNC_NONE},
     * the whole file) of a file whose page 0 is dirty (v1) and whose page 1 is under writeback
     * (v2, its bio in flight when the run starts) and dirtied again (v3) by the flusher's own
     * write just before, while the first writeback ends in interrupt context. WB_SYNC_NONE
     * skips a page under writeback instead of waiting for it ({@code write_cache_pages()}'s
     * {@code continue_unlock}), so page 1 stays dirty or is written, by when the bio completes;
     * {@code filemap_fdatawait_range()} then waits for what was started. Checked: the end state
     * (no page left under writeback or dirty without its tag; a clean page is on the device as
     * cached), and page 0 on the device as v1. Within preemption bound 1 by default (bound 3:
     * 295,855 executions).
     */
    static Scenario<WriteWorld> writeFlush() {
        return Scenario.<WriteWorld>named("write-flush",
                "filemap_flush() (WB_SYNC_NONE) of a dirty page and a redirtied page under writeback, racing its end")
                .autoBound(1)
                .setup(() -> new WriteWorld(2, 2, 0).cached(0, 1).cached(1, 2).writingBack(1))
                .task("flusher", w -> {
                    w.write(1, 3);
                    w.flush();
                    w.fdatawait();
                })
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v1");
                    w.expectDisk(0, "v1");
                    w.expectCache(1, "v3");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code write-two-writers}: two {@code write(2)}s of the same cached page contend for
     * {@code i_rwsem} ({@code inode_lock()} in {@code generic_file_write_iter()}): the second
     * sleeps in {@code rwsem_down_write_slowpath()} and is woken by the first's
     * {@code up_write()} ({@code rwsem_wake()}); the second writer then starts writeback
     * ({@code filemap_fdatawrite()}) and waits for it. The page ends with one writer's bytes,
     * whole (a torn page is {@code data-corruption}). No fsync data check: with two writers,
     * which version an fsync must find depends on when each write's bytes landed, which the
     * world's record of returned writes cannot tell. Within preemption bound 1 by default
     * (bound 3: 179,792 executions).
     */
    static Scenario<WriteWorld> writeTwoWriters() {
        return Scenario.<WriteWorld>named("write-two-writers",
                "two write(2)s of one cached page contend for i_rwsem")
                .autoBound(1)
                .setup(() -> new WriteWorld(1, 1, 0).cached(0, -1))
                .task("w1", w -> w.write(0, 1))
                .task("w2", w -> {
                    w.write(0, 2);
                    w.fdatawrite();
                    w.fdatawait();
                })
                .atEnd(w -> {
                    w.check();
                    String v = w.cacheVersion(0);
                    if (!v.equals("v1") && !v.equals("v2")) {
                        kmodel.kernel.Kernel.fail(kmodel.kernel.ViolationKind.DATA_CORRUPTION,
                                "page 0 is " + v + " in the cache after two whole-page writes of v1 and v2");
                    }
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code truncate-partial}: a file of two cached pages, page 1 dirty (v1), is truncated to
     * one and a half pages while {@code fsync} writes it back: {@code truncate_inode_pages_range()}
     * (v5.10) with an unaligned start zeroes the tail of the partial page 1 under its lock, after
     * waiting for its writeback ({@code partial_start}), and drops no page. Checked: the end state
     * (a clean page's bytes before {@code i_size} are the device's), page 0 untouched, and that
     * page 1 stays cached. Within preemption bound 1 by default (bound 3: 237,897 executions).
     */
    static Scenario<WriteWorld> truncatePartial() {
        return Scenario.<WriteWorld>named("truncate-partial",
                "fsync of a dirty page races a truncation to the middle of it (a partial page)")
                .autoBound(1)
                .setup(() -> new WriteWorld(2, 2, 0).cached(0, -1).cached(1, 1))
                .task("syncer", w -> w.fsync(0))
                .task("truncate", w -> w.truncateBytes(PAGE_SIZE + PAGE_SIZE / 2))
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "d");
                    if (w.cacheVersion(1).equals("-")) {
                        kmodel.kernel.Kernel.fail(kmodel.kernel.ViolationKind.DATA_CORRUPTION,
                                "page 1 was dropped by a truncation that ends inside it");
                    }
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code read-eof-partial}: a file of one and a half pages on a block device (read-ahead 2
     * pages): one reader reads 8 KiB from 0 (6,144 bytes: the copy stops at {@code i_size} inside
     * page 1), 4 KiB from 6,144 (0: at end of file, inside the last page) and 4 KiB from 8,192
     * (0: past the last page), while a second reader reads 4 KiB from 4,096 (2,048 bytes) and
     * the disk completes the read-ahead (the two may race to add page 1 to the cache). The
     * read-count contract (a short count only at {@code i_size}) and the bytes are checked, and at
     * the end the partial page's bytes before {@code i_size} are the device's. Within preemption
     * bound 1 by default.
     */
    static Scenario<WriteWorld> readEofPartial() {
        return Scenario.<WriteWorld>named("read-eof-partial",
                "two readers read a file that ends inside its second page: across, at and past end of file")
                .autoBound(1)
                .setup(() -> new WriteWorld(2, PAGE_SIZE + PAGE_SIZE / 2L, 2))
                .task("reader", w -> {
                    w.readBytes(0, 2 * PAGE_SIZE);
                    w.readBytes(PAGE_SIZE + PAGE_SIZE / 2, PAGE_SIZE);
                    w.readBytes(2 * PAGE_SIZE, PAGE_SIZE);
                })
                .task("r2", w -> w.readBytes(PAGE_SIZE, PAGE_SIZE))
                .atEnd(WriteWorld::check)
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code write-partial-page} (large): on a file of one page (its block allocated, not cached)
     * on a device of two, a writer writes 100 bytes in the middle of page 0
     * ({@code __block_write_begin()} reads the rest of the block first, synchronously), then 1 KiB
     * at 4,608, past the end of the file (block 1 is allocated: a new buffer, the bytes the write
     * does not cover zeroed; {@code i_size} grows to 5,632), then fsyncs; a reader reads page 0
     * meanwhile. The reader gets each byte old or new (the device's, or the write's in its
     * range); after fsync the device holds page 0 with the 100 bytes and block 1 with zeros
     * around the 1 KiB.
     */
    static Scenario<WriteWorld> writePartialPage() {
        return Scenario.<WriteWorld>named("write-partial-page",
                "a write inside an uncached page (read of the rest first) and one extending the file into a new block, a reader racing")
                .autoBound(1)
                .setup(() -> new WriteWorld(2, 1, 0))
                .task("writer", w -> {
                    w.writeBytes(1000, 100, 5);
                    w.writeBytes(PAGE_SIZE + 512, 1024, 6);
                    w.fsync(0);
                })
                .task("reader", w -> {
                    kmodel.mm.IovIter iter = new kmodel.mm.IovIter(PAGE_SIZE);
                    long ret = kmodel.mm.FilemapRead.genericFileReadIter(new kmodel.mm.Kiocb(w.file, 0, 0), iter);
                    if (ret != PAGE_SIZE) {
                        fail("read of page 0 returned " + ret);
                    }
                    for (int i = 0; i < PAGE_SIZE; i++) {
                        byte d = kmodel.block.Disk.pattern(i >> 9, i & 511);
                        boolean written = i >= 1000 && i < 1100;
                        if (iter.buf[i] != d && !(written && iter.buf[i] == 5)) {
                            fail("byte " + i + " of page 0 read as " + iter.buf[i] + ": neither the device's " + d
                                    + (written ? " nor the write's 5" : ""));
                        }
                    }
                })
                .atEnd(w -> {
                    w.check();
                    expectFileBytes(w, PAGE_SIZE + 1536L, i -> {
                        if (i >= 1000 && i < 1100) {
                            return (byte) 5;
                        }
                        if (i < PAGE_SIZE) {
                            return kmodel.block.Disk.pattern(i >> 9, (int) (i & 511));
                        }
                        return (byte) (i >= PAGE_SIZE + 512 ? 6 : 0);
                    });
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /** The file's size is {@code size} and the device holds {@code want(i)} for its every byte (after an fsync). */
    private static void expectFileBytes(WriteWorld w, long size, java.util.function.LongFunction<Byte> want) {
        long isize = w.bf.inode.iSize.plain();
        if (isize != size) {
            fail("i_size is " + isize + ", not " + size);
        }
        for (long i = 0; i < size; i++) {
            byte got = w.bdev.byteAt(i);
            if (got != want.apply(i)) {
                fail("byte " + i + " is " + got + " on the device after fsync, not " + want.apply(i));
            }
        }
    }

    private static void fail(String msg) {
        kmodel.kernel.Kernel.fail(kmodel.kernel.ViolationKind.DATA_CORRUPTION, msg);
    }

    /**
     * {@code read-retry-truncate} (large): page 1 of a two-page file is cached but not uptodate, as
     * a failed read leaves it (the device error was transient). Two readers read it: each finds the
     * page not uptodate and unlocked, so takes the page lock to retry the read
     * ({@code page_not_up_to_date}); the one that locks it second finds it made uptodate by the
     * other ("Did somebody else fill it already?"). A truncation to one page races them: a reader
     * that locks the page after the truncation removed it finds {@code page->mapping == NULL}
     * ("Did it get truncated before we got the lock?") and looks the page up again, past the new
     * end of the file. Each read returns the page (4 KiB of the device's bytes) or 0 (end of
     * file): the read-count contract. Within preemption bound 1 by default.
     */
    static Scenario<WriteWorld> readRetryTruncate() {
        return Scenario.<WriteWorld>named("read-retry-truncate",
                "two readers retry a page a failed read left not uptodate, racing a truncation removing it")
                .autoBound(1)
                .setup(() -> new WriteWorld(2, 2, 0).cachedNotUptodate(1))
                .task("r1", w -> w.readBytes(PAGE_SIZE, PAGE_SIZE))
                .task("r2", w -> w.readBytes(PAGE_SIZE, PAGE_SIZE))
                .task("truncate", w -> w.truncate(1))
                .atEnd(WriteWorld::check)
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code read-empty-append} (large): a reader reads page 0 of an empty file while a writer
     * appends a page to it. The reader may create page 0 itself ({@code no_cached_page}:
     * {@code block_read_full_page()} zero-fills a page past {@code i_size}) and then find
     * {@code i_size} 0 (an empty read), or find the writer's page: it returns 0 bytes or the
     * whole new page, never zeros; the writer may find the reader's page in the cache.
     */
    static Scenario<WriteWorld> readEmptyAppend() {
        return Scenario.<WriteWorld>named("read-empty-append",
                "a read of an empty file races a write appending its first page")
                .setup(() -> new WriteWorld(1, 0L, 0))
                .task("writer", w -> w.write(0, 1))
                .task("reader", w -> {
                    w.read(0, 1);
                    String got = w.results.get("reader").get(0);
                    if (!got.equals("r=-") && !got.equals("r=v1")) {
                        fail("the read of an empty file being appended to returned " + got);
                    }
                })
                .atEnd(w -> {
                    w.check();
                    w.expectCache(0, "v1");
                })
                .outcome(WriteWorld::outcome)
                .build();
    }

    /**
     * {@code truncate-locked-page} (large): a file of three pages, only page 2 cached, is
     * truncated to half a page while a reader reads page 1 from the device. The truncation's
     * partial start page (page 0) is not cached (nothing to zero); its first pass skips page 1 if
     * the reader holds its lock for the read ({@code trylock_page()} fails) and deletes page 2; its
     * second pass waits for page 1's lock, and may find the range emptied already or restart. The
     * reader gets page 1's bytes, or fewer or none past the new end of file: the read-count
     * contract; at the end no page past {@code i_size} is cached with data. Within preemption
     * bound 1.
     */
    static Scenario<WriteWorld> truncateLockedPage() {
        return Scenario.<WriteWorld>named("truncate-locked-page",
                "a truncation to half a page meets a page locked by a reader's read (its first pass skips it, the second waits)")
                .autoBound(1)
                .setup(() -> new WriteWorld(3, 3, 0).cached(2, -1))
                .task("reader", w -> w.readBytes(PAGE_SIZE, PAGE_SIZE))
                .task("truncate", w -> w.truncateBytes(PAGE_SIZE / 2))
                .atEnd(WriteWorld::check)
                .outcome(WriteWorld::outcome)
                .build();
    }
}
