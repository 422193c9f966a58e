package kmodel.fs.btrfs;

import java.util.List;
import kmodel.kernel.Kernel;
import kmodel.mm.AddressSpace;
import kmodel.mm.AddressSpaceOperations;
import kmodel.mm.File;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.mm.ReadaheadControl;

/**
 * fs/btrfs/inode.c: {@code btrfs_aops} (v5.10: {@code .readpage = btrfs_readpage},
 * {@code .readahead = btrfs_readahead}; v3.6: {@code .readpages = btrfs_readpages}), the read
 * side, with the read-ahead entry point chosen by {@code BTRFS_READPAGES}; and fs/btrfs/file.c:
 * {@code btrfs_file_open()}.
 */
public final class BtrfsAops implements AddressSpaceOperations {
    /** The inode these operations serve ({@code BTRFS_I(mapping->host)}). */
    BtrfsInode inode;
    private final int form;

    BtrfsAops(int form) {
        this.form = form;
    }

    /** {@code .readpage = btrfs_readpage}. */
    @Override
    public int readpage(File file, Page page) {
        return BtrfsInodeOps.btrfsReadpage(file, page);
    }

    @Override
    public boolean hasReadahead() {
        return form == BtrfsOptions.READAHEAD_V510;
    }

    /** {@code .readahead = btrfs_readahead} (v5.10): {@code extent_readahead(rac)}. */
    @Override
    public void readahead(ReadaheadControl rac) {
        ExtentIo.extentReadahead(rac);
    }

    @Override
    public boolean hasReadpages() {
        return form != BtrfsOptions.READAHEAD_V510;
    }

    /** {@code .readpages = btrfs_readpages} (v3.6): {@code extent_readpages(tree, mapping, pages, nr_pages, btrfs_get_extent)}. */
    @Override
    public int readpages(File file, AddressSpace mapping, List<Page> pages, int nrPages) {
        return ExtentReadpages.extentReadpages(form, mapping, pages, nrPages);
    }

    /**
     * fs/btrfs/file.c: {@code btrfs_file_open(inode, filp)} (v5.10): {@code filp->f_mode |=
     * FMODE_NOWAIT | FMODE_BUF_RASYNC} (the latter since seed 002 patch 09, "btrfs: flag files as
     * supporting buffered async reads"; absent with {@code ASYNC_BUFFERED_READS=n}), then
     * {@code generic_file_open()}.
     */
    public static File btrfsFileOpen(BtrfsInode inode, String name, int raPages) {
        File filp = new File(name, inode.vfsInode, raPages);
        filp.fMode |= File.FMODE_NOWAIT;
        if (Kernel.config().enabled(MmOptions.ASYNC_BUFFERED_READS)) {
            filp.fMode |= File.FMODE_BUF_RASYNC;
        }
        return filp;
    }
}
