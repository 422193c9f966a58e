/**
 * The {@code fs-btrfs} module: mirrors {@code fs/btrfs/extent_io.c}, {@code inode.c} and
 * {@code file.c}: {@code extent_readpages()} (vanilla and the 16-page {@code pagepool} batch of
 * seed 000), {@code submit_extent_page()} merging, DIO submit and split with
 * {@code btrfs_bio_clone_partial()} (seed 001), and the read end_io paths.
 *
 * <p>Not modelled yet: this module is filled by a later issue; it builds empty.
 */
package kmodel.fs.btrfs;
