package kmodel.sim;

/**
 * How a simulated device serves a request: a positioning/flash latency that requests overlap up
 * to the queue depth, then a per-command overhead and the transfer at the device's bandwidth,
 * which requests take one after another (the link and the controller). A synchronous device
 * ({@code pmem}) has no queue: {@code pmem_submit_bio()} copies the data in the submitter's
 * context, so the transfer is CPU time of the submitting task and completes at once.
 *
 * <p>The profiles below are fixed from the cited data sheets (see {@link CostModel}'s note on
 * how constants are chosen); they are representative devices of the seeds' time, not the seeds'
 * own devices, which the seeds do not name (seed 001 names {@code /dev/pmem0}).
 */
public final class DeviceProfile {
    /** Short name, for reports. */
    public final String name;
    /** Latency before the transfer, overlapped across queued requests (ns). */
    public final long latencyNs;
    /** Serialized per-command overhead (ns). */
    public final long commandNs;
    /** Transfer time per byte (ns); for a synchronous device, CPU per byte of the submitter. */
    public final double nsPerByte;
    /** Requests in flight at the device at most (the tag depth is the model's own). */
    public final int queueDepth;
    /** Whether the transfer is done by the submitting CPU ({@code pmem}). */
    public final boolean synchronous;
    /** Where the figures come from. */
    public final String source;

    public DeviceProfile(String name, long latencyNs, long commandNs, double nsPerByte, int queueDepth,
            boolean synchronous, String source) {
        this.name = name;
        this.latencyNs = latencyNs;
        this.commandNs = commandNs;
        this.nsPerByte = nsPerByte;
        this.queueDepth = queueDepth;
        this.synchronous = synchronous;
        this.source = source;
    }

    /** Whether {@code o} serves requests exactly as this profile does (every field but the source equal). */
    public boolean sameAs(DeviceProfile o) {
        return name.equals(o.name) && latencyNs == o.latencyNs && commandNs == o.commandNs && nsPerByte == o.nsPerByte
                && queueDepth == o.queueDepth && synchronous == o.synchronous;
    }

    /** The names of the profiles below, for a command line: {@code sata-ssd}, {@code nvme-ssd}, {@code pmem}. */
    public static final String[] NAMES = {"sata-ssd", "nvme-ssd", "pmem"};

    /** The profile named {@code name} (one of {@link #NAMES}), or null. */
    public static DeviceProfile byName(String name) {
        switch (name) {
            case "sata-ssd":
                return sataSsd();
            case "nvme-ssd":
                return nvmeSsd();
            case "pmem":
                return pmem();
            default:
                return null;
        }
    }

    /**
     * A SATA SSD of seed 000's time (2012): Intel SSD 320 data sheet (2011): 270 MB/s sequential
     * read, 39,500 random 4 KiB read IOPS at queue depth 32 (25.3 us per command when the queue is
     * full, of which 4096 B / 270 MB/s = 15.2 us is transfer: 10 us per-command overhead), read
     * latency 75 us, NCQ depth 32.
     */
    public static DeviceProfile sataSsd() {
        return new DeviceProfile("sata-ssd", 75_000, 10_000, 1e9 / 270e6, 32, false,
                "Intel SSD 320 data sheet (2011): 270 MB/s, 39.5k IOPS QD32, 75 us read latency");
    }

    /**
     * An NVMe flash SSD of seed 002's time (2020): Samsung PM983 data sheet (Rev. 1.0, Jan. 2018;
     * 1.92 and 3.84 TB): 4 KiB random read 540,000 IOPS, 3,200 MB/s sequential read, 85 us random
     * read latency (typical, sustained workload); 1.85 us per command at full queue, of which
     * 4096 B / 3.2 GB/s = 1.28 us is transfer.
     */
    public static DeviceProfile nvmeSsd() {
        return new DeviceProfile("nvme-ssd", 85_000, 570, 1e9 / 3.2e9, 1024, false,
                "Samsung PM983 data sheet (2018): 540k IOPS random 4K read, 3.2 GB/s, 85 us random read latency (typ)");
    }

    /**
     * A {@code pmem} namespace backed by DRAM ({@code memmap=}, as seed 001's {@code /dev/pmem0p1}
     * most likely was in 2017): {@code pmem_submit_bio()} copies with {@code memcpy_flushcache()}
     * in the submitter; ~5 GB/s for a non-temporal copy on one core (STREAM-like copy per core,
     * half of a cached copy for the flush).
     */
    public static DeviceProfile pmem() {
        return new DeviceProfile("pmem", 0, 0, 0.2, 1, true,
                "DRAM-backed pmem: memcpy_flushcache ~5 GB/s per core (STREAM-class copy rate)");
    }
}
