/**
 * The registered scenarios: textbook ones proving the runtime ({@code TextbookScenarios}), the
 * page lock and wait protocol on cached pages ({@code PageLockScenarios}), the buffered read path
 * over a block device ({@code ReadScenarios}, world in {@code kmodel.sim.world.ReadWorld}), and the block layer on
 * its own ({@code BlockScenarios}). Each scenario builds its world in its setup, names its tasks
 * and states its end-of-run checks; the runtime adds quiescence, lifetimes and lock checks.
 *
 * <h2>Swarm scenarios</h2>
 * {@code SwarmRecipe} is a small random world and task list drawn by {@code SwarmGenerator}
 * from the model's own operations; {@code SwarmScenarios} turns it into a scenario named
 * {@code swarm:<recipe>} over the read world, which {@code ScenarioRegistry} rebuilds from the
 * name (replay tokens). Recipes are well-formed by construction, so a clean model passes them.
 * The generator draws truncation together with reads: a read's bio completion calls
 * {@code unlock_page()} without a page reference, so truncation may free the page before the
 * completion's {@code wake_up_page_bit()}, and a later allocation may reuse it. The struct page
 * is never freed, so that late walk is checked for what it does (a spurious wake-up of the new
 * owner's waiters, which is no violation; a flag changed under the new owner would be
 * {@code page-flags-corrupted}): {@code read-truncate-reuse} keeps one such recipe by name.
 *
 * <h2>Harnesses standing in for later modules</h2>
 * Until {@code io-uring} exists, an IOCB_WAITQ read is issued by {@code ReadWorld.readAsync}:
 * {@code AsyncPageWaiter} (v5.10 {@code io_async_buf_func()}) queues a task_work retry, and the
 * reader waits for it the way {@code io_cqring_wait()} does ({@code AsyncRetry}). Without
 * FMODE_BUF_RASYNC it does a blocking read, standing in for the io-wq punt.
 *
 * <h2>Limitations</h2>
 * <ul>
 *   <li>Sizes are kept small so that exhaustive search at preemption bound 2 takes seconds; at
 *       bound 3 two scenarios exceed the default budget of two million executions.</li>
 *   <li>{@code page-lock-killable} runs with {@code PAGE_LOCK_UNFAIRNESS=0}: with the kernel's
 *       default the model finds a lost wake-up in v5.10 ({@code
 *       finding-killed-locker-strands-waiter}, registered apart).</li>
 * </ul>
 */
package kmodel.verification.scenarios;
