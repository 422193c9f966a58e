package kmodel.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Which JDK the suite runs on, printed once per build (this is the first module Maven tests), and
 * whether the model's tasks run on virtual threads there. The root pom's {@code test-jdk} execution
 * of the toolchains plugin picks the newest JDK installed (README, "Tests"); this test states the
 * outcome, and checks that the runtime's choice of threads follows the JDK: virtual threads exactly
 * on JDK 21 and later, unless {@code -Dkmodel.platformThreads=true} asks for platform threads.
 */
class TestJvmTest {

    @Test
    void tasksRunOnVirtualThreadsExactlyOnJdk21AndLater() {
        int feature = java.lang.Runtime.version().feature();
        boolean platformAsked = Boolean.getBoolean("kmodel.platformThreads");
        boolean virtual = DeterministicRuntime.virtualThreads();
        System.out.printf("kmodel: tests run on JDK %s (%s); the model's tasks run on %s threads%n",
                java.lang.Runtime.version(), System.getProperty("java.home"), virtual ? "virtual" : "platform");
        assertEquals(feature >= 21 && !platformAsked, virtual,
                "JDK " + feature + ", kmodel.platformThreads=" + platformAsked);
    }
}
