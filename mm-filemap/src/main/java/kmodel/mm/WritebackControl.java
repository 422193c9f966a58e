package kmodel.mm;

/**
 * include/linux/writeback.h (v5.10): {@code struct writeback_control}, the fields the write side
 * of the model reads: how hard to try ({@code sync_mode}), how much ({@code nr_to_write}) and
 * which byte range ({@code range_start}, {@code range_end}, or {@code range_cyclic}).
 */
public final class WritebackControl {
    /** {@code enum writeback_sync_modes}: don't wait on anything. */
    public static final int WB_SYNC_NONE = 0;
    /** Wait on every mapping (data integrity: {@code fsync}, {@code filemap_write_and_wait}). */
    public static final int WB_SYNC_ALL = 1;
    /** include/linux/kernel.h: {@code LLONG_MAX}, the {@code range_end} of a whole-file writeback. */
    public static final long LLONG_MAX = Long.MAX_VALUE;

    /** {@code nr_to_write}: pages still to write; decremented for each page written. */
    public long nrToWrite;
    /** {@code sync_mode}: {@link #WB_SYNC_NONE} or {@link #WB_SYNC_ALL}. */
    public int syncMode;
    /** {@code range_start}: first byte, inclusive. */
    public long rangeStart;
    /** {@code range_end}: last byte, inclusive. */
    public long rangeEnd;
    /** {@code range_cyclic}: ignore the range, start at {@code mapping->writeback_index}. */
    public boolean rangeCyclic;
    /** {@code tagged_writepages}: tag-and-write to avoid livelock, as WB_SYNC_ALL does. */
    public boolean taggedWritepages;

    /** A control for {@code [start, end]} in {@code syncMode}, {@code nr_to_write = LONG_MAX}. */
    public WritebackControl(int syncMode, long start, long end) {
        this.syncMode = syncMode;
        this.nrToWrite = Long.MAX_VALUE;
        this.rangeStart = start;
        this.rangeEnd = end;
    }
}
