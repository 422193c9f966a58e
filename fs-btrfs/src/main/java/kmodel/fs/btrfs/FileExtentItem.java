package kmodel.fs.btrfs;

/**
 * fs/btrfs/ctree.h: {@code struct btrfs_file_extent_item} (v5.10) with its key offset: one entry of
 * the model's file-extent table, which stands in for the inode's items in the fs b-tree (no b-tree
 * is modelled: the table is a sorted list built at set-up and never changed while tasks run).
 */
public final class FileExtentItem {
    /** fs/btrfs/ctree.h: {@code BTRFS_FILE_EXTENT_INLINE}. */
    public static final int BTRFS_FILE_EXTENT_INLINE = 0;
    /** fs/btrfs/ctree.h: {@code BTRFS_FILE_EXTENT_REG}. */
    public static final int BTRFS_FILE_EXTENT_REG = 1;
    /** fs/btrfs/compression.h: {@code BTRFS_COMPRESS_NONE}. */
    public static final int BTRFS_COMPRESS_NONE = 0;
    /**
     * The model's compression type (in the kernel's place of {@code BTRFS_COMPRESS_ZLIB}): the
     * deterministic stand-in transform of {@link Compression#decompress}.
     */
    public static final int BTRFS_COMPRESS_MODEL = 1;

    /** The key's {@code offset}: file offset of the item. */
    public final long fileOffset;
    /** {@code type}. */
    public final int type;
    /** {@code compression}. */
    public final int compression;
    /** {@code disk_bytenr}: logical address of the extent on disk; 0 for a hole. */
    public final long diskBytenr;
    /** {@code disk_num_bytes}. */
    public final long diskNumBytes;
    /** {@code offset}: where in the (uncompressed) extent this item starts. */
    public final long offset;
    /** {@code num_bytes}: length of the file range. */
    public final long numBytes;
    /** {@code ram_bytes}: uncompressed size of the extent. */
    public final long ramBytes;
    /** Inline data (uncompressed), or null. */
    public final byte[] inlineData;

    FileExtentItem(long fileOffset, int type, int compression, long diskBytenr, long diskNumBytes, long offset,
            long numBytes, long ramBytes, byte[] inlineData) {
        this.fileOffset = fileOffset;
        this.type = type;
        this.compression = compression;
        this.diskBytenr = diskBytenr;
        this.diskNumBytes = diskNumBytes;
        this.offset = offset;
        this.numBytes = numBytes;
        this.ramBytes = ramBytes;
        this.inlineData = inlineData;
    }

    /** fs/btrfs/file-item.c: {@code btrfs_file_extent_end()}: the first file byte after the item. */
    public long extentEnd() {
        return fileOffset + numBytes;
    }
}
