/**
 * The {@code fs-btrfs} module: btrfs' buffered read path (seed 000) over the {@code block} and
 * {@code mm-filemap} modules. Mirrors fs/btrfs/volumes.c ({@link kmodel.fs.btrfs.Volumes}),
 * extent_map.c ({@link kmodel.fs.btrfs.ExtentMapTree}), inode.c and file-item.c
 * ({@link kmodel.fs.btrfs.BtrfsInodeOps}), extent_io.c ({@link kmodel.fs.btrfs.ExtentIo},
 * {@link kmodel.fs.btrfs.ExtentReadpages}, {@link kmodel.fs.btrfs.ReadRepair}), compression.c
 * ({@link kmodel.fs.btrfs.Compression}) and file.c ({@link kmodel.fs.btrfs.BtrfsAops},
 * {@link kmodel.fs.btrfs.BtrfsPunchHole}); and seed 001's
 * direct I/O: inode.c v4.13 ({@link kmodel.fs.btrfs.DirectIo}) over a reduced fs/direct-io.c
 * ({@link kmodel.fs.btrfs.FsDirectIo}), called as v4.13's mm/filemap.c does
 * ({@link kmodel.fs.btrfs.BtrfsFile}).
 * {@link kmodel.fs.btrfs.BtrfsVolume} builds a volume and files for scenarios (mkfs, not kernel code).
 *
 * <h2>Lock ordering</h2>
 * <pre>
 *  page lock (PG_locked, held by the reader from add_to_page_cache_lru() to the end_io)
 *    em_tree->lock                 (btrfs_get_extent, __get_extent_map: lookup, insert)
 *    io_tree->lock                 (btrfs_get_extent of an inline extent; test_range_bit)
 *    io_failure_tree.lock          (read repair: failure records; end_io context)
 *    btrfs_bioset.lock             (model-only: the BTRFS_BIO_ALLOC_FAIL counter)
 *  i_rwsem (direct writes: btrfs_file_write_iter)
 *    page lock (filemap_write_and_wait_range, invalidate_inode_pages2_range; not held across the I/O)
 *  dio->bio_lock                   (fs/direct-io.c: refcount, bio_list, waiter; irq-safe, innermost)
 *    mapping->i_pages lock, zone lock (mm-filemap, via the page cache)
 * </pre>
 * No two of the btrfs locks are ever held together.
 *
 * <h2>Limitations</h2>
 * One block per page ({@code sectorsize == PAGE_SIZE}); one data chunk; no b-tree (a file-extent
 * table and a checksum map stand in for the fs and csum trees, built at set-up); no extent-state
 * locking, ordered extents or writers (a hole punch, {@link kmodel.fs.btrfs.BtrfsPunchHole}, edits
 * the table while no reader reads its range); completions run in the disk's interrupt task (no end_io
 * workqueue, except for direct reads, which sleep in repair); {@code repair_io_failure()} is counted,
 * not done; compressed extents are read without {@code add_ra_bio_pages()} and without repair; the
 * btrfs buffered write side is not modelled; direct I/O's own limits are in {@link kmodel.fs.btrfs.DirectIo}.
 */
package kmodel.fs.btrfs;
