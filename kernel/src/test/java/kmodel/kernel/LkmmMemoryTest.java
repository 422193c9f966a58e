package kmodel.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import kmodel.kernel.lkmm.Fence;
import kmodel.kernel.lkmm.LkmmMemory;
import kmodel.kernel.lkmm.LkmmTask;
import kmodel.kernel.lkmm.Message;
import kmodel.kernel.lkmm.Order;
import org.junit.jupiter.api.Test;

/** The LKMM approximation's core, one rule at a time (the litmus suite in tools checks them together). */
class LkmmMemoryTest {
    @Test
    void aLoadNeverReadsBeforeWhatItsTaskHasSeen() {
        LkmmMemory m = new LkmmMemory();
        int x = m.location("x", 0);
        LkmmTask w = new LkmmTask();
        LkmmTask r = new LkmmTask();
        m.write(w, x, m.storeSlots(w, x).get(0), 1, Order.ONCE, 0, 1);
        assertEquals(2, m.readable(r, x, null).size(), "init or 1");
        m.read(r, m.last(x), Order.ONCE);
        assertEquals(List.of(m.last(x)), m.readable(r, x, null), "CoRR: not back to init");
        // CoRW: its store goes after what it read
        assertEquals(1, m.storeSlots(r, x).size());
    }

    @Test
    void aStoreMayGoBeforeAStoreItHasNotSeen() {
        LkmmMemory m = new LkmmMemory();
        int x = m.location("x", 0);
        LkmmTask a = new LkmmTask();
        LkmmTask b = new LkmmTask();
        m.write(a, x, m.storeSlots(a, x).get(0), 1, Order.ONCE, 0, 1);
        assertEquals(2, m.storeSlots(b, x).size(), "before or after a's store");
        m.write(b, x, m.storeSlots(b, x).get(0), 2, Order.ONCE, 1, 1);
        assertEquals(1, m.last(x).value, "b's store went first in coherence order");
    }

    @Test
    void anRmwIsAtomic() {
        LkmmMemory m = new LkmmMemory();
        int x = m.location("x", 0);
        LkmmTask a = new LkmmTask();
        LkmmTask b = new LkmmTask();
        Message init = m.last(x);
        m.rmw(a, init, 1, Order.FULL, 0, 1);
        assertTrue(!m.rmwReadable(b, x, null).contains(init), "init is taken by a's RMW");
        assertEquals(1, m.storeSlots(b, x).size(), "and no store goes between them");
    }

    @Test
    void smpMbOrdersStoreBuffering() {
        for (boolean ablate : new boolean[] {false, true}) {
            LkmmMemory m = ablate ? new LkmmMemory(EnumSet.of(Fence.MB)) : new LkmmMemory();
            int x = m.location("x", 0);
            int y = m.location("y", 0);
            LkmmTask p0 = new LkmmTask();
            LkmmTask p1 = new LkmmTask();
            m.write(p0, x, m.storeSlots(p0, x).get(0), 1, Order.ONCE, 0, 1);
            m.fence(p0, Fence.MB);
            m.write(p1, y, m.storeSlots(p1, y).get(0), 1, Order.ONCE, 1, 1);
            m.fence(p1, Fence.MB);
            // p1's fence came after p0's: p1 must see x=1
            assertEquals(ablate ? 2 : 1, m.readable(p1, x, null).size(), ablate ? "ablated: init too" : "SB forbidden");
        }
    }

    @Test
    void releaseAcquirePassesTheView() {
        LkmmMemory m = new LkmmMemory();
        int data = m.location("data", 0);
        int flag = m.location("flag", 0);
        LkmmTask p0 = new LkmmTask();
        LkmmTask p1 = new LkmmTask();
        m.write(p0, data, m.storeSlots(p0, data).get(0), 1, Order.ONCE, 0, 1);
        m.write(p0, flag, m.storeSlots(p0, flag).get(0), 1, Order.RELEASE, 0, 2);
        LkmmTask relaxed = p1.copy();
        m.read(p1, m.last(flag), Order.ACQUIRE);
        assertEquals(1, m.readable(p1, data, null).size(), "MP+release+acquire: data=1 only");
        m.read(relaxed, m.last(flag), Order.ONCE);
        assertEquals(2, m.readable(relaxed, data, null).size(), "a relaxed read of the flag orders nothing");
        m.fence(relaxed, Fence.RMB);
        assertEquals(1, m.readable(relaxed, data, null).size(), "until smp_rmb()");
    }
}
