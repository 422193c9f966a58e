package kmodel.tools.fio;

/**
 * A job file, an {@code xfs_io} command line or a job the model cannot run, refused: one line,
 * {@code FILE:LINE: what is wrong} ({@code FILE: what is wrong} for the whole file, line 0). The
 * command line prints it after {@code kmodel: } and exits 2. Nothing else is thrown by {@link
 * JobFile} or {@link XfsIo}.
 */
public final class JobFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String problem;

    /** A problem on {@code line} (1-based) of {@code file}, or with the whole file when {@code line} is 0. */
    public JobFileException(String file, int line, String problem) {
        super(line > 0 ? file + ":" + line + ": " + problem : file + ": " + problem);
        this.file = file;
        this.line = line;
        this.problem = problem;
    }

    /**
     * A job the model cannot run (for a {@link WorkloadRunner}): names the job's section and says
     * {@code not modelled}, e.g. {@code seed.fio:11: job 'READ': rw=write with thread=0: not modelled}.
     */
    public static JobFileException notModelled(FioJob job, String what) {
        return new JobFileException(job.file(), job.line(), "job '" + job.name() + "': " + what + ": not modelled");
    }

    /** The file as the user named it (or {@code -c #N} for an xfs_io command). */
    public String file() {
        return file;
    }

    /** The 1-based line, or 0 for the whole file. */
    public int line() {
        return line;
    }

    /** What is wrong, without the file and line. */
    public String problem() {
        return problem;
    }
}
