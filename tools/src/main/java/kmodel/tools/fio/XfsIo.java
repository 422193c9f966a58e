package kmodel.tools.fio;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * An {@code xfs_io [-d] [-f] -c CMD... FILE} command line (xfsprogs' xfs_io(8)), as seed 001 runs
 * it ({@code xfs_io -d -c "pwrite -b 128K 0 2G" $M/foo}), parsed into {@link FioJob}s that run
 * one after another, as xfs_io runs its {@code -c} commands: {@code pwrite [-q] [-b bsize] offset
 * length} is a job with {@code rw=write}, {@code pread [-q] [-b bsize] offset length} one with
 * {@code rw=read} (the aliases {@code w} and {@code r} too), both on one thread with ioengine
 * psync (pwrite(2)/pread(2)), {@code bs} the buffer size (xfs_io's default: the file system block,
 * 4096), {@code direct} from {@code -d}; {@code falloc [-k] offset length} is accepted and does
 * nothing in the model (the model's files are laid out already). Numbers as xfs_io's {@code
 * cvtnum()} reads them ({@link Sizes#xfsIo}: {@code 128K}, {@code 2G}, {@code 0x1000}, {@code
 * 8s}).
 *
 * <p>Everything else, another command or option, a bad number, a value above the model's caps
 * (those of {@link JobFile}: 1 TiB, bsize up to 128 MiB, multiples of 512), is one {@link
 * JobFileException} {@code xfs_io -c:N: ...} naming the N-th {@code -c} command.
 */
public final class XfsIo {
    /** What {@link JobFileException#file()} says for a {@code -c} command. */
    public static final String SOURCE = "xfs_io -c";
    /** The most {@code -c} commands. */
    public static final int MAX_COMMANDS = 64;
    /** The longest {@code -c} command. */
    public static final int MAX_COMMAND_CHARS = 4096;
    /** xfs_io's default buffer size: the file system block size (4096 in the model). */
    public static final long DEFAULT_BSIZE = 4096;

    private XfsIo() {
    }

    /**
     * Parses the {@code -c} commands of one xfs_io command line on {@code file}, O_DIRECT when
     * {@code direct}.
     *
     * @return one job per pread or pwrite, in order (empty if every command is falloc)
     * @throws JobFileException for anything refused
     */
    public static List<FioJob> parse(List<String> commands, String file, boolean direct) {
        if (commands.isEmpty()) {
            throw new JobFileException("xfs_io", 0, "no -c command (xfs_io's interactive mode is not modelled)");
        }
        if (commands.size() > MAX_COMMANDS) {
            throw new JobFileException("xfs_io", 0, "more than " + MAX_COMMANDS + " -c commands");
        }
        checkFile(file);
        List<FioJob> jobs = new ArrayList<>();
        for (int i = 0; i < commands.size(); i++) {
            FioJob job = command(i + 1, commands.get(i), file, direct);
            if (job != null) {
                jobs.add(job);
            }
        }
        return Collections.unmodifiableList(jobs);
    }

    private static void checkFile(String file) {
        if (file.isEmpty()) {
            throw new JobFileException("xfs_io", 0, "empty file name");
        }
        if (file.length() > JobFile.MAX_PATH) {
            throw new JobFileException("xfs_io", 0, "file name longer than " + JobFile.MAX_PATH + " characters");
        }
        for (int i = 0; i < file.length(); i++) {
            if (Character.isISOControl(file.charAt(i))) {
                throw new JobFileException("xfs_io", 0, String.format(Locale.ROOT,
                        "control character U+%04X in the file name", (int) file.charAt(i)));
            }
        }
    }

    /** One {@code -c} command: a job, or null for falloc. */
    private static FioJob command(int n, String text, String file, boolean direct) {
        if (text.length() > MAX_COMMAND_CHARS) {
            throw new JobFileException(SOURCE, n, "command longer than " + MAX_COMMAND_CHARS + " characters");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\t' && (Character.isISOControl(c) || c == '\u2028' || c == '\u2029')) {
                throw new JobFileException(SOURCE, n, String.format(Locale.ROOT, "control character U+%04X in the command",
                        (int) c));
            }
        }
        String t = text.strip();
        if (t.isEmpty()) {
            throw new JobFileException(SOURCE, n, "empty command");
        }
        if (t.indexOf('"') >= 0 || t.indexOf('\'') >= 0) {
            throw new JobFileException(SOURCE, n, JobFile.quote(t) + ": quoting inside a command: not modelled");
        }
        String[] words = t.split("[ \t]+");
        String where = JobFile.quote(t) + ": ";
        switch (words[0]) {
            case "pwrite":
            case "w":
                return io(n, where, words, t, FioJob.Rw.WRITE, file, direct);
            case "pread":
            case "r":
                return io(n, where, words, t, FioJob.Rw.READ, file, direct);
            case "falloc":
                falloc(n, where, words);
                return null;
            default:
                throw new JobFileException(SOURCE, n, where + "command '" + words[0]
                        + "': not modelled (the model runs pwrite, pread and falloc)");
        }
    }

    private static FioJob io(int n, String where, String[] w, String text, FioJob.Rw rw, String file, boolean direct) {
        String cmd = rw == FioJob.Rw.WRITE ? "pwrite" : "pread";
        long bsize = DEFAULT_BSIZE;
        int i = 1;
        for (; i < w.length && w[i].startsWith("-") && w[i].length() > 1; i++) {
            String o = w[i];
            if (o.equals("--")) {
                i++;
                break;
            }
            if (o.equals("-q")) {
                continue;
            }
            if (o.startsWith("-b")) {
                String v = o.length() > 2 ? o.substring(2) : i + 1 < w.length ? w[++i] : null;
                if (v == null) {
                    throw new JobFileException(SOURCE, n, where + "option -b needs a buffer size");
                }
                bsize = number(n, where, "bsize", v);
                if (bsize == 0 || bsize > JobFile.MAX_BS) {
                    throw new JobFileException(SOURCE, n, where + "bsize " + v
                            + (bsize == 0 ? " is 0" : " is above 128 MiB (the model's cap)"));
                }
                continue;
            }
            throw new JobFileException(SOURCE, n, where + cmd + " option " + JobFile.quote(o)
                    + ": not modelled (the model takes -b and -q)");
        }
        if (w.length - i != 2) {
            throw new JobFileException(SOURCE, n, where + "expected " + cmd + " [-b bsize] offset length");
        }
        long offset = number(n, where, "offset", w[i]);
        long length = number(n, where, "length", w[i + 1]);
        if (length == 0) {
            throw new JobFileException(SOURCE, n, where + "length 0: nothing to do");
        }
        if (offset > JobFile.MAX_SIZE - length || length > JobFile.MAX_SIZE) {
            throw new JobFileException(SOURCE, n, where + "offset + length above 1 TiB (the model's cap)");
        }
        if (bsize % 512 != 0 || offset % 512 != 0 || length % 512 != 0) {
            throw new JobFileException(SOURCE, n, where + "offset, length and bsize must be multiples of 512: "
                    + "not modelled otherwise (the model does I/O in 512-byte sectors)");
        }
        return FioJob.builder(FioJob.Origin.XFS_IO, SOURCE, n, String.join(" ", w)).rw(rw).bs(Math.min(bsize, length))
                .size(length).offset(offset).numjobs(1).iodepth(1).ioengine(FioJob.IoEngine.PSYNC).direct(direct)
                .thread(false).groupReporting(false).invalidate(false).filename(file).build();
    }

    private static void falloc(int n, String where, String[] w) {
        int i = 1;
        while (i < w.length && w[i].equals("-k")) {
            i++;
        }
        if (i < w.length && w[i].startsWith("-") && w[i].length() > 1) {
            throw new JobFileException(SOURCE, n, where + "falloc option " + JobFile.quote(w[i])
                    + ": not modelled (the model takes -k)");
        }
        if (w.length - i != 2) {
            throw new JobFileException(SOURCE, n, where + "expected falloc [-k] offset length");
        }
        long offset = number(n, where, "offset", w[i]);
        long length = number(n, where, "length", w[i + 1]);
        if (offset > JobFile.MAX_SIZE - length || length > JobFile.MAX_SIZE) {
            throw new JobFileException(SOURCE, n, where + "offset + length above 1 TiB (the model's cap)");
        }
    }

    /** A number as xfs_io's cvtnum() reads it; xfs_io's message when it is not one. */
    private static long number(int n, String where, String what, String v) {
        long x = Sizes.xfsIo(v);
        if (x == Sizes.TOO_LARGE || x > JobFile.MAX_SIZE) {
            throw new JobFileException(SOURCE, n, where + what + " " + JobFile.quote(v) + " is above 1 TiB (the model's cap)");
        }
        if (x < 0) {
            throw new JobFileException(SOURCE, n, where + "non-numeric " + what + " argument -- " + JobFile.quote(v));
        }
        return x;
    }
}
