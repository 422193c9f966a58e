package kmodel.mm;

import static kmodel.mm.Kiocb.IOCB_DIRECT;
import static kmodel.mm.Kiocb.IOCB_NOIO;
import static kmodel.mm.Kiocb.IOCB_NOWAIT;
import static kmodel.mm.Kiocb.IOCB_WAITQ;
import static kmodel.mm.Page.PAGE_SHIFT;
import static kmodel.mm.Page.PAGE_SIZE;

import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.Sched;

/**
 * mm/filemap.c (v5.10): the buffered read path, {@code generic_file_buffered_read()} and
 * {@code generic_file_read_iter()}.
 *
 * <h2>Shape</h2>
 * The kernel function is a loop with gotos ("This is really ugly. But the goto's actually try to
 * clarify some of the logic when it comes to error handling etc."). The model keeps it as a
 * state machine whose states are the kernel's labels ({@link Label}); each {@code goto} is an
 * assignment to the next label, {@code continue} is {@link Label#FIND_PAGE}.
 *
 * <h2>Variants</h2>
 * <ul>
 *   <li>{@link MmOptions#ASYNC_BUFFERED_READS} (seed 002, 1a0a7853b901 "mm: support async
 *       buffered reads in generic_file_buffered_read()"): the {@code IOCB_WAITQ} branches. With n
 *       the function has the v5.7 shape: {@code IOCB_NOWAIT} gives up on a not-uptodate page,
 *       and the locks are {@code lock_page_killable()}.</li>
 *   <li>{@link MmOptions#READAHEAD_NOWAIT} (seed 002 patch 02, "mm: allow read-ahead with
 *       IOCB_NOWAIT set"): with n, a cache miss under {@code IOCB_NOWAIT} goes straight to
 *       {@code would_block} without starting read-ahead.</li>
 *   <li>{@link MmOptions#READ_PATH_V59}: the v5.9 form, where read-ahead disabled
 *       ({@code ra_pages == 0}) means no read-ahead at all, so a miss goes to
 *       {@code no_cached_page} and the read calls {@code ->readpage} itself (see
 *       {@link Readahead#pageCacheSyncRa}); this function is the same in both.</li>
 *   <li>The {@code if (written) { put_page(page); goto out; }} guards before
 *       {@code lock_page_async()} are 0abed7c69b95 ("mm: never attempt async page lock if we've
 *       transferred data already", v5.10-rc5): without them a read that copied some bytes could
 *       arm the callback and return the byte count with it armed.</li>
 * </ul>
 *
 * <h2>Non-blocking sections (model-only checks)</h2>
 * The flags are a contract the kernel does not check; the model does. A read with
 * {@code IOCB_NOWAIT} is a non-blocking section ({@link Sched#nowaitEnter}) from entry to
 * {@code out:}: a sleep anywhere inside (a page lock, a request tag in {@code submit_bio()}) is
 * {@code blocked-in-nowait}. "The IOCB_NOWAIT flag in iocb->ki_flags indicates that -EAGAIN shall
 * be returned when no data can be read without waiting for I/O requests to complete; it doesn't
 * prevent readahead" (the kernel-doc of {@code generic_file_read_iter()}): so it may start I/O,
 * but not wait for anything. A read with {@code IOCB_NOIO} is a section that must not start I/O
 * ({@link Sched#noioEnter}; "no new I/O requests shall be made for the read or for readahead").
 *
 * <p>{@code IOCB_WAITQ} (with the async series) is a non-blocking section too, although
 * {@code io_rw_should_retry()} clears {@code IOCB_NOWAIT} when it sets it: the IOCB_WAITQ read
 * runs inline in the submitting task (io_uring's {@code force_nonblock} issue, or its
 * task_work retry), and every wait in it is the page-unlock callback instead of a sleep. The
 * series' authors treat a sleep there as a bug, three times over: c8d317aa1887 ("io_uring: fix
 * async buffered reads when readahead is disabled", v5.9-rc8: "it goes to lock_page_killable()
 * after calling mapping->a_ops->readpage() to do IO, and thus causing process to sleep");
 * 324bcf54c449 ("mm: use limited read-ahead to satisfy read", v5.10-rc1: "Willy reports that
 * there's a case where async buffered reads will be blocking ... io_uring relies on read-ahead
 * triggering the reads, if not, it needs to fallback to threaded helpers"); and 33a0f5c6b34f
 * ("mm/filemap: don't call ->readpage if IOCB_WAITQ is set", v5.12: "The readpage operation can
 * block in many (most?) filesystems, so we should punt to a work queue instead of calling it").
 * Jens Axboe in the "Loophole in async page I/O" thread (14d97ab3-edf7-c72a-51eb-d335e2768b65@kernel.dk,
 * 12 Oct 2020): "we can only return -EIOCBQUEUED if the IO has been started or is in progress already
 * ... If we need to block, we should be returning -EAGAIN, which would punt to a worker thread."
 * It may start I/O (that is how it makes progress), so it is not an IOCB_NOIO section. The last
 * commit shows that v5.9/v5.10 still break the rule: at {@code readpage:} an IOCB_WAITQ read
 * calls {@code ->readpage} itself (a page that a failed read left not uptodate, or, in v5.9, a
 * page it just added), and that submission may sleep for a request tag; the model reports that
 * as {@code blocked-in-nowait} (finding scenario {@code finding-waitq-readpage-sleeps-on-tag}).
 * The decision is taken once, at entry: the page-unlock callback clears {@code IOCB_WAITQ} in
 * {@code ki_flags} while the read may still be running.
 *
 * <h2>Return value</h2>
 * Bytes copied, including the {@code written} passed in; an error only if nothing was copied
 * ({@code return written ? written : error}): {@code -EAGAIN} (would block), {@code -EIOCBQUEUED}
 * (IOCB_WAITQ: the page-unlock callback is armed and will fire), {@code -EIO} (the read of a page
 * failed), {@code -EINTR} (fatal signal), {@code -ENOMEM}, {@code -EFAULT}.
 */
