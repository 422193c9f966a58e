package kmodel.iouring;

/**
 * Test-only breaks of io_uring's completion contract ("every SQE gets exactly one CQE"), for
 * {@code kmodel.verification.ContractsModelCheck}: no catalog bug reaches
 * {@code lost-completion} or {@code double-completion} yet, so these stand in for one. In the
 * package of the model's completion code to call it as a broken kernel would.
 */
public final class ContractBreaks {
    private ContractBreaks() {
    }

    /**
     * Posts a second CQE for {@code userData} on {@code ctx} through the model's own
     * {@code io_cqring_add_event()}, as a kernel that completed a request twice would.
     */
    public static void postCqeAgain(IoRingCtx ctx, long userData, long res) {
        IoKiocb req = new IoKiocb(ctx, ctx + ".again");
        req.userData = userData;
        IoCqring.ioCqringAddEvent(req, res);
    }

    /** Forgets the CQE logged for {@code userData} on {@code ctx}: a request that ends with none. */
    public static void loseCqe(IoRingCtx ctx, long userData) {
        ctx.cqeLog.removeIf(c -> c[0] == userData);
    }
}
