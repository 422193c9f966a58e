package kmodel.tools;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * JMH benchmark behind {@code kmodel bench}'s scheduling-point line: nanoseconds per scheduling
 * point of {@link SchedulingPoints}' program, switching at every point and never switching. One
 * operation is one scheduling point ({@link OperationsPerInvocation}); JMH forks a JVM with the
 * same JVM options as {@code kmodel}'s own (so one carrier thread for the virtual threads).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SchedulingPointBenchmark {
    private SchedulingPoints switching;
    private SchedulingPoints staying;

    /** Builds the two programs. */
    @Setup
    public void setUp() {
        switching = new SchedulingPoints(SchedulingPoints.Schedule.SWITCH);
        staying = new SchedulingPoints(SchedulingPoints.Schedule.STAY);
    }

    /** Every scheduling point hands the CPU to the other task. */
    @Benchmark
    @OperationsPerInvocation(SchedulingPoints.POINTS)
    public long switchAtEveryPoint() {
        return switching.run(1);
    }

    /** No scheduling point switches. */
    @Benchmark
    @OperationsPerInvocation(SchedulingPoints.POINTS)
    public long neverSwitch() {
        return staying.run(1);
    }
}
