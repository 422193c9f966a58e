package kmodel.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The arithmetic of {@link Portfolio}'s interleaving: round robin X, D, P, a search that has ended
 * drops out, the budget counts every execution, and the first violation in that order wins.
 */
class PortfolioTest {
    private static Portfolio.Sample sample(long n, long violationAt) {
        Portfolio.Sample s = new Portfolio.Sample("s");
        s.n = n;
        s.violationAt = violationAt;
        return s;
    }

    @Test
    void withoutViolationsEverySearchRunsToItsEndWithinTheBudget() {
        Portfolio.Walk w = Portfolio.walk(100, -1, sample(5, -1), sample(7, -1), 1_000);
        assertEquals(100, w.x);
        assertEquals(5, w.d);
        assertEquals(7, w.p);
        assertEquals(0, w.winner);
    }

    @Test
    void theBudgetCutsTheRoundsWhereTheyReachIt() {
        // rounds X D P: after 3 rounds 9 executions; the 10th is X's 4th
        Portfolio.Walk w = Portfolio.walk(Long.MAX_VALUE, -1, sample(100, -1), sample(100, -1), 10);
        assertEquals(4, w.x);
        assertEquals(3, w.d);
        assertEquals(3, w.p);
        // the samplers ended: the rest is X's
        Portfolio.Walk rest = Portfolio.walk(Long.MAX_VALUE, -1, sample(2, -1), sample(1, -1), 1_000);
        assertEquals(1_000 - 3, rest.x);
    }

    @Test
    void theFirstViolationInRoundRobinOrderWins() {
        // D's violation at its index 3 comes in round 3 after X's 4th execution: X gets 4, P 3
        Portfolio.Walk w = Portfolio.walk(Long.MAX_VALUE, -1, sample(4, 3), sample(100, -1), 1_000_000);
        assertEquals('D', w.winner);
        assertEquals(4, w.x);
        assertEquals(4, w.d);
        assertEquals(3, w.p);
        // X's violation in the same round comes first
        Portfolio.Walk x = Portfolio.walk(4, 3, sample(4, 3), sample(100, -1), 1_000_000);
        assertEquals('X', x.winner);
        assertEquals(4, x.x);
        assertEquals(3, x.d);
        // X ended early: the samplers go on alone
        Portfolio.Walk ended = Portfolio.walk(2, -1, sample(10, 9), sample(100, -1), 1_000_000);
        assertEquals('D', ended.winner);
        assertEquals(2, ended.x);
        assertEquals(10, ended.d);
        assertEquals(9, ended.p);
    }
}
