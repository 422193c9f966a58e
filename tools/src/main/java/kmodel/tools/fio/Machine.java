package kmodel.tools.fio;

import java.util.Locale;
import kmodel.sim.DeviceProfile;

/**
 * The simulated machine of {@code kmodel fio} and {@code kmodel xfs_io}: the device every disk
 * is ({@code --device}), the CPUs ({@code --cpus}) and the btrfs volume's data profile
 * ({@code --btrfs-profile}); a null device or profile means the workload's own (seed 000: a
 * single SATA SSD; seed 001: RAID0 over two pmem devices; seed 002: an NVMe SSD). Immutable.
 */
public final class Machine {
    /** The btrfs data profiles {@code --btrfs-profile} accepts. */
    public static final String[] PROFILES = {"single", "raid0", "raid1"};
    /** CPUs at most. */
    public static final int MAX_CPUS = 64;

    private final String device;
    private final int cpus;
    private final String profile;

    /**
     * @throws IllegalArgumentException naming the bad value
     */
    public Machine(String device, int cpus, String profile) {
        if (device != null && DeviceProfile.byName(device) == null) {
            throw new IllegalArgumentException("--device must be one of " + String.join(", ", DeviceProfile.NAMES)
                    + ", not '" + device + "'");
        }
        if (cpus < 1 || cpus > MAX_CPUS) {
            throw new IllegalArgumentException("--cpus must be 1 to " + MAX_CPUS + ", not " + cpus);
        }
        if (profile != null && !oneOf(profile, PROFILES)) {
            throw new IllegalArgumentException("--btrfs-profile must be one of " + String.join(", ", PROFILES) + ", not '"
                    + profile + "'");
        }
        this.device = device;
        this.cpus = cpus;
        this.profile = profile;
    }

    /** The workloads' own devices and profiles, 8 CPUs. */
    public static Machine defaults() {
        return new Machine(null, 8, null);
    }

    private static boolean oneOf(String v, String[] values) {
        for (String s : values) {
            if (s.equals(v)) {
                return true;
            }
        }
        return false;
    }

    /** The device's name, or null for the workload's own. */
    public String device() {
        return device;
    }

    public int cpus() {
        return cpus;
    }

    /** The btrfs profile's name, or null for the workload's own. */
    public String profile() {
        return profile;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d CPUs, device %s, btrfs %s", cpus, device == null ? "the workload's" : device,
                profile == null ? "the workload's profile" : profile);
    }
}