public final class FilemapRead {
    /** include/linux/fs.h: {@code AOP_TRUNCATED_PAGE}: {@code ->readpage} unlocked a page that was truncated; look again. */
    public static final int AOP_TRUNCATED_PAGE = 0x80001;

    private FilemapRead() {
    }

    /** The labels of {@code generic_file_buffered_read()}, in the kernel's order. */
    enum Label {
        /** {@code find_page:} look the page up; start read-ahead on a miss or at the marker. */
        FIND_PAGE,
        /** {@code page_ok:} the page is uptodate: clamp to i_size and copy. */
        PAGE_OK,
        /** {@code page_not_up_to_date:} take the page lock to read it ourselves. */
        PAGE_NOT_UP_TO_DATE,
        /** {@code page_not_up_to_date_locked:} locked: truncated? filled meanwhile? */
        PAGE_NOT_UP_TO_DATE_LOCKED,
        /** {@code readpage:} start {@code ->readpage} and wait for it by locking the page again. */
        READPAGE,
        /** {@code readpage_error:} drop the page and report. */
        READPAGE_ERROR,
        /** {@code no_cached_page:} not cached even after read-ahead: add a page ourselves. */
        NO_CACHED_PAGE,
        /** {@code would_block:} {@code -EAGAIN}. */
        WOULD_BLOCK,
        /** {@code out:} record the position and return {@code written ?: error}. */
        OUT
    }

    /**
     * mm/filemap.c: {@code shrink_readahead_size_eio()}: "CD/DVDs are error prone ... Fix it by
     * quickly scaling down the readahead size."
     */
    static void shrinkReadaheadSizeEio(FileRaState ra) {
        Kernel.access(ra);
        ra.raPages /= 4;
    }

    /**
     * mm/filemap.c: {@code generic_file_read_iter()} (v5.10), the buffered case: nothing to do
     * for an empty iter, else {@code generic_file_buffered_read(iocb, iter, 0)}. Direct I/O is a
     * file system's own model ({@code IOCB_DIRECT} here is a {@code bug-on}, see the
     * limitations).
     */
    public static long genericFileReadIter(Kiocb iocb, IovIter iter) {
        long count = iter.iovIterCount();
        if (count == 0) {
            return 0; /* skip atime */
        }
        Kernel.BUG_ON((iocb.kiFlags & IOCB_DIRECT) != 0,
                "generic_file_read_iter: IOCB_DIRECT is not modelled in mm-filemap");
        return genericFileBufferedRead(iocb, iter, 0);
    }

