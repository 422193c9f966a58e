/**
 * The {@code io-uring} module: mirrors {@code fs/io_uring.c} and {@code fs/io-wq.c} (v5.10):
 * rings, SQE/CQE, {@code io_read()}, the io-wq punt, and the async buffered read retry through
 * {@code io_async_buf_func()} and task_work (seed 002, patch 11).
 *
 * <h2>Files</h2>
 * <ul>
 *   <li>{@link kmodel.iouring.IoRingCtx} ({@code struct io_ring_ctx} + {@code io_rings}),
 *       {@link kmodel.iouring.IoKiocb} ({@code struct io_kiocb}), {@link kmodel.iouring.IoAsyncRw},
 *       {@link kmodel.iouring.IoUringSqe}, {@link kmodel.iouring.IoUringCqe},
 *       {@link kmodel.iouring.PercpuRef} (lib/percpu-refcount.c);</li>
 *   <li>{@link kmodel.iouring.IoUring}: setup, {@code io_uring_enter()}, submission, issue,
 *       the io-wq punt and {@code io_wq_submit_work()}, task_work retry and cancel,
 *       {@code io_cqring_wait()};</li>
 *   <li>{@link kmodel.iouring.IoRw}: {@code io_read()}, {@code io_rw_should_retry()},
 *       {@code io_async_buf_func()}, {@code kiocb_done()}, {@code io_rw_reissue()};</li>
 *   <li>{@link kmodel.iouring.IoCqring}: filling and committing CQEs, the overflow backlog;</li>
 *   <li>{@link kmodel.iouring.IoUringExit}: {@code io_uring_release()},
 *       {@code io_ring_ctx_wait_and_kill()}, {@code io_ring_exit_work()}, task exit;</li>
 *   <li>{@link kmodel.iouring.IoWq}, {@link kmodel.iouring.IoWqWork}: fs/io-wq.c;</li>
 *   <li>{@link kmodel.iouring.Liburing}: the application's half (liburing), for scenarios and tests.</li>
 * </ul>
 *
 * <h2>Locks, outer to inner</h2>
 * <pre>
 *   ctx-&gt;uring_lock                  (io_uring_enter, io_req_task_submit, io_ring_ctx_wait_and_kill)
 *     [page locks, i_pages, tags: the read path under io_issue_sqe()]
 *     ctx-&gt;completion_lock           (CQE fill/commit, overflow flush, __io_req_task_cancel)
 *       ctx-&gt;wait.lock               (io_cqring_ev_posted)
 *   page_waitqueue(page)-&gt;lock        (wake_up_page_bit -&gt; io_async_buf_func)
 *     p-&gt;pi_lock                     (task_work_add, wake_up_process)
 * </pre>
 *
 * <h2>Not modelled</h2>
 * SQPOLL, IOPOLL, links, drains, timeouts, fixed files and buffers, buffer selection, poll arming,
 * the submit-side completion batch ({@code state->comp}: CQEs are posted at once), the task's
 * {@code in_idle} accounting, and direct I/O through the block-device file (no
 * {@code blkdev_direct_IO()} in the model: an {@code O_DIRECT} read reaching {@code ->read_iter}
 * is a {@code bug-on}).
 */
package kmodel.iouring;
