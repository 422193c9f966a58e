/**
 * mm/filemap.c, mm/readahead.c, include/linux/pagemap.h, page-flags.h and fs.h (Linux v5.10, with
 * the v5.7 page wait protocol as a variant): {@code struct page}, the page cache, the page lock and
 * wait protocol (synchronous and async), {@code generic_file_buffered_read()} and read-ahead.
 *
 * <h2>Where each kernel file lives</h2>
 * <ul>
 *   <li>{@link kmodel.mm.Filemap}: mm/filemap.c page lock and wait (one protocol core, kept whole);
 *       {@link kmodel.mm.PageWaitTable}: its hashed {@code page_wait_table}.</li>
 *   <li>{@link kmodel.mm.PageCache}: mm/filemap.c page cache insert/find/delete.</li>
 *   <li>{@link kmodel.mm.FilemapRead}: mm/filemap.c {@code generic_file_buffered_read()},
 *       {@code generic_file_read_iter()}.</li>
 *   <li>{@link kmodel.mm.Readahead}: mm/readahead.c.</li>
 *   <li>{@link kmodel.mm.FilemapWrite}: mm/filemap.c {@code generic_perform_write()},
 *       {@code generic_file_write_iter()}, {@code filemap_write_and_wait_range()} and the
 *       fdatawrite/fdatawait family.</li>
 *   <li>{@link kmodel.mm.PageWriteback}: mm/page-writeback.c: dirtying, {@code write_cache_pages()},
 *       {@code do_writepages()}, PG_writeback with the page-cache marks.</li>
 *   <li>{@link kmodel.mm.Truncate}: mm/truncate.c: {@code truncate_inode_pages_range()},
 *       {@code truncate_setsize()}, {@code invalidate_inode_pages2_range()}.</li>
 *   <li>{@link kmodel.mm.AsyncPageWaiter}: fs/io_uring.c {@code io_async_buf_func()}, until the
 *       io-uring module has its own.</li>
 *   <li>{@link kmodel.mm.FilemapBugs}: this module's catalog bugs.</li>
 * </ul>
 *
 * <h2>Lock ordering</h2>
 * Outer to inner, each edge with the path that takes it (the model's locks only):
 * <pre>
 *  i_rwsem (inode_lock: generic_file_write_iter, truncation)
 *    -&gt;page lock                       (write_begin, truncate_inode_pages_range)
 *  page lock (PG_locked, a sleeping bit lock)
 *    -&gt;mapping-&gt;i_pages lock          (add_to_page_cache_lru, delete_from_page_cache,
 *                                      find_get_page under the page lock in read paths;
 *                                      set_page_dirty, set_page_writeback: the page-cache marks;
 *                                      test_clear_page_writeback from interrupt context)
 *    -&gt;page_wait_table[i].lock        (unlock_page -&gt; wake_up_page_bit; a waiter may hold
 *                                      other pages' locks while it queues)
 *      -&gt;task wake-up (pi_lock)       (wake_page_function -&gt; wake_up_state)
 *      -&gt;task_work list               (io_async_buf_func -&gt; task_work_add)
 *  zone.lock (PageAllocator)           (put_page -&gt; __free_pages, alloc_pages; a leaf: taken with no
 *                                      other spinlock held)
 * </pre>
 * Never: sleeping with any spinlock held ({@code lock-leak}); {@code page_wait_table[i].lock}
 * taken around a page lock ({@code __wait_on_page_locked_async} only <em>trylocks</em> PG_locked
 * under it). Wake functions run under {@code page_wait_table[i].lock}, possibly in interrupt
 * context, and never sleep.
 *
 * <h2>Per-execution state</h2>
 * No static mutable state: the page wait table belongs to a {@link kmodel.mm.PageAllocator} (the
 * machine's memory), created per execution by the scenario. Names come from creation order
 * ("P0", "t1.wait_page"), and the table hashes pages by {@code pfn}, never by identity hash.
 *
 * <h2>Limitations (coarse on purpose)</h2>
 * <ul>
 *   <li>Page cache lookups are done under the {@code i_pages} lock instead of RCU with a
 *       speculative reference (same outcomes, fewer interleavings).</li>
 *   <li>No PSI/delay accounting in waits, no LRU, no {@code mark_page_accessed()}, no reclaim
 *       (so {@code end_page_writeback()} skips {@code PageReclaim} rotation), no memcg, no
 *       huge pages ({@code compound_head()} is the identity).</li>
 *   <li>{@code generic_file_buffered_read()}: no {@code s_maxbytes} truncation, no
 *       {@code is_partially_uptodate} (the model's address spaces do not provide it, so a
 *       not-uptodate page always goes to {@code page_not_up_to_date}), no pipes, no
 *       {@code flush_dcache_page()}; {@code copy_page_to_iter()} never faults.
 *       {@code generic_file_read_iter()} models the buffered case only ({@code IOCB_DIRECT} is
 *       a {@code bug-on}: direct I/O belongs to the file systems' own models).</li>
 *   <li>Read-ahead: no {@code FMODE_RANDOM}, never congested ({@code inode_read_congested()},
 *       {@code blk_cgroup_congested()} are false); {@code bdi->io_pages} is
 *       {@link kmodel.mm.AddressSpace#ioPages}.</li>
 *   <li>{@code file->f_ra} is updated without scheduling points: the kernel tolerates racy
 *       updates of this heuristic and the model hides those benign races.</li>
 *   <li>The page allocator ({@link kmodel.mm.PageAllocator}) keeps one free list per
 *       execution; an allocation takes one of the two most recently freed pages (a data
 *       choice when both exist), never an older one or a new one while pages are free. A
 *       {@code struct page} is never freed ({@link kmodel.mm.Page}'s class comment): late
 *       accesses are checked for their effect; compound pages, {@code PF_POISONED_CHECK} and
 *       memory hot-remove are not modelled.</li>
 *   <li>{@code wait_on_page_writeback()} loops, as c2407cf7d22d (v5.11-rc3; in 5.10.7)
 *       made it; v5.10.0's single {@code if} is the catalog bug {@code wait-on-page-writeback-once}
 *       (the write path's {@code fsync-redirty} shows why).</li>
 * </ul>
 *
 * <h2>Findings</h2>
 * With the v5.10 protocol and the default unfairness budget, a killable exclusive waiter that
 * breaks out of {@code wait_on_page_bit_common()} on a fatal signal and is then woken (as kind
 * (b), WOKEN without DONE) before its {@code finish_wait()} returns {@code -EINTR} although the
 * wake-up walk counted it as its one exclusive wake-up; another exclusive waiter then sleeps until
 * some later unlock. The checker reports it as {@code missed-wakeup}
 * ({@code PageWaitTest.aKilledUnfairLockerCanStrandTheOtherLockerInV510}, and the scenario
 * {@code finding-killed-locker-strands-waiter}, run with {@code kmodel check --scenario
 * finding-killed-locker-strands-waiter}); v5.7 and a spent budget (every exclusive wake-up a
 * hand-off) do not lose it. A model result, not confirmed on a running kernel.
 */
package kmodel.mm;