    /**
     * mm/filemap.c: {@code generic_file_buffered_read()} (v5.10). Reads from
     * {@code iocb->ki_pos} into {@code iter} through the page cache, page by page: find the page
     * (sync read-ahead on a miss, async read-ahead at a PG_readahead marker), wait for it to be
     * unlocked if it is not uptodate ({@code IOCB_WAITQ}: arm {@code iocb->ki_waitq} and return
     * {@code -EIOCBQUEUED}; {@code IOCB_NOWAIT}: {@code -EAGAIN}), read it with
     * {@code ->readpage} under the page lock if still not uptodate, copy up to i_size. Advances
     * {@code ki_pos} and {@code f_ra.prev_pos}.
     *
     * @param written bytes already copied by the caller (a direct read's short count)
     * @return bytes copied including {@code written}, or a negative errno if none
     */
    public static long genericFileBufferedRead(Kiocb iocb, IovIter iter, long written) {
        File filp = iocb.kiFilp;
        AddressSpace mapping = filp.fMapping;
        Inode inode = mapping.host;
        FileRaState ra = filp.fRa;
        Kconfig config = Kernel.config();
        boolean asyncReads = config.enabled(MmOptions.ASYNC_BUFFERED_READS);
        boolean readaheadNowait = config.enabled(MmOptions.READAHEAD_NOWAIT);

        long index = iocb.kiPos >> PAGE_SHIFT;
        Kernel.accessRead(ra);
        long prevIndex = ra.prevPos >> PAGE_SHIFT;
        long prevOffset = ra.prevPos & (PAGE_SIZE - 1);
        long lastIndex = (iocb.kiPos + iter.count + PAGE_SIZE - 1) >> PAGE_SHIFT;
        long offset = iocb.kiPos & (PAGE_SIZE - 1); /* offset into pagecache page */
        int error = 0;
        Page page = null;

        /*
         * If we've already successfully copied some data, then we can no longer safely return
         * -EIOCBQUEUED. Hence mark an async read NOWAIT at that point.
         */
        if (asyncReads && written != 0 && (iocb.kiFlags & IOCB_WAITQ) != 0) {
            iocb.kiFlags |= IOCB_NOWAIT;
        }

        /* Model-only: the non-blocking contract of the flags, decided once (see the class comment). */
        boolean nowaitSection = (iocb.kiFlags & IOCB_NOWAIT) != 0 || (asyncReads && (iocb.kiFlags & IOCB_WAITQ) != 0);
        boolean noioSection = (iocb.kiFlags & IOCB_NOIO) != 0;
        if (nowaitSection) {
            Sched.nowaitEnter("generic_file_buffered_read with "
                    + ((iocb.kiFlags & IOCB_NOWAIT) != 0 ? "IOCB_NOWAIT" : "IOCB_WAITQ"));
        }
        if (noioSection) {
            Sched.noioEnter("generic_file_buffered_read with IOCB_NOIO");
        }

        Label next = Label.FIND_PAGE;
        for (;;) {
            switch (next) {
                case FIND_PAGE: {
                    /* cond_resched() */
                    if (Sched.fatalSignalPending(Kernel.current())) {
                        error = -Errno.EINTR;
                        next = Label.OUT;
                        break;
                    }
                    page = PageCache.findGetPage(mapping, index);
                    if (page == null) {
                        if ((iocb.kiFlags & IOCB_NOIO) != 0) {
                            next = Label.WOULD_BLOCK;
                            break;
                        }
                        if (!readaheadNowait && (iocb.kiFlags & IOCB_NOWAIT) != 0) {
                            /* Seed 002 patch 02 not applied: no read-ahead under IOCB_NOWAIT. */
                            next = Label.WOULD_BLOCK;
                            break;
                        }
                        Readahead.pageCacheSyncReadahead(mapping, ra, filp, index, lastIndex - index);
                        page = PageCache.findGetPage(mapping, index);
                        if (page == null) {
                            next = Label.NO_CACHED_PAGE;
                            break;
                        }
                    }
                    if (PageFlags.PageReadahead(page)) {
                        if ((iocb.kiFlags & IOCB_NOIO) != 0) {
                            Page.putPage(page);
                            next = Label.OUT;
                            break;
                        }
                        Readahead.pageCacheAsyncReadahead(mapping, ra, filp, page, index, lastIndex - index);
                    }
                    if (!PageFlags.PageUptodate(page)) {
                        /* wait_on_page_locked, not lock_page: no needless serialisation (do_read_cache_page) */
                        if (asyncReads && (iocb.kiFlags & IOCB_WAITQ) != 0) {
                            if (written != 0) {
                                Page.putPage(page);
                                next = Label.OUT;
                                break;
                            }
                            error = Filemap.waitOnPageLockedAsync(page, iocb.kiWaitq);
                        } else {
                            if ((iocb.kiFlags & IOCB_NOWAIT) != 0 && !Kernel.bug(FilemapBugs.NOWAIT_WAITS_FOR_PAGE)) {
                                Page.putPage(page);
                                next = Label.WOULD_BLOCK;
                                break;
                            }
                            error = Filemap.waitOnPageLockedKillable(page);
                        }
                        if (error != 0) {
                            next = Label.READPAGE_ERROR;
                            break;
                        }
                        if (PageFlags.PageUptodate(page)) {
                            next = Label.PAGE_OK;
                            break;
                        }
                        /* No ->is_partially_uptodate in the model's address spaces. */
                        next = Label.PAGE_NOT_UP_TO_DATE;
                        break;
                    }
                    next = Label.PAGE_OK;
                    break;
                }

                case PAGE_OK: {
                    /*
                     * i_size must be checked after we know the page is Uptodate, so that the
                     * zero-filled part of the page is not copied back to userspace.
                     */
                    long isize = inode.iSizeRead();
                    long endIndex = (isize - 1) >> PAGE_SHIFT;
                    if (isize == 0 || index > endIndex) {
                        Page.putPage(page);
                        next = Label.OUT;
                        break;
                    }
                    /* nr is the maximum number of bytes to copy from this page */
                    long nr = PAGE_SIZE;
                    if (index == endIndex) {
                        nr = ((isize - 1) & (PAGE_SIZE - 1)) + 1;
                        if (nr <= offset) {
                            Page.putPage(page);
                            next = Label.OUT;
                            break;
                        }
                    }
                    nr = nr - offset;
                    /* mark_page_accessed() when a sequential read first touches the page: not modelled */
                    prevIndex = index;

                    /* Ok, we have the page, and it's up-to-date, so now we can copy it to user space... */
                    int ret = iter.copyPageToIter(page, (int) offset, (int) nr);
                    offset += ret;
                    index += offset >> PAGE_SHIFT;
                    offset &= PAGE_SIZE - 1;
                    prevOffset = offset;

                    Page.putPage(page);
                    written += ret;
                    if (iter.iovIterCount() == 0) {
                        next = Label.OUT;
                        break;
                    }
                    if (ret < nr) {
                        error = -Errno.EFAULT;
                        next = Label.OUT;
                        break;
                    }
                    next = Label.FIND_PAGE; /* continue */
                    break;
                }

                case PAGE_NOT_UP_TO_DATE: {
                    /* Get exclusive access to the page ... */
                    if (asyncReads && (iocb.kiFlags & IOCB_WAITQ) != 0) {
                        if (written != 0) {
                            Page.putPage(page);
                            next = Label.OUT;
                            break;
                        }
                        error = Filemap.lockPageAsync(page, iocb.kiWaitq);
                    } else {
                        error = Filemap.lockPageKillable(page);
                    }
                    if (error != 0) {
                        next = Label.READPAGE_ERROR;
                        break;
                    }
                    next = Label.PAGE_NOT_UP_TO_DATE_LOCKED;
                    break;
                }

                case PAGE_NOT_UP_TO_DATE_LOCKED: {
                    /* Did it get truncated before we got the lock? */
                    page.touch();
                    if (page.mapping == null) {
                        Filemap.unlockPage(page);
                        Page.putPage(page);
                        next = Label.FIND_PAGE; /* continue */
                        break;
                    }
                    /* Did somebody else fill it already? */
                    if (PageFlags.PageUptodate(page)) {
                        Filemap.unlockPage(page);
                        next = Label.PAGE_OK;
                        break;
                    }
                    next = Label.READPAGE;
                    break;
                }

                case READPAGE: {
                    if ((iocb.kiFlags & (IOCB_NOIO | IOCB_NOWAIT)) != 0) {
                        Filemap.unlockPage(page);
                        Page.putPage(page);
                        next = Label.WOULD_BLOCK;
                        break;
                    }
                    /* A previous I/O error may have been temporary: PG_error is set again if readpage fails. */
                    PageFlags.ClearPageError(page);
                    /* Start the actual read. The read will unlock the page. */
                    error = mapping.aOps.readpage(filp, page);
                    if (error != 0) {
                        if (error == AOP_TRUNCATED_PAGE) {
                            Kernel.event("->readpage(%s) = AOP_TRUNCATED_PAGE: find_page again", index);
                            Page.putPage(page);
                            error = 0;
                            next = Label.FIND_PAGE;
                            break;
                        }
                        next = Label.READPAGE_ERROR;
                        break;
                    }
                    if (!PageFlags.PageUptodate(page)) {
                        if (asyncReads && (iocb.kiFlags & IOCB_WAITQ) != 0) {
                            if (written != 0) {
                                Page.putPage(page);
                                next = Label.OUT;
                                break;
                            }
                            error = Filemap.lockPageAsync(page, iocb.kiWaitq);
                        } else {
                            error = Filemap.lockPageKillable(page);
                        }
                        if (error != 0) {
                            next = Label.READPAGE_ERROR;
                            break;
                        }
                        if (!PageFlags.PageUptodate(page)) {
                            page.touch();
                            if (page.mapping == null) {
                                /* invalidate_mapping_pages got it */
                                Filemap.unlockPage(page);
                                Page.putPage(page);
                                next = Label.FIND_PAGE;
                                break;
                            }
                            Filemap.unlockPage(page);
                            shrinkReadaheadSizeEio(ra);
                            error = -Errno.EIO;
                            next = Label.READPAGE_ERROR;
                            break;
                        }
                        Filemap.unlockPage(page);
                    }
                    next = Label.PAGE_OK;
                    break;
                }

                case READPAGE_ERROR: {
                    /* UHHUH! A synchronous read error occurred. Report it */
                    Page.putPage(page);
                    next = Label.OUT;
                    break;
                }

                case NO_CACHED_PAGE: {
                    /* Ok, it wasn't cached, so we need to create a new page.. */
                    page = PageCache.__pageCacheAlloc(mapping, "generic_file_buffered_read");
                    if (page == null) {
                        error = -Errno.ENOMEM;
                        next = Label.OUT;
                        break;
                    }
                    error = PageCache.addToPageCacheLru(page, mapping, index);
                    if (error != 0) {
                        Page.putPage(page);
                        if (error == -Errno.EEXIST) {
                            error = 0;
                            next = Label.FIND_PAGE;
                            break;
                        }
                        next = Label.OUT;
                        break;
                    }
                    next = Label.READPAGE;
                    break;
                }

                case WOULD_BLOCK: {
                    error = -Errno.EAGAIN;
                    next = Label.OUT;
                    break;
                }

                case OUT: {
                    Kernel.access(ra);
                    ra.prevPos = prevIndex;
                    ra.prevPos <<= PAGE_SHIFT;
                    ra.prevPos |= prevOffset;

                    iocb.kiPos = (index << PAGE_SHIFT) + offset;
                    /* file_accessed(filp): no atime in the model */
                    long result = written != 0 ? written : error;
                    if (noioSection) {
                        Sched.noioExit();
                    }
                    if (nowaitSection) {
                        Sched.nowaitExit();
                    }
                    Kernel.event("generic_file_buffered_read = %s", Errno.name(result));
                    return result;
                }

                default:
                    throw new IllegalStateException("unknown label " + next);
            }
        }
    }
}
