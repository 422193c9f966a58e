/**
 * The {@code fs-btrfs} module: btrfs' buffered read path (seed 000) over the {@code block} and
 * {@code mm-filemap} modules. Mirrors fs/btrfs/volumes.c ({@link kmodel.fs.btrfs.Volumes}),
 * extent_map.c ({@link kmodel.fs.btrfs.ExtentMapTree}), inode.c and file-item.c
 * ({@link kmodel.fs.btrfs.BtrfsInodeOps}), extent_io.c ({@link kmodel.fs.btrfs.ExtentIo},
 * {@link kmodel.fs.btrfs.ExtentReadpages}, {@link kmodel.fs.btrfs.ReadRepair}), compression.c
 * ({@link kmodel.fs.btrfs.Compression}) and file.c ({@link kmodel.fs.btrfs.BtrfsAops},
 * {@link kmodel.fs.btrfs.BtrfsPunchHole}).
 * {@link kmodel.fs.btrfs.BtrfsVolume} builds a volume and files for scenarios (mkfs, not kernel code).
 *
 * <h2>Lock ordering</h2>
 * <pre>
 *  page lock (PG_locked, held by the reader from add_to_page_cache_lru() to the end_io)
 *    em_tree->lock                 (btrfs_get_extent, __get_extent_map: lookup, insert)
 *    io_tree->lock                 (btrfs_get_extent of an inline extent; test_range_bit)
 *    io_failure_tree.lock          (read repair: failure records; end_io context)
 *    btrfs_bioset.lock             (model-only: the BTRFS_BIO_ALLOC_FAIL counter)
 *    mapping->i_pages lock, zone lock (mm-filemap, via the page cache)
 * </pre>
 * No two of the btrfs locks are ever held together.
 *
 * <h2>Limitations</h2>
 * One block per page ({@code sectorsize == PAGE_SIZE}); one data chunk; no b-tree (a file-extent
 * table and a checksum map stand in for the fs and csum trees, built at set-up); no extent-state
 * locking, ordered extents or writers (a hole punch, {@link kmodel.fs.btrfs.BtrfsPunchHole}, edits
 * the table while no reader reads its range); completions run in the disk's interrupt task (no end_io
 * workqueue); {@code repair_io_failure()} is counted, not done; compressed extents are read
 * without {@code add_ra_bio_pages()} and without repair; direct I/O (seed 001) and the write side
 * are later issues ({@link kmodel.fs.btrfs.Volumes#btrfsMapBio} already clones write bios per
 * mirror, and {@link kmodel.fs.btrfs.BtrfsIoBio} carries the saved {@code iter} and
 * {@code logical} a DIO piece needs).
 */
package kmodel.fs.btrfs;
