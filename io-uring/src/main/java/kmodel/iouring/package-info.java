/**
 * The {@code io-uring} module: mirrors {@code fs/io_uring.c} and {@code fs/io-wq.c} (v5.10):
 * rings, SQE/CQE, {@code io_read()}, the io-wq punt, and the async buffered read retry through
 * {@code io_async_buf_func()} and task_work (seed 002, patch 11).
 *
 * <p>Not modelled yet: this module is filled by a later issue; it builds empty.
 */
package kmodel.iouring;
