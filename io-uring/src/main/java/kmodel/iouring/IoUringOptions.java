package kmodel.iouring;

import kmodel.kernel.KconfigOption;

/** Kconfig options read by io-uring. */
public final class IoUringOptions {
    private IoUringOptions() {
    }

    /**
     * {@code io_submit_state_start()} sets {@code state->plug.nowait = true}, as it did from
     * b63534c41e20 ("io_uring: re-issue block requests that failed because of resources",
     * v5.9-rc1, with f44268f81295's plug field) until "io_uring: don't unconditionally set
     * plug->nowait = true" (Message-ID 1e9b172d-7f00-b651-7615-313ac055a1d6@kernel.dk, 25 Sep 2020,
     * Fixes: b63534c41e20), which removed it before v5.9: n is v5.9/v5.10 (the stored v5.10
     * fs/io_uring.c has no such line). With y every bio submitted inside
     * {@code io_submit_sqes()} is {@code REQ_NOWAIT}.
     */
    public static final KconfigOption IO_URING_PLUG_NOWAIT = KconfigOption.bool("IO_URING_PLUG_NOWAIT", false,
            "io_submit_state_start() sets plug->nowait (v5.9-rc1 form; n: v5.9 final and v5.10)");

    /** Every option of this module. */
    public static KconfigOption[] all() {
        return new KconfigOption[] {IO_URING_PLUG_NOWAIT};
    }
}
